"""A finished Leiff table's replay, one round a page, as everybody saw it at the table.

The core gives the channel's view of the table at each round's end (every hand revealed
then, the scores and the drinks of the round), never a player's own view
(:meth:`matchcore.service.protocol.GameService.table_replay`); a page is that view drawn by
the renderer's table picture, with the round's number and, on the last page, the result
and the places. Its buttons (**First** / **Previous** / **Next** / **Last**) carry the page
to show (``lb|r|<match>|<page>|<what>``, the board replays' format), so pages keep turning
after a restart; **Animated GIF** sends the pages' pictures as one GIF and **Export the
record** the rounds as text (``table_record``), both from the same round ends.
"""

from __future__ import annotations

import io
from dataclasses import dataclass

import discord

from bot.common.components import FixedComponents
from bot.common.context import Context
from bot.common.errors import UserFacingError
from bot.common.games import game_title
from bot.common.match_lines import places_line, result_line
from bot.common.names import in_text
from bot.common.responder import Responder
from bot.common.themes import member_theme
from bot.features.history.messages import EXPORT_SHOWN, PicturePage, replay_page
from bot.features.history.table_record import table_record
from engine.leiff.views import LeiffView
from i18n import translate
from matchcore.service.results import MatchInfo, TableReplay


@dataclass(frozen=True)
class TableReplayMessage(PicturePage):
    """One round of a finished Leiff table: its title, the round, the table picture (the
    channel's view at the round's end) and, on the last page, how the game ended."""

    language: str
    match_id: int
    title: str
    page: int  # from 0
    pages: int
    round: int  # the round shown, as the table numbered it
    picture: bytes
    ending: tuple[str, ...]  # the result and the places, on the last page

    @property
    def filename(self) -> str:
        return f"replay-{self.match_id}-round-{self.page + 1}.png"

    def texts(self) -> list[str]:
        """The page's words: the title, where in the game it is, and the ending."""
        where = translate(
            self.language,
            "bot.replay.round",
            round=self.round,
            page=self.page + 1,
            count=self.pages,
        )
        return [f"### {self.title}", where, *(self.ending if self.page + 1 == self.pages else ())]

    def components(self) -> FixedComponents:
        language, page, last = self.language, self.page, self.pages - 1
        texts = self.texts()

        # the rounds as an animated GIF, and the record as text (a board replay's buttons)
        return replay_page(
            language, self.match_id, page, last, texts, self.filename, practice=False
        )


def round_view(replay: TableReplay, page: int) -> tuple[int, LeiffView]:
    """The page shown for a wished ``page`` (kept within the game) and its view."""
    shown = min(max(page, 0), len(replay.rounds) - 1)
    return shown, replay.rounds[shown]


class TableReplays:
    """Replay pages of finished Leiff tables."""

    def __init__(self, context: Context) -> None:
        self.context = context

    async def page(
        self, responder: Responder, match: MatchInfo, page: int | None
    ) -> TableReplayMessage:
        """The page of round ``page`` (from 0; None: the last) of the finished table."""
        replay = await self._finished(match)
        shown, view = round_view(replay, len(replay.rounds) - 1 if page is None else page)
        language = responder.language
        names = self.context.names
        seat_names = await names.seat_names(replay.match)
        theme = await member_theme(self.context.service, responder.user_id, match.guild_id)
        picture = await self.context.painter.table_png(view, seat_names, language, theme=theme)
        title = translate(
            language,
            "bot.replay.table_title",
            game=game_title(match.game),
            match=match.id,
            players=translate(language, "list.comma").join(in_text(n) for n in seat_names),
        )
        ending = [await result_line(language, names, replay.match)]
        places = await places_line(language, names, replay.match)
        if places is not None:
            ending.append(places)
        return TableReplayMessage(
            language=language,
            match_id=match.id,
            title=title,
            page=shown,
            pages=len(replay.rounds),
            round=int(view["round"]),
            picture=picture,
            ending=tuple(ending),
        )

    async def _finished(self, match: MatchInfo) -> TableReplay:
        """The finished table's round ends (a running table's replay is refused)."""
        if match.status != "finished":
            raise UserFacingError("bot.replay.error.running")
        return await self.context.service.table_replay(match.id)

    async def gif(self, responder: Responder, match: MatchInfo) -> None:
        """The rounds as an animated GIF: the pages' pictures, a frame each (the
        channel's views at each round's end, as the pages; never a player's own)."""
        await responder.acknowledge()
        replay = await self._finished(match)
        language = responder.language
        names = await self.context.names.seat_names(replay.match)
        theme = await member_theme(self.context.service, responder.user_id, match.guild_id)
        gif = await self.context.painter.table_replay_gif(
            replay.rounds, names, language, theme=theme
        )
        await responder.private(
            translate(language, "bot.replay.caption", match=match.id, game=game_title(match.game)),
            file=discord.File(io.BytesIO(gif), filename=f"match-{match.id}.gif"),
        )

    async def export(self, responder: Responder, match: MatchInfo) -> None:
        """The table's record as a text file (and in the answer, when short): each
        round's open hands and points, as the pages show them (bot/features/history/
        table_record.py)."""
        replay = await self._finished(match)
        names = await self.context.names.seat_names(replay.match)
        text = table_record(replay, names)
        words = translate(responder.language, "bot.replay.exported", match=match.id)
        if len(text) <= EXPORT_SHOWN:
            words += f"\n```\n{text}```"
        await responder.private(
            words,
            file=discord.File(io.BytesIO(text.encode("utf-8")), filename=f"match-{match.id}.txt"),
        )
