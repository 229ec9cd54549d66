"""Every bad input gets a clear private answer and changes nothing."""

from __future__ import annotations

import asyncio

import pytest

from discord_sim.interactions import InteractionNotAllowed
from tests.bot.helpers import ask_to_end, resign, start_board_match, stored_match, stored_state


async def assert_refused(result, *phrases: str) -> None:
    assert result.ephemeral, f"the refusal was public: {result.text!r}"
    text = result.text.lower()
    assert any(phrase.lower() in text for phrase in phrases), result.text


async def test_bad_inputs_are_answered_privately_and_change_nothing(sim, world, bot, clock):
    refused = await sim.slash(world.alice, "move", cell="f6")
    await assert_refused(refused, "no running match in this channel")

    await assert_refused(
        await sim.slash(world.alice, "play", game="lefe", opponent=world.alice),
        "cannot challenge yourself",
    )
    await assert_refused(
        await sim.slash(world.alice, "play", game="lefe", opponent=world.bob, size=9),
        "sizes 5, 6 or 7, not 9.",
        "size",
    )
    clock.advance(60)

    match_id, board = await start_board_match(sim, world.alice, world.bob, "lefe", 5)
    version = (await stored_match(bot, match_id)).version

    await assert_refused(await sim.slash(world.bob, "move", cell="c3"), "turn")
    await assert_refused(await sim.slash(world.alice, "move", cell="z99"), "z99")
    await assert_refused(await sim.slash(world.alice, "move", cell="hello"), "hello")
    await assert_refused(await sim.click(world.carol, board, "Abort"), "not playing")
    await assert_refused(await sim.slash(world.carol, "move", cell="c3"), "no running match")
    await assert_refused(
        await sim.slash(world.alice, "move", cell="c3", channel=world.other_channel),
        "no running match",
    )
    await assert_refused(await sim.slash(world.alice, "replay", match=match_id), "still running")
    await assert_refused(await sim.slash(world.alice, "replay", match=999), "no such")
    assert (await stored_match(bot, match_id)).version == version, "a refusal changed the match"
    assert await sim.autocomplete(world.bob, "move", option="cell", value="") == []

    # The pie button is only for the second player, and only as the second move.
    await sim.slash(world.alice, "move", cell="c3")
    board = sim.state.messages[sim.interactions[-1].last_message.id]
    await assert_refused(await sim.click(world.alice, board, "Swap colours"), "turn")
    kept = await sim.click(world.bob, board, "Keep colours")
    await assert_refused(kept, "/move")
    assert (await stored_state(bot, match_id)).moves == ("c3",)

    # A finished match refuses moves; its old challenge and buttons refuse politely too.
    await sim.slash(world.bob, "move", cell="d3")
    finished = (await resign(sim, world.bob)).last_message
    await assert_refused(await sim.slash(world.alice, "move", cell="e3"), "no running match")
    offer = (await sim.click(world.alice, finished, "Rematch")).last_message
    assert all(b.disabled for b in sim.state.messages[finished.id].buttons), (
        "a used button stays live"
    )
    await assert_refused(await sim.click(world.alice, offer, "Accept"), "your own challenge")
    await assert_refused(await sim.click(world.carol, offer, "Decline"), "only the challenged")
    sim.assert_no_bot_errors()


async def test_expired_challenge_and_stale_board_buttons(sim, world, bot, clock):
    offer = (
        await sim.slash(world.alice, "play", game="dalen", opponent=world.bob, size=5)
    ).last_message
    clock.advance(3600)  # past the 15-minute expiry, before any clock tick ran
    await assert_refused(await sim.click(world.bob, offer, "Accept"), "expired")
    # the clock tick then marks the challenge message as over
    assert await bot.client.tick_once() == 1
    assert not any(not b.disabled for b in sim.state.messages[offer.id].buttons)
    assert "expired" in sim.state.messages[offer.id].text


async def test_two_players_clicking_at_once(sim, world, bot):
    match_id, _ = await start_board_match(sim, world.alice, world.bob, "lefe", 5)
    board = (await sim.slash(world.alice, "move", cell="c3")).last_message
    # Alice is asked whether to resign; Bob swaps while she says Yes: exactly one of them
    # wins (her question was asked at the version Bob's swap moves on).
    question = (await ask_to_end(sim, world.alice, board)).last_message
    swap, resigned = await asyncio.gather(
        sim.click(world.bob, board, "Swap colours"),
        sim.click(world.alice, question, "Yes, resign"),
    )
    outcomes = sorted([swap.ephemeral, resigned.ephemeral])
    assert outcomes == [False, True], (swap.text, resigned.text)
    loser = swap if swap.ephemeral else resigned
    assert "moved on" in loser.text or "over" in loser.text
    match = await stored_match(bot, match_id)
    assert match.version == 2  # creation + c3 + exactly one of the two clicks
    sim.assert_no_bot_errors()


