"""Leiff players' private messages: a click is judged against the newest state (other
players' moves never make it stale), and DMs that Discord refused are tried again."""

from __future__ import annotations

import pytest

from tests.bot.leiff_driver import LeiffTable
from tests.bot.test_leiff import open_table, table_id

LOOK_STEP_SECONDS = 86400  # long clocks: these tests move time without wanting timeouts


def control(message, action: str):
    """The live button of ``action`` in a message (its custom id ends with the action)."""
    for button in message.buttons:
        if button.custom_id and button.custom_id.split("|", 4)[-1] == action:
            assert not button.disabled
            return button.custom_id
    raise AssertionError(f"no button for {action!r} in {[b.custom_id for b in message.buttons]}")


async def long_clocks(sim, world) -> None:
    for key in ("leiff_turn_seconds", "leiff_choice_seconds"):
        await sim.slash(world.admin, "settings", key=key, value=str(LOOK_STEP_SECONDS))


async def open_team_table(sim, world, players) -> int:
    host, *guests = players
    lobby = (await sim.slash(host, "play", game="leiff", teams=True)).last_message
    for guest in guests:
        await sim.click(guest, lobby, "Join")
    await sim.click(host, lobby, "Start")
    return table_id(lobby)


async def looks_of(handle, match_id: int) -> dict[int, int]:
    log = await handle.client.service.action_log(match_id)
    counted: dict[int, int] = {}
    for row in log:
        if row.action.startswith("look") and row.user_id is not None:
            counted[row.user_id] = counted.get(row.user_id, 0) + 1
    return counted


# Its point is which clicks count; the limits (real ones in test_stalls) only made the
# table's last coalesced edit wait out a window at the end.
@pytest.mark.compressed_rate_limits
async def test_several_players_owing_a_choice_each_have_their_first_click_accepted(sim, world, bot):
    """The team deal: everyone picks two cards to look at, at once. Each player clicks the
    message they have (a DM nobody else's look touched, or an ephemeral hand shown before
    the others looked): every click counts, none is refused as stale."""
    await long_clocks(sim, world)
    sim.close_dms(world.carol)
    players = [world.alice, world.bob, world.carol, world.admin]
    match_id = await open_team_table(sim, world, players)
    # Everyone owes a choice: one line names them all, each pinged once.
    started = next(m for m in world.channel.messages if "The game starts" in m.text)
    (line,) = [text for text in started.text.split("\n") if "your move" in text]
    assert (
        line
        == ", ".join(f"<@{p.id}>" for p in players[:3]) + f" and <@{world.admin.id}>, your move."
    )
    notice = next(m for m in world.channel.messages if "DMs are closed" in m.text)
    carols = (await sim.click(world.carol, notice, "Show my hand")).last_message
    assert carols.ephemeral
    dms = {p.id: sim.dms(p)[-1] for p in players if p is not world.carol}
    requests_before = len(sim.requests)

    for player in players:
        message = carols if player is world.carol else dms[player.id]
        clicked = await sim.click(player, message, control(message, "look 1"))
        assert not clicked.ephemeral or "changed" not in clicked.text, clicked.text
        assert "moved on" not in (clicked.text or ""), clicked.text
    assert await looks_of(bot, match_id) == {p.id: 1 for p in players}
    # Nobody's DM was edited for somebody else's look: each message still works as it is.
    edits = [r for r in sim.requests[requests_before:] if r.method == "PATCH"]
    assert len(edits) <= len(players), edits

    for player in reversed(players):
        message = sim.state.messages[(carols if player is world.carol else dms[player.id]).id]
        await sim.click(player, message, control(message, "look 2"))
    assert await looks_of(bot, match_id) == {p.id: 2 for p in players}
    assert not [i for i in sim.interactions if "moved on" in (i.text or "")]
    sim.assert_no_bot_errors()


