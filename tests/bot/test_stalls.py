"""Nothing stalls under Discord's limits: long and repeated 429s on every route the bot uses.

The simulator enforces the real limits and the 3-second acknowledgement rule itself (the
``sim`` fixture fails a test with any late answer); these tests add 429s through its fault
injection on top:

- a 429 of 3.5 s on an interaction callback: the interaction is still acknowledged in time
  and its answer follows;
- more 429s on a route than discord.py retries (it gives up after 5 tries): the committed
  step's messages are sent again until they land, a later step's replacing an earlier
  one's, and the next player always gets their buttons;
- a bot stopped while messages are still undelivered sends them at its next start;
- a first answer that reached Discord but whose HTTP answer came back after the responder
  gave it up (the acknowledgement then meets 40060) is not sent a second time.

No test measures time: each waits until delivery is idle and checks what players see.
"""

from __future__ import annotations

import asyncio
import random
from typing import Any

from discord_sim import DiscordSimulator, RouteFault
from tests.bot.helpers import last_board_message, pick_move, pinged, start_board_match, stored_state
from tests.bot.leiff_driver import LeiffTable
from tests.bot.test_leiff import open_table

CALLBACK = "POST /interactions/{interaction_id}/{token}/callback"
CHANNEL_POST = "POST /channels/{channel_id}/messages"  # channels and DMs alike
CHANNEL_EDIT = "PATCH /channels/{channel_id}/messages/{message_id}"
FOLLOWUP = "POST /webhooks/{application_id}/{token}"
ORIGINAL_EDIT = "PATCH /webhooks/{application_id}/{token}/messages/{message_id}"
OPEN_DM = "POST /users/@me/channels"
# More 429s than discord.py's five tries of one request.
BEYOND_RETRIES = 7


def flood(sim: DiscordSimulator, *routes: str, count: int = BEYOND_RETRIES) -> list[RouteFault]:
    """Each route answers its next ``count`` requests with a 429 (0.1 s to wait each)."""
    return [sim.rate_limit(route, count=count, retry_after=0.1) for route in routes]


async def idle(handle: Any, *results: Any) -> None:
    """Wait until the handlers of these interactions have finished (the simulator returns
    once an interaction is answered, and sending may go on after that), and nothing is
    left to send again."""
    for result in results:
        await asyncio.gather(*result.handler_tasks, return_exceptions=True)
    await handle.client.delivery.deliveries_idle()
    await handle.client.delivery.bots_idle()
    await handle.client.delivery.deliveries_idle()


def live_buttons(message: Any) -> set[str]:
    return {b.label for b in message.buttons if not b.disabled}


async def test_a_move_whose_answer_meets_a_long_429_is_acknowledged_and_posted(sim, world, bot):
    players = [world.alice, world.bob]
    match_id, _ = await start_board_match(sim, world.alice, world.bob, "lefe", 5)
    state = await stored_state(bot, match_id)
    slow = sim.rate_limit(CALLBACK, retry_after=3.5)

    moved = await sim.slash(
        players[state.seat_to_move], "move", cell=pick_move(state, random.Random(1))
    )

    assert slow.hits == 1
    assert moved.responded and not moved.late_response  # in time, though its answer waited
    await idle(bot, moved)
    after = await stored_state(bot, match_id)
    board = last_board_message(world.channel)
    next_player = players[after.seat_to_move]
    assert pinged(board) == {next_player.id} and "Resign" in live_buttons(board)
    # and the game goes on from that board
    answer = await sim.slash(next_player, "move", cell=pick_move(after, random.Random(2)))
    assert not answer.ephemeral, answer.text
    sim.assert_no_bot_errors()


async def test_a_click_whose_answer_meets_a_long_429_is_acknowledged_and_posted(sim, world, bot):
    match_id, board = await start_board_match(sim, world.alice, world.bob, "lefe", 5)
    state = await stored_state(bot, match_id)
    mover = [world.alice, world.bob][state.seat_to_move]
    slow = sim.rate_limit(CALLBACK, retry_after=3.5)

    offered = await sim.click(mover, board, "Offer a draw")

    assert slow.hits == 1 and offered.responded and not offered.late_response
    await idle(bot, offered)
    answer = last_board_message(world.channel)
    assert answer.id != board.id and "Decline the draw" in live_buttons(answer)
    # the clicked board keeps its buttons, which now answer that the board moved on
    again = await sim.click(mover, sim.state.messages[board.id], "Offer a draw")
    assert again.ephemeral and "that board has moved on" in again.text.lower()
    sim.assert_no_bot_errors()


