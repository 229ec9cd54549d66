"""RULINGS §3, Lefe: placement, leaf gain, captures, the end and the scoring.

Positions are on the 5-board. In its left half the neighbours of a cell x/y are x/y±1,
(x-1)/(y-1), (x-1)/y, (x+1)/y and (x+1)/(y+1); for example c3 touches b2, b3, c2, c4, d3, d4.
"""

from __future__ import annotations

import pytest

from engine import IllegalMove, get_game
from engine.lefe import lefe_points
from engine.lefe_scoring import placement_leaves
from engine.trees import build_forest

LEFE = get_game("lefe")


def _position(dark: str = "", light: str = "", to_move: str = "dark"):
    stones = {cell: "dark" for cell in dark.split()}
    stones.update({cell: "light" for cell in light.split()})
    return LEFE.position(5, stones, to_move)


def test_game_metadata() -> None:
    assert (LEFE.name, LEFE.title, LEFE.colors) == ("lefe", "Lefe", ("dark", "light"))
    assert LEFE.sizes == (5, 6, 7) and LEFE.default_size == 6
    assert LEFE.summary and LEFE.uses_pie


def test_placement_may_not_touch_two_friendly_stones_that_touch() -> None:
    state = _position(dark="b2 b3", light="i1")
    with pytest.raises(IllegalMove, match="c3 touches two of your stones that touch each other"):
        state.play("c3")
    assert "c3" not in state.legal_moves() and "a2" not in state.legal_moves()
    assert state.capture_choices("c3") == []
    # the same cell is fine for the other colour
    assert "c3" in _position(dark="b2 b3", light="i1", to_move="light").legal_moves()


def test_placement_may_touch_three_friendly_stones_that_do_not_touch() -> None:
    state = _position(dark="d3 b2 c4", light="i1")
    assert state.play("c3").stones["c3"] == "dark"


def test_placement_on_a_taken_cell_is_refused() -> None:
    state = _position(dark="b2", light="i1")
    for cell in ("b2", "i1"):
        with pytest.raises(IllegalMove, match=f"{cell} is taken"):
            state.play(cell)


def test_joining_three_lone_stones_gains_leaves_and_must_capture() -> None:
    # c3 joins three one-leaf trees into a star with three leaves (3 > 1); the touching
    # light trees {a2} (1 leaf) and {e3, e4} (2 leaves) are smaller; {i1} does not touch
    state = _position(dark="d3 b2 c4", light="a2 e3 e4 i1")
    assert state.capture_choices("c3") == ["c3xa2", "c3xe3"]
    with pytest.raises(IllegalMove, match="must capture") as error:
        state.play("c3")
    assert "c3xa2 or c3xe3" in str(error.value)
    after = state.play("c3xe4")  # any cell of the tree is accepted
    assert after.moves[-1] == "c3xe3"
    assert after.last_turn.captured == ("e3", "e4") and after.last_turn.placed == ("c3",)
    assert "e3" not in after.stones and "e4" not in after.stones and after.stones["a2"] == "light"
    with pytest.raises(IllegalMove, match="i1 is not in a tree that c3 can capture"):
        state.play("c3xi1")


def test_a_tree_with_as_many_leaves_is_not_capturable() -> None:
    # b3 joins b2 and b4 into a line: 2 leaves > 1. {a1} has 1 leaf, {c5, c6} has 2
    state = _position(dark="b2 b4", light="a1 c5 c6")
    assert state.capture_choices("b3") == ["b3xa1"]


def test_extending_a_line_gains_no_leaf_and_captures_nothing() -> None:
    state = _position(dark="b2 b3", light="a1")
    assert state.capture_choices("b4") == ["b4"]
    with pytest.raises(IllegalMove, match="b4 captures nothing"):
        state.play("b4xa1")


def test_merging_captures_only_above_the_best_joined_tree() -> None:
    # b3 joins {b2} (1 leaf) and {c4, c5} (2 leaves) into a path with 2 leaves: not above 2
    assert _position(dark="b2 c4 c5", light="a1 a2").capture_choices("b3") == ["b3"]
    # joining two lines end to end: still 2 leaves
    assert _position(dark="b1 b2 b4 b5", light="a1").capture_choices("b3") == ["b3"]


