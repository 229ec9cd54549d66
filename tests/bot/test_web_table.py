"""The web table beside the bot: one match, two front ends, live both ways. The bot is the
real discord.py client against the simulator; the table is open in Debian's chromium.

A ``/move`` typed in the simulator shows on the open table; a click on the table is the
member's move, and the channel's board message follows as after a command.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import Any

import pytest

from bot.app import LeafBot
from discord_sim.harness import DiscordSimulator, World
from tests.bot.helpers import (
    check_board_message,
    last_board_message,
    start_board_match,
    stored_state,
)
from tests.web.browser import board_state, click_cell, until
from web.sessions import Identity


@pytest.mark.compressed_rate_limits
async def test_moves_travel_between_the_channel_and_an_open_table(
    sim: DiscordSimulator, world: World, make_web_bot: Callable[..., LeafBot], chromium: Any
) -> None:
    handle = await sim.start_bot(make_web_bot)
    client: LeafBot = handle.client
    assert client.web_table is not None and client.web_address is not None
    players = [world.alice, world.bob]
    match_id, _ = await start_board_match(sim, world.alice, world.bob, "lefe", 5)
    # Alice's browser, signed in (the Activity's sign-in issues such a session)
    token = await client.web_table.sessions.issue(Identity(world.alice.id, "alice", "en"))
    address = client.web_address
    await asyncio.to_thread(chromium.get, f"{address}/#")
    await asyncio.to_thread(
        chromium.execute_script,
        "sessionStorage.setItem('leafbot-session', arguments[0]); location.hash = arguments[1];"
        "location.reload();",
        token,
        f"match={match_id}",
    )
    shown = await until(lambda: (s := board_state(chromium))["version"] == 0 and s, "the table")
    assert shown["yourTurn"] and "c3" in shown["legal"]
    # Bob plays in Discord alone: his seat is named as the bot names him, not by his id
    bob = client.context.names.known(world.bob.id)
    assert bob is not None
    seats = await asyncio.to_thread(chromium.find_element, "id", "players")
    assert bob in seats.text and f"#{world.bob.id}" not in seats.text

    # a click on the table: Alice's move, and the channel's board follows
    await asyncio.to_thread(click_cell, chromium, "c3")
    await until(lambda: board_state(chromium)["version"] == 1, "Alice's move on the table")
    assert (await stored_state(handle, match_id)).stones == {"c3": "dark"}

    async def channel_shows(version: int) -> None:
        for _ in range(200):
            board = last_board_message(world.channel)
            try:
                await check_board_message(handle, match_id, board, players)
                state = await stored_state(handle, match_id)
                if len(state.moves) == version:
                    return
            except AssertionError:
                pass
            await asyncio.sleep(0.05)
        raise AssertionError(f"the channel's board never showed move {version}")

    await channel_shows(1)

    # Bob's /move in Discord shows on Alice's open table, and it is her turn again there
    answer = await sim.slash(world.bob, "move", cell="g5")
    assert not answer.ephemeral
    shown = await until(
        lambda: (s := board_state(chromium))["version"] == 2 and s, "Bob's /move on the table"
    )
    assert shown["stones"] == {"c3": "dark", "g5": "light"} and shown["yourTurn"]
    await channel_shows(2)
