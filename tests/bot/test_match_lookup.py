"""`/move` and `/resign` reach the caller's board match in a channel whatever else they play
there: a Leiff table never hides it, and with two board matches the ``match`` option (with
an autocomplete a player reads) picks one and the answer says which."""

from __future__ import annotations

from tests.bot.helpers import match_id_of, resign, start_board_match, stored_match, stored_state
from tests.bot.test_leiff import table_id


async def test_a_leiff_table_in_the_channel_never_hides_a_board_match(sim, world, bot):
    match_id, _ = await start_board_match(sim, world.alice, world.bob, "lefe", 5)
    # Carol opens a Leiff table in the same channel; Alice and Bob join, Carol starts it.
    lobby = (await sim.slash(world.carol, "play", game="leiff")).last_message
    for player in (world.alice, world.bob):
        await sim.click(player, lobby, "Join")
    await sim.click(world.carol, lobby, "Start")
    assert (await stored_match(bot, table_id(lobby))).status == "running"

    suggestions = await sim.autocomplete(world.alice, "move", option="cell", value="c")
    assert "c3" in [choice["value"] for choice in suggestions]
    moved = await sim.slash(world.alice, "move", cell="c3")
    assert not moved.ephemeral and match_id_of(moved.last_message) == match_id
    assert (await stored_state(bot, match_id)).moves == ("c3",)

    await sim.slash(world.bob, "move", cell="d3")
    resigned = await resign(sim, world.bob)
    assert not resigned.ephemeral, resigned.text
    match = await stored_match(bot, match_id)
    assert match.status == "finished" and match.result["winners"] == [world.alice.id]
    assert (await stored_match(bot, table_id(lobby))).status == "running"
    sim.assert_no_bot_errors()


async def test_with_two_board_matches_the_match_option_chooses_and_the_answer_says_which(
    sim, world, bot, clock
):
    lefe, _ = await start_board_match(sim, world.alice, world.bob, "lefe", 5)
    clock.advance(60)  # past the challenge cooldown
    dalen, _ = await start_board_match(sim, world.alice, world.carol, "dalen", 5)
    choices = await sim.autocomplete(world.alice, "move", option="match", value="", cell="c3")
    assert {(c["name"], c["value"]) for c in choices} == {
        (f"Lefe vs bob (#{lefe})", lefe),
        (f"Dalen vs carol (#{dalen})", dalen),
    }
    typed = await sim.autocomplete(world.alice, "resign", option="match", value="dal")
    assert [c["value"] for c in typed] == [dalen]

    # Alice is to move in both: without the option she is asked to choose, nothing moves.
    asked = await sim.slash(world.alice, "move", cell="c3")
    assert asked.ephemeral and "`match` option" in asked.text
    assert f"Lefe vs bob (#{lefe})" in asked.text and f"Dalen vs carol (#{dalen})" in asked.text
    assert await sim.autocomplete(world.alice, "move", option="cell", value="c") == []
    played = await sim.slash(world.alice, "move", cell="c3", match=dalen)
    assert match_id_of(played.last_message) == dalen
    assert (await stored_state(bot, dalen)).moves == ("c3",)

    # Now only the Lefe match waits for her: a move without the option goes there and the
    # answer says so.
    suggestions = await sim.autocomplete(world.alice, "move", option="cell", value="e")
    assert "e5" in [choice["value"] for choice in suggestions]
    played = await sim.slash(world.alice, "move", cell="e5")
    assert match_id_of(played.last_message) == lefe
    assert f"Played in Lefe vs bob (#{lefe})" in played.last_message.text
    assert (await stored_state(bot, lefe)).moves == ("e5",)

    # Resigning never guesses between two matches.
    refused = await sim.slash(world.alice, "resign")
    assert refused.ephemeral and "`match` option" in refused.text
    assert (await stored_match(bot, lefe)).status == (await stored_match(bot, dalen)).status
    not_mine = await sim.slash(world.bob, "resign", match=dalen)
    assert not_mine.ephemeral and f"#{dalen} is not one of your" in not_mine.text
    resigned = await resign(sim, world.alice, match=dalen)
    assert match_id_of(resigned.last_message) == dalen
    assert (await stored_match(bot, dalen)).result["winners"] == [world.carol.id]
    assert (await stored_match(bot, lefe)).status == "running"
    sim.assert_no_bot_errors()
