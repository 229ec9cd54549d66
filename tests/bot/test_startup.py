"""A bot that starts in a second, whatever it hosts, and keeps a bounded few states (issue 31).

Before, ``MatchService.start()`` read, parsed and described every running match in
``setup_hook``, before discord.py connected: 16 s offline with 10,000 running matches,
and every parsed state stayed in memory. Now:

- a start reads no match: 10,000 running matches stored directly in the database (SQLite
  and PostgreSQL) are not read while the bot starts (counted where stored rows become
  records); the bot answers a move on one of them right after connecting, a match whose
  deadline passed while it was down times out on the first tick, and a match whose last
  step had not gone out is sent again (found by an indexed query, in pages);
- with a cache of two states, several matches played in turns through the simulator
  (three board games and a Leiff table) go on as ever: every accepted action is stored and
  every picture shows the stored position.
"""

from __future__ import annotations

import random
from collections.abc import AsyncIterator, Callable
from pathlib import Path
from typing import Any

import pytest

from bench.startup import fill
from bot.app import LeafBot
from bot.settings import Settings
from matchcore.storage import mapping, open_repository
from tests.bot.helpers import (
    answered_in_channel,
    check_board_message,
    last_board_message,
    match_id_of,
    pick_move,
    stored_state,
)
from tests.bot.leiff_driver import LeiffTable
from tests.bot.test_leiff import open_table
from tests.bot.test_stalls import idle, leiff_step
from tests.postgres import fresh_database

RUNNING = 10_000
ROUNDS = 6


@pytest.fixture(params=["sqlite", "postgresql"])
async def database_url(request: pytest.FixtureRequest, tmp_path: Path) -> AsyncIterator[str]:
    if request.param == "sqlite":
        yield f"sqlite:///{tmp_path / 'startup.sqlite3'}"
        return
    async with fresh_database() as url:
        yield url


def bot_factory(world: Any, url: str, clock: Any, cache: int = 2000) -> Callable[[], LeafBot]:
    settings = Settings(
        token="simulated",
        database_url=url,
        dev_guild_id=world.guild.id,
        render_workers=0,
        state_cache_size=cache,
    )
    return lambda: LeafBot(settings, service_options={"clock": clock}, tick_seconds=None)


async def board_match(sim: Any, challenger: Any, opponent: Any, channel: Any, game: str) -> int:
    challenge = answered_in_channel(
        await sim.slash(challenger, "play", channel=channel, game=game, opponent=opponent),
        channel,
        lambda m: any(b.label == "Accept" for b in m.buttons),
    )
    accepted = await sim.click(opponent, challenge, "Accept")
    assert not accepted.ephemeral, accepted.text
    return match_id_of(accepted.last_message)


async def move(sim: Any, handle: Any, players: list[Any], match_id: int, channel: Any) -> Any:
    """The player to move types a legal move; the answer is checked against the store."""
    state = await stored_state(handle, match_id)
    moved = await sim.slash(
        players[state.seat_to_move],
        "move",
        channel=channel,
        cell=pick_move(state, random.Random(match_id * 100 + len(state.moves))),
    )
    # (answered late, the board is in the channel all the same: checked below)
    answered_in_channel(
        moved, channel, lambda m: "match #" in m.text and match_id_of(m) == match_id
    )
    await idle(handle, moved)
    await check_board_message(handle, match_id, last_board_message(channel), players)
    return moved


