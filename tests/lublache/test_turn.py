"""The Lublache turn, one ruling at a time (RULINGS §2 and §6), on named positions."""

from __future__ import annotations

import pytest

from engine import IllegalMove, get_game
from engine.hexgrid import hex_grid
from tests.lublache.helpers import BLACK, WHITE, loop_sets, position, ring

G7_RING = ("f6", "f7", "g8", "h7", "h6", "g6")  # ring(g7) in walking order


def test_public_surface() -> None:
    game = get_game("lublache")
    assert game.name == "lublache"
    assert game.colors == (BLACK, WHITE)
    assert game.sizes == (5, 7, 9)
    assert game.default_size == 7
    state = game.new()
    assert state.size == 7 and state.to_move == BLACK and state.stones == {}
    assert len(state.legal_moves()) == hex_grid(7).cell_count
    assert state.outcome is None


# ---- placing ---------------------------------------------------------------------------------


def test_a_placement_needs_an_empty_cell_of_the_board() -> None:
    state = position(black=["g7"], to_move=WHITE)
    with pytest.raises(IllegalMove, match=r"^g7 is taken$"):
        state.play("g7")
    with pytest.raises(IllegalMove, match="zz9 is not a cell"):
        state.play("zz9")
    assert state.play("  G6 ").stones == {"g7": BLACK, "g6": WHITE}


def test_no_placement_next_to_a_stone_of_a_loop_you_own() -> None:
    state = position(black=ring("g7"), white=["b2"], to_move=BLACK)
    for cell in ("g7", "i7", "e5", "g9"):  # inside, and just outside, the black loop
        with pytest.raises(IllegalMove, match=f"^{cell} touches your own loop$"):
            state.play(cell)
        assert cell not in state.legal_moves()
    assert "g10" in state.legal_moves()  # two steps away is fine
    # the restriction is the owner's only: white may play inside black's loop
    assert "g7" in position(black=ring("g7"), to_move=WHITE).legal_moves()


def test_a_loop_you_only_control_does_not_restrict_you() -> None:
    state = position(black=list(G7_RING[:5]), white=["g6"], to_move=BLACK)
    assert "g7" in state.legal_moves()


# ---- closing loops and flipping ---------------------------------------------------------------


def test_closing_a_loop_you_control_flips_its_enemy_stones() -> None:
    state = position(black=["h6", "h7", "g8"], white=["f7", "f6"], to_move=BLACK)
    after = state.play("g6")
    assert after.last_turn.loops == (G7_RING,)
    assert after.last_turn.flipped == ("f6", "f7")
    assert after.last_turn.placed == ("g6",)
    assert all(after.stone_at(cell) == BLACK for cell in G7_RING)
    assert after.score == {BLACK: 1, WHITE: 0}


def test_half_the_stones_is_enough_to_control_and_flip() -> None:
    state = position(black=["h6", "h7"], white=["g8", "f7", "f6"], to_move=BLACK)
    after = state.play("g6")  # three of six
    assert after.last_turn.flipped == ("f6", "f7", "g8")


def test_closing_a_loop_of_eight_you_do_not_control_is_illegal() -> None:
    # black closes a ring of eight holding three of its stones: no flips, and white (five
    # of eight) could still own it
    cells = sorted((set(ring("g7")) | set(ring("g8"))) - {"g7", "g8"})
    black = ["f7", "f8"]
    white = [cell for cell in cells if cell not in black and cell != "h8"]
    state = position(black=black, white=white, to_move=BLACK)
    with pytest.raises(IllegalMove, match=r"^h8 would end on a loop white controls$"):
        state.play("h8")


def test_flips_spare_stones_of_a_loop_the_opponent_owns() -> None:
    white_loop = ring("f8")  # g8, g9, f9, e8, e7, f7: shares g8 and f7 with ring(g7)
    state = position(black=["h6", "h7"], white=[*white_loop, "f6"], to_move=BLACK)
    after = state.play("g6")  # black holds three of six: controls
    assert after.last_turn.loops == (G7_RING,)
    assert after.last_turn.flipped == ("f6",)
    assert after.stone_at("g8") == WHITE and after.stone_at("f7") == WHITE
    assert frozenset(white_loop) in loop_sets(after)


