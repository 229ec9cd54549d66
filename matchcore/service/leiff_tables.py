"""Leiff tables in play: the players' actions, leaving the table, timeouts.

After every action, removed players' default actions are applied, the game ends when the
engine says so or when nobody (human) is left to play, and the clock restarts only when the
engine waits for something new.
"""

from __future__ import annotations

import asyncio

from engine import IllegalMove
from engine.leiff.state import LeiffState
from matchcore.service import board_logic, bots, leiff_logic, reasons, time_controls
from matchcore.service.admission import check_running, seat_of
from matchcore.service.board_logic import mention
from matchcore.service.describe import Describer
from matchcore.service.errors import IllegalAction, NotInMatch, NotYourTurn, StaleVersion
from matchcore.service.guild_settings import GuildSettings
from matchcore.service.results import Update, say
from matchcore.service.steps import (
    MAX_AUTOMATIC_ACTIONS,
    SERVICE_MARK,
    Step,
    begin,
    deadline,
    engine_refusal,
    finished,
    out_of_turn,
    parses,
    replace_seat,
    with_changes,
)
from matchcore.service.store import MatchStore
from matchcore.service.texts import Said
from matchcore.storage import MatchRecord

# The longest action is the Klatschtante's rule: "rule " and up to 100 characters.
MAX_ACTION_TEXT = 120


