"""A 9 at a table of four: the swap is picked in two steps in the DM, and Decline stays.

At four players a 9 offers 96 swaps, more than the menus of one message hold beside the
other actions; the player picks the first card, then the second (or goes back).
"""

from __future__ import annotations

import pytest

from tests.bot.leiff_driver import LeiffTable
from tests.bot.test_components import nine_to_answer
from tests.bot.test_leiff import open_table


# A table played until a 9 comes, in one channel: its point is the two picks, not the limits.
@pytest.mark.compressed_rate_limits
async def test_a_nine_at_four_players_is_answered_by_two_picks(sim, world, make_bot):
    dan = sim.add_member(world.guild, "dan")
    players = [world.alice, world.bob, world.carol, dan]
    _, _, seed = nine_to_answer(4)  # the deal that brings a 9 early
    handle = await sim.start_bot(lambda: make_bot(seed_source=lambda: seed))
    match_id, _ = await open_table(sim, world, players)
    table = LeiffTable(sim, handle, match_id, players, world.channel)
    await table.audit()
    for _ in range(80):
        state = await table.state()
        waiting = state.waiting_for()
        if waiting["step"] == "effect" and str(waiting.get("card")) == "9":
            break
        if waiting["step"] == "turn":
            await table.act(players[waiting["turn"]], "draw")
        elif waiting["step"] == "hold":
            await table.act(players[waiting["turn"]], "discard")
        else:
            first = waiting["owners"][0]
            await table.act(players[first], state.default_action(first))
    else:
        raise AssertionError("no 9 came up")
    owner = waiting["owners"][0]
    player = players[owner]
    hand = await table.hand_message(player)
    assert any(b.custom_id.endswith("|decline") for b in hand.buttons if b.custom_id)
    first_menu = next(s for s in hand.selects if any(v.startswith("~trade:") for v in s.values))
    trade = next(a for a in state.legal_actions(owner) if a.startswith("trade "))
    first = trade.split()[1]
    picked = await sim.select(player, hand, first_menu.custom_id, f"~trade:{first}")
    assert not picked.ephemeral and picked.response_type == 7, picked.text
    second = sim.state.messages[hand.id]
    offered = [b.custom_id.rsplit("|", 1)[-1] for b in second.buttons if b.custom_id] + [
        v for s in second.selects for v in s.values
    ]
    assert "~back" in offered and trade in offered
    assert all(o.startswith(f"trade {first} ") for o in offered if o != "~back")
    await table.act(player, trade)
    after = await table.state()
    assert after.log[-1] == (owner, trade)
    sim.assert_no_bot_errors()
