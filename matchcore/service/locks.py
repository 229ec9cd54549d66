"""Locks by key (a match id, a server's user) that exist only while they are in use.

A dictionary of one :class:`asyncio.Lock` per key ever asked about grows with every match
and every made-up id a caller sends (issue 31). :class:`KeyedLocks` counts who holds or
waits for each key's lock and forgets the lock when the last of them leaves: the next
caller for that key makes a new one, and nobody can be holding or queued on the old one
by then, so mutual exclusion is the same as with a lock kept for ever.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Hashable
from contextlib import asynccontextmanager
from dataclasses import dataclass, field
from typing import Generic, TypeVar

K = TypeVar("K", bound=Hashable)


@dataclass
class _Entry:
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    # Tasks holding the lock or queued for it; the entry goes when this reaches 0.
    users: int = 0


class KeyedLocks(Generic[K]):
    """One lock per key while someone holds or waits for it; none otherwise."""

    def __init__(self) -> None:
        self._entries: dict[K, _Entry] = {}

    @asynccontextmanager
    async def hold(self, key: K) -> AsyncIterator[None]:
        """Hold ``key``'s lock for the body (waiting behind whoever holds it now)."""
        entry = self._entries.get(key)
        if entry is None:
            entry = self._entries[key] = _Entry()
        entry.users += 1
        try:
            async with entry.lock:
                yield
        finally:
            # Also when the wait was cancelled: a waiter that never got the lock leaves too.
            entry.users -= 1
            if entry.users == 0:
                del self._entries[key]

    def locked(self, key: K) -> bool:
        """Whether somebody holds ``key``'s lock now."""
        entry = self._entries.get(key)
        return entry is not None and entry.lock.locked()

    def __len__(self) -> int:
        """How many keys have a lock now (held or waited for)."""
        return len(self._entries)
