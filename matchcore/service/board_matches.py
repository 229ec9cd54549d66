"""Board-game moves, resignations, draw offers and timeouts of the match service.

Each change holds the match's lock (taken by the caller or here), checks the caller's seat,
lets the engine judge the move (Lublache's in a worker thread: a big Lublache move can cost
tens of milliseconds), and commits the new state with its log row and clock before describing it.
"""

from __future__ import annotations

import asyncio

from engine import IllegalMove
from engine.board import BoardState
from matchcore.service import board_logic, bots, reasons, time_controls
from matchcore.service.admission import check_running, seat_of
from matchcore.service.board_logic import mention
from matchcore.service.describe import Describer
from matchcore.service.errors import IllegalAction, NotYourTurn
from matchcore.service.results import Update, say
from matchcore.service.steps import (
    SERVICE_MARK,
    Result,
    Step,
    apply_board_move,
    begin,
    deadline,
    draws_possible,
    engine_refusal,
    finished,
    title,
    with_changes,
)
from matchcore.service.store import MatchStore
from matchcore.service.texts import Said
from matchcore.storage import MatchRecord, SeatRecord

# Longer than any move of the board games ("i17xi16", "e10+b12"): refused without echo.
MAX_MOVE_TEXT = 20


class BoardMatches:
    """Running board-game matches: moves, resignations, draws, timeouts."""

    def __init__(self, store: MatchStore, describe: Describer) -> None:
        self.store = store
        self.describe = describe

    async def move(self, record: MatchRecord, user_id: int, move: str) -> Update:
        """A board move by ``user_id`` (a person or the bot), under the match lock."""
        if len(move) > MAX_MOVE_TEXT:  # refused unread: errors never quote long user text
            raise IllegalAction("not_a_move", game=title(record.game))
        check_running(record)
        seat = seat_of(record, user_id)
        state = self.store.board_state(record)
        if state.seat_to_move != seat.seat:
            waiting = board_logic.user_to_move(record, state)
            raise NotYourTurn("turn_of", user=mention(waiting))
        try:
            if state.game.spec.slow_moves:
                # A move of such a game (its spec says so: Lublache's cold 9-board positions
                # cost tens of ms) is worked out in a thread while the loop serves other
                # matches. This match stays locked, so its moves keep their order, and
                # nothing is announced before the commit. The other games cost 0.1-0.25 ms
                # a move, less than handing the work to a thread and back (which also wakes
                # threads that compete for the interpreter lock): they play on the loop.
                new_state, new_json = await asyncio.to_thread(
                    apply_board_move, state, seat.seat, move
                )
            else:
                new_state, new_json = apply_board_move(state, seat.seat, move)
        except IllegalMove as error:
            raise engine_refusal(error) from None
        now = self.store.clock()
        control = await self.store.time_control(record)
        step = begin(record, now)
        seats = board_logic.seats_with_colours(record, new_state)
        seats = time_controls.after_move(control, seats, seat.seat, record.deadline_at, now)
        step.record = step.record.evolve(state=new_json, seats=seats, draw_offer_seat=None)
        if "takeback_seat" in record.options:  # a move withdraws a takeback asked for
            options = {k: v for k, v in record.options.items() if k != "takeback_seat"}
            step.record = step.record.evolve(options=options)
        step.log(user_id, seat.seat, new_state.moves[-1], now)
        step.lines.append(board_logic.move_text(record, seat.seat, state, new_state))
        if new_state.outcome is not None:
            result = board_logic.result_from_outcome(record, new_state)
            return await self.finish(
                record, step, new_state, result, new_state.outcome, now, moved=True
            )
        deadline_at: float | None
        warn_at: float | None
        to_move = new_state.seat_to_move
        period = time_controls.period_of(control, seats, to_move)
        # a player on vacation: their clock starts when they are back (daily matches)
        deadline_at, warn_at = deadline(time_controls.clock_starts(seats, [to_move], now), period)
        if bots.board_bot_to_move(step.record, new_state) is not None:
            # No clock on the bot: advance_bots (or the next tick) makes its move.
            deadline_at = warn_at = None
        step.record = step.record.evolve(deadline_at=deadline_at, warn_at=warn_at, warned=False)
        turn = board_logic.turn_text(step.record, new_state)
        if turn is not None:
            step.lines.append(turn)
        await self.store.commit(record, step, new_state)
        return self.describe.board("move", step.record, new_state, step.lines, moved=True)

    async def resign(self, record: MatchRecord, user_id: int) -> Update:
        """Give up, under the match lock: the opponent wins."""
        check_running(record)
        seat = seat_of(record, user_id)
        now = self.store.clock()
        step = begin(record, now)
        step.log(user_id, seat.seat, SERVICE_MARK + "resign", now)
        state = self.store.board_state(record)
        winner = next(s.user_id for s in record.seats if s.seat != seat.seat)
        why = Said("reason_resigned", {"user": mention(user_id)})
        result = reasons.result([winner], why)
        return await self.finish(record, step, state, result, why, now)

    async def abort(self, record: MatchRecord, user_id: int) -> Update:
        """End the match unrated, under the match lock: only a player who has not moved
        yet may (the match has not really started for them); it counts for nobody."""
        check_running(record)
        seat = seat_of(record, user_id)
        state = self.store.board_state(record)
        if seat.is_bot or seat.seat not in board_logic.seats_yet_to_move(state):
            raise IllegalAction("abort_after_moving", id=record.id)
        now = self.store.clock()
        step = begin(record, now)
        step.log(user_id, seat.seat, SERVICE_MARK + "abort", now)
        step.lines.append(say("match_aborted_by", user=mention(user_id)))
        why = Said("reason_aborted", {"user": mention(user_id)})
        return await self._aborted(record, step, state, why, now)

    def may_abort(self, record: MatchRecord, user_id: int) -> bool:
        """Whether ``user_id`` may abort the match now (see :meth:`abort`)."""
        seat = record.seat_of(user_id)
        if record.status != "running" or seat is None or seat.is_bot:
            return False
        return seat.seat in board_logic.seats_yet_to_move(self.store.board_state(record))

    async def offer_draw(self, match_id: int, user_id: int, version: int | None = None) -> Update:
        async with self.store.match(match_id, version) as record:
            check_running(record)
            seat = seat_of(record, user_id)
            if not draws_possible(record.game):
                raise IllegalAction("no_draws", game=title(record.game))
            if record.draw_offer_seat == seat.seat:
                raise IllegalAction("draw_offered_already")
            if record.draw_offer_seat is not None:
                raise IllegalAction("opponent_offered_draw")
            now = self.store.clock()
            step = begin(record, now)
            step.record = step.record.evolve(draw_offer_seat=seat.seat)
            step.log(user_id, seat.seat, SERVICE_MARK + "offer_draw", now)
            opponent = next(s.user_id for s in record.seats if s.seat != seat.seat)
            step.lines.append(
                say("draw_offered", user=mention(user_id), opponent=mention(opponent))
            )
            state = self.store.board_state(record)
            await self.store.commit(record, step, state)
            update = self.describe.board("draw_offered", step.record, state, step.lines)
            pinged = () if opponent is None else bots.humans_only(record, (opponent,))
            return with_changes(update, mentions=pinged)

    async def accept_draw(self, match_id: int, user_id: int, version: int | None = None) -> Update:
        async with self.store.match(match_id, version) as record:
            seat = self._answerable_offer(record, user_id)
            now = self.store.clock()
            step = begin(record, now)
            step.log(user_id, seat.seat, SERVICE_MARK + "accept_draw", now)
            why = Said("reason_agreed")
            result = reasons.result([], why, draw=True)
            return await self.finish(record, step, self.store.board_state(record), result, why, now)

    async def decline_draw(self, match_id: int, user_id: int, version: int | None = None) -> Update:
        async with self.store.match(match_id, version) as record:
            return await self.decline(record, user_id)

    async def decline(self, record: MatchRecord, user_id: int) -> Update:
        """Decline the draw offer, under the match lock (the bot's answer too)."""
        seat = self._answerable_offer(record, user_id)
        now = self.store.clock()
        step = begin(record, now)
        step.record = step.record.evolve(draw_offer_seat=None)
        step.log(user_id, seat.seat, SERVICE_MARK + "decline_draw", now)
        step.lines.append(say("draw_declined", user=mention(user_id)))
        state = self.store.board_state(record)
        await self.store.commit(record, step, state)
        return self.describe.board("draw_declined", step.record, state, step.lines)

    async def timeout(self, record: MatchRecord, step: Step, now: float) -> Update:
        """The player to move ran out of time (under the match lock): they lose, or, while
        a player has not moved yet, the match is aborted (unrated, as lichess does: a match
        somebody never started is nobody's win or loss)."""
        state = self.store.board_state(record)
        seat = state.seat_to_move
        loser = record.user_of(seat) if seat is not None else None
        step.log(None, seat, SERVICE_MARK + "timeout", now)
        waiting = board_logic.people_yet_to_move(record, state)
        if waiting:
            if seat in waiting:  # the player whose time ran out never moved
                step.lines.append(say("first_move_missed", user=mention(loser)))
                why = Said("reason_never_moved", {"user": mention(loser)})
            else:  # they did (the Les set-up), the other player has not had a turn yet
                step.lines.append(say("aborted_before_both_moved", user=mention(loser)))
                why = Said("reason_out_of_time_early", {"user": mention(loser)})
            return await self._aborted(record, step, state, why, now)
        winner = next(s.user_id for s in record.seats if s.seat != seat)
        why = Said("reason_timed_out", {"user": mention(loser)})
        result = reasons.result([winner], why)
        return await self.finish(record, step, state, result, why, now)

    async def finish(
        self,
        original: MatchRecord,
        step: Step,
        state: BoardState,
        result: Result,
        why: Said | reasons.EngineOutcome,
        now: float,
        *,
        moved: bool = False,
    ) -> Update:
        step.record = finished(step.record, result, now)
        step.closing.append(board_logic.result_line(step.record.seats, result, why))
        changes = await self.store.commit(original, step, state, board_logic.placings(step.record))
        update = self.describe.board(
            "match_over", step.record, state, step.lines + step.closing, moved=moved
        )
        return with_changes(update, rating_changes=tuple(changes))

    async def _aborted(
        self, original: MatchRecord, step: Step, state: BoardState, why: Said, now: float
    ) -> Update:
        """Commit the match as aborted: unrated, no winner, no draw, no rating change."""
        result = reasons.result([], why, aborted=True)
        step.record = finished(step.record, result, now).evolve(status="aborted")
        await self.store.commit(original, step, state)
        return self.describe.board("match_aborted", step.record, state, step.lines)

    def _answerable_offer(self, record: MatchRecord, user_id: int) -> SeatRecord:
        check_running(record)
        seat = seat_of(record, user_id)
        if record.draw_offer_seat is None:
            raise IllegalAction("no_draw_offer")
        if record.draw_offer_seat == seat.seat:
            raise IllegalAction("opponent_must_answer")
        return seat
