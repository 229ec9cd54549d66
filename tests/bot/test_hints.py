"""Move hints and pictures of refused moves, through the simulator with the real client.

The board picture of a member's turn has a dot on every cell where they may play while
their hints are on (by default for their first three games of a game, or as they chose
with ``/prefs``); pictures are decoded and sampled at the engine's legal cells. A refused
``/move`` answers with the rules' reason and, when the refusal is about stones, a picture
that marks them.
"""

from __future__ import annotations

import pytest

from render.annotations import Annotations, hint_cells
from render.themes import get_theme
from tests.bot.helpers import (
    close,
    decode_png,
    last_board_message,
    resign,
    start_board_match,
    stored_state,
)
from tests.render.test_annotations import _whole
from tests.tutorial.pictures import mark_problems

HINT_LINE = "The dots mark where the player to move may play"


async def dots_problems(handle, match_id: int, message) -> list[str]:
    """Where the message's picture differs from a dot on exactly the legal cells."""
    state = await stored_state(handle, match_id)
    image = decode_png(message)
    marks = Annotations(may=hint_cells(state, state.legal_moves()))
    assert marks.may, "the position has no legal cell to mark"
    return mark_problems(image, _whole(image, state), 0, state, marks)


async def no_dots_problems(handle, match_id: int, message) -> list[str]:
    """Where the message's picture has a dot (it should have none)."""
    state = await stored_state(handle, match_id)
    image = decode_png(message)
    return mark_problems(image, _whole(image, state), 0, state, Annotations())


async def test_a_new_member_s_turn_shows_dots_until_they_turn_hints_off(sim, world, bot, clock):
    match_id, board = await start_board_match(sim, world.alice, world.bob, "lefe", 5)
    assert HINT_LINE in board.text
    assert await dots_problems(bot, match_id, board) == []

    answer = await sim.slash(world.bob, "prefs", hints="off")
    assert answer.ephemeral and "Move hints: off." in answer.text
    moved = await sim.slash(world.alice, "move", cell="c3")
    board = moved.last_message  # Bob's turn: Bob chose no hints
    assert HINT_LINE not in board.text
    assert await no_dots_problems(bot, match_id, board) == []
    # The dots are what the check looks for: the same picture fails the dots check.
    assert await dots_problems(bot, match_id, board)

    moved = await sim.slash(world.bob, "move", cell="e5")
    board = moved.last_message  # Alice's turn again, still in her first games
    assert await dots_problems(bot, match_id, board) == []
    shown = await sim.slash(world.alice, "prefs")
    assert "shown in your first 3 matches of each kind of game" in shown.text
    sim.assert_no_bot_errors()


@pytest.mark.compressed_rate_limits
async def test_hints_stop_after_three_games_unless_chosen(sim, world, bot, clock):
    for _ in range(3):
        clock.advance(60)
        await start_board_match(sim, world.alice, world.bob, "dalen", 5)
        await sim.slash(world.alice, "move", cell="e5")  # an aborted match counts for nobody
        await resign(sim, world.alice)
    clock.advance(60)
    match_id, board = await start_board_match(sim, world.alice, world.carol, "dalen", 5)
    assert await no_dots_problems(bot, match_id, board) == []  # Alice's fourth game
    await sim.slash(world.alice, "move", cell="a1")
    board = last_board_message(world.channel)  # Carol's first game: dots
    assert await dots_problems(bot, match_id, board) == []
    # Another game is counted apart: Alice's first Lefe still has them.
    clock.advance(60)
    lefe, lefe_board = await start_board_match(sim, world.alice, world.bob, "lefe", 5)
    assert await dots_problems(bot, lefe, lefe_board) == []

    answer = await sim.slash(world.alice, "prefs", hints="on")
    assert "Move hints: on." in answer.text
    await sim.slash(world.carol, "move", cell="e5", match=match_id)
    board = last_board_message(world.channel)
    assert await dots_problems(bot, match_id, board) == []  # chosen: on for good
    sim.assert_no_bot_errors()


@pytest.mark.compressed_rate_limits
async def test_a_refused_move_shows_the_reason_and_the_stones_it_is_about(sim, world, bot):
    match_id, _ = await start_board_match(sim, world.alice, world.bob, "dalen", 5)
    for mover, cell in [
        (world.alice, "c3"),
        (world.bob, "a1"),
        (world.alice, "c4"),
        (world.bob, "a2"),
        (world.alice, "d5"),
        (world.bob, "a3"),
    ]:
        await sim.slash(mover, "move", cell=cell)
    public = [m for m in world.channel.messages if not m.ephemeral]
    await sim.slash(world.alice, "prefs", theme="night")  # her answer is drawn in her theme
    refused = await sim.slash(world.alice, "move", cell="d4")
    assert refused.ephemeral
    message = refused.last_message
    assert message.text == "“d4” is next to two of your leaves; a new stone may touch at most one."
    state = await stored_state(bot, match_id)
    image = decode_png(message)
    marks = Annotations(may_not=("d4",), about=("c3", "d5"))
    assert mark_problems(image, _whole(image, state), 0, state, marks, "night") == []
    assert close(image.getpixel((2, 2)), get_theme("night").header_background, 6)
    assert [m for m in world.channel.messages if not m.ephemeral] == public  # nothing played
    assert len(state.moves) == 6

    # A refusal that names no stone is answered in words alone.
    taken = await sim.slash(world.alice, "move", cell="c3")
    assert taken.ephemeral and not taken.last_message.attachments
    assert "c3" in taken.text
    sim.assert_no_bot_errors()


@pytest.mark.parametrize("game", ["lefe", "dalen", "lublache", "les"])
async def test_every_board_game_marks_the_legal_cells_of_a_new_member_s_turns(
    sim, world, bot, game
):
    match_id, board = await start_board_match(sim, world.alice, world.bob, game, 5)
    assert await dots_problems(bot, match_id, board) == []
    state = await stored_state(bot, match_id)
    move = sorted(m for m in state.legal_moves() if m != "swap")[0]
    moved = await sim.slash(world.alice, "move", cell=move)
    assert not moved.ephemeral, moved.text
    assert await dots_problems(bot, match_id, moved.last_message) == []
    sim.assert_no_bot_errors()