def test_flips_are_decided_before_any_is_made() -> None:
    # g6 closes ring(g7) (black 3 of 6: controls) and ring(f6) (black 2 of 6: does not).
    # Flipping f7 in ring(g7) would give black half of ring(f6) too, but control is judged
    # before any flip, so g7, e5 and f5 stay white.
    state = position(
        black=["h6", "h7", "e6"], white=["g8", "f7", "f6", "g7", "e5", "f5"], to_move=BLACK
    )
    after = state.play("g6")
    assert set(after.last_turn.loops) == {G7_RING, ("e5", "e6", "f7", "g7", "g6", "f5")}
    assert after.last_turn.flipped == ("f6", "f7", "g8")
    assert [after.stone_at(cell) for cell in ("g7", "e5", "f5")] == [WHITE] * 3
    # ring(g7) is now black's own: e6 beside it is removed (it lies on no single-colour loop)
    assert after.last_turn.removed == ("e6",)


# ---- removals ------------------------------------------------------------------------------


def test_owning_a_closed_loop_removes_your_stones_next_to_it() -> None:
    black_loop = ring("i8")  # j7, j8, i9, h9, h8, i7: h8 and i7 touch ring(g7)
    state = position(
        black=["h6", "h7", "g8", "f7", "f6", "g7", "e5", *black_loop],
        white=["e6"],
        to_move=BLACK,
    )
    after = state.play("g6")
    assert after.last_turn.loops == (G7_RING,)
    # the stone inside and the one outside go; h8 and i7 lie on a single-colour loop and
    # stay; the white stone beside the loop is not the mover's and stays too
    assert after.last_turn.removed == ("e5", "g7")
    assert after.stone_at("g7") is None and after.stone_at("e5") is None
    assert after.stone_at("h8") == BLACK and after.stone_at("i7") == BLACK
    assert after.stone_at("e6") == WHITE
    assert after.score == {BLACK: 2, WHITE: 0}


def test_flipping_a_loop_to_one_colour_also_removes() -> None:
    state = position(black=["h6", "h7", "g8", "g7"], white=["f7", "f6"], to_move=BLACK)
    after = state.play("g6")
    assert after.last_turn.flipped == ("f6", "f7")
    assert after.last_turn.removed == ("g7",)


def test_a_loop_that_stays_mixed_removes_nothing() -> None:
    # as in the protection test, g8 and f7 stay white: the ring is not black's own, so the
    # black stone inside it stays
    state = position(black=["h6", "h7", "g7"], white=[*ring("f8"), "f6"], to_move=BLACK)
    after = state.play("g6")
    assert after.last_turn.flipped == ("f6",)
    assert after.last_turn.removed == ()
    assert after.stone_at("g7") == BLACK


# ---- the end-of-turn test ---------------------------------------------------------------------


def test_closing_onto_a_loop_the_opponent_controls_is_illegal() -> None:
    state = position(white=["h6", "h7", "g8", "f7", "f6"], to_move=BLACK)
    with pytest.raises(IllegalMove, match=r"^g6 would end on a loop white controls$"):
        state.play("g6")
    assert "g6" not in state.legal_moves()
    assert "g5" in state.legal_moves()


def test_closing_onto_an_opponent_loop_is_legal_when_the_new_stone_is_protected() -> None:
    # g6 also closes an all-black ring around g5: white could never own the ring round g7
    state = position(
        black=["h4", "h5", "f5", "f4", "g4"],
        white=["h6", "h7", "g8", "f7", "f6"],
        to_move=BLACK,
    )
    after = state.play("g6")
    loops = {loop.cells: loop for loop in after.loops()}
    assert loops[G7_RING].controllers == (WHITE,)
    assert after.last_turn.flipped == ()
    assert after.score == {BLACK: 1, WHITE: 0}


