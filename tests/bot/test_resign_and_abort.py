"""Ending a board match early, as players do it, in English and in German.

Resigning asks first (the board's button and ``/resign`` alike): a private "Resign match
#N? Yes / No" whose buttons survive a restart and refuse a board that moved on. A player
who has not moved yet is offered the abort instead, and a match in which a player never
moved ends unrated on time ("aborted"): nobody's rating, record or statistics change.
"""

from __future__ import annotations

import re

from bot.common.outgoing import full_sentence
from bot.common.pictures import board_png
from engine import get_board_game
from i18n import translate
from tests.bot.helpers import (
    CONFIRMS,
    ask_to_end,
    last_board_message,
    stored_match,
)
from tests.bot.language_check import untranslated

PLAYERS = ("alice", "bob", "carol", "admin")


async def start_match(sim, challenger, opponent, language: str, game: str = "dalen"):
    """``challenger`` challenges ``opponent`` (size 5), who accepts: the match and its board."""
    offer = (await sim.slash(challenger, "play", game=game, opponent=opponent, size=5)).last_message
    accept = translate(language, "bot.challenge.button.accept")
    board = (await sim.click(opponent, offer, accept)).last_message
    return int(re.search(r"#(\d+)", board.text).group(1)), board


def button(message, msgid: str, language: str):
    label = translate(language, msgid)
    return next(b for b in message.buttons if b.label == label)


async def assert_final_picture_says(bot, message, match_id, language, how, winner_seat):
    """The last board's picture says how the match ended (the stored position with that
    outcome: "bob (light) wins — light wins: dark resigned", "Aborted: …"), not whose move
    it would have been."""
    record = await bot.client.service.repo.get_match(match_id)
    state = get_board_game(record.game).from_json(record.state)
    assert state.outcome is None  # the stored position is as it was
    picture = message.attachments[0].data
    names = ("alice", "bob")
    assert picture == board_png(state.ended(how, winner_seat), names, language)
    assert picture != board_png(state, names, language)


async def ratings_and_stats(sim, world):
    """What the standings show: the leaderboard and both players' /stats."""
    board = (await sim.slash(world.carol, "leaderboard", game="dalen")).text
    stats = [(await sim.slash(u, "stats")).text for u in (world.alice, world.bob)]
    return board, stats


async def test_resigning_asks_first_and_no_plays_on(sim, world, language, bot):
    alice, bob = world.alice, world.bob
    match_id, _ = await start_match(sim, alice, bob, language)
    await sim.slash(alice, "move", cell="e5")
    board = (await sim.slash(bob, "move", cell="a1")).last_message
    # The board's button asks, privately; nothing has ended.
    asked = await ask_to_end(sim, alice, board)
    assert asked.text == translate(language, "bot.board.resign.confirm", match=match_id)
    question = asked.last_message
    assert [b.label for b in question.buttons] == [
        translate(language, "bot.board.resign.yes"),
        translate(language, "bot.board.end.no"),
    ]
    assert (await stored_match(bot, match_id)).status == "running"
    # No: the question becomes a plain answer, and the match goes on.
    await sim.click(alice, question, button(question, "bot.board.end.no", language).custom_id)
    answered = sim.state.messages[question.id]
    assert answered.text == translate(language, "bot.board.end.play_on", match=match_id)
    assert not answered.buttons
    assert (await stored_match(bot, match_id)).status == "running"

    # /resign asks the same; Yes resigns: Bob wins, in a new board message.
    asked = await ask_to_end(sim, alice)
    assert asked.text == translate(language, "bot.board.resign.confirm", match=match_id)
    question = asked.last_message
    yes = button(question, "bot.board.resign.yes", language)
    done = await sim.click(alice, question, yes.custom_id)
    match = await stored_match(bot, match_id)
    assert match.status == "finished" and match.result["winners"] == [bob.id]
    final = last_board_message(world.channel)
    assert done.last_message.id == final.id, "the new board is the click's own answer"
    assert translate(language, "service.say.reason_resigned", user=f"<@{alice.id}>") in (final.text)
    await assert_final_picture_says(bot, final, match_id, language, "resigned", 1)
    # A second Yes on the same question finds the match over.
    again = await sim.click(alice, question, yes.custom_id)
    assert again.ephemeral and again.text == full_sentence(
        translate(language, "service.error.match_over")
    )
    if language == "de":
        assert untranslated(sim, names=PLAYERS) == []
    sim.assert_no_bot_errors()