class LeiffTables:
    """Leiff games in play: actions, leaving, timeouts, the end of the game."""

    def __init__(self, store: MatchStore, describe: Describer) -> None:
        self.store = store
        self.describe = describe

    async def resign(self, record: MatchRecord, user_id: int) -> Update:
        """Leave the table, under the match lock: from then on a bot plays the player's
        hand (they rank last); with one other player left, that player wins. Said in the
        channel without a word about the hand."""
        check_running(record)
        seat = seat_of(record, user_id)
        now = self.store.clock()
        step = begin(record, now)
        step.log(user_id, seat.seat, SERVICE_MARK + "resign", now)
        if seat.removed:
            raise NotInMatch("already_left")
        step.record = replace_seat(step.record, seat.seat, removed=True)
        staying = [s for s in step.record.seats if not s.removed]
        # with others still playing, a bot takes over the seat (nothing said of the hand)
        code = "table_left_to_bot" if len(staying) > 1 else "table_left"
        step.lines.append(say(code, user=mention(user_id)))
        return await self.settle(record, step, self.store.table_state(record), now, "resigned")

    async def act(
        self, record: MatchRecord, user_id: int, action: str, version: int | None = None
    ) -> Update:
        """``version``: the match version, or the player's hand version, the action was
        chosen at (None: judge it as it comes). A click is refused as stale only when
        something changed for that player; other players' moves do not make it stale."""
        if len(action) > MAX_ACTION_TEXT:  # refused unread: errors never quote long user text
            raise IllegalAction("not_a_leiff_action")
        check_running(record)
        seat = seat_of(record, user_id)
        if seat.removed:
            raise NotInMatch("removed")
        state = self.store.table_state(record)
        if (
            version is not None
            and version != record.version
            and version != leiff_logic.hand_version(state.view(seat.seat), seat.seat)
        ):
            raise StaleVersion("hand_moved_on")
        if seat.seat not in state.actors():
            raise NotYourTurn("cannot_act_now")
        try:
            new_state = state.play(seat.seat, action)
        except IllegalMove as error:
            refusal = engine_refusal(error, record)
            owes_a_choice = seat.seat in leiff_logic.owners(state)
            if not out_of_turn(action):
                if not owes_a_choice:
                    raise NotYourTurn(refusal.code, **refusal.params) from None
                if parses(action):
                    # The engine would list its internal actions: say it in words instead.
                    raise IllegalAction(leiff_logic.owner_refusal(state, seat.seat)) from None
            raise refusal from None
        now = self.store.clock()
        step = begin(record, now)
        step.record = replace_seat(step.record, seat.seat, timeouts=0)
        step.log(user_id, seat.seat, new_state.log[-1][1], now)
        return await self.settle(record, step, state, now, "action", [new_state])

    async def settle(
        self,
        original: MatchRecord,
        step: Step,
        before: LeiffState,
        now: float,
        kind: str,
        produced: list[LeiffState] | None = None,
    ) -> Update:
        """After a Leiff action: a bot plays the choices owed by players who left (or
        timed out too often), the game ends when it is over (or when at most one player is
        left), the clock is set; commit, describe."""
        states = list(produced or [])
        current = states[-1] if states else before
        for _ in range(MAX_AUTOMATIC_ACTIONS):
            removed = {s.seat for s in step.record.seats if s.removed}
            # Dealing the next round waits for the players still at the table, so they
            # can look at the revealed hands first.
            if current.outcome is not None or current.waiting_for()["step"] == "next":
                break
            # The stand-in plays at the strongest level, which may search: in a thread,
            # so the event loop goes on serving everyone else.
            pending = [
                (seat, action)
                for seat in leiff_logic.owners(current)
                if seat in removed
                and (action := await asyncio.to_thread(bots.stand_in_action, current, seat))
            ]
            if not pending or len(removed) >= len(step.record.seats) - 1:
                break
            seat, action = pending[0]
            current = current.play(seat, action)
            states.append(current)
            step.log(None, seat, current.log[-1][1], now)
        step.record = step.record.evolve(state=current.to_json())
        settings = await self.store.settings(original.guild_id)
        active = [s.seat for s in step.record.seats if not s.removed]
        humans_left = bots.humans_at_table(step.record)
        if current.outcome is not None or len(active) <= 1 or not humans_left:
            winners = list(current.outcome.winner) if current.outcome is not None else active
            why = Said("reason_everyone_left" if len(active) <= 1 else "reason_humans_left")
            users = [step.record.user_of(s) for s in winners]
            result = reasons.result(users, current.outcome or why)
            removed_seats = [s.seat for s in step.record.seats if s.removed]
            places, field = leiff_logic.team_places(current, removed_seats, winners)
            # Every seat's place ("2nd of 4") is kept with the result, so that the finished
            # table says it whenever it is shown again.
            result["places"], result["field"] = places, field
            step.record = finished(step.record, result, now)
            if current.outcome is None:  # the engine's own "Game over" line says the rest
                step.closing.append(
                    board_logic.result_line(step.record.seats, step.record.result or {}, why)
                )
            placings = leiff_logic.placings(step.record, current, places, field)
            changes = await self.store.commit(original, step, current, placings)
            update = self.describe.table(
                "match_over", step.record, before, states, step.lines, step.closing
            )
            return with_changes(update, rating_changes=tuple(changes))
        step.record = self.deadline(step.record, before, current, settings, now)
        await self.store.commit(original, step, current)
        return self.describe.table(kind, step.record, before, states, step.lines)

    def deadline(
        self,
        record: MatchRecord,
        before: LeiffState | None,
        after: LeiffState,
        settings: GuildSettings,
        now: float,
    ) -> MatchRecord:
        """Restart the clock when the engine waits for something new; keep it otherwise."""
        if (
            before is not None
            and record.deadline_at is not None
            and leiff_logic.deadline_key(before) == leiff_logic.deadline_key(after)
        ):
            return record
        control = time_controls.control_of(record.time_control, settings.leiff_turn_seconds)
        period = leiff_logic.period_for(after, settings, control)
        if period is None:
            return record.evolve(deadline_at=None, warn_at=None, warned=False)
        # a player the table waits for on vacation: the clock starts when they are back
        owners = leiff_logic.owners(after)
        deadline_at, warned_at = deadline(
            time_controls.clock_starts(record.seats, owners, now), period
        )
        warn_at: float | None = warned_at
        if after.waiting_for()["step"] == "next":
            warn_at = None  # nobody is late for dealing the next round
        else:
            # an edit of the table's message pings nobody: the reminder comes after a while
            warn_at = min(warned_at, now + leiff_logic.REMIND_AFTER_SECONDS)
        return record.evolve(deadline_at=deadline_at, warn_at=warn_at, warned=False)

    async def timeout(self, record: MatchRecord, step: Step, now: float) -> Update:
        """The time for the step ran out (under the match lock): the clock plays each late
        seat's default; a person late too often in a row leaves the table."""
        state = self.store.table_state(record)
        settings = await self.store.settings(record.guild_id)
        key = leiff_logic.deadline_key(state)
        step_name = state.waiting_for()["step"]
        current = state
        produced = []
        for seat in leiff_logic.owners(state):
            acted = False
            for _ in range(8):  # a look step may owe two looks
                if leiff_logic.deadline_key(current) != key or seat not in leiff_logic.owners(
                    current
                ):
                    break
                default = current.default_action(seat)
                if default is None:
                    break
                current = current.play(seat, default)
                produced.append(current)
                step.log(None, seat, current.log[-1][1], now)
                acted = True
            if acted and step_name != "next":
                seat_record = next(s for s in step.record.seats if s.seat == seat)
                if seat_record.is_bot:
                    continue  # a bot late only because the service was down stays seated
                timeouts = seat_record.timeouts + 1
                removed = seat_record.removed or timeouts >= settings.leiff_max_timeouts
                step.record = replace_seat(step.record, seat, timeouts=timeouts, removed=removed)
                user = mention(seat_record.user_id)
                step.lines.append(say("default_played", user=user))
                if removed and not seat_record.removed:
                    step.log(None, seat, SERVICE_MARK + "remove", now)
                    step.lines.append(say("timed_out_removed", user=user, count=timeouts))
        # Always restart the clock after a timeout so a deadline never fires twice.
        step.record = step.record.evolve(deadline_at=None)
        if not step.actions:
            step.log(None, None, SERVICE_MARK + "timeout", now)
        return await self.settle(record, step, state, now, "timeout", produced)
