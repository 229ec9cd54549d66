"""A finished Leiff table's replay, one round a page, as everybody saw it at the table.

The core gives the channel's view of the table at each round's end (every hand revealed
then, the scores and the drinks of the round), never a player's own view
(:meth:`matchcore.service.protocol.GameService.table_replay`); a page is that view drawn by
the renderer's table picture, with the round's number and, on the last page, the result
and the places. Its buttons (**First** / **Previous** / **Next** / **Last**) carry the page
to show (``lb|r|<match>|<page>|<what>``, the board replays' format), so pages keep turning
after a restart.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import discord

from bot.common.components import FixedComponents, button_dict
from bot.common.context import Context
from bot.common.custom_ids import (
    REPLAY,
    REPLAY_FIRST,
    REPLAY_LAST,
    REPLAY_NEXT,
    REPLAY_PREVIOUS,
    ComponentId,
)
from bot.common.errors import UserFacingError
from bot.common.games import game_title
from bot.common.layout import Box, LayoutContext, Picture, Raw, Text, layout_payload
from bot.common.match_lines import places_line, result_line
from bot.common.names import in_text
from bot.common.responder import Responder
from bot.common.themes import member_theme
from bot.features.history.messages import PicturePage
from engine.leiff.views import LeiffView
from i18n import N_, translate
from matchcore.service.results import MatchInfo, TableReplay

ACCENT = 0x5B6B8C  # the board replays' slate blue


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

        def button(action: str, target: int, label: str, off: bool, style: Any) -> dict[str, Any]:
            return button_dict(
                ComponentId(REPLAY, self.match_id, target, action),
                translate(language, label),
                style,
                off,
            )

        grey, blue = discord.ButtonStyle.secondary, discord.ButtonStyle.primary
        steps = [
            button(REPLAY_FIRST, 0, N_("bot.replay.first"), page == 0, grey),
            button(REPLAY_PREVIOUS, max(page - 1, 0), N_("bot.replay.previous"), page == 0, grey),
            button(REPLAY_NEXT, min(page + 1, last), N_("bot.replay.next"), page >= last, blue),
            button(REPLAY_LAST, last, N_("bot.replay.last"), page >= last, grey),
        ]
        blocks = (
            Box(
                (
                    *(Text(t) for t in texts[:2]),
                    Picture(texts[1]),
                    *(Text(t) for t in texts[2:]),
                    Raw(({"type": 1, "components": steps},)),
                ),
                accent=ACCENT,
            ),
        )
        context = LayoutContext(REPLAY, self.match_id, page, filename=self.filename)
        return FixedComponents(layout_payload(blocks, context), v2=True)


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
        if match.status != "finished":
            raise UserFacingError("bot.replay.error.running")
        replay = await self.context.service.table_replay(match.id)
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
