"""Housekeeping: what the database keeps, and the pruning of the rest.

Some tables only grew (issue 31): closed challenges, the message ids and event lines of
ended matches, members' languages, refusals of DMs and empty preferences. :class:`Retention`
says how long each is kept (docs/service.md, "What is kept"); :class:`Housekeeping` prunes
the rest.

Every process's clock loop calls :meth:`Housekeeping.prune_due`. A pass is a chore
claimed in the database with a lease, like a match's background work: one process at a
time runs it, once per ``every_hours`` whichever process that is, and a pass left by a
killed process is taken over when its lease runs out. A call does a bounded share of the
pass (windows of ``window`` keys, each its own short transaction, for ``call_seconds`` and
at most ``windows_per_call`` windows), so the clock loop and the moves around it never
wait long; the pass goes on at the next call while this process renews its lease.
"""

from __future__ import annotations

import logging
import time
from dataclasses import dataclass, field

from matchcore.service.store import MatchStore
from matchcore.storage import FIRST_KEY, PRUNABLE_TABLES

log = logging.getLogger(__name__)

PRUNE_CHORE = "prune"
DAY = 86_400.0
# How often a process not running a pass asks whether one is due (one small write).
ASK_SECONDS = 600.0


@dataclass(frozen=True)
class Retention:
    """How long what only grew is kept (days), and how often it is pruned."""

    # closed challenges (expired, declined, withdrawn, accepted), from their expiry:
    # long past any cooldown; a click on one that old reads "no such challenge"
    closed_challenges_days: float = 30.0
    # message ids, delivery records, a table's event lines and DM notices of a match,
    # from its end: the last messages are sent and edited by then; and a refusal of DMs,
    # from when it happened, once the member is seated at no running match or open lobby
    ended_match_messages_days: float = 7.0
    # a member's language, from when an interaction last showed it, unless they sit at a
    # running match or an open lobby (a later DM would speak it)
    member_languages_days: float = 180.0
    every_hours: float = 24.0
    window: int = 500
    windows_per_call: int = 20
    call_seconds: float = 0.2

    def cutoffs(self, now: float) -> dict[str, float]:
        """Per prunable table: rows judged old against this time may go."""
        ended = now - self.ended_match_messages_days * DAY
        return {
            "challenges": now - self.closed_challenges_days * DAY,
            "outbox": ended,
            "match_messages": ended,
            "table_lines": ended,
            "dm_notices": ended,
            "member_languages": now - self.member_languages_days * DAY,
            "dm_failures": ended,
            # rows with no choice are the same as none, whatever their age
            "member_preferences": now,
        }


@dataclass
class PrunePass:
    """A pass under way: its cutoffs (fixed when it began), where it is, what it deleted."""

    cutoffs: dict[str, float]
    tables: list[str] = field(default_factory=lambda: list(PRUNABLE_TABLES))
    after: int = FIRST_KEY
    deleted: dict[str, int] = field(default_factory=lambda: dict.fromkeys(PRUNABLE_TABLES, 0))

    @property
    def done(self) -> bool:
        return not self.tables


class Housekeeping:
    """Pruning on a schedule that one process at a time claims."""

    def __init__(self, store: MatchStore, retention: Retention | None = None) -> None:
        self.store = store
        self.retention = retention or Retention()
        self.current: PrunePass | None = None
        self._next_ask = float("-inf")  # on the lease clock

    async def prune_due(self) -> PrunePass | None:
        """Go on with this process's pass, or begin one if it is due and this process
        claims it. Returns the pass when it finished in this call (None otherwise)."""
        store = self.store
        lease_now = store.lease_clock()
        due_by = lease_now - self.retention.every_hours * 3600.0
        if self.current is None and lease_now < self._next_ask:
            return None
        self._next_ask = lease_now + min(ASK_SECONDS, self.retention.every_hours * 3600.0)
        lease_until = lease_now + store.claim_seconds
        if not await store.repo.claim_chore(
            PRUNE_CHORE, store.owner, lease_now, lease_until, due_by
        ):
            self.current = None  # not due, another process's, or taken over from us
            return None
        if self.current is None:
            self.current = PrunePass(self.retention.cutoffs(store.clock()))
        prune = self.current
        stop_at = time.monotonic() + self.retention.call_seconds
        for _ in range(self.retention.windows_per_call):
            if prune.done:
                break
            await self._window(prune)
            if time.monotonic() >= stop_at:
                break
        if not prune.done:
            return None
        self.current = None
        if await store.repo.finish_chore(PRUNE_CHORE, store.owner, store.lease_clock()):
            log.info("pruned by %s: %s", store.owner, prune.deleted)
        return prune

    async def _window(self, prune: PrunePass) -> None:
        table = prune.tables[0]
        deleted, last = await self.store.repo.prune_window(
            table, prune.after, prune.cutoffs[table], self.retention.window
        )
        prune.deleted[table] += deleted
        if last is None:
            prune.tables.pop(0)
            prune.after = FIRST_KEY
        else:
            prune.after = last
