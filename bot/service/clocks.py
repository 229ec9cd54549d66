"""The service's clock: warnings, timeouts, expiries, and bot turns left over.

:meth:`ClockCalls.tick` is called every few seconds by the Discord layer of every process.
Deadlines live on the match rows, so a deadline that passed while the bot was down fires on
the first tick. Several processes may tick over one database: each due match is claimed
(a lease in the database) by exactly one of them, which applies the timeout or sends the
warning and then releases it; a claim left by a killed process runs out and is taken over.
An expiring challenge is closed by whichever process's conditional update wins.
"""

from __future__ import annotations

import logging

from bot.service import bots, leiff_logic
from bot.service.board_logic import mention
from bot.service.core import LEIFF, SERVICE_MARK, ServiceCore, _duration, _finished, _replace_seat
from bot.service.errors import ServiceError, StaleVersion
from bot.service.results import Event, Message, Update
from bot.storage import ACTIVE_STATUSES, ChallengeTaken, MatchRecord

log = logging.getLogger(__name__)


class ClockCalls(ServiceCore):
    """Clock calls (part of :class:`MatchService`)."""

    async def tick(self, now: float | None = None) -> list[Update]:
        """Send due warnings, apply timeouts and expire challenges and lobbies."""
        now = self.clock() if now is None else now
        updates: list[Update] = []
        for challenge in await self.repo.open_challenges(expired_by=now):
            if challenge.expires_at <= now:
                try:
                    closed = await self.repo.close_challenge(challenge.id, "expired")
                except ChallengeTaken:
                    continue
                text = f"The challenge of {mention(closed.challenger_id)} expired."
                updates.append(self._challenge_update("challenge_expired", closed, [text]))
        # Bot turns first: after a restart (or a crash between a move and the bot's
        # answer) nothing stays stuck, and a bot acts before its clock could run out.
        lease_now = self.lease_clock()
        leftovers = await self.repo.claim_bot_matches(
            self.owner, lease_now, lease_now + self.claim_seconds
        )
        for record in leftovers:
            running = self._bot_locks.get(record.id)
            if running is not None and running.locked():
                continue  # advance_bots is playing this match's bots here (and releases it)
            try:
                if self._bot_due(record, self._state(record)):
                    updates.extend(await self.advance_bots(record.id))
            except ServiceError:
                log.exception("could not advance the bots of match %s", record.id)
            finally:
                await self._release(record.id)
        claimed = await self.repo.claim_due_matches(
            now, self.owner, lease_now, lease_now + self.claim_seconds
        )
        for due in claimed:
            try:
                update = await self._clock_work(due.id, now)
            finally:
                await self._release(due.id)
            if update is not None:
                updates.append(update)
        return updates

    async def _clock_work(self, match_id: int, now: float) -> Update | None:
        """The timeout or warning of one claimed match, under its lock."""
        async with self._lock(match_id):
            record = await self.repo.get_match(match_id)
            if record is None or record.status not in ACTIVE_STATUSES:
                return None
            try:
                if record.deadline_at is not None and record.deadline_at <= now:
                    update = await self._timeout(record, now)
                    work = "timeout"
                elif record.warn_at is not None and record.warn_at <= now and not record.warned:
                    update = await self._warn(record, now)
                    work = "warning"
                else:
                    return None
            except StaleVersion:
                return None  # a player moved this match on meanwhile; the next tick sees it
        if update is not None:
            # One line per piece of clock work done: no two processes ever log the same one.
            log.info(
                "clock work: %s of match %s at version %s by %s",
                work,
                match_id,
                record.version,
                self.owner,
            )
        return update

    async def _warn(self, record: MatchRecord, now: float) -> Update | None:
        if not await self.repo.mark_warned(record.id, record.version):
            return None
        record = record.evolve(warned=True)
        state = self._state(record)
        info = self._info(record, state)
        left = max(0.0, (record.deadline_at or now) - now)
        users = bots.humans_only(record, info.to_act)
        who = ", ".join(mention(u) for u in users) or "Nobody"
        where = f"at table #{record.id}" if record.game == LEIFF else f"in match #{record.id}"
        text = f"{who}: {_duration(left)} left to act {where}."
        return Update(
            kind="warning",
            match_id=record.id,
            version=record.version,
            guild_id=record.guild_id,
            channel_id=record.channel_id,
            thread_id=record.thread_id,
            events=(Event("warning", {"seconds_left": left, "users": list(users)}),),
            messages=(Message(text),),
            mentions=users,
            match=info,
        )

    async def _timeout(self, record: MatchRecord, now: float) -> Update | None:
        step = self._begin(record, now)
        if record.status == "lobby":
            step.record = step.record.evolve(status="aborted", deadline_at=None, finished_at=now)
            self._log(step, None, None, SERVICE_MARK + "expire", now)
            step.lines.append("The Leiff table closed: nobody started the game in time.")
            await self._commit(record, step, None)
            return self._lobby_update("lobby_expired", step.record, step.lines)
        state = self._state(record)
        if record.game != LEIFF:
            seat = state.seat_to_move
            loser = record.user_of(seat) if seat is not None else None
            self._log(step, None, seat, SERVICE_MARK + "timeout", now)
            if state.ply == 0:
                step.record = _finished(
                    step.record, {"winners": [], "reason": "nobody moved", "draw": False}, now
                ).evolve(status="aborted")
                step.lines.append(
                    f"{mention(loser)} did not make the first move in time: the match is cancelled."
                )
                await self._commit(record, step, state)
                return self._board_update("match_aborted", step.record, state, step.lines)
            winner = next(s.user_id for s in record.seats if s.seat != seat)
            result = {
                "winners": [winner],
                "reason": f"{mention(loser)} ran out of time",
                "draw": False,
            }
            return await self._finish_board(record, step, state, result, now)
        settings = await self.get_settings(record.guild_id)
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
                self._log(step, None, seat, current.log[-1][1], now)
                acted = True
            if acted and step_name != "next":
                seat_record = next(s for s in step.record.seats if s.seat == seat)
                if seat_record.is_bot:
                    continue  # a bot late only because the service was down stays seated
                timeouts = seat_record.timeouts + 1
                removed = seat_record.removed or timeouts >= settings.leiff_max_timeouts
                step.record = _replace_seat(step.record, seat, timeouts=timeouts, removed=removed)
                user = mention(seat_record.user_id)
                step.lines.append(f"{user} ran out of time; the default was played.")
                if removed and not seat_record.removed:
                    self._log(step, None, seat, SERVICE_MARK + "remove", now)
                    step.lines.append(
                        f"{user} timed out {timeouts} times in a row and leaves the table."
                    )
        # Always restart the clock after a timeout so a deadline never fires twice.
        step.record = step.record.evolve(deadline_at=None)
        if not step.actions:
            self._log(step, None, None, SERVICE_MARK + "timeout", now)
        return await self._leiff_settle(record, step, state, now, "timeout", produced)
