"""Leaving a running Leiff table: asked to confirm (in the player's DM, or answering
``/leave`` in the table's channel), a bot plays their
hand from then on (at two players the other wins), the table goes on, and nothing says
what the hand held: not the channel, not the other players' DMs, not an answer, not a log.
"""

from __future__ import annotations

import logging
import re

import pytest

from i18n import translate
from tests.bot.leiff_driver import LeiffTable
from tests.bot.test_leiff import open_table
from tests.bot.test_leiff_private import long_clocks

LEAVE = "~quit"
CONFIRM = "~quit!"


async def leave(sim, table: LeiffTable, user) -> object:
    """The player presses Leave the table in their DM, then confirms."""
    hand = await table.hand_message(user)
    button = next(b for b in hand.buttons if b.custom_id and b.custom_id.endswith("|" + LEAVE))
    asked = await sim.click(user, hand, button.custom_id)
    assert asked.ephemeral and "for good" in asked.text, asked.text
    # nothing happened yet: asking is not leaving
    assert not any(
        s.removed for s in (await table.handle.client.service.get_match(table.match_id)).seats
    )
    confirm = next(b for b in asked.last_message.buttons if b.custom_id.endswith("|" + CONFIRM))
    await sim.click(user, asked.last_message, confirm.custom_id)
    await table.audit()
    # the question became the answer, its button gone
    return sim.state.messages[asked.last_message.id]


async def play_steps(table: LeiffTable, players, steps: int, left_seat: int) -> int:
    """Play ``steps`` steps of whoever the table waits for (never the seat that left:
    the bot plays it); returns how many steps the bot played for that seat."""
    played_for_them = 0
    for _ in range(steps):
        state = await table.state()
        waiting = state.waiting_for()
        if state.outcome is not None or waiting["step"] == "next":
            break
        assert left_seat not in waiting["owners"], "the table waits for a player who left"
        owner = waiting["owners"][0]
        before = len(state.log)
        action = state.default_action(owner)
        if waiting["step"] == "hold":
            action = "swap 1"  # keep the drawn card: no effect to answer
        await table.act(players[owner], action)
        state = await table.state()
        played_for_them += sum(1 for seat, _ in state.log[before:] if seat == left_seat)
    return played_for_them


# A whole game in one channel: its point is the flow, not the limits (see conftest).
@pytest.mark.compressed_rate_limits
async def test_a_player_leaves_a_running_table_and_a_bot_plays_their_hand(
    sim, world, bot, make_bot, caplog
):
    caplog.set_level(logging.DEBUG, logger="bot")
    await long_clocks(sim, world)
    players = [world.alice, world.bob, world.carol]
    match_id, _ = await open_table(sim, world, players)
    table = LeiffTable(sim, bot, match_id, players, world.channel)
    await table.audit()

    done = await leave(sim, table, world.bob)
    assert f"You left table #{match_id}" in done.text and not done.buttons
    match = await bot.client.service.get_match(match_id)
    assert [s.removed for s in match.seats] == [False, True, False]
    # announced in the channel's table message, naming no card of the hand
    living = sim.state.messages[table.newest_table_message()]
    (leave_line,) = [line for line in living.text.splitlines() if "leaves" in line]
    assert leave_line == f"<@{world.bob.id}> leaves the table; a bot plays their hand from now on."
    # Bob's DM says he left and offers nothing any more
    bob_dm = [m for m in sim.dms(world.bob) if m.attachments][-1]
    assert "You left this table" in bob_dm.text
    assert not bob_dm.buttons and not bob_dm.selects

    # The table goes on: Alice and Carol play, the bot plays Bob's seat in between.
    played = await play_steps(table, players, 12, left_seat=1)
    assert played > 0, "nobody played the seat of the player who left"
    # A restart changes nothing: the seat is still played by the bot.
    table.handle = await sim.restart_bot(make_bot)
    played += await play_steps(table, players, 8, left_seat=1)
    assert played > 2

    # Nothing showed Bob's hand to anyone else: every message and picture passed the
    # driver's audit (each card a text names was known to its audience at some step; the
    # table pictures are the spectator's view), and the announcement names no card.
    assert table.checked_pictures > 10
    # the bot's log lines carry no state and no card
    logged = "\n".join(r.getMessage() for r in caplog.records if r.name.startswith("bot"))
    assert '"hands"' not in logged and not re.search(r"\[\w+\]", logged), logged
    sim.assert_no_bot_errors()


