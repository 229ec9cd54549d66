"""Complete board games between two members, played only through Discord interactions.

Moves are picked from the engine's legal moves of the stored state (so games reach their end
quickly), but every one of them travels as a real ``/move`` command or button click through
the simulator, and every posted picture is decoded and compared with the stored position.
"""

from __future__ import annotations

import random

import pytest

from engine import get_game
from tests.bot.helpers import (
    check_board_message,
    last_board_message,
    match_id_of,
    pinged,
    play_to_end,
    resign,
    start_board_match,
    stored_match,
    stored_state,
)


def lefe_line_to_a_capture_choice(size: int) -> tuple[list[str], str, list[str]]:
    """A reproducible opening (with a pie swap) that reaches a placement able to capture
    either of two trees: (moves before it, the cell, its capture moves)."""
    game = get_game("lefe")
    for seed in range(500):
        rng = random.Random(seed)
        state = game.new(size=size)
        moves: list[str] = []
        while state.outcome is None:
            legal = sorted(state.legal_moves())
            captures: dict[str, list[str]] = {}
            for move in legal:
                if "x" in move:
                    captures.setdefault(move.split("x")[0], []).append(move)
            several = [cell for cell, options in captures.items() if len(options) >= 2]
            if several and len(moves) > 2:
                return moves, several[0], captures[several[0]]
            move = "swap" if len(moves) == 1 else rng.choice([m for m in legal if m != "swap"])
            moves.append(move)
            state = state.play(move)
    raise AssertionError("no capture choice found")


# A whole game in one channel: its point is the flow, not the limits (see conftest).
@pytest.mark.compressed_rate_limits
async def test_lefe_game_with_pie_swap_capture_choice_result_and_rematch(sim, world, bot):
    players = [world.alice, world.bob]
    match_id, board = await start_board_match(sim, world.alice, world.bob, "lefe", 5)
    await check_board_message(bot, match_id, board, players)
    opening, cell, captures = lefe_line_to_a_capture_choice(5)

    for move in opening:
        state = await stored_state(bot, match_id)
        mover = players[state.seat_to_move]
        if move == "swap":
            board = last_board_message(world.channel)
            assert {b.label for b in board.buttons} >= {"Swap colours", "Keep colours", "Resign"}
            result = await sim.click(mover, board, "Swap colours")
            # the new board is the click's own answer; the clicked one keeps its buttons
            assert ("callback", 4) in result.events and not result.followups
            assert not any(b.disabled for b in sim.state.messages[board.id].buttons)
            assert (await stored_state(bot, match_id)).swapped
        else:
            result = await sim.slash(mover, "move", cell=move)
        await check_board_message(bot, match_id, result.last_message, players)

    # The capture choice: typing the bare cell offers a menu of the trees it can capture.
    state = await stored_state(bot, match_id)
    mover = players[state.seat_to_move]
    suggestions = await sim.autocomplete(mover, "move", option="cell", value=cell)
    assert sorted(choice["value"] for choice in suggestions) == sorted(captures)
    asked = await sim.slash(mover, "move", cell=cell)
    assert asked.ephemeral and "which one" in asked.text
    assert (await stored_state(bot, match_id)).moves == state.moves, "asking changed the board"
    menu = asked.last_message
    select = menu.select()
    assert sorted(select.values) == sorted(captures)
    chosen = captures[-1]
    await sim.select(mover, menu, select.custom_id, chosen)
    after = await stored_state(bot, match_id)
    assert after.moves[-1] == chosen
    # the used menu stays as it is, and choosing again is refused: the board moved on
    again = await sim.select(mover, menu, select.custom_id, captures[0])
    assert again.ephemeral and "that board has moved on" in again.text.lower()
    assert (await stored_state(bot, match_id)).moves == after.moves
    await check_board_message(bot, match_id, last_board_message(world.channel), players)

    final = await play_to_end(sim, bot, players, match_id, random.Random(5), world.channel)
    match = await stored_match(bot, match_id)
    assert match.status == "finished"
    assert "Ratings:" in final.text
    assert [b.label for b in final.buttons] == ["Rematch", "Review"]

    # Rematch: Bob asks, Alice accepts, and the other player starts this time.
    asked = await sim.click(world.bob, final, "Rematch")
    offer = asked.last_message
    assert pinged(offer) == {world.alice.id}
    accepted = await sim.click(world.alice, offer, "Accept")
    rematch_id = match_id_of(accepted.last_message)
    assert rematch_id != match_id
    rematch = await stored_match(bot, rematch_id)
    assert rematch.seats[0].user_id == world.bob.id
    assert pinged(accepted.last_message) == {world.bob.id}
    sim.assert_no_bot_errors()


