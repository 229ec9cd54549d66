"""Leaderboard, stats, replays and the list of games, after a few finished matches (the
rules are the tutorial: tests/bot/test_learning.py)."""

from __future__ import annotations

import io

import pytest
from PIL import Image

from tests.bot.helpers import pinged, start_board_match


async def finish_by_resignation(sim, winner, loser, clock) -> int:
    clock.advance(60)
    match_id, _ = await start_board_match(sim, winner, loser, "dalen", 5)
    await sim.slash(winner, "move", cell="e5")
    await sim.slash(loser, "move", cell="a1")
    await sim.slash(loser, "resign")
    return match_id


# Several games in one channel: the point is what the commands show, not the limits.
@pytest.mark.compressed_rate_limits
async def test_leaderboard_stats_replay_and_games(sim, world, bot, clock):
    first = await finish_by_resignation(sim, world.alice, world.bob, clock)
    await finish_by_resignation(sim, world.alice, world.bob, clock)
    await finish_by_resignation(sim, world.bob, world.carol, clock)

    board = await sim.slash(world.carol, "leaderboard", game="dalen")
    assert not board.ephemeral and pinged(board.last_message) == set()
    lines = board.text.splitlines()
    assert lines[0] == "**Dalen leaderboard**"
    assert lines[1].startswith("1. alice") and "2W 0L" in lines[1]
    assert [line.split(".")[0] for line in lines[1:]] == ["1", "2", "3"]
    assert (await sim.slash(world.carol, "leaderboard", game="les")).text.endswith(
        "Nobody has finished a rated game yet."
    )

    stats = await sim.slash(world.carol, "stats", member=world.bob)
    assert "Statistics of bob" in stats.text and "Dalen:" in stats.text
    assert "1W 2L 0D" in stats.text and pinged(stats.last_message) == set()
    own = await sim.slash(world.carol, "stats")
    assert "0W 1L" in own.text
    # Counted in words a player reads: "1 game", never "1 games" or "best streak 0".
    assert "Dalen: rating" in own.text and "1 game: 0W 1L 0D; lost the last game." in own.text
    assert "3 games: 1W 2L 0D; won the last game." in stats.text
    assert "1 games" not in own.text + stats.text + board.text and "streak 0" not in own.text
    assert lines[3].endswith("(1 game: 0W 1L 0D)")

    replay = await sim.slash(world.bob, "replay", match=first)
    assert replay.ephemeral
    gif = Image.open(io.BytesIO(replay.last_message.attachments[0].data))
    assert gif.format == "GIF" and gif.n_frames == 3  # the empty board and two moves

    clock.advance(60)
    running, _ = await start_board_match(sim, world.carol, world.alice, "les", 5)
    # A match Alice has no part in, in another channel, is listed for her too (unmarked).
    clock.advance(60)
    challenge = await sim.slash(
        world.bob, "play", game="lefe", opponent=world.admin, size=5, channel=world.other_channel
    )
    accepted = await sim.click(world.admin, challenge.last_message, "Accept")
    others = int(accepted.last_message.content.split("match #")[1].split()[0])
    lobby = await sim.slash(world.carol, "play", game="leiff")
    games = await sim.slash(world.alice, "games")
    assert games.ephemeral
    assert f"★ #{running} Les (running)" in games.text
    assert f"\n#{others} Lefe (running) in <#{world.other_channel.id}>: bob, admin" in games.text
    assert "Leiff (open table)" in games.text and lobby.last_message is not None
    sim.assert_no_bot_errors()