async def test_a_board_match_reaches_its_next_turn_through_repeated_429s(sim, world, bot):
    players = [world.alice, world.bob]
    match_id, _ = await start_board_match(sim, world.alice, world.bob, "dalen", 5)
    rng = random.Random(5)
    for round_ in range(2):
        state = await stored_state(bot, match_id)
        faults = flood(sim, CHANNEL_POST, CHANNEL_EDIT, FOLLOWUP, ORIGINAL_EDIT)
        faults.append(sim.rate_limit(CALLBACK, retry_after=3.5))
        mover = players[state.seat_to_move]
        if round_ == 1:  # by a button: the new board is the callback (or a follow-up)
            board = last_board_message(world.channel)
            if "Pass" in live_buttons(board):
                moved = await sim.click(mover, board, "Pass")
            else:
                moved = await sim.click(mover, board, "Offer a draw")
        else:
            moved = await sim.slash(mover, "move", cell=pick_move(state, rng))
        assert moved.responded and not moved.late_response
        await idle(bot, moved)
        assert all(f.hits > 0 for f in faults[:1] + faults[-1:]), [f.hits for f in faults]
        after = await stored_state(bot, match_id)
        board = last_board_message(world.channel)
        if round_ == 1 and "Decline the draw" in live_buttons(board):
            declined = await sim.click(players[1 - state.seat_to_move], board, "Decline the draw")
            assert not declined.ephemeral, declined.text
            await idle(bot, declined)
            board = last_board_message(world.channel)
            after = await stored_state(bot, match_id)
        assert pinged(board) == {players[after.seat_to_move].id}
        assert "Resign" in live_buttons(board)
        for fault in faults:
            fault.remaining = 0
    sim.assert_no_bot_errors()


async def leiff_step(table: LeiffTable, players: list[Any]) -> Any:
    """One step of whoever the table waits for: draw, discard the drawn card, or the
    default answer to an effect or a matching window."""
    state = await table.state()
    waiting = state.waiting_for()
    if waiting["step"] == "turn":
        return await table.act(players[waiting["turn"]], "draw")
    if waiting["step"] == "hold":
        return await table.act(players[waiting["turn"]], "discard")
    owner = waiting["owners"][0]
    return await table.act(players[owner], state.default_action(owner))


async def leiff_turn(table: LeiffTable, players: list[Any]) -> Any:
    """:func:`leiff_step`, and after a draw the drawer's discard too: the table's message
    shows the draw only with the step after it (a draw alone is held back)."""
    result = await leiff_step(table, players)
    if (await table.state()).waiting_for()["step"] == "hold":
        await table.handle.client.delivery.bots_idle()
        result = await leiff_step(table, players)
    return result


async def assert_waited_for_players_have_controls(table: LeiffTable, players: list[Any]) -> None:
    waiting = (await table.state()).waiting_for()
    if waiting["step"] == "turn":
        hand = await table.hand_message(players[waiting["turn"]])
        assert any(b.custom_id.endswith("|draw") for b in hand.buttons if b.custom_id)
        return
    if waiting["step"] == "hold":
        hand = await table.hand_message(players[waiting["turn"]])
        assert any(b.custom_id.endswith("|discard") for b in hand.buttons if b.custom_id)
        return
    for seat in waiting["owners"]:
        hand = await table.hand_message(players[seat])
        assert hand.buttons or hand.selects, f"seat {seat} has nothing to click"


async def test_a_leiff_table_reaches_its_next_turns_through_repeated_429s(sim, world, bot):
    players = [world.alice, world.bob, world.carol]
    match_id, _ = await open_table(sim, world, players)
    await idle(bot)
    table = LeiffTable(sim, bot, match_id, players, world.channel)
    await table.audit()
    for _ in range(3):
        before = await table.state()
        faults = flood(sim, CHANNEL_POST, CHANNEL_EDIT, FOLLOWUP, ORIGINAL_EDIT, OPEN_DM)
        faults.append(sim.rate_limit(CALLBACK, retry_after=3.5))
        result = await leiff_step(table, players)
        assert result.responded and not result.late_response
        await idle(bot, result)
        await table.audit()
        assert faults[-1].hits == 1 and sum(f.hits for f in faults[:-1]) > 0
        after = await table.state()
        assert len(after.log) > len(before.log)
        await assert_waited_for_players_have_controls(table, players)
        for fault in faults:
            fault.remaining = 0
    sim.assert_no_bot_errors()


