"""Taking back a move in a board match: asked, then accepted or declined.

A player asks to take back their last move; the match goes back to the position before it
(with the opponent's reply, if one came), so that it is the asker's turn again. Between two
people the opponent accepts or declines (buttons on the board); a move by anyone, or the
end of the match, withdraws the request. Against the bot the takeback is granted at once
(the bot never minds, and the game is unrated). A rated daily match takes no takeback
unless the server allows it (``/settings``: ``daily_takebacks``): a daily game is played
over days, with time to think, and its rating would reward asking.

The pending request is kept with the match's options (``takeback_seat``), committed with
the version that asked for it: a restart or another process sees it as it is. Nothing is
deleted from the action log: the takeback is an action of its own, and the state it
stores is the position played again from the start without the moves taken back.
"""

from __future__ import annotations

from engine.board import BoardState
from matchcore.service import board_logic, bots, time_controls
from matchcore.service.admission import check_running, seat_of
from matchcore.service.board_logic import mention
from matchcore.service.describe import Describer
from matchcore.service.errors import IllegalAction
from matchcore.service.guild_settings import GuildSettings
from matchcore.service.results import Update, say
from matchcore.service.steps import SERVICE_MARK, begin, deadline, with_changes
from matchcore.service.store import MatchStore
from matchcore.storage import MatchRecord, SeatRecord

PENDING = "takeback_seat"  # the asking seat, in the match's options while it waits


def allowed(record: MatchRecord, daily: bool, settings: GuildSettings) -> bool:
    """Whether a takeback may be asked for in this match on this server: not in a rated
    ``daily`` match (a day or more a move), unless the server allows it."""
    return record.vs_bot or not record.rated or not daily or settings.daily_takebacks


def back_to(state: BoardState, seat: int) -> BoardState | None:
    """The position before ``seat``'s last move (``seat`` to move there), played again from
    the start; None when ``seat`` has not moved yet."""
    positions = list(state.history())
    for ply in range(len(positions) - 2, -1, -1):
        if positions[ply].seat_to_move == seat:
            return positions[ply]
    return None


def without_request(record: MatchRecord) -> MatchRecord:
    if PENDING not in record.options:
        return record
    return record.evolve(options={k: v for k, v in record.options.items() if k != PENDING})


class Takebacks:
    """Asking for, accepting and declining a takeback."""

    def __init__(self, store: MatchStore, describe: Describer) -> None:
        self.store = store
        self.describe = describe

    async def ask(self, match_id: int, user_id: int, version: int | None = None) -> Update:
        async with self.store.match(match_id, version) as record:
            check_running(record)
            seat = seat_of(record, user_id)
            daily = (await self.store.time_control(record)).daily
            if not allowed(record, daily, await self.store.settings(record.guild_id)):
                raise IllegalAction("takeback_not_in_daily")
            state = self.store.board_state(record)
            if back_to(state, seat.seat) is None:
                raise IllegalAction("takeback_nothing")
            if record.vs_bot:  # the bot grants it at once
                return await self._take_back(record, seat, state)
            if PENDING in record.options:
                asked = record.options[PENDING] == seat.seat
                raise IllegalAction("takeback_asked" if asked else "takeback_answer_first")
            now = self.store.clock()
            step = begin(record, now)
            step.record = step.record.evolve(options={**record.options, PENDING: seat.seat})
            step.log(user_id, seat.seat, SERVICE_MARK + "ask_takeback", now)
            opponent = next(s.user_id for s in record.seats if s.seat != seat.seat)
            step.lines.append(
                say("takeback_asked", user=mention(user_id), opponent=mention(opponent))
            )
            await self.store.commit(record, step, state)
            update = self.describe.board("takeback_asked", step.record, state, step.lines)
            pinged = () if opponent is None else bots.humans_only(record, (opponent,))
            return with_changes(update, mentions=pinged)

    async def accept(self, match_id: int, user_id: int, version: int | None = None) -> Update:
        async with self.store.match(match_id, version) as record:
            asker = self._answerable(record, user_id)
            return await self._take_back(record, asker, self.store.board_state(record), user_id)

    async def decline(self, match_id: int, user_id: int, version: int | None = None) -> Update:
        async with self.store.match(match_id, version) as record:
            asker = self._answerable(record, user_id)
            now = self.store.clock()
            step = begin(record, now)
            step.record = without_request(step.record)
            step.log(user_id, seat_of(record, user_id).seat, SERVICE_MARK + "decline_takeback", now)
            step.lines.append(
                say("takeback_declined", user=mention(user_id), asker=mention(asker.user_id))
            )
            state = self.store.board_state(record)
            await self.store.commit(record, step, state)
            return self.describe.board("takeback_declined", step.record, state, step.lines)

    def _answerable(self, record: MatchRecord, user_id: int) -> SeatRecord:
        """The seat that asked, when ``user_id`` may answer it (the other player)."""
        check_running(record)
        seat = seat_of(record, user_id)
        asking = record.options.get(PENDING)
        if asking is None:
            raise IllegalAction("no_takeback_asked")
        if asking == seat.seat:
            raise IllegalAction("opponent_must_answer")
        return next(s for s in record.seats if s.seat == asking)

    async def _take_back(
        self,
        record: MatchRecord,
        asker: SeatRecord,
        state: BoardState,
        granted_by: int | None = None,
    ) -> Update:
        """Back to the position before the asker's last move, their turn again."""
        before = back_to(state, asker.seat)
        if before is None:
            raise IllegalAction("takeback_nothing")
        now = self.store.clock()
        control = await self.store.time_control(record)
        step = begin(record, now)
        seats = board_logic.seats_with_colours(record, before)
        # the asker's clock starts again from now (a whole-game clock: what was left of it)
        period = time_controls.period_of(control, seats, asker.seat)
        deadline_at, warn_at = deadline(
            time_controls.clock_starts(seats, [asker.seat], now), period
        )
        step.record = without_request(step.record).evolve(
            state=before.to_json(),
            seats=seats,
            draw_offer_seat=None,
            deadline_at=deadline_at,
            warn_at=warn_at,
            warned=False,
        )
        taken = state.moves[len(before.moves) :]
        step.log(granted_by or asker.user_id, asker.seat, SERVICE_MARK + "takeback", now)
        step.lines.append(
            say(
                "takeback_done",
                user=mention(asker.user_id),
                moves=", ".join(taken),
                count=len(taken),
            )
        )
        turn = board_logic.turn_text(step.record, before)
        if turn is not None:
            step.lines.append(turn)
        await self.store.commit(record, step, before)
        return self.describe.board("takeback", step.record, before, step.lines)
