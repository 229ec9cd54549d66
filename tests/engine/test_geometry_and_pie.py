"""RULINGS §1 (board geometry and notation) and §2 (the pie rule), checked by example."""

from __future__ import annotations

import pytest

from engine import IllegalMove, get_game
from engine.hexgrid import hex_grid


def _neighbour_names(n: int, cell: str) -> set[str]:
    grid = hex_grid(n)
    return {grid.names[i] for i in grid.neighbours[grid.index(cell)]}


def test_ruling_1_columns_centre_and_corners_of_the_6_board() -> None:
    grid = hex_grid(6)
    assert grid.column_heights == (6, 7, 8, 9, 10, 11, 10, 9, 8, 7, 6)
    assert grid.names[grid.centre] == "f6"
    assert {grid.names[i] for i in grid.corners()} == {"a1", "a6", "f1", "f11", "k1", "k6"}
    assert grid.cell_count == 91


def test_ruling_1_neighbours_in_the_middle_and_both_halves() -> None:
    assert _neighbour_names(6, "f6") == {"f5", "f7", "e5", "e6", "g5", "g6"}
    assert _neighbour_names(6, "c3") == {"c2", "c4", "b2", "b3", "d3", "d4"}
    assert _neighbour_names(6, "h4") == {"h3", "h5", "g4", "g5", "i3", "i4"}


@pytest.mark.parametrize("n", [5, 6, 7, 8, 9])
def test_ruling_1_names_follow_the_axial_formula(n: int) -> None:
    grid = hex_grid(n)
    assert grid.cell_count == 3 * n * (n - 1) + 1
    for index, (q, r) in enumerate(grid.coords):
        letter = "abcdefghijklmnopqrstuvwxy"[q + n - 1]
        number = min(n - 1, n - 1 - q) - r + 1
        assert grid.names[index] == f"{letter}{number}"
    # notation order: column letter first, then number
    assert list(grid.names) == sorted(grid.names, key=lambda name: (name[0], int(name[1:])))


def test_ruling_1_input_is_case_insensitive() -> None:
    state = get_game("lefe").new(6)
    assert state.play(" F6 ").moves == ("f6",)
    assert state.play("F6").stones == {"f6": "dark"}


@pytest.mark.parametrize("name", ["lefe", "dalen"])
def test_ruling_2_swap_gives_seat_b_the_first_colour(name: str) -> None:
    state = get_game(name).new().play("f6")
    assert "swap" in state.legal_moves()
    assert state.seat_to_move == 1 and state.to_move == "light"
    swapped = state.play("swap")
    assert swapped.swapped
    assert swapped.stones == {"f6": "dark"}, "the stone stays where it is"
    assert swapped.to_move == "light" and swapped.seat_to_move == 0
    assert swapped.seat_colour(0) == "light" and swapped.seat_colour(1) == "dark"
    assert swapped.last_turn.move == "swap"
    after = swapped.play_as(0, "e5")
    assert after.to_move == "dark" and after.seat_to_move == 1


@pytest.mark.parametrize("name", ["lefe", "dalen"])
def test_ruling_2_swap_is_only_possible_as_the_second_move(name: str) -> None:
    game = get_game(name)
    fresh = game.new()
    with pytest.raises(IllegalMove, match="swap is only possible as the second move"):
        fresh.play("swap")
    third = fresh.play("f6").play("a1")
    assert "swap" not in third.legal_moves()
    with pytest.raises(IllegalMove, match="swap is only possible as the second move"):
        third.play("swap")
    twice = fresh.play("f6").play("swap")
    with pytest.raises(IllegalMove, match="swap is only possible as the second move"):
        twice.play("swap")
    position = game.position(stones={"f6": "dark"}, to_move="light")
    assert "swap" not in position.legal_moves()


@pytest.mark.parametrize("name", ["lefe", "dalen"])
def test_ruling_2_a_normal_second_move_keeps_the_colours(name: str) -> None:
    state = get_game(name).new().play("f6").play("a1")
    assert not state.swapped
    assert state.seat_colour(0) == "dark" and state.seat_to_move == 0


def test_play_as_refuses_the_seat_whose_turn_it_is_not() -> None:
    state = get_game("lefe").new().play("f6")
    with pytest.raises(IllegalMove, match="it is light's turn"):
        state.play_as(0, "a1")
    assert state.play_as(1, "a1").stones == {"f6": "dark", "a1": "light"}
