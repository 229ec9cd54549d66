"""The game-specific heuristics: proper probabilities, zero-sum, and the intended bias."""

from __future__ import annotations

import itertools
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


def test_lefe_mobility_counts_the_placements_the_engine_allows() -> None:
    for state in random_positions("lefe", 8, seed=31):
        mover_cells = {move.split("x")[0] for move in state.legal_moves() if move != "swap"}
        assert heuristics.lefe_mobility(state)[state.to_move] == len(mover_cells)


def test_lefe_prefers_the_position_that_scores_more_points() -> None:
    game = get_game("lefe")
    light = {"k5": "light"}
    # a line of three (2 leaves) and a lone stone (1 leaf): two distinct counts, leafiest
    varied = game.position(
        stones={"a1": "dark", "a2": "dark", "a3": "dark", "f6": "dark", **light}, to_move="light"
    )
    # four lone stones: one distinct count, leafiest only because light runs out first
    uniform = game.position(
        stones={"a1": "dark", "a3": "dark", "a5": "dark", "f6": "dark", **light}, to_move="light"
    )
    assert varied.score == {"dark": 3, "light": 1}
    assert uniform.score == {"dark": 2, "light": 1}
    evaluate = heuristics.evaluator_for(varied)
    assert evaluate(varied, "dark") > evaluate(uniform, "dark") > 0.5
    assert evaluate(varied, "light") < 0.5


def test_lefe_trusts_a_lead_more_the_nearer_the_end() -> None:
    # Along seeded random games: among positions where dark leads by exactly one point,
    # fewer placements left for the more cramped player means a higher value for dark.
    game = get_game("lefe")
    rng = random.Random(8)
    seen: list[tuple[int, float]] = []
    for _ in range(4):
        state = game.new()
        while state.outcome is None:
            score = state.score
            if score["dark"] - score["light"] == 1:
                left = min(heuristics.lefe_mobility(state).values())
                seen.append((left, heuristics.lefe_evaluator(state, "dark")))
            state = state.play(rng.choice(state.legal_moves()))
    seen.sort()
    assert seen[0][0] < seen[-1][0]
    assert seen[0][1] > seen[-1][1] > 0.5
    for (left_a, value_a), (left_b, value_b) in itertools.pairwise(seen):
        assert value_a >= value_b if left_a < left_b else value_a == pytest.approx(value_b)


def test_dalen_counts_the_flip_a_stagnant_tree_threatens() -> None:
    # Along seeded random games, find a position where the side to move has a stagnant
    # tree touching a smaller enemy tree: some placement makes at least that flip, and the
    # evaluator values the position above the bare stone count.
    game = get_game("dalen")
    plain = heuristics.score_evaluator(4.0)
    rng = random.Random(12)
    for _ in range(20):
        state = game.new()
        while state.outcome is None:
            mover = state.to_move
            threatened = heuristics.dalen_threats(state)[mover]
            if threatened > 0 and state.legal_moves() != ["pass"]:
                most_flipped = max(
                    len(state.play(move).last_turn.flipped or ()) for move in state.legal_moves()
                )
                assert most_flipped >= threatened
                assert heuristics.dalen_evaluator(state, mover) > plain(state, mover)
                return
            state = state.play(rng.choice(state.legal_moves()))
    raise AssertionError("no threatened flip met in 20 random games")
