"""The living table message of a Leiff table, through the simulator with Discord's real
rate limits on: one channel message edited in place, a human action and the bot steps
after it coalesced into very few edits, a new message only when attention is needed, and
the same message after a restart."""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any

from engine import get_game
from tests.bot.helpers import pinged
from tests.bot.leiff_driver import LeiffTable
from tests.bot.test_leiff import open_table, table_id
from tests.bot.test_vs_bot import click_action

BOTS = 5


def channel_requests(sim: Any, channel: Any, since: int) -> list[Any]:
    """REST requests to the channel's messages made since index ``since``."""
    prefix = f"/channels/{channel.id}/"
    return [r for r in sim.requests[since:] if r.path.startswith(prefix)]


def table_messages(channel: Any) -> list[Any]:
    return [m for m in channel.messages if any(a.filename == "table.png" for a in m.attachments)]


async def stored_state(handle: Any, match_id: int) -> Any:
    record = await handle.client.service.repo.get_match(match_id)
    return get_game("leiff").from_json(record.state)


async def bot_table(sim: Any, world: Any, handle: Any) -> tuple[int, LeiffTable]:
    """Alice and five bot seats, dealt; the bots' first turns played."""
    opened = await sim.slash(world.alice, "play", game="leiff")
    lobby = opened.last_message
    for _ in range(BOTS):
        await sim.click(world.alice, sim.state.messages[lobby.id], "Add bot seat")
    await sim.click(world.alice, sim.state.messages[lobby.id], "Start")
    match_id = table_id(lobby)
    seats = [world.alice] + [SimpleNamespace(id=-(n + 1), name=f"Bot {n + 1}") for n in range(BOTS)]
    table = LeiffTable(sim, handle, match_id, seats, world.channel)
    await table.audit()
    return match_id, table


async def test_a_human_action_and_the_bot_steps_after_it_are_one_or_two_table_edits(
    sim, world, bot
):
    match_id, table = await bot_table(sim, world, bot)
    (living,) = table_messages(world.channel)
    posts = edits = steps = actions = 0
    for _ in range(12):
        state = await stored_state(bot, match_id)
        waiting = state.waiting_for()
        if state.outcome is not None or waiting["step"] == "next":
            break
        assert 0 in waiting["owners"], waiting
        round_before = state.round
        log_before = len(state.log)
        since = len(sim.requests)
        # Alice draws and keeps the card (a discarded effect card would be hers to use)
        await click_action(sim, world.alice, "draw" if waiting["step"] == "turn" else "swap 1")
        await table.audit()  # waits for the bots and the table message; checks the picture
        state = await stored_state(bot, match_id)
        made = channel_requests(sim, world.channel, since)
        assert all(r.status != 429 for r in sim.requests[since:]), "a request was refused"
        new_posts = [r for r in made if r.method == "POST"]
        new_edits = [r for r in made if r.method == "PATCH"]
        attention = state.round != round_before or state.view(None)["round_over"]
        # at most: the human's step, the bots' burst, and a round's end as a new message
        assert len(made) <= 3, [(r.method, r.path) for r in made]
        if not attention:
            assert new_posts == [], "a new channel message without a reason"
            assert {r.path for r in new_edits} <= {
                f"/channels/{world.channel.id}/messages/{living.id}"
            }
        posts += len(new_posts)
        edits += len(new_edits)
        steps += len(state.log) - log_before
        actions += 1
    assert actions >= 3 and steps >= 2 * actions, (actions, steps)
    # Every bot step was played, and the channel saw far fewer requests than steps.
    assert posts + edits <= 2 * actions + 2 < steps, (posts, edits, steps)
    # The living message shows the table after the last bot step (the audit compared its
    # picture with the spectator view of the stored state), and the events since.
    current = sim.state.messages[table_messages(world.channel)[-1].id]
    assert "Bot" in current.text
    sim.assert_no_bot_errors()


async def test_the_table_message_is_edited_in_place_and_survives_a_restart(
    sim, world, bot, make_bot
):
    players = [world.alice, world.bob, world.carol]
    match_id, _ = await open_table(sim, world, players)
    table = LeiffTable(sim, bot, match_id, players, world.channel)
    await table.audit()
    (living,) = table_messages(world.channel)
    count = len(world.channel.messages)

    state = await table.state()
    turn = state.waiting_for()["turn"]
    await table.act(players[turn], "draw")
    await table.act(players[turn], "swap 1")
    assert len(world.channel.messages) == count, "a step posted a new message"
    edited = sim.state.messages[living.id]
    assert "draws a card" in edited.text and "slot 1" in edited.text

    # A step queued just before the process closes is still sent, and the next process
    # edits the same message rather than posting another.
    state = await table.state()
    turn = state.waiting_for()["turn"]
    await table.act(players[turn], "draw")
    since = len(sim.requests)
    hand = await table.hand_message(players[turn])
    discard = next(b.custom_id for b in hand.buttons if b.custom_id.endswith("|swap 2"))
    await sim.click(players[turn], hand, discard)
    table.handle = await sim.restart_bot(make_bot)
    await table.audit()  # the living message shows the stored state
    state = await table.state()
    assert state.log[-1] == (turn, "swap 2")
    turn = state.waiting_for()["turn"]
    await table.act(players[turn], "draw")
    await table.audit()
    assert len(world.channel.messages) == count
    made = channel_requests(sim, world.channel, since)
    assert {r.method for r in made} == {"PATCH"}
    assert {r.path for r in made} == {f"/channels/{world.channel.id}/messages/{living.id}"}
    sim.assert_no_bot_errors()


