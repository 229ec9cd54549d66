"""An older board keeps its buttons when a newer one is posted, and a click on one of them
is answered, to the clicker alone, that the board has moved on: nothing is played, asked
or posted on a position the player did not see.

A new board no longer greys out the previous one (an edit, one request counted in
Discord's global limit per move), so every kind of button an older board can carry is
clicked here after the match moved on.
"""

from __future__ import annotations

import random

from tests.bot.helpers import (
    CONFIRMS,
    ask_to_end,
    last_board_message,
    pick_move,
    resign,
    start_board_match,
    stored_match,
    stored_state,
)

MOVED_ON = "that board has moved on"


async def test_every_button_of_an_older_board_answers_that_it_moved_on(sim, world, bot):
    players = [world.alice, world.bob]
    match_id, _ = await start_board_match(sim, world.alice, world.bob, "lefe", 5)
    rng = random.Random(3)
    state = await stored_state(bot, match_id)
    first = await sim.slash(players[state.seat_to_move], "move", cell=pick_move(state, rng))
    older = first.last_message
    labels = [b.label for b in older.buttons]
    # the pie rule's two buttons, ending the match early, offering a draw
    assert {"Swap colours", "Keep colours", "Offer a draw"} <= set(labels), labels
    assert any(label in ("Resign", "Abort") for label in labels), labels

    state = await stored_state(bot, match_id)
    since = len(sim.requests)
    moved = await sim.slash(players[state.seat_to_move], "move", cell=pick_move(state, rng))
    # the new board is the command's own answer, and the older one is not edited
    assert ("callback", 4) in moved.events and not moved.followups
    assert not [r for r in sim.requests[since:] if r.category in ("edit", "channel message")]
    newer = last_board_message(world.channel)
    assert newer.id == moved.last_message.id != older.id
    kept = sim.state.messages[older.id]
    assert [b.label for b in kept.buttons] == labels and not any(b.disabled for b in kept.buttons)

    before = await stored_state(bot, match_id)
    posted = len([m for m in world.channel.messages if not m.ephemeral])
    for player in players:
        for label in labels:
            answer = await sim.click(player, kept, label)
            assert answer.ephemeral, (player.name, label, answer.text)
            assert MOVED_ON in answer.text.lower(), (player.name, label, answer.text)
    after = await stored_state(bot, match_id)
    assert after.moves == before.moves and not after.swapped
    assert (await stored_match(bot, match_id)).status == "running"
    public = [m for m in world.channel.messages if not m.ephemeral]
    assert len(public) == posted, "a click on an old board posted something"
    # the newest board still plays
    state = await stored_state(bot, match_id)
    answer = await sim.slash(players[state.seat_to_move], "move", cell=pick_move(state, rng))
    assert not answer.ephemeral, answer.text
    sim.assert_no_bot_errors()


async def test_a_resign_question_asked_on_a_board_that_then_moved_on_ends_nothing(sim, world, bot):
    players = [world.alice, world.bob]
    match_id, _ = await start_board_match(sim, world.alice, world.bob, "dalen", 5)
    rng = random.Random(8)
    for _ in range(2):
        state = await stored_state(bot, match_id)
        await sim.slash(players[state.seat_to_move], "move", cell=pick_move(state, rng))
    state = await stored_state(bot, match_id)
    waiting = players[1 - state.seat_to_move]
    board = last_board_message(world.channel)
    question = (await ask_to_end(sim, waiting, board)).last_message
    # the opponent moves before the answer
    await sim.slash(players[state.seat_to_move], "move", cell=pick_move(state, rng))
    yes = next(b.custom_id for b in question.buttons if b.custom_id.endswith(CONFIRMS))
    answer = await sim.click(waiting, question, yes)
    assert answer.ephemeral and MOVED_ON in answer.text.lower()
    assert (await stored_match(bot, match_id)).status == "running"
    # on the newest board the question is asked again, and Yes resigns
    resigned = await resign(sim, waiting, last_board_message(world.channel))
    assert not resigned.ephemeral
    assert (await stored_match(bot, match_id)).status == "finished"
    sim.assert_no_bot_errors()
