"""bench.tournament_discord runs: a small arena through the bot and the simulator, its
requests counted (the figures of docs/benchmarks/tournaments.md come from it at 500)."""

from __future__ import annotations

from bench.tournament_discord import arena_requests


async def test_a_small_arena_counts_its_requests() -> None:
    figures = await arena_requests(players=8, minutes=3)
    # the start: a board a game in the thread, the start's lines, the standings' first post
    assert figures["start: channel messages (boards in the thread, lines)"] == 4 + 1 + 1
    assert figures["games ended in the steady minutes"] > 0
    assert figures["games recorded"] == figures["games ended in the steady minutes"]
    assert figures["steady: requests per minute (all)"] > 0
    assert figures["steady: 429s"] == 0
