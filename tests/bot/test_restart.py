"""A restart is a new client instance on the same database: old messages keep working."""

from __future__ import annotations

import pytest

from i18n import translate
from tests.bot.helpers import (
    check_board_message,
    last_board_message,
    start_board_match,
    stored_state,
)
from tests.bot.leiff_driver import LeiffTable, play_to_the_gossip
from tests.bot.test_leiff import open_table, seed_with_an_early_gossip


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
    # the clicked board stays as it was, and a second click is refused: it moved on
    again = await sim.click(world.bob, board_before, "Swap colours")
    assert again.ephemeral and "that board has moved on" in again.text.lower()

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
    await table.act(players[turn], "discard")  # the draw is shown with it (held back)
    assert fault.remaining == 0, "the rate limit was never hit"
    assert len(world.channel.messages) == before
    living = sim.state.messages[table.newest_table_message()]
    assert "draws a card" in living.text
    state = await table.state()
    assert list(state.log[-2:]) == [(turn, "draw"), (turn, "discard")]
    sim.assert_no_bot_errors()


# A table played in one channel until a step comes: its point is that step, not the limits.
@pytest.mark.compressed_rate_limits
async def test_a_klatschtante_form_opened_before_a_restart_is_played_after_it(
    sim, world, language, make_bot
):
    """The rule form is one of the bot's own ids (``lb|f|<match>|<version>|~form:rule``):
    the process after a restart plays a form the one before opened, as it plays an old
    button; and the button opens a form again after the restart."""
    seed = seed_with_an_early_gossip(2)
    handle = await sim.start_bot(lambda: make_bot(seed_source=lambda: seed))
    await sim.slash(world.admin, "settings", key="leiff_specials", value="on")
    players = [world.alice, world.bob]
    match_id, _ = await open_table(sim, world, players, language)
    languages = {user.id: language for user in players}
    table = LeiffTable(
        sim,
        handle,
        match_id,
        players,
        world.channel,
        channel_language=language,
        languages=languages,
    )
    writer = await play_to_the_gossip(table, players)
    hand = await table.hand_message(writer)
    button = next(b for b in hand.buttons if b.custom_id and b.custom_id.endswith("~prompt:rule"))
    opened = await sim.click(writer, hand, button.custom_id)
    assert opened.modal is not None

    table.handle = await sim.restart_bot(lambda: make_bot(seed_source=lambda: seed))
    label = translate(language, "bot.leiff.rule_form.label")
    rule = "whoever laughs draws"
    submitted = await sim.submit_modal(writer, opened, {label: rule})
    assert not submitted.ephemeral, submitted.text
    await table.audit()
    assert (await table.state()).view(None)["rule"] == rule
    assert any(rule in m.text for m in world.channel.messages)

    # the same form sent again is refused: that step is over (the version moved on)
    again = await sim.submit_modal(writer, opened, {label: "something else"})
    assert again.ephemeral
    assert (await table.state()).view(None)["rule"] == rule
    sim.assert_no_bot_errors()


# A table played in one channel until a step comes: its point is that step, not the limits.
@pytest.mark.compressed_rate_limits
async def test_the_klatschtante_button_opens_its_form_after_a_restart(sim, world, make_bot):
    seed = seed_with_an_early_gossip(2)
    handle = await sim.start_bot(lambda: make_bot(seed_source=lambda: seed))
    await sim.slash(world.admin, "settings", key="leiff_specials", value="on")
    players = [world.alice, world.bob]
    match_id, _ = await open_table(sim, world, players)
    table = LeiffTable(sim, handle, match_id, players, world.channel)
    writer = await play_to_the_gossip(table, players)

    table.handle = await sim.restart_bot(lambda: make_bot(seed_source=lambda: seed))
    await table.write_rule(writer, "no phones at the table")
    assert (await table.state()).view(None)["rule"] == "no phones at the table"
    sim.assert_no_bot_errors()