async def test_a_click_on_a_hand_that_changed_for_its_player_is_refused_plainly(sim, world, bot):
    """An older "Show my hand" answer still shows the turn's start after its player drew
    from a newer one: its button is refused in words that fit Leiff, and nothing moves."""
    await long_clocks(sim, world)
    players = [world.alice, world.bob]
    for player in players:
        sim.close_dms(player)
    match_id, _ = await open_table(sim, world, players)
    table = LeiffTable(
        sim, bot, match_id, players, world.channel, closed_dms={p.id for p in players}
    )
    state = await table.state()
    turn = players[state.waiting_for()["turn"]]
    notice = next(
        m for m in world.channel.messages if "Show my hand" in [b.label for b in m.buttons]
    )
    older = (await sim.click(turn, notice, "Show my hand")).last_message
    newer = (await sim.click(turn, notice, "Show my hand")).last_message
    await sim.click(turn, newer, control(newer, "draw"))
    drawn = (await table.state()).log
    refused = await sim.click(turn, older, control(older, "draw"))
    assert refused.last_message.ephemeral, "the refusal was public"
    assert "your cards or your choices changed" in refused.text.lower(), refused.text
    assert "board" not in refused.text
    assert (await table.state()).log == drawn
    # The outdated message was brought up to date: its buttons are the held card's now.
    refreshed = sim.state.messages[older.id]
    assert any(b.custom_id.endswith("|discard") for b in refreshed.buttons)
    sim.assert_no_bot_errors()


def notices(world) -> list:
    return [m for m in world.channel.messages if "DMs are closed" in m.text]


def hands_in_dms(sim, user) -> list:
    return [m for m in sim.dms(user) if m.attachments and m.attachments[0].filename == "hand.png"]


async def test_show_my_hand_tries_the_dms_again_and_the_hand_moves_back_there(sim, world, bot):
    await long_clocks(sim, world)
    sim.close_dms(world.carol)
    players = [world.alice, world.carol]
    match_id, _ = await open_table(sim, world, players)
    (notice,) = notices(world)
    assert hands_in_dms(sim, world.carol) == []
    sim.open_dms(world.carol)
    shown = await sim.click(world.carol, notice, "Show my hand")
    assert shown.last_message.ephemeral and "DMs are open again" in shown.text
    (hand,) = hands_in_dms(sim, world.carol)
    assert hand.buttons or hand.selects
    first_picture = hand.attachments[0].data
    # From now on the game goes on in Carol's DMs, like everybody else's (the driver acts
    # through DMs and checks every picture against the truth).
    table = LeiffTable(sim, bot, match_id, players, world.channel)
    await table.audit()
    # (her DM changes when her own part does: play until the table waits for her)
    for _ in range(8):
        state = await table.state()
        owner = state.waiting_for()["owners"][0]
        await table.act(players[owner], state.default_action(owner))
        if 1 in (await table.state()).waiting_for()["owners"]:
            break
    assert len(notices(world)) == 1
    assert sim.state.messages[hand.id].attachments[0].data != first_picture
    sim.assert_no_bot_errors()


async def test_the_next_table_tries_the_dms_again(sim, world, bot):
    await long_clocks(sim, world)
    sim.close_dms(world.carol)
    await open_table(sim, world, [world.alice, world.carol])
    assert len(notices(world)) == 1 and hands_in_dms(sim, world.carol) == []
    sim.open_dms(world.carol)
    second, _ = await open_table(sim, world, [world.bob, world.carol])
    (hand,) = hands_in_dms(sim, world.carol)
    assert f"table #{second}" in hand.text
    assert len(notices(world)) == 1, "a second notice although the DM got through"
    sim.assert_no_bot_errors()


async def test_dms_are_tried_again_after_a_while(sim, world, bot, clock):
    await long_clocks(sim, world)
    sim.close_dms(world.carol)
    players = [world.alice, world.carol]
    match_id, _ = await open_table(sim, world, players)
    table = LeiffTable(sim, bot, match_id, players, world.channel, closed_dms={world.carol.id})
    await table.audit()
    assert (await table.state()).waiting_for()["turn"] == 0  # Alice's turn
    sim.open_dms(world.carol)
    await table.act(world.alice, "draw")  # right after the refusal: no new try yet
    assert hands_in_dms(sim, world.carol) == []
    clock.advance(601)
    await table.act(world.alice, "discard")
    (hand,) = hands_in_dms(sim, world.carol)
    assert hand.buttons or hand.selects
    assert len(notices(world)) == 1
    sim.assert_no_bot_errors()
