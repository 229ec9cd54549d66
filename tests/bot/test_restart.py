"""A restart is a new client instance on the same database: old messages keep working."""

from __future__ import annotations

from tests.bot.helpers import (
    check_board_message,
    last_board_message,
    start_board_match,
    stored_state,
)
from tests.bot.leiff_driver import LeiffTable
from tests.bot.test_leiff import open_table


async def test_board_game_continues_after_a_restart_and_old_buttons_work(sim, world, bot, make_bot):
    players = [world.alice, world.bob]
    match_id, _ = await start_board_match(sim, world.alice, world.bob, "lublache", 5)
    first = await sim.slash(world.alice, "move", cell="e5")
    board_before = first.last_message
    assert "Swap colours" in [b.label for b in board_before.buttons]

    # the new instance draws in a worker process, as a production start does
    restarted = await sim.restart_bot(lambda: make_bot(render_workers=1))
    assert restarted.client is not bot.client

    # A button on a message sent by the previous instance is handled by the new one.
    swapped = await sim.click(world.bob, board_before, "Swap colours")
    state = await stored_state(restarted, match_id)
    assert state.swapped and state.moves[-1] == "swap"
    await check_board_message(restarted, match_id, swapped.last_message, players)
    assert all(b.disabled for b in sim.state.messages[board_before.id].buttons)

    # Typed moves continue too, with autocomplete from the stored state.
    mover = players[state.seat_to_move]
    suggestions = await sim.autocomplete(mover, "move", option="cell", value="d")
    assert suggestions and all(choice["value"].startswith("d") for choice in suggestions)
    moved = await sim.slash(mover, "move", cell=suggestions[0]["value"])
    await check_board_message(restarted, match_id, moved.last_message, players)
    assert last_board_message(world.channel).id == moved.last_message.id
    sim.assert_no_bot_errors()


async def test_leiff_round_continues_after_a_restart_from_old_dm_buttons(sim, world, bot, make_bot):
    players = [world.alice, world.bob, world.carol]
    match_id, _ = await open_table(sim, world, players)
    table = LeiffTable(sim, bot, match_id, players, world.channel)
    await table.audit()
    state = await table.state()
    turn = state.waiting_for()["turn"]
    old_hand = await table.hand_message(players[turn])

    table.handle = await sim.restart_bot(make_bot)

    drew = await sim.click(
        players[turn],
        old_hand,
        next(
            b.custom_id for b in old_hand.buttons if b.custom_id and b.custom_id.endswith("|draw")
        ),
    )
    assert not drew.ephemeral, drew.text
    await table.audit()
    state = await table.state()
    assert state.waiting_for()["step"] == "hold" and state.log[-1] == (turn, "draw")
    # the same DM message now shows the held card's choices
    updated = sim.state.messages[old_hand.id]
    assert any(b.label == "Discard it" for b in updated.buttons)
    await table.act(players[turn], "discard")
    sim.assert_no_bot_errors()


async def test_rate_limits_and_a_gateway_reconnect_lose_nothing(sim, world, bot):
    players = [world.alice, world.bob, world.carol]
    match_id, _ = await open_table(sim, world, players)
    table = LeiffTable(sim, bot, match_id, players, world.channel)
    await table.audit()
    await sim.gateway_reconnect()
    # the edit of the table's message for the next action meets a 429 first; discord.py
    # waits and retries
    fault = sim.rate_limit("PATCH /channels/{channel_id}/messages/{message_id}", retry_after=0.05)
    before = len(world.channel.messages)
    state = await table.state()
    turn = state.waiting_for()["turn"]
    await table.act(players[turn], "draw")
    assert fault.remaining == 0, "the rate limit was never hit"
    assert len(world.channel.messages) == before
    living = sim.state.messages[table.newest_table_message()]
    assert "draws a card" in living.content
    state = await table.state()
    assert state.log[-1] == (turn, "draw")
    sim.assert_no_bot_errors()