async def test_settings_need_manage_server(sim, world, bot):
    with pytest.raises(InteractionNotAllowed):
        await sim.slash(world.alice, "settings")
    shown = await sim.slash(world.admin, "settings")
    assert shown.ephemeral and "Leiff: drinking rules (a tally of drinks): **off**" in shown.text
    await assert_refused(
        await sim.slash(world.admin, "settings", key="leiff_turn_seconds", value="3"),
        "Leiff: time per turn",
    )
    await assert_refused(await sim.slash(world.admin, "settings", key="leiff_drinking"), "value")
    settings = await bot.client.service.get_settings(world.guild.id)
    assert settings.leiff_turn_seconds == 300 and settings.leiff_drinking is False
    changed = await sim.slash(world.admin, "settings", key="challenge_cooldown_seconds", value="0")
    assert (
        changed.ephemeral and "Challenges: wait before challenging again: **0 s**" in changed.text
    )


async def test_games_only_in_the_allowed_channels(sim, world, bot):
    allowed = f"<#{world.other_channel.id}>"
    changed = await sim.slash(world.admin, "settings", key="allowed_channels", value=allowed)
    assert allowed in changed.text
    await assert_refused(await sim.slash(world.alice, "play", game="leiff"), "cannot be hosted")
    opened = await sim.slash(world.alice, "play", game="leiff", channel=world.other_channel)
    assert not opened.ephemeral and "Join" in [b.label for b in opened.last_message.buttons]


async def test_a_long_move_is_refused_with_a_short_safe_excerpt(sim, world, bot):
    match_id, _ = await start_board_match(sim, world.alice, world.bob, "lefe", 5)
    version = (await stored_match(bot, match_id)).version
    typed = "c3 " + "x" * 2990
    refused = await sim.slash(world.alice, "move", cell=typed)
    await assert_refused(refused, "is not a move")
    assert len(refused.text) < 200 and "…" in refused.text, refused.text
    assert "done" not in refused.text.lower()
    hostile = await sim.slash(world.alice, "move", cell=f"**<@{world.bob.id}>** `@everyone`")
    await assert_refused(hostile, "is not a move")
    assert f"<@{world.bob.id}>" not in hostile.text and "**" not in hostile.text.replace("\\*", "")
    assert (await stored_match(bot, match_id)).version == version
    sim.assert_no_bot_errors()


async def test_an_undeliverable_refusal_never_reads_as_a_success(sim, world, bot):
    match_id, _ = await start_board_match(sim, world.alice, world.bob, "lefe", 5)
    route = "POST /interactions/{interaction_id}/{token}/callback"
    sim.fail_requests(route, status=400, code=50035, message="Invalid Form Body")
    refused = await sim.slash(world.bob, "move", cell="c3")  # not Bob's turn
    assert refused.ephemeral and "could not show my answer" in refused.text, refused.text
    # Neither the refusal nor the generic answer could be sent: the placeholder says so.
    sim.fail_requests(route, status=400, code=50035, message="Invalid Form Body", count=2)
    refused = await sim.slash(world.bob, "move", cell="c3")
    assert refused.ephemeral and "could not show my answer" in refused.text, refused.text
    assert "done" not in refused.text.lower()
    assert (await stored_state(bot, match_id)).moves == ()


async def test_a_move_after_the_deadline_is_refused_and_the_channel_sees_the_loss(
    sim, world, bot, clock
):
    match_id, _ = await start_board_match(sim, world.alice, world.bob, "lefe", 5)
    await sim.slash(world.alice, "move", cell="c3")
    await sim.slash(world.bob, "move", cell="d3")
    clock.advance(86400)  # Alice's day is over; no clock tick has run yet (a restart, say)
    late = await sim.slash(world.alice, "move", cell="e3")
    await assert_refused(late, "too late", "ran out")
    match = await stored_match(bot, match_id)
    assert match.status == "finished" and match.result["winners"] == [world.bob.id]
    assert (await stored_state(bot, match_id)).moves == ("c3", "d3")
    result = world.channel.messages[-1]
    assert "ran out of time" in result.text and "Ratings" in result.text
    assert not any(not b.disabled for b in result.buttons if b.label not in ("Rematch", "Review"))
    assert await bot.client.tick_once() == 0
    sim.assert_no_bot_errors()


async def test_refusals_are_whole_sentences_that_keep_what_was_typed(sim, world, bot):
    setting = await sim.slash(world.admin, "settings", key="leiff_turn_seconds", value="3")
    assert setting.text == "Leiff: time per turn: 3 s is out of range (allowed: 15 s to 1 day)."
    await start_board_match(sim, world.alice, world.bob, "lefe", 5)
    typed = await sim.slash(world.alice, "move", cell="hello")
    assert typed.text == "“hello” is not a Lefe move; write a cell such as e5, or e5xg6."
    turn = await sim.slash(world.bob, "move", cell="c3")
    assert turn.text == f"It is <@{world.alice.id}>'s turn."
    self_challenge = await sim.slash(world.alice, "play", game="dalen", opponent=world.alice)
    assert self_challenge.text == "You cannot challenge yourself."
