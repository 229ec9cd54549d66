"""The standings' edits are coalesced: a burst of changes is one edit, and two edits of
one tournament are at least the gap apart (``bot.features.tournaments.posts.Coalescer``)."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Awaitable, Callable

from bot.features.tournaments.posts import Coalescer


async def test_a_burst_of_changes_is_one_refresh() -> None:
    done: list[float] = []

    async def refresh() -> None:
        done.append(time.monotonic())

    edits = Coalescer(0.2)
    for _ in range(10):
        edits.ask(1, refresh)
    await edits.idle()
    assert len(done) == 1
    # the next change waits for the gap after the last refresh, then is one more
    for _ in range(5):
        edits.ask(1, refresh)
        await asyncio.sleep(0.01)
    await edits.idle()
    assert len(done) == 2 and done[1] - done[0] >= 0.19


async def test_a_change_during_a_refresh_asks_for_one_more() -> None:
    """A refresh reads the tournament when it starts: a change that comes while it runs
    gets a refresh of its own (never lost), after the gap."""
    started = asyncio.Event()
    release = asyncio.Event()
    calls = 0

    async def refresh() -> None:
        nonlocal calls
        calls += 1
        started.set()
        await release.wait()

    edits = Coalescer(0.05)
    edits.ask("t", refresh)
    await started.wait()
    edits.ask("t", refresh)  # while the first one runs
    edits.ask("t", refresh)
    release.set()
    await edits.idle()
    assert calls == 2


async def test_tournaments_are_refreshed_apart() -> None:
    seen: list[str] = []

    def refresh_of(key: str) -> Callable[[], Awaitable[None]]:
        async def refresh() -> None:
            seen.append(key)

        return refresh

    edits = Coalescer(1.0)
    edits.ask("a", refresh_of("a"))
    edits.ask("b", refresh_of("b"))
    await edits.idle()
    assert sorted(seen) == ["a", "b"]
