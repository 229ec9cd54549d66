"""RULINGS §5, Les: the opening, two-placement turns, the end and the hole comparison.

Positions are on the 5-board (points named like cells; c3 touches b2, b3, c2, c4, d3, d4).
"""

from __future__ import annotations

import pytest

from engine import IllegalMove, get_game
from engine.hexgrid import hex_grid
from engine.les import compare_holes

LES = get_game("les")
NAMES = hex_grid(5).names


def _position(black: str = "", white: str = "", to_move: str = "black"):
    stones = {point: "black" for point in black.split()}
    stones.update({point: "white" for point in white.split()})
    return LES.position(5, stones, to_move)


def _names(points) -> set[str]:
    return {NAMES[p] for p in points}


def test_game_metadata() -> None:
    assert (LES.name, LES.title, LES.colors) == ("les", "Les", ("black", "white"))
    assert LES.sizes == (5, 6, 7, 8, 9) and LES.default_size == 9
    assert not LES.uses_pie and LES.summary


def test_opening_seat_a_sets_up_four_stones_step_by_step() -> None:
    grid = hex_grid(5)
    state = LES.new(5)
    assert state.extra == {"phase": "setup", "step": 1}
    assert (state.to_move, state.seat_to_move) == ("black", 0)
    assert set(state.legal_moves()) == set(NAMES)

    state = state.play("c3")
    assert (state.to_move, state.seat_to_move) == ("white", 0)
    assert set(state.legal_moves()) == {"b2", "b3", "c2", "c4", "d3", "d4"}

    state = state.play("c4")
    assert (state.to_move, state.seat_to_move) == ("black", 0)
    state = state.play("g3")
    assert (state.to_move, state.seat_to_move) == ("white", 0)
    two_away = {p for p in range(grid.cell_count) if grid.distance(p, grid.index("g3")) == 2}
    assert set(state.legal_moves()) == _names(two_away)

    state = state.play("g5")
    assert state.extra == {"phase": "choose"}
    assert state.stones == {"c3": "black", "c4": "white", "g3": "black", "g5": "white"}
    assert (state.to_move, state.seat_to_move) == ("black", 1)
    assert sorted(state.legal_moves()) == ["black", "white"]
    assert state.last_turn.placed == ("g5",) and state.last_turn.colour == "white"


def test_opening_seat_b_chooses_a_side_then_black_moves() -> None:
    chosen = LES.new(5).play("c3").play("c4").play("g3").play("g5")
    as_black = chosen.play("black")
    assert as_black.swapped and as_black.seat_colour(1) == "black"
    assert (as_black.to_move, as_black.seat_to_move) == ("black", 1)
    as_white = chosen.play("White")
    assert not as_white.swapped and as_white.seat_colour(0) == "black"
    assert (as_white.to_move, as_white.seat_to_move) == ("black", 0)
    assert as_white.extra == {"phase": "play"}
    with pytest.raises(IllegalMove, match="black or white"):
        chosen.play("c5")


def test_opening_refuses_stones_out_of_place_and_out_of_turn() -> None:
    state = LES.new(5).play("c3")
    with pytest.raises(IllegalMove, match="next to the black stone at c3"):
        state.play("e5")
    with pytest.raises(IllegalMove, match="one stone"):
        state.play("c4+e5")
    with pytest.raises(IllegalMove, match="c3 is taken"):
        state.play("c3")
    with pytest.raises(IllegalMove, match="Les has no swap"):
        state.play("swap")
    with pytest.raises(IllegalMove, match="still setting up"):
        state.play_as(1, "c4")
    step4 = state.play("c4").play("g3")
    with pytest.raises(IllegalMove, match="exactly two steps from the black stone at g3"):
        step4.play("g4")
    choose = step4.play("g5")
    with pytest.raises(IllegalMove, match="choosing a side"):
        choose.play_as(0, "black")


def test_opening_second_black_may_go_on_any_empty_point() -> None:
    # every point has at least three points two steps away, and only two stones stand when
    # the second black stone is placed, so in practice every empty point qualifies
    state = LES.new(5).play("b3").play("a2")
    assert set(state.legal_moves()) == set(NAMES) - {"b3", "a2"}
    with pytest.raises(IllegalMove, match="a2 is taken"):
        state.play("a2")
    assert state.play("a1").extra == {"phase": "setup", "step": 4, "anchor": "a1"}


# a position past the opening: black c3 touches white c4; black g3 is two from white g5
OPENED = {"black": "c3 g3", "white": "c4 g5"}


def test_first_placement_must_touch_both_colours() -> None:
    state = _position(**OPENED)
    with pytest.raises(IllegalMove, match="a5 is not next to both a black and a white stone"):
        state.play("a5+i1")
    with pytest.raises(IllegalMove, match="c4 is taken"):
        state.play("c4+i1")
    firsts = {move.split("+")[0] for move in state.legal_moves()}
    # next to c3 and c4 (b3, d4), and next to g3 and g5 (g4 and its neighbours that touch both)
    grid = hex_grid(5)
    expected = {
        NAMES[p]
        for p in range(grid.cell_count)
        if p not in {grid.index(s) for s in ("c3", "g3", "c4", "g5")}
        and {grid.index("c3"), grid.index("g3")} & set(grid.neighbours[p])
        and {grid.index("c4"), grid.index("g5")} & set(grid.neighbours[p])
    }
    assert firsts == expected and {"b3", "d4", "g4"} <= firsts


