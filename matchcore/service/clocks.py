"""The service's clock: warnings, timeouts, expiries, and bot turns left over.

:meth:`Clocks.tick` is called every few seconds by the Discord layer of every process.
Deadlines live on the match rows, so a deadline that passed while the bot was down fires on
the first tick. Several processes may tick over one database: each due match is claimed
(a lease in the database) by exactly one of them, which applies the timeout or sends the
warning and then releases it; a claim left by a killed process runs out and is taken over.
An expiring challenge is closed by whichever process's conditional update wins.
"""

from __future__ import annotations

import logging

from matchcore.service import bots
from matchcore.service.board_logic import mention
from matchcore.service.board_matches import BoardMatches
from matchcore.service.describe import Describer, match_update
from matchcore.service.errors import ServiceError, StaleVersion
from matchcore.service.leiff_tables import LeiffTables
from matchcore.service.results import Event, Update, say
from matchcore.service.steps import SERVICE_MARK, begin, duration, is_table
from matchcore.service.store import MatchStore
from matchcore.service.texts import Said
from matchcore.service.vs_bot import BotOpponent
from matchcore.storage import ACTIVE_STATUSES, ChallengeTaken, MatchRecord

log = logging.getLogger(__name__)


class Clocks:
    """The service's clock: warnings, timeouts, expiries, leftover bot turns."""

    def __init__(
        self,
        store: MatchStore,
        describe: Describer,
        boards: BoardMatches,
        tables: LeiffTables,
        bots: BotOpponent,
    ) -> None:
        self.store = store
        self.describe = describe
        self.boards = boards
        self.tables = tables
        self.bots = bots

    async def tick(self, now: float | None = None) -> list[Update]:
        """Send due warnings, apply timeouts and expire challenges and lobbies."""
        now = self.store.clock() if now is None else now
        updates: list[Update] = []
        for challenge in await self.store.repo.open_challenges(expired_by=now):
            if challenge.expires_at <= now:
                try:
                    closed = await self.store.repo.close_challenge(challenge.id, "expired")
                except ChallengeTaken:
                    continue
                text = say("challenge_expired", user=mention(closed.challenger_id))
                updates.append(self.describe.challenge("challenge_expired", closed, [text]))
        # Bot turns first: after a restart (or a crash between a move and the bot's
        # answer) nothing stays stuck, and a bot acts before its clock could run out.
        lease_now = self.store.lease_clock()
        leftovers = await self.store.repo.claim_bot_matches(
            self.store.owner, lease_now, lease_now + self.store.claim_seconds
        )
        for record in leftovers:
            if self.bots.bot_locks.locked(record.id):
                continue  # advance_bots is playing this match's bots here (and releases it)
            try:
                if bots.bot_due(record, self.store.state(record)):
                    updates.extend(await self.bots.advance_bots(record.id))
            except ServiceError:
                log.exception("could not advance the bots of match %s", record.id)
            finally:
                await self.store.release(record.id)
        claimed = await self.store.repo.claim_due_matches(
            now, self.store.owner, lease_now, lease_now + self.store.claim_seconds
        )
        for due in claimed:
            try:
                update = await self._clock_work(due.id, now)
            finally:
                await self.store.release(due.id)
            if update is not None:
                updates.append(update)
        return updates

    async def _clock_work(self, match_id: int, now: float) -> Update | None:
        """The timeout or warning of one claimed match, under its lock."""
        async with self.store.lock(match_id):
            record = await self.store.repo.get_match(match_id)
            if record is None or record.status not in ACTIVE_STATUSES:
                return None
            try:
                if record.deadline_at is not None and record.deadline_at <= now:
                    update = await self.timeout(record, now)
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
                self.store.owner,
            )
        return update

    async def _warn(self, record: MatchRecord, now: float) -> Update | None:
        if not await self.store.repo.mark_warned(record.id, record.version):
            return None
        record = record.evolve(warned=True)
        state = self.store.state(record)
        info = self.describe.info(record, state)
        left = max(0.0, (record.deadline_at or now) - now)
        users = bots.humans_only(record, info.to_act)
        who: object = ", ".join(mention(u) for u in users) or Said("nobody")
        code = "warning_table" if is_table(record) else "warning_match"
        text = say(code, who=who, time=duration(left), id=record.id)
        return match_update(
            "warning",
            record,
            info,
            events=(Event("warning", {"seconds_left": left, "users": list(users)}), text),
            mentions=users,
        )

    async def timeout(self, record: MatchRecord, now: float) -> Update | None:
        """Apply a passed deadline, under the match lock."""
        step = begin(record, now)
        if record.status == "lobby":
            step.record = step.record.evolve(status="aborted", deadline_at=None, finished_at=now)
            step.log(None, None, SERVICE_MARK + "expire", now)
            step.lines.append(say("lobby_expired"))
            await self.store.commit(record, step, None)
            return self.describe.lobby("lobby_expired", step.record, step.lines)
        if is_table(record):
            return await self.tables.timeout(record, step, now)
        return await self.boards.timeout(record, step, now)
