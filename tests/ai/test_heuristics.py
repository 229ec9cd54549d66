"""The game-specific heuristics: proper probabilities, zero-sum, and the intended bias."""

from __future__ import annotations

import random

import pytest

from engine import BOARD_GAMES, get_game
from engine.ai import heuristics
from tests.ai.test_search import random_positions


@pytest.mark.parametrize("game_name", BOARD_GAMES)
def test_evaluations_are_probabilities_that_sum_to_one(game_name: str) -> None:
    first, second = get_game(game_name).colors
    for state in random_positions(game_name, 3 if game_name == "lublache" else 8, seed=21):
        evaluate = heuristics.evaluator_for(state)
        mine, theirs = evaluate(state, first), evaluate(state, second)
        assert 0.0 <= mine <= 1.0
        assert mine + theirs == pytest.approx(1.0)


def test_a_bigger_dalen_army_is_better() -> None:
    game = get_game("dalen")
    ahead = game.position(stones={"a1": "dark", "c3": "dark", "e5": "light"}, to_move="light")
    assert heuristics.evaluator_for(ahead)(ahead, "dark") > 0.5


def test_lefe_orders_captures_first() -> None:
    moves = ["a1", "b2xc3", "d4", "e5xf6"]
    ordered = heuristics.captures_first(None, moves, random.Random(1))
    assert set(ordered[:2]) == {"b2xc3", "e5xf6"} and set(ordered) == set(moves)


def test_unknown_games_get_neutral_knowledge() -> None:
    from tests.ai.toy_game import ThreeInRow

    state = ThreeInRow().new()
    assert heuristics.evaluator_for(state)(state, "red") == 0.5
    assert heuristics.orderer_for(state) is heuristics.shuffled