def test_a_placement_s_leaves_are_read_from_the_stones_next_to_it() -> None:
    # the rule the engine and the search's model share: c3 joins the line {c4, c5} at its
    # leaf c4 (no longer a leaf; c3 is one) and the lone stone {d3} (no longer lone: c3,
    # with two friends, is no leaf); it touches light's b2 and b3
    state = _position(dark="c4 c5 d3", light="b2 b3")
    names, neighbours = state.grid.names, state.grid.neighbours
    forest = build_forest(state.cells, neighbours, lone_stone_is_leaf=True)
    labels = forest.labels
    c3 = names.index("c3")
    change, joined, enemies = placement_leaves(
        state.cells, neighbours[c3], 1, labels, forest.degree
    )
    assert sorted(joined) == sorted({labels[names.index("c4")], labels[names.index("d3")]})
    assert sorted(enemies) == sorted(labels[names.index(cell)] for cell in ("b2", "b3"))
    assert change == -1  # c4 stops being a leaf; c3 has two friends
    assert change + sum(forest.leaves[tree] for tree in joined) == 2  # c5 and d3
    assert _position(dark="c4 c5 d3", light="b2 b3").capture_choices("c3") == ["c3"]


def test_a_lone_stone_captures_a_ring_without_leaves() -> None:
    # a light ring around c3 has no leaves; a dark stone in its middle has one
    state = _position(dark="i1", light="b2 b3 c2 c4 d3 d4")
    assert state.capture_choices("c3") == ["c3xb2"]
    after = state.play("c3xd4")
    assert after.stones == {"c3": "dark", "i1": "dark"}


def test_scoring_counts_distinct_leaf_counts_plus_the_leafiest_trees() -> None:
    assert lefe_points([5, 3, 3, 1], [5, 3, 2]) == (3 + 1, 3)
    assert lefe_points([2, 1], [2, 1, 1]) == (2, 2 + 1), "running out of trees loses"
    assert lefe_points([4, 2], [4, 2]) == (2, 2), "identical lists give nobody the point"
    assert lefe_points([], []) == (0, 0)
    assert lefe_points([], [1]) == (0, 2)


def test_live_score_counts_a_leafless_ring_as_a_leaf_count() -> None:
    # dark: ring (0 leaves) and lone stone (1 leaf) -> 2 distinct counts; light: one lone
    # stone (1 leaf). Comparing 1 with 1, then dark still has a tree: dark gets the point.
    state = _position(dark="b2 b3 c2 c4 d3 d4 i1", light="g1")
    assert state.score == {"dark": 3, "light": 1}
    assert state.leaf_counts() == {"dark": [1, 0], "light": [1]}
    assert state.score_text() == "dark 3 (1, 0) · light 1 (1)"


def test_the_game_ends_when_either_player_cannot_place() -> None:
    # every cell is taken except c3, which light cannot use: its neighbours are a light ring
    grid_names = LEFE.new(5).grid.names
    ring = {"b2", "b3", "c2", "c4", "d3", "d4"}
    dark = " ".join(name for name in grid_names if name not in ring | {"c3"})
    state = _position(dark=dark, light=" ".join(ring), to_move="dark")
    assert state.outcome is not None and state.to_move is None
    assert state.outcome.reason.endswith("light has no legal placement")
    assert state.legal_moves() == []
    dark_points, light_points = state.score["dark"], state.score["light"]
    expected = (
        None if dark_points == light_points else "dark" if dark_points > light_points else "light"
    )
    assert state.outcome.winner == expected
    with pytest.raises(IllegalMove, match="the game is over"):
        state.play("c3")


def test_the_game_ends_right_after_the_move_that_blocks_a_player() -> None:
    # empty cells: c3 (inside a light ring, so closed to light) and the corner a1, open to
    # both (its neighbours b1 and a2 are dark and do not touch, b2 is light). Once dark
    # fills a1, light has nowhere left to place.
    grid_names = LEFE.new(5).grid.names
    ring = {"b2", "b3", "c2", "c4", "d3", "d4"}
    dark = " ".join(name for name in grid_names if name not in ring | {"c3", "a1"})
    state = _position(dark=dark, light=" ".join(ring), to_move="dark")
    assert state.outcome is None
    assert state.capture_choices("a1") == ["a1"]
    final = state.play("a1")
    assert final.outcome is not None
    assert final.outcome.reason.endswith("light has no legal placement")
