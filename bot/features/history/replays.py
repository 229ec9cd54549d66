"""A finished board match's replay, one position a page, and what its buttons do.

A page is drawn from the match as stored: its last picture's state (which says how it
ended, a resignation or the clock included) holds every move, and the position after
``ply`` moves is played again from the start in a thread (a long Lublache game costs some
milliseconds a move). The last page shows that last picture itself, so it says the result.
"""

from __future__ import annotations

import asyncio
import io
from collections.abc import Sequence
from dataclasses import replace
from itertools import islice

import discord

from bot.common.context import Context
from bot.common.custom_ids import (
    REPLAY_EXPORT,
    REPLAY_GIF,
    REPLAY_PRACTICE,
)
from bot.common.errors import UserFacingError
from bot.common.games import game_title
from bot.common.match_lines import result_line
from bot.common.names import in_text
from bot.common.responder import Responder
from bot.common.themes import member_theme
from bot.delivery.delivery import Delivery
from bot.features.history.messages import EXPORT_SHOWN, ReplayMessage
from bot.features.history.table_replays import TableReplays
from engine import get_spec
from engine.board import BoardState
from i18n import translate
from matchcore.service.protocol import GameService
from matchcore.service.results import MatchInfo


def position(final: BoardState, ply: int) -> BoardState:
    """The position after ``ply`` moves of the match whose last picture is ``final``."""
    if ply >= len(final.moves):
        return final
    return next(islice(final.history(), ply, None))


class Replays:
    """Replay pages, their GIF, the record as text and practice games from a position."""

    def __init__(self, context: Context, delivery: Delivery) -> None:
        self.context = context
        self.delivery = delivery
        self.tables = TableReplays(context)

    @property
    def service(self) -> GameService:
        return self.context.service

    async def _finished(self, responder: Responder, match_id: int) -> tuple[MatchInfo, BoardState]:
        """The finished board match and its last picture's state (refusals in words)."""
        match = await self.service.get_match(match_id)
        if match.guild_id != responder.interaction.guild_id:
            raise UserFacingError("bot.replay.error.no_such_match")
        if not get_spec(match.game).is_board_game:
            raise UserFacingError("bot.replay.error.board_games_only")
        if match.status != "finished":
            raise UserFacingError("bot.replay.error.running")
        update = await self.service.current(match.id)
        state = next(p.state for p in update.pictures if p.kind == "board" and p.state is not None)
        return match, state

    async def page(self, responder: Responder, match_id: int, ply: int | None) -> ReplayMessage:
        """The page of the position after ``ply`` moves (None: the last one)."""
        match, final = await self._finished(responder, match_id)
        last = len(final.moves)
        ply = last if ply is None else min(max(ply, 0), last)
        shown = await asyncio.to_thread(position, final, ply)
        names = await self.context.names.seat_names(match)
        language = responder.language
        theme = await member_theme(self.service, responder.user_id, match.guild_id)
        picture = await self.context.painter.board_png(shown, names, language, theme=theme)
        title = translate(
            language,
            "bot.replay.title",
            game=game_title(match.game),
            match=match.id,
            first=in_text(names[0]),
            second=in_text(names[1]),
        )
        result = await result_line(language, self.context.names, match)
        return ReplayMessage(
            language=language,
            match_id=match.id,
            title=title,
            moves=tuple(final.moves),
            ply=ply,
            picture=picture,
            result=result,
        )

    async def _table(self, responder: Responder, match_id: int) -> MatchInfo | None:
        """The match when it is a Leiff table of this server (None: a board match)."""
        match = await self.service.get_match(match_id)
        if match.guild_id != responder.interaction.guild_id:
            raise UserFacingError("bot.replay.error.no_such_match")
        return None if get_spec(match.game).is_board_game else match

    async def open(self, responder: Responder, match_id: int, ply: int | None) -> None:
        """A replay page as a private message of its own (a Leiff table's: a round a page,
        the last one first, as it ended)."""
        await responder.acknowledge()
        table = await self._table(responder, match_id)
        if table is not None:
            shown = await self.tables.page(responder, table, ply)
            await responder.private(**shown.send_kwargs())
            return
        message = await self.page(responder, match_id, ply)
        await responder.private(**message.send_kwargs())

    async def click(self, responder: Responder, match_id: int, ply: int, action: str) -> None:
        table = await self._table(responder, match_id)
        if table is not None:  # a Leiff table's pages step, and give its GIF and record
            if action == REPLAY_GIF:
                await self.tables.gif(responder, table)
                return
            if action == REPLAY_EXPORT:
                await self.tables.export(responder, table)
                return
            shown = await self.tables.page(responder, table, ply)
            if not await responder.update_origin(**shown.edit_kwargs()):
                await responder.private(**shown.send_kwargs())
            return
        if action == REPLAY_GIF:
            await self.gif(responder, match_id)
        elif action == REPLAY_EXPORT:
            await self.export(responder, match_id)
        elif action == REPLAY_PRACTICE:
            match, final = await self._finished(responder, match_id)
            options = dict(final.options)
            await self.practise(responder, match.game, final.size, options, final.moves[:ply], None)
        else:  # a step: the version is the move to show
            message = await self.page(responder, match_id, ply)
            if not await responder.update_origin(**message.edit_kwargs()):
                await responder.private(**message.send_kwargs())

    async def gif(self, responder: Responder, match_id: int) -> None:
        await responder.acknowledge()
        match, final = await self._finished(responder, match_id)
        names = await self.context.names.seat_names(match)
        theme = await member_theme(self.service, responder.user_id, match.guild_id)
        gif = await self.context.painter.replay_gif(final, names, responder.language, theme=theme)
        await responder.private(
            translate(
                responder.language,
                "bot.replay.caption",
                match=match.id,
                game=game_title(match.game),
            ),
            file=discord.File(io.BytesIO(gif), filename=f"match-{match.id}.gif"),
        )

    async def export(self, responder: Responder, match_id: int) -> None:
        """The match's record as a text file (and in the answer, when short)."""
        match, _ = await self._finished(responder, match_id)
        record = await self.service.game_record(match_id)
        names = await self.context.names.seat_names(match)
        text = replace(record, players=(names[0], names[1])).text()
        words = translate(responder.language, "bot.replay.exported", match=match.id)
        if len(text) <= EXPORT_SHOWN:
            words += f"\n```\n{text}```"
        await responder.private(
            words,
            file=discord.File(io.BytesIO(text.encode("utf-8")), filename=f"match-{match.id}.txt"),
        )

    async def practise(
        self,
        responder: Responder,
        game: str,
        size: int,
        options: dict[str, object],
        moves: Sequence[str],
        level: str | None,
    ) -> None:
        """A practice game against the bot from the position after ``moves``, in this
        channel, the member on the side to move there."""
        interaction = responder.interaction
        if interaction.guild_id is None or interaction.channel_id is None:
            raise UserFacingError("bot.error.server_only")
        update = await self.service.challenge_bot(
            interaction.guild_id,
            interaction.channel_id,
            responder.user_id,
            game,
            level,
            size=size,
            options=options,
            moves=tuple(moves),
        )
        await self.delivery.publish(update, responder)