# A whole game in one channel: its point is the flow, not the limits (see conftest).
@pytest.mark.compressed_rate_limits
async def test_dalen_and_lublache_complete_games(sim, world, bot, clock):
    for game, rng_seed in (("dalen", 3), ("lublache", 4)):
        clock.advance(60)  # past the challenge cooldown
        players = [world.alice, world.bob]
        match_id, board = await start_board_match(sim, world.alice, world.bob, game, 5)
        await check_board_message(bot, match_id, board, players)
        final = await play_to_end(
            sim, bot, players, match_id, random.Random(rng_seed), world.channel
        )
        match = await stored_match(bot, match_id)
        assert match.status == "finished" and match.result is not None
        assert "Rematch" in [b.label for b in final.buttons]
    sim.assert_no_bot_errors()


# A whole game in one channel: its point is the flow, not the limits (see conftest).
@pytest.mark.compressed_rate_limits
async def test_les_opening_side_choice_and_complete_game(sim, world, bot):
    players = [world.carol, world.alice]
    match_id, board = await start_board_match(sim, world.carol, world.alice, "les", 5)
    rng = random.Random(11)
    for _ in range(4):  # seat A sets up four stones, one per command
        state = await stored_state(bot, match_id)
        assert state.extra["phase"] == "setup" and state.seat_to_move == 0
        result = await sim.slash(world.carol, "move", cell=rng.choice(sorted(state.legal_moves())))
        await check_board_message(bot, match_id, result.last_message, players)
    board = result.last_message
    assert {b.label for b in board.buttons} >= {"Play black", "Play white"}
    chosen = await sim.click(world.alice, board, "Play white")
    state = await stored_state(bot, match_id)
    assert state.seat_colour(1) == "white" and state.seat_colour(0) == "black"
    await check_board_message(bot, match_id, chosen.last_message, players)
    await play_to_end(sim, bot, players, match_id, rng, world.channel)
    assert (await stored_match(bot, match_id)).status == "finished"
    sim.assert_no_bot_errors()


async def test_resign_ends_the_match_for_the_opponent(sim, world, bot):
    players = [world.alice, world.bob]
    match_id, _ = await start_board_match(sim, world.alice, world.bob, "dalen", 5)
    await sim.slash(world.alice, "move", cell="e5")
    await sim.slash(world.bob, "move", cell="a1")
    resigned = await resign(sim, world.alice)
    match = await stored_match(bot, match_id)
    assert match.status == "finished" and match.result["winners"] == [world.bob.id]
    message = resigned.last_message
    assert "resigned" in message.text and pinged(message) == set()
    assert [b.label for b in message.buttons] == ["Rematch", "Review"]
    # the earlier boards keep their buttons (no edit), and a click on one says the
    # match is over
    boards = [m for m in world.channel.messages if m.attachments and m.id != message.id]
    old = next(b for b in boards if b.buttons and not b.ephemeral)
    late = await sim.click(world.bob, old, "Offer a draw")
    assert late.ephemeral and "this match is over" in late.text.lower()
    del players
    sim.assert_no_bot_errors()


async def test_draw_offer_accepted_and_board_reposted_without_ping(sim, world, bot):
    players = [world.alice, world.bob]
    match_id, board = await start_board_match(sim, world.alice, world.bob, "les", 5)
    shown = await sim.slash(world.bob, "board")
    assert not shown.ephemeral and pinged(shown.last_message) == set()
    await check_picture_only(bot, match_id, shown.last_message)
    # the older board keeps its buttons: /board redraws the same position (same version)
    assert not any(b.disabled for b in sim.state.messages[board.id].buttons)

    offered = await sim.click(world.alice, shown.last_message, "Offer a draw")
    offer = offered.last_message
    assert pinged(offer) == {world.bob.id}
    assert {"Accept the draw", "Decline the draw"} <= {b.label for b in offer.buttons}
    accepted = await sim.click(world.bob, offer, "Accept the draw")
    match = await stored_match(bot, match_id)
    assert match.status == "finished" and match.result["draw"] is True
    assert "drawn" in accepted.last_message.text.lower()
    result = accepted.last_message.text
    assert "The game is drawn by agreement." in result and "drawn: drawn" not in result
    # A draw between newcomers moves neither rating, and nothing reads as if it had.
    assert "Ratings: alice 1500 → 1500? (±0), bob 1500 → 1500? (±0)." in result
    del players
    sim.assert_no_bot_errors()


async def check_picture_only(handle, match_id, message) -> None:
    from tests.bot.helpers import assert_picture_shows

    assert_picture_shows(message, await stored_state(handle, match_id))


async def test_open_challenge_is_taken_by_whoever_accepts_first(sim, world, bot):
    seek = await sim.slash(world.alice, "play", game="dalen", size=5)
    offer = seek.last_message
    assert pinged(offer) == set() and "Expires <t:" in offer.text
    assert [b.label for b in offer.buttons] == ["Accept", "Withdraw"]
    own = await sim.click(world.alice, offer, "Accept")
    assert own.ephemeral and "your own challenge" in own.text
    taken = await sim.click(world.carol, offer, "Accept")
    match = await stored_match(bot, match_id_of(taken.last_message))
    assert [s.user_id for s in match.seats] == [world.alice.id, world.carol.id]
    assert all(b.disabled for b in sim.state.messages[offer.id].buttons)
    sim.assert_no_bot_errors()