async def test_a_reminder_after_a_while_is_a_new_message_that_pings(sim, world, bot, clock):
    players = [world.alice, world.bob]
    match_id, _ = await open_table(sim, world, players)
    table = LeiffTable(sim, bot, match_id, players, world.channel)
    await table.audit()
    (living,) = table_messages(world.channel)
    state = await table.state()
    waiting_for = players[state.waiting_for()["turn"]]

    clock.advance(120)  # the reminder comes after two minutes (REMIND_AFTER_SECONDS)
    for update in await bot.client.service.tick():
        await bot.client.delivery.publish(update)
    await table.audit()
    reminder = table_messages(world.channel)[-1]
    assert reminder.id != living.id, "the reminder was an edit, which pings nobody"
    assert pinged(reminder) == {waiting_for.id}
    assert "left to act" in reminder.text
    # From now on the new message is the living one.
    await table.act(waiting_for, "draw")
    await table.act(waiting_for, "discard")  # the draw is shown with it (held back)
    assert table_messages(world.channel)[-1].id == reminder.id
    assert "draws a card" in sim.state.messages[reminder.id].text
    sim.assert_no_bot_errors()


async def test_a_draw_from_the_pile_is_shown_with_the_drawer_s_next_step(sim, world, bot):
    """A turn is one table edit: the draw waits for the discard (it changes nothing anyone
    else acts on), the drawer's own hand shows the card at once (their click's answer),
    and another player's step meanwhile shows the draw with it."""
    players = [world.alice, world.bob, world.carol]
    match_id, _ = await open_table(sim, world, players)
    table = LeiffTable(sim, bot, match_id, players, world.channel)
    await table.audit()
    (living,) = table_messages(world.channel)
    state = await table.state()
    turn = state.waiting_for()["turn"]
    drawer, other = players[turn], players[(turn + 1) % 3]

    revisions = len(sim.state.messages[living.id].history)
    since = len(sim.requests)
    drew = await table.act(drawer, "draw")
    await bot.client.delivery.bots_idle()
    assert not channel_requests(sim, world.channel, since), "the draw edited the table"
    assert len(sim.state.messages[living.id].history) == revisions
    assert any(b.label == "Discard it" for b in drew.last_message.buttons)  # the hand, at once
    assert "draws a card" not in sim.state.messages[living.id].text

    since = len(sim.requests)
    await table.act(drawer, "discard")
    await bot.client.delivery.bots_idle()
    edits = [r for r in channel_requests(sim, world.channel, since) if r.method == "PATCH"]
    assert len(edits) == 1, edits
    shown = sim.state.messages[living.id].text
    assert "draws a card" in shown and "discards" in shown, shown

    # Another player's step while a draw is held back shows both.
    state = await table.state()
    turn = state.waiting_for()["turn"]
    drawer, other = players[turn], players[(turn + 1) % 3]
    await table.act(drawer, "draw")
    before = sim.state.messages[living.id].text
    since = len(sim.requests)
    wrong = next(
        b.custom_id.split("|", 4)[-1]
        for b in (await table.hand_message(other)).buttons
        if (b.custom_id or "").split("|", 4)[-1].startswith("match ")
    )
    await table.act(other, wrong)
    await bot.client.delivery.bots_idle()
    assert len([r for r in channel_requests(sim, world.channel, since) if r.method == "PATCH"]) == 1
    after = sim.state.messages[living.id].text
    assert after != before and after.count("draws a card") > before.count("draws a card")
    sim.assert_no_bot_errors()


async def test_a_draw_held_back_is_shown_before_the_process_closes(sim, world, bot):
    players = [world.alice, world.bob]
    match_id, _ = await open_table(sim, world, players)
    table = LeiffTable(sim, bot, match_id, players, world.channel)
    await table.audit()
    (living,) = table_messages(world.channel)
    state = await table.state()
    await table.act(players[state.waiting_for()["turn"]], "draw")
    assert "draws a card" not in sim.state.messages[living.id].text
    await bot.stop()
    assert "draws a card" in sim.state.messages[living.id].text