def test_an_even_split_counts_as_opponent_control_at_the_end_of_the_turn() -> None:
    # White closes ring(g7) at three of six: white controls it, but black's three stones
    # all lie on black loops and cannot be flipped. Black, also at half, controls the ring
    # and could own it (no white stone on it is protected): illegal for white.
    black = sorted({"h6", "h7", "g8", *ring("h8"), *ring("i6")})
    state = position(black=black, white=["f7", "f6"], to_move=WHITE)
    with pytest.raises(IllegalMove, match=r"^g6 would end on a loop black controls$"):
        state.play("g6")
    # without the protecting loops white flips all three and owns the ring
    bare = position(black=["h6", "h7", "g8"], white=["f7", "f6"], to_move=WHITE).play("g6")
    assert bare.last_turn.flipped == ("g8", "h6", "h7")


# ---- the end --------------------------------------------------------------------------------


def _stuck_board() -> tuple[list[str], list[str]]:
    """n=5: a black ring round the empty centre e5, every other cell white."""
    grid = hex_grid(5)
    black = ring("e5", 5)
    white = [cell for cell in grid.names if cell not in black and cell != "e5"]
    return black, white


def test_the_player_with_no_legal_placement_wins() -> None:
    black, white = _stuck_board()
    state = position(black=black, white=white, to_move=BLACK, size=5)
    assert state.outcome is not None
    assert state.outcome.winner == BLACK
    assert state.outcome.reason == "black wins: it has no legal placement left"
    assert state.to_move is None and state.legal_moves() == []
    with pytest.raises(IllegalMove, match="the game is over"):
        state.play("e5")


def test_filling_the_last_cell_makes_the_opponent_the_winner() -> None:
    black, white = _stuck_board()
    state = position(black=black, white=white, to_move=WHITE, size=5)
    assert state.legal_moves() == ["e5"]
    after = state.play("e5")
    assert after.outcome is not None and after.outcome.winner == BLACK


# ---- the pie rule -----------------------------------------------------------------------------


def test_pie_rule_swap_as_the_second_move() -> None:
    state = get_game("lublache").new(5).play("e5")
    assert "swap" in state.legal_moves()
    swapped = state.play("swap")
    assert swapped.swapped and swapped.to_move == WHITE
    assert swapped.seat_colour(1) == BLACK and swapped.seat_to_move == 0
    assert swapped.stones == {"e5": BLACK}
    assert "swap" not in swapped.legal_moves()
    with pytest.raises(IllegalMove, match="only possible as the second move"):
        swapped.play("swap")


def test_swap_is_not_possible_later_or_from_a_position() -> None:
    game = get_game("lublache")
    with pytest.raises(IllegalMove):
        game.new(5).play("swap")
    with pytest.raises(IllegalMove):
        game.new(5).play("e5").play("a1").play("swap")
    assert "swap" not in position(black=["e5"], to_move=WHITE, size=5).legal_moves()


# ---- what pictures and bots read ------------------------------------------------------------


def test_loops_report_owner_and_controllers() -> None:
    state = position(black=["h6", "h7", "g8"], white=["f7", "f6", "g6"])
    (split,) = state.loops()
    assert split.owner is None and split.controllers == (BLACK, WHITE)
    assert split.controller is None
    assert split.to_dict() == {
        "cells": list(G7_RING),
        "owner": None,
        "controllers": [BLACK, WHITE],
    }
    (mostly_white,) = position(black=["h6"], white=["h7", "g8", "f7", "f6", "g6"]).loops()
    assert mostly_white.controller == WHITE and mostly_white.owner is None


def test_score_text_counts_owned_loops() -> None:
    state = position(black=ring("g7"), white=ring("c3"))
    assert state.score == {BLACK: 1, WHITE: 1}
    assert state.score_text() == "black owns 1 loop · white owns 1 loop"


def test_closed_loops_preview_for_a_legal_move() -> None:
    state = position(black=["h6", "h7", "g8", "f7", "f6"], to_move=BLACK)
    assert state.closed_loops("g6") == [G7_RING]
    assert state.closed_loops("a1") == []
