"""A takeback through the simulator, in both languages: asked on the board, declined,
asked again and accepted (the board goes back, its picture with it); against the bot at
once."""

from __future__ import annotations

import pytest

from i18n import translate
from tests.bot.helpers import assert_picture_shows, last_board_message, pinged, stored_state


def button_of(message, language: str, msgid: str) -> str:
    label = translate(language, msgid)
    return next(b.custom_id for b in message.buttons if b.label == label)


@pytest.mark.compressed_rate_limits
async def test_a_takeback_declined_then_accepted(sim, world, language, bot, clock):
    # a live match (3 minutes a move): a rated daily one takes no takeback by default
    offer = (
        await sim.slash(
            world.alice, "play", game="dalen", opponent=world.bob, size=5, clock="move:180"
        )
    ).last_message
    accepted = await sim.click(world.bob, offer, translate(language, "bot.challenge.button.accept"))
    board = accepted.last_message
    match_id = int(board.text.split("#")[1].split()[0])
    await sim.slash(world.alice, "move", cell="c3")
    board = (await sim.slash(world.bob, "move", cell="g5")).last_message
    # Bob asks to take his move back: Alice is pinged, with Allow and Refuse
    asked = await sim.click(
        world.bob, board, button_of(board, language, "bot.board.button.ask_takeback")
    )
    question = asked.last_message
    assert not question.ephemeral and pinged(question) == {world.alice.id}
    # only Alice may answer: Bob's own Allow is refused privately
    refused = await sim.click(
        world.bob, question, button_of(question, language, "bot.board.button.accept_takeback")
    )
    assert refused.ephemeral
    declined = await sim.click(
        world.alice, question, button_of(question, language, "bot.board.button.decline_takeback")
    )
    after = declined.last_message
    assert not after.ephemeral
    assert (await stored_state(bot, match_id)).moves == ("c3", "g5")
    # asked again, allowed: the board goes back to Bob's turn before g5
    asked = await sim.click(
        world.bob, after, button_of(after, language, "bot.board.button.ask_takeback")
    )
    allowed = await sim.click(
        world.alice,
        asked.last_message,
        button_of(asked.last_message, language, "bot.board.button.accept_takeback"),
    )
    back = allowed.last_message
    state = await stored_state(bot, match_id)
    assert state.moves == ("c3",) and state.seat_to_move == 1
    assert_picture_shows(back, state)
    assert pinged(back) == {world.bob.id} and "g5" in back.text
    # the old question's buttons are out of date now
    stale = await sim.click(
        world.alice,
        asked.last_message,
        button_of(asked.last_message, language, "bot.board.button.accept_takeback"),
    )
    assert stale.ephemeral
    assert last_board_message(world.channel).id == back.id
    sim.assert_no_bot_errors()


@pytest.mark.compressed_rate_limits
async def test_against_the_bot_the_takeback_is_at_once(sim, world, language, bot, clock):
    me = sim.state.bot_user
    started = await sim.slash(world.alice, "play", game="lefe", opponent=me, size=5, level="easy")
    board = started.last_message
    match_id = int(board.text.split("#")[1].split()[0])
    await sim.slash(world.alice, "move", cell="c3")
    await bot.client.delivery.bots_idle()
    state = await stored_state(bot, match_id)
    assert len(state.moves) == 2
    board = last_board_message(world.channel)
    taken = await sim.click(
        world.alice, board, button_of(board, language, "bot.board.button.ask_takeback")
    )
    state = await stored_state(bot, match_id)
    assert state.moves == () and state.seat_to_move == 0
    assert_picture_shows(taken.last_message, state)
    sim.assert_no_bot_errors()
