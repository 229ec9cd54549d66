"""Board-game moves, resignations and draw offers of the match service.

Each call takes the match's lock, checks the caller's seat and the version, lets the engine
judge the move (in a worker thread: a big Lublache move costs tens of milliseconds), and
commits the new state with its log row and clock before describing it.
"""

from __future__ import annotations

import asyncio
from typing import Any

from bot.service import board_logic, bots
from bot.service.board_logic import mention
from bot.service.core import (
    LEIFF,
    SERVICE_MARK,
    ServiceCore,
    _apply_board_move,
    _deadline,
    _finished,
    _replace_seat,
    _Step,
    _title,
    _with,
)
from bot.service.errors import IllegalAction, NotInMatch, NotYourTurn, StaleVersion
from bot.service.results import Update
from bot.storage import MatchRecord, SeatRecord
from engine import IllegalMove

# Longer than any move of the board games ("i17xi16", "e10+b12"): refused without echo.
MAX_MOVE_TEXT = 20


class BoardMatchCalls(ServiceCore):
    """Calls on running board-game matches (part of :class:`MatchService`)."""

    async def play(
        self, match_id: int, user_id: int, move: str, version: int | None = None
    ) -> Update:
        """Play a move (board games) or an action (Leiff) for the caller's seat.

        ``version`` is the match version the move was chosen at; for Leiff it may also be
        the caller's hand version (what their private buttons carry): then the action is
        judged against the newest state as long as nothing changed for that player.
        """
        async with self._match(match_id, None) as record:
            if record.game == LEIFF:
                return await self._leiff_act(record, user_id, move, version)
            if version is not None and version != record.version:
                raise StaleVersion()
            return await self._play_board(record, user_id, move)

    async def _play_board(self, record: MatchRecord, user_id: int, move: str) -> Update:
        """A board move by ``user_id`` (a person or the bot), under the match lock."""
        if len(move) > MAX_MOVE_TEXT:  # refused unread: errors never quote long user text
            raise IllegalAction(f"that is not a {_title(record.game)} move")
        self._check_running(record)
        seat = self._seat(record, user_id)
        state = self._state(record)
        if state.seat_to_move != seat.seat:
            waiting = board_logic.user_to_move(record, state)
            raise NotYourTurn(f"it is {mention(waiting)}'s turn")
        try:
            # A Lublache move on the big board costs tens of ms: the engine works in a
            # thread while the loop serves other matches. This match stays locked, so its
            # moves keep their order, and nothing is announced before the commit below.
            new_state, new_json = await asyncio.to_thread(_apply_board_move, state, seat.seat, move)
        except IllegalMove as error:
            raise IllegalAction(str(error)) from None
        now = self.clock()
        settings = await self.get_settings(record.guild_id)
        step = self._begin(record, now)
        step.record = step.record.evolve(
            state=new_json,
            seats=board_logic.seats_with_colours(record, new_state),
            draw_offer_seat=None,
        )
        self._log(step, user_id, seat.seat, new_state.moves[-1], now)
        step.lines.append(board_logic.move_text(record, seat.seat, state, new_state))
        if new_state.outcome is not None:
            result = board_logic.result_from_outcome(record, new_state)
            return await self._finish_board(record, step, new_state, result, now, moved=True)
        deadline, warn_at = _deadline(now, settings.board_move_seconds)
        if bots.board_bot_to_move(step.record, new_state) is not None:
            # No clock on the bot: advance_bots (or the next tick) makes its move.
            deadline = warn_at = None
        step.record = step.record.evolve(deadline_at=deadline, warn_at=warn_at, warned=False)
        step.lines.append(board_logic.turn_text(step.record, new_state))
        await self._commit(record, step, new_state)
        return self._board_update("move", step.record, new_state, step.lines, moved=True)

    async def resign(self, match_id: int, user_id: int, version: int | None = None) -> Update:
        """Give up: the opponent wins a board game; in Leiff the player leaves the table
        (from then on their decisions are made by default and they rank last)."""
        async with self._match(match_id, version) as record:
            self._check_running(record)
            seat = self._seat(record, user_id)
            now = self.clock()
            step = self._begin(record, now)
            self._log(step, user_id, seat.seat, SERVICE_MARK + "resign", now)
            if record.game == LEIFF:
                if seat.removed:
                    raise NotInMatch("you have already left this match")
                step.record = _replace_seat(step.record, seat.seat, removed=True)
                step.lines.append(f"{mention(user_id)} leaves the table.")
                return await self._leiff_settle(record, step, self._state(record), now, "resigned")
            state = self._state(record)
            winner = next(s.user_id for s in record.seats if s.seat != seat.seat)
            result = {"winners": [winner], "reason": f"{mention(user_id)} resigned", "draw": False}
            return await self._finish_board(record, step, state, result, now)

    async def offer_draw(self, match_id: int, user_id: int, version: int | None = None) -> Update:
        async with self._match(match_id, version) as record:
            self._check_running(record)
            seat = self._seat(record, user_id)
            if record.game not in board_logic.DRAWABLE_GAMES:
                raise IllegalAction(f"{_title(record.game)} cannot end in a draw")
            if record.draw_offer_seat == seat.seat:
                raise IllegalAction("you have already offered a draw")
            if record.draw_offer_seat is not None:
                raise IllegalAction("your opponent offered a draw: accept or decline it")
            now = self.clock()
            step = self._begin(record, now)
            step.record = step.record.evolve(draw_offer_seat=seat.seat)
            self._log(step, user_id, seat.seat, SERVICE_MARK + "offer_draw", now)
            opponent = next(s.user_id for s in record.seats if s.seat != seat.seat)
            step.lines.append(
                f"{mention(user_id)} offers a draw. {mention(opponent)} may accept or decline."
            )
            state = self._state(record)
            await self._commit(record, step, state)
            update = self._board_update("draw_offered", step.record, state, step.lines)
            pinged = () if opponent is None else bots.humans_only(record, (opponent,))
            return _with(update, mentions=pinged)

    async def accept_draw(self, match_id: int, user_id: int, version: int | None = None) -> Update:
        async with self._match(match_id, version) as record:
            seat = self._answerable_offer(record, user_id)
            now = self.clock()
            step = self._begin(record, now)
            self._log(step, user_id, seat.seat, SERVICE_MARK + "accept_draw", now)
            result = {"winners": [], "reason": "drawn by agreement", "draw": True}
            return await self._finish_board(record, step, self._state(record), result, now)

    async def decline_draw(self, match_id: int, user_id: int, version: int | None = None) -> Update:
        async with self._match(match_id, version) as record:
            return await self._decline_draw(record, user_id)

    async def _decline_draw(self, record: MatchRecord, user_id: int) -> Update:
        seat = self._answerable_offer(record, user_id)
        now = self.clock()
        step = self._begin(record, now)
        step.record = step.record.evolve(draw_offer_seat=None)
        self._log(step, user_id, seat.seat, SERVICE_MARK + "decline_draw", now)
        step.lines.append(f"{mention(user_id)} declines the draw.")
        state = self._state(record)
        await self._commit(record, step, state)
        return self._board_update("draw_declined", step.record, state, step.lines)

    async def _finish_board(
        self,
        original: MatchRecord,
        step: _Step,
        state: Any,
        result: dict[str, Any],
        now: float,
        *,
        moved: bool = False,
    ) -> Update:
        step.record = _finished(step.record, result, now)
        step.closing.append(board_logic.result_text(step.record.seats, result))
        changes = await self._commit(original, step, state, board_logic.placings(step.record))
        update = self._board_update(
            "match_over", step.record, state, step.lines + step.closing, moved=moved
        )
        return _with(update, rating_changes=tuple(changes))

    def _answerable_offer(self, record: MatchRecord, user_id: int) -> SeatRecord:
        self._check_running(record)
        seat = self._seat(record, user_id)
        if record.draw_offer_seat is None:
            raise IllegalAction("there is no draw offer to answer")
        if record.draw_offer_seat == seat.seat:
            raise IllegalAction("your opponent must answer your draw offer")
        return seat