class Reads:
    """Counts the match rows read from the database (where every back end turns a stored
    row into a record)."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch) -> None:
        self.count = 0
        original = mapping.match_from_row

        def counted(*args: Any, **kwargs: Any) -> Any:
            self.count += 1
            return original(*args, **kwargs)

        monkeypatch.setattr(mapping, "match_from_row", counted)


async def test_a_start_reads_no_running_match_and_the_bot_answers_at_once(
    sim, world, clock, database_url, monkeypatch
):
    make = bot_factory(world, database_url, clock)
    first = await sim.start_bot(make)
    third = world.guild.add_text_channel("third")
    played = await board_match(sim, world.alice, world.bob, world.channel, "lefe")
    due = await board_match(sim, world.bob, world.carol, world.other_channel, "dalen")
    behind = await board_match(sim, world.carol, world.alice, third, "les")
    for match_id, players, channel in (
        (played, [world.alice, world.bob], world.channel),
        (due, [world.bob, world.carol], world.other_channel),
        (behind, [world.carol, world.alice], third),
    ):
        await move(sim, first, players, match_id, channel)
        await move(sim, first, players, match_id, channel)
    await first.stop()

    repo = await open_repository(database_url)
    try:
        await fill(repo, RUNNING, clock.now)
        # as the bot left them when it was stopped: a deadline that passed meanwhile, and a
        # step whose messages did not all go out (only its own record is behind)
        await repo._write(  # type: ignore[attr-defined]
            "UPDATE matches SET deadline_at = ? WHERE id = ?", (clock.now - 1, due)
        )
        stored_behind = await repo.get_match(behind)
        assert stored_behind is not None
        version = stored_behind.version
        await repo._write(  # type: ignore[attr-defined]
            "UPDATE matches SET delivered_version = ? WHERE id = ?", (version - 1, behind)
        )
        await repo._write(  # type: ignore[attr-defined]
            "UPDATE match_messages SET message_id = ? WHERE match_id = ? AND kind LIKE ?",
            (version - 1, behind, "delivered:%"),
        )
        count = await repo._fetch("SELECT COUNT(*) FROM matches WHERE status = 'running'")  # type: ignore[attr-defined]
        assert int(count[0][0]) >= RUNNING + 3
    finally:
        await repo.close()

    reads = Reads(monkeypatch)
    handle = await sim.start_bot(make)
    # the start read nothing but the one match to send again (found by its index, then
    # read again to be sent, perhaps already), however many are running
    assert reads.count <= 2, reads.count
    assert len(handle.client.service.store.states) <= 1

    # right after connecting, a move on one of the stored matches is answered
    before = (await handle.client.service.get_match(played)).version
    await move(sim, handle, [world.alice, world.bob], played, world.channel)
    assert (await handle.client.service.get_match(played)).version == before + 1

    # the due match times out on the first tick
    messages = len(world.other_channel.messages)
    assert await handle.client.tick_once() >= 1
    assert (await handle.client.service.get_match(due)).status != "running"
    assert len(world.other_channel.messages) > messages

    # the match whose step had not all gone out is sent again, once
    await handle.client.delivery.deliveries_idle()
    resent = last_board_message(third)
    assert match_id_of(resent) == behind
    assert (await handle.client.service.get_match(behind)).messages["delivered"] == version
    await check_board_message(handle, behind, resent, [world.carol, world.alice])

    # all of it read a handful of matches, not the ten thousand
    assert reads.count < 50, reads.count
    sim.assert_no_bot_errors()


@pytest.mark.compressed_rate_limits
async def test_with_a_cache_of_two_states_matches_played_in_turns_lose_nothing(
    sim, world, clock, tmp_path
):
    make = bot_factory(world, f"sqlite:///{tmp_path / 'small.sqlite3'}", clock, cache=2)
    handle = await sim.start_bot(make)
    states = handle.client.service.store.states
    assert states.capacity == 2
    let_go: list[int] = []
    states.dropped_listeners.append(let_go.append)
    third = world.guild.add_text_channel("third")
    fourth = world.guild.add_text_channel("fourth")
    boards = [
        (
            await board_match(sim, world.alice, world.bob, fourth, "lefe"),
            [world.alice, world.bob],
            fourth,
        ),
        (
            await board_match(sim, world.bob, world.carol, world.other_channel, "dalen"),
            [world.bob, world.carol],
            world.other_channel,
        ),
        (
            await board_match(sim, world.carol, world.alice, third, "lublache"),
            [world.carol, world.alice],
            third,
        ),
    ]
    players = [world.admin, world.alice, world.bob]
    table_id, _ = await open_table(sim, world, players)
    table = LeiffTable(sim, handle, table_id, players, world.channel)
    await table.audit()

    accepted: dict[int, int] = {}
    for _ in range(ROUNDS):
        for match_id, seated, channel in boards:
            await move(sim, handle, seated, match_id, channel)
            accepted[match_id] = accepted.get(match_id, 0) + 1
        before = (await table.state()).log
        await leiff_step(table, players)
        assert len((await table.state()).log) > len(before)
        # never more than two states kept, the one worked on included
        assert len(states) <= 2
    assert len(let_go) >= ROUNDS * len(boards), "the cache let nothing go"
    for match_id, _, _ in boards:
        log = await handle.client.service.action_log(match_id)
        assert len([a for a in log if a.user_id is not None]) == accepted[match_id]
        state = await stored_state(handle, match_id)
        assert len(state.moves) == accepted[match_id]
    sim.assert_no_bot_errors()