def test_second_placement_on_an_isolated_point_is_compulsory() -> None:
    state = _position(**OPENED)
    with pytest.raises(
        IllegalMove, match="you must also place on a point with no stone next to it"
    ):
        state.play("b3")
    with pytest.raises(IllegalMove, match="b2 must be a point with no stone next to it"):
        state.play("b3+b2")
    after = state.play("b3 + i1")
    assert after.moves[-1] == "b3+i1"
    assert after.last_turn.placed == ("b3", "i1")
    assert after.stones["b3"] == "black" and after.stones["i1"] == "black"
    assert after.to_move == "white"


def test_the_two_points_may_be_written_in_either_order() -> None:
    state = _position(**OPENED)
    assert state.play("i1+b3").moves[-1] == "b3+i1"
    assert state.play("i1 b3").to_json() == state.play("b3+i1").to_json()


def _crowded(empty: set[str], to_move: str = "black"):
    """Every point taken except ``empty``; colours alternate in notation order."""
    black = [name for i, name in enumerate(NAMES) if name not in empty and i % 2 == 0]
    white = [name for i, name in enumerate(NAMES) if name not in empty and i % 2 == 1]
    return _position(" ".join(black), " ".join(white), to_move)


def test_a_turn_is_one_stone_when_no_isolated_point_would_remain() -> None:
    # only c3 is isolated; any first placement is next to it, so no second stone is due
    ring = {"b2", "b3", "c2", "c4", "d3", "d4"}
    state = _crowded(ring | {"c3"})
    moves = state.legal_moves()
    assert moves and all("+" not in move for move in moves)
    assert set(moves) <= ring
    first = moves[0]
    with pytest.raises(IllegalMove, match=f"play just {first}"):
        state.play(f"{first}+c3")
    assert state.play(first).last_turn.placed == (first,)


def test_the_game_ends_when_the_player_to_move_cannot_place_and_holes_decide() -> None:
    # white owns the hole {c3} (ring of 6 white stones); black owns {g3, g4}; nothing
    # else is empty, so no empty point touches both colours
    ring = "b2 b3 c2 c4 d3 d4"
    black_ring = {NAMES[p] for p in hex_grid(5).neighbours[hex_grid(5).index("g3")]}
    black_ring |= {NAMES[p] for p in hex_grid(5).neighbours[hex_grid(5).index("g4")]}
    black_ring -= {"g3", "g4"}
    others = [n for n in NAMES if n not in set(ring.split()) | black_ring | {"c3", "g3", "g4"}]
    white = " ".join([*ring.split(), *others])
    state = _position(black=" ".join(black_ring), white=white, to_move="black")
    assert state.outcome is not None and state.legal_moves() == []
    assert state.score == {"black": 1, "white": 1}
    assert state.outcome.winner == "black"
    assert state.outcome.reason == (
        "black wins on bigger holes (1 hole each): black has no legal placement"
    )


def test_a_position_where_nobody_owns_a_hole_is_a_draw() -> None:
    # one hole, touched by both colours; a1 and i1 touch nothing in common
    state = _position(black="a1", white="i1")
    assert state.outcome is not None and state.outcome.winner is None
    assert state.outcome.reason == "draw: nobody owns a hole; black has no legal placement"


def test_holes_alike_in_number_size_and_border_draw() -> None:
    # one single-point hole each, both ringed by six stones: nothing tells them apart
    ring = "b2 b3 c2 c4 d3 d4"
    black_ring = {NAMES[p] for p in hex_grid(5).neighbours[hex_grid(5).index("g3")]}
    others = [n for n in NAMES if n not in set(ring.split()) | black_ring | {"c3", "g3"}]
    state = _position(black=" ".join(black_ring), white=" ".join([*ring.split(), *others]))
    assert state.score == {"black": 1, "white": 1}
    assert state.outcome is not None and state.outcome.winner is None
    assert state.outcome.reason == (
        "draw: 1 hole each, alike in size and border; black has no legal placement"
    )


def test_hole_comparison_order() -> None:
    black, white = 1, 2
    assert compare_holes([(1, 6), (1, 6)], [(9, 12)]) == (black, "more holes")
    assert compare_holes([(3, 9), (1, 6)], [(3, 9), (2, 7)]) == (white, "bigger holes")
    assert compare_holes([(2, 8), (2, 7)], [(2, 8), (2, 8)]) == (white, "more stones around holes")
    assert compare_holes([(2, 8)], [(2, 8)]) == (0, "no difference in holes")
    assert compare_holes([], []) == (0, "no difference in holes")


def test_live_score_counts_owned_holes() -> None:
    state = _position(**OPENED)
    # one big hole touched by both colours: nobody owns it
    assert state.score == {"black": 0, "white": 0}
    assert state.score_text() == "black 0 holes · white 0 holes"