async def test_undelivered_messages_are_sent_at_the_next_start(sim, world, bot, make_bot):
    players = [world.alice, world.bob, world.carol]
    match_id, _ = await open_table(sim, world, players)
    await idle(bot)
    table = LeiffTable(sim, bot, match_id, players, world.channel)
    await table.audit()
    state = await table.state()
    turn = state.waiting_for()["turn"]
    before = len(world.channel.messages)
    table_message = world.channel.messages[-1]
    picture = table_message.attachments[0].id
    # Discord keeps refusing every channel message and edit while the bot runs
    faults = flood(sim, CHANNEL_POST, CHANNEL_EDIT, count=10_000)
    drawn = await table.act(players[turn], "draw")
    await asyncio.gather(*drawn.handler_tasks, return_exceptions=True)
    assert len(world.channel.messages) == before, "nothing got through"
    # the bot stops with the step undelivered; Discord recovers; a new instance starts
    await bot.stop()
    for fault in faults:
        fault.remaining = 0
    restarted = await sim.start_bot(make_bot)
    await idle(restarted)
    table.handle = restarted
    await table.audit()
    after = await table.state()
    assert after.log[-1] == (turn, "draw")
    # the table's living message now shows the draw (the audit compared its picture)
    assert len(world.channel.messages) == before
    assert sim.state.messages[table_message.id].attachments[0].id != picture
    hand = await table.hand_message(players[turn])
    assert any(b.custom_id.endswith("|discard") for b in hand.buttons if b.custom_id)
    await table.act(players[turn], "discard")
    sim.assert_no_bot_errors()


def callbacks_refused_as_answered(sim: DiscordSimulator) -> int:
    """Callbacks Discord refused because the interaction had its answer already (40060)."""
    return sum(
        1
        for r in sim.state.requests
        if r.method == "POST" and r.route == CALLBACK.split(" ", 1)[1] and r.status == 400
    )


async def test_a_first_answer_that_reached_discord_unseen_is_not_posted_twice(sim, world, bot):
    """The board answering a move reaches Discord, but its HTTP answer comes back after the
    responder gave it up (2.2 s): the acknowledgement then meets 40060, and the board is
    not posted a second time; the one that arrived is the recorded board."""
    players = [world.alice, world.bob]
    match_id, _ = await start_board_match(sim, world.alice, world.bob, "lefe", 5)
    state = await stored_state(bot, match_id)
    boards = sum(1 for m in world.channel.messages if m.attachments and not m.ephemeral)
    slow = sim.slow_answer(CALLBACK, seconds=3.0)
    moved = await sim.slash(
        players[state.seat_to_move], "move", cell=pick_move(state, random.Random(2))
    )
    await idle(bot, moved)
    assert slow.hits == 1 and callbacks_refused_as_answered(sim) == 1
    assert moved.message is not None and not moved.message.ephemeral
    assert moved.followups == [], "the board was answered twice"
    assert sum(1 for m in world.channel.messages if m.attachments and not m.ephemeral) == boards + 1
    after = await stored_state(bot, match_id)
    board = last_board_message(world.channel)
    assert board.id == moved.message.id
    assert (await bot.client.service.get_match(match_id)).messages["board"] == board.id
    assert pinged(board) == {players[after.seat_to_move].id}
    assert "Resign" in live_buttons(board)
    sim.assert_no_bot_errors()


async def test_a_private_answer_that_reached_discord_unseen_is_not_sent_twice(sim, world, bot):
    """The same for a private answer: a refused move is told once."""
    match_id, _ = await start_board_match(sim, world.alice, world.bob, "lefe", 5)
    state = await stored_state(bot, match_id)
    waiting = (world.alice, world.bob)[1 - state.seat_to_move]
    slow = sim.slow_answer(CALLBACK, seconds=3.0)
    refused = await sim.slash(waiting, "move", cell=pick_move(state, random.Random(3)))
    await idle(bot, refused)
    assert slow.hits == 1 and callbacks_refused_as_answered(sim) == 1
    assert refused.ephemeral and refused.text
    assert refused.followups == [], "the refusal was sent twice"
    assert await stored_state(bot, match_id) == state
    sim.assert_no_bot_errors()