async def test_at_two_players_the_one_who_stays_wins(sim, world, bot):
    await long_clocks(sim, world)
    players = [world.alice, world.bob]
    match_id, _ = await open_table(sim, world, players)
    table = LeiffTable(sim, bot, match_id, players, world.channel)
    await table.audit()
    await leave(sim, table, world.alice)
    match = await bot.client.service.get_match(match_id)
    assert match.status == "finished"
    assert match.result["winners"] == [world.bob.id]
    # the end of the game is a new channel message, and it names no card of Alice's
    final = sim.state.messages[table.newest_table_message()]
    assert f"<@{world.alice.id}> leaves the table." in final.text
    assert "[" not in final.text
    assert [b.label for b in final.buttons] == ["Play again"]  # the only button left
    sim.assert_no_bot_errors()


# A table played in one channel until a step comes: its point is that step, not the limits.
@pytest.mark.compressed_rate_limits
async def test_leave_by_command_asks_first_and_then_a_bot_plays_the_hand(sim, world, language, bot):
    """``/leave`` (German ``/verlassen``) in the table's channel does what the DM button
    does: it asks privately, in the member's language, and leaving takes the confirmation."""
    await long_clocks(sim, world)
    players = [world.alice, world.bob, world.carol]
    match_id, _ = await open_table(sim, world, players, language)
    languages = {user.id: language for user in players}
    table = LeiffTable(
        sim, bot, match_id, players, world.channel, channel_language=language, languages=languages
    )
    await table.audit()
    asked = await sim.slash(world.bob, "leave")
    assert asked.ephemeral
    assert asked.text == translate(language, "bot.leiff.leave.confirm", table=match_id)
    assert not any(s.removed for s in (await bot.client.service.get_match(match_id)).seats)
    (confirm,) = asked.last_message.buttons
    assert confirm.label == translate(language, "bot.leiff.leave.yes")
    await sim.click(world.bob, asked.last_message, confirm.custom_id)
    await table.audit()
    match = await bot.client.service.get_match(match_id)
    assert [s.removed for s in match.seats] == [False, True, False]
    answer = sim.state.messages[asked.last_message.id]
    assert answer.text == translate(language, "bot.leiff.leave.done", table=match_id)
    assert not answer.buttons
    # the table goes on, Bob's seat played by the bot; asking again finds no table of his
    assert await play_steps(table, players, 10, left_seat=1) > 0
    again = await sim.slash(world.bob, "leave")
    assert again.ephemeral
    assert again.text == translate(language, "bot.leiff.leave.none_here")
    sim.assert_no_bot_errors()


async def test_leave_by_command_never_guesses_between_two_tables(sim, world, bot):
    await long_clocks(sim, world)
    first, _ = await open_table(sim, world, [world.alice, world.bob])
    second, _ = await open_table(sim, world, [world.carol, world.alice])
    # the list offers Alice's two tables here, Bob's only one
    offered = await sim.autocomplete(world.alice, "leave", option="table", value="")
    assert sorted(choice["value"] for choice in offered) == [first, second]
    assert {choice["name"] for choice in offered} == {
        f"Leiff table #{first}",
        f"Leiff table #{second}",
    }
    assert [
        c["value"] for c in await sim.autocomplete(world.bob, "leave", option="table", value="")
    ] == [first]

    which = await sim.slash(world.alice, "leave")
    assert which.ephemeral and not which.last_message.buttons
    assert f"#{first}" in which.text and f"#{second}" in which.text
    not_bobs = await sim.slash(world.bob, "leave", table=second)
    assert not_bobs.text == translate("en", "bot.leiff.leave.not_yours", table=second)
    chosen = await sim.slash(world.alice, "leave", table=second)
    assert chosen.text == translate("en", "bot.leiff.leave.confirm", table=second)
    for match_id in (first, second):
        match = await bot.client.service.get_match(match_id)
        assert not any(s.removed for s in match.seats), "a table was left without confirming"
    sim.assert_no_bot_errors()


async def test_leave_by_command_leaves_a_lobby_at_once(sim, world, bot):
    opened = await sim.slash(world.alice, "play", game="leiff")
    lobby = opened.last_message
    await sim.click(world.bob, lobby, translate("en", "bot.leiff.button.join"))
    match_id = int(lobby.buttons[0].custom_id.split("|")[2])
    left = await sim.slash(world.bob, "leave")
    assert left.ephemeral
    assert left.text == translate("en", "bot.leiff.leave.lobby_done", table=match_id)
    match = await bot.client.service.get_match(match_id)
    assert world.bob.id not in match.user_ids
    # the channel shows the lobby without Bob, with its buttons
    shown = [m for m in world.channel.messages if not m.ephemeral][-1]
    assert f"<@{world.bob.id}> leaves the table." in shown.text
    assert "Players (1/6): **alice**." in shown.text
    # one live lobby: the older message lost its buttons
    if shown.id != lobby.id:
        assert not sim.state.messages[lobby.id].buttons
    assert {b.label for b in shown.buttons} >= {translate("en", "bot.leiff.button.join")}
    sim.assert_no_bot_errors()