async def test_a_question_outlives_a_restart_and_refuses_a_board_that_moved_on(
    sim, world, bot, make_bot
):
    alice, bob = world.alice, world.bob
    match_id, _ = await start_match(sim, alice, bob, "en")
    await sim.slash(alice, "move", cell="e5")
    await sim.slash(bob, "move", cell="a1")
    stale = (await ask_to_end(sim, alice)).last_message
    # Alice plays on instead of answering: the question was asked about another board.
    await sim.slash(alice, "move", cell="c3")
    refused = await sim.click(alice, stale, "Yes, resign")
    assert refused.ephemeral and "That board has moved on" in refused.text
    assert (await stored_match(bot, match_id)).status == "running"

    # A question asked before a restart is answered after it, by the new process.
    question = (await ask_to_end(sim, bob)).last_message
    handle = await sim.restart_bot(make_bot)
    await sim.click(bob, question, "Yes, resign")
    match = await stored_match(handle, match_id)
    assert match.status == "finished" and match.result["winners"] == [alice.id]
    assert "resigned" in last_board_message(world.channel).text
    # and No after a restart dismisses too (a fresh match, its question asked before)
    other, _ = await start_match(sim, bob, world.carol, "en")
    await sim.slash(bob, "move", cell="e5")
    await sim.slash(world.carol, "move", cell="a1")
    question = (await ask_to_end(sim, world.carol)).last_message
    handle = await sim.restart_bot(make_bot)
    await sim.click(world.carol, question, "No, play on")
    assert sim.state.messages[question.id].text == f"Nothing changed: match #{other} goes on."
    assert (await stored_match(handle, other)).status == "running"
    sim.assert_no_bot_errors()


async def test_before_their_first_move_a_player_aborts_unrated(sim, world, language, bot):
    alice, bob = world.alice, world.bob
    before = await ratings_and_stats(sim, world)
    match_id, board = await start_match(sim, alice, bob, language)
    # Nobody has moved: the board offers Abort, and it asks to abort.
    abort = button(board, "bot.board.button.abort", language)
    asked = await sim.click(alice, board, abort.custom_id)
    assert asked.ephemeral
    assert asked.text == translate(language, "bot.board.abort.confirm", match=match_id)
    stale = asked.last_message
    # Alice moves instead: her abort question is now about another board, and refused.
    await sim.slash(alice, "move", cell="e5")
    refused = await sim.click(
        alice, stale, button(stale, "bot.board.abort.yes", language).custom_id
    )
    assert refused.ephemeral
    assert refused.text == full_sentence(translate(language, "service.error.stale_version"))
    # Having moved, Alice is asked to resign, not to abort.
    asked = await ask_to_end(sim, alice)
    assert asked.text == translate(language, "bot.board.resign.confirm", match=match_id)
    await sim.click(alice, asked.last_message, translate(language, "bot.board.end.no"))
    # Bob has not moved: he may abort, and the match ends unrated.
    asked = await ask_to_end(sim, bob)
    assert asked.text == translate(language, "bot.board.abort.confirm", match=match_id)
    question = asked.last_message
    assert any(b.custom_id.endswith(CONFIRMS[1]) for b in question.buttons)
    await sim.click(bob, question, translate(language, "bot.board.abort.yes"))
    match = await stored_match(bot, match_id)
    assert match.status == "aborted" and match.result["winners"] == []
    assert match.result["aborted"] is True and not match.result["draw"]
    final = last_board_message(world.channel)
    said = translate(language, "service.say.match_aborted_by", user=f"<@{bob.id}>")
    assert said in final.text
    assert not final.buttons, "an aborted match offers nothing (no rematch of a no-game)"
    await assert_final_picture_says(bot, final, match_id, language, "aborted", None)
    # Nobody's rating, record or statistics changed.
    assert await ratings_and_stats(sim, world) == before
    if language == "de":  # everything the players saw was German
        assert untranslated(sim, names=PLAYERS) == []
    sim.assert_no_bot_errors()


async def test_a_no_show_ends_unrated_on_time(sim, world, language, bot, clock):
    alice, bob = world.alice, world.bob
    before = await ratings_and_stats(sim, world)
    match_id, _ = await start_match(sim, alice, bob, language)
    await sim.slash(alice, "move", cell="e5")
    clock.advance(86400)  # Bob never moves
    assert await bot.client.tick_once() == 1
    match = await stored_match(bot, match_id)
    assert match.status == "aborted" and match.result["winners"] == []
    final = last_board_message(world.channel)
    said = translate(language, "service.say.first_move_missed", user=f"<@{bob.id}>")
    assert said in final.text, final.text
    assert translate(language, "bot.match.ratings", changes="").split(":")[0] not in (final.text)
    await assert_final_picture_says(bot, final, match_id, language, "aborted", None)
    assert await ratings_and_stats(sim, world) == before

    # Once both have moved, running out of time is a rated loss as ever.
    clock.advance(60)
    match_id, _ = await start_match(sim, alice, bob, language)
    await sim.slash(alice, "move", cell="e5")
    await sim.slash(bob, "move", cell="a1")
    clock.advance(86400)  # Alice does not move again
    assert await bot.client.tick_once() == 1
    match = await stored_match(bot, match_id)
    assert match.status == "finished" and match.result["winners"] == [bob.id]
    assert await ratings_and_stats(sim, world) != before
    final = last_board_message(world.channel)
    await assert_final_picture_says(bot, final, match_id, language, "time", 1)
    if language == "de":
        assert untranslated(sim, names=PLAYERS) == []
    sim.assert_no_bot_errors()
