"""What positions tell pictures: the stones a refusal is about, and the trees and leaves.

Refusals name their stones as parameters; the English sentence and the code stay what they
were; the extra parameters only say which stones a picture should mark: the friendly
neighbours that touch in Lefe, the friendly leaves in Dalen, the loop next to the cell (and
its stones there) in Lublache. ``trees()`` names every tree's stones and leaves.
"""

from __future__ import annotations

import pickle

import pytest

from engine import IllegalMove, get_game
from engine.hexgrid import hex_grid


def _refusal(game: str, stones: dict[str, str], to_move: str, move: str) -> IllegalMove:
    state = get_game(game).position(5, stones, to_move)
    with pytest.raises(IllegalMove) as caught:
        state.play(move)
    return caught.value


def test_lefe_names_the_friendly_neighbours_that_touch() -> None:
    error = _refusal("lefe", {"c3": "dark", "c4": "dark", "e4": "dark"}, "dark", "b3")
    assert error.code == "lefe_touching_pair"
    assert error.params == {"cell": "b3", "stones": ("c3", "c4")}
    assert str(error) == "b3 touches two of your stones that touch each other"


def test_lefe_names_every_stone_of_every_touching_pair() -> None:
    # d4's friendly neighbours c3-c4 touch, and so do d5-e5: every stone of every
    # touching pair is named
    error = _refusal("lefe", {"c3": "dark", "c4": "dark", "d5": "dark", "e5": "dark"}, "dark", "d4")
    assert error.params["stones"] == ("c3", "c4", "d5", "e5")


def test_lefe_enemy_stones_are_not_named() -> None:
    error = _refusal("lefe", {"c3": "dark", "c4": "dark", "d3": "light"}, "dark", "b3")
    assert error.params["stones"] == ("c3", "c4")


def test_dalen_names_the_friendly_leaves_next_to_the_cell() -> None:
    # two lines of two: c3-c4 and e4-e5; d4 touches all four leaves
    stones = {"c3": "dark", "c4": "dark", "e4": "dark", "e5": "dark", "d3": "light"}
    error = _refusal("dalen", stones, "dark", "d4")
    assert error.code == "dalen_two_leaves"
    assert error.params == {"cell": "d4", "stones": ("c3", "c4", "e4", "e5")}
    assert str(error) == "d4 is next to two of your leaves; a new stone may touch at most one"


def test_dalen_a_non_leaf_neighbour_is_not_named() -> None:
    # the bent line c3-c4-d5: c4 has two friends and is no leaf; d4 touches all three
    error = _refusal("dalen", {"c3": "dark", "c4": "dark", "d5": "dark"}, "dark", "d4")
    assert error.params["stones"] == ("c3", "d5")


def _ring(centre: str) -> list[str]:
    grid = hex_grid(5)
    return [grid.names[nb] for nb in grid.neighbours[grid.index(centre)]]


def test_lublache_own_loop_names_the_loop_and_the_stones_next_to_the_cell() -> None:
    state = get_game("lublache").position(5, dict.fromkeys(_ring("d4"), "black"), "black")
    (loop,) = state.loops()
    with pytest.raises(IllegalMove) as caught:
        state.play("f4")
    error = caught.value
    assert error.code == "lublache_own_loop"
    assert error.params == {"cell": "f4", "loop": loop.cells, "stones": ("e4", "e5")}
    assert str(error) == "f4 touches your own loop"


def test_lublache_enemy_loop_names_the_loop_it_would_end_on() -> None:
    ring = _ring("d4")
    state = get_game("lublache").position(5, dict.fromkeys(ring[:5], "white"), "black")
    with pytest.raises(IllegalMove) as caught:
        state.play(ring[5])
    error = caught.value
    assert error.code == "lublache_enemy_loop"
    assert set(error.params["loop"]) == set(ring)
    assert str(error) == f"{ring[5]} would end on a loop white controls"


def test_a_refusal_with_cells_survives_pickling() -> None:
    # refusals cross process boundaries (AI and picture workers)
    error = _refusal("lefe", {"c3": "dark", "c4": "dark"}, "dark", "b3")
    copy = pickle.loads(pickle.dumps(error))
    assert (copy.code, copy.params, str(copy)) == (error.code, error.params, str(error))


def test_trees_name_their_leaves_by_each_game_s_rule() -> None:
    stones = {"c3": "dark", "c4": "dark", "d5": "dark", "g3": "light"}
    lefe = get_game("lefe").position(5, stones, "dark").trees()
    dalen = get_game("dalen").position(5, stones, "dark").trees()
    # the bent line's ends are leaves in both games; the lone light stone only in Lefe
    assert [(t.colour, t.cells, t.leaves) for t in lefe] == [
        ("dark", ("c3", "c4", "d5"), ("c3", "d5")),
        ("light", ("g3",), ("g3",)),
    ]
    assert [(t.colour, t.cells, t.leaves) for t in dalen] == [
        ("dark", ("c3", "c4", "d5"), ("c3", "d5")),
        ("light", ("g3",), ()),
    ]
    assert [len(t.leaves) for t in lefe if t.colour == "dark"] == get_game("lefe").position(
        5, stones, "dark"
    ).leaf_counts()["dark"]
