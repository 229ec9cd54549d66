"""Records a lookup has just read, handed to the action that follows it: one read a move.

``/move`` finds the player's match in the channel (a lookup that reads the match, its seats
and its messages), then plays the move in it. Without this, the action read the same match
again under its lock a few milliseconds later: three statements more a move. Now the lookup
leaves what it read here (:meth:`FreshRecords.keep`) and the action takes it under the
match's lock (:meth:`FreshRecords.take`), at most once and within :data:`FRESH_SECONDS`.

The database stays the truth: a commit's ``UPDATE ... WHERE version = ?`` refuses a record
another process moved on meanwhile, and the action is then judged again from a fresh read
(:class:`ReadAgain`, raised by ``MatchStore.match``). Every commit and every write of a
match's columns in this process forgets the match's kept record (:meth:`forget`).
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterable

from matchcore.storage import MatchRecord

# How long a record read by a lookup may stand in for the action's own read (seconds):
# the lookup and the action of one command run within milliseconds of each other.
FRESH_SECONDS = 1.0
# At most this many kept at once (a lookup whose action never came leaves its records).
FRESH_LIMIT = 256


class ReadAgain(Exception):
    """A kept record was out of date (another process moved the match on): the action is
    judged again from the database."""


class FreshRecords:
    """Records read by a lookup, by match id, with when (monotonic seconds)."""

    def __init__(self, clock: Callable[[], float] = time.monotonic) -> None:
        self.clock = clock
        self._kept: dict[int, tuple[float, MatchRecord]] = {}

    def keep(self, records: Iterable[MatchRecord]) -> None:
        now = self.clock()
        if len(self._kept) >= FRESH_LIMIT:
            self._kept = {k: v for k, v in self._kept.items() if now - v[0] <= FRESH_SECONDS}
        for record in records:
            self._kept[record.id] = (now, record)

    def take(self, match_id: int) -> MatchRecord | None:
        """The record a lookup read of the match within the last ``FRESH_SECONDS``, once."""
        kept = self._kept.pop(match_id, None)
        if kept is None or self.clock() - kept[0] > FRESH_SECONDS:
            return None
        return kept[1]

    def forget(self, match_id: int) -> None:
        self._kept.pop(match_id, None)
