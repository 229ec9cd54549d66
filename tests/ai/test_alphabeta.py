"""The alpha-beta searcher: legal, reproducible, within budget, and minimax-sharp."""

from __future__ import annotations

import random
import time

import pytest

from engine import get_game
from engine.ai.alphabeta import AlphaBetaSearcher, AlphaBetaSettings
from engine.ai.heuristics import evaluator_for
from tests.ai.test_search import random_positions
from tests.ai.toy_game import blue_threatens_three, red_wins_in_one

QUICK = AlphaBetaSettings(max_depth=3, max_nodes=3000, time_limit=30.0)


@pytest.mark.parametrize("game_name", ["lefe", "dalen", "les", "lublache"])
def test_alphabeta_returns_a_legal_move_in_random_positions(game_name: str) -> None:
    settings = QUICK if game_name != "lublache" else AlphaBetaSettings(2, 60, 30.0)
    count = 2 if game_name == "lublache" else 4
    for index, state in enumerate(random_positions(game_name, count, seed=17)):
        result = AlphaBetaSearcher(settings).search(state, random.Random(index))
        assert result.move in state.legal_moves()
        state.play(result.move)


@pytest.mark.parametrize("game_name", ["lefe", "dalen"])
def test_alphabeta_is_reproducible_and_keeps_to_its_node_budget(game_name: str) -> None:
    state = random_positions(game_name, 1, seed=8)[0]
    first = AlphaBetaSearcher(QUICK).search(state, random.Random(1))
    second = AlphaBetaSearcher(QUICK).search(
        get_game(game_name).from_json(state.to_json()), random.Random(1)
    )
    assert (first.move, first.iterations) == (second.move, second.iterations)
    # the root scan plays every move once; past it, the budget is a hard cap
    assert first.iterations <= QUICK.max_nodes + len(state.legal_moves()) + 1


def test_alphabeta_takes_a_win_in_one() -> None:
    position, win = red_wins_in_one()
    assert AlphaBetaSearcher(QUICK).search(position, random.Random(0)).move == win


def test_alphabeta_blocks_the_threat_a_one_ply_scan_misses() -> None:
    position, block = blue_threatens_three()
    one_ply = AlphaBetaSettings(max_depth=1, max_nodes=10**6, time_limit=30.0)
    two_ply = AlphaBetaSettings(max_depth=2, max_nodes=10**6, time_limit=30.0)
    assert AlphaBetaSearcher(one_ply).search(position, random.Random(0)).move != block
    assert AlphaBetaSearcher(two_ply).search(position, random.Random(0)).move == block


def test_alphabeta_assumes_the_best_reply_not_the_average_one() -> None:
    # Minimax, not averaging: the chosen move's value is the worst its replies leave.
    state = random_positions("dalen", 1, seed=4)[0]
    settings = AlphaBetaSettings(max_depth=2, max_nodes=10**6, time_limit=60.0)
    result = AlphaBetaSearcher(settings).search(state, random.Random(0))
    mover = state.to_move
    evaluate = evaluator_for(state)
    after = state.play(result.move)
    worst = min(evaluate(reply, mover) for reply in (after.play(m) for m in after.legal_moves()))
    assert result.value == pytest.approx(worst)


def test_the_settings_evaluator_replaces_the_games() -> None:
    # a level may read with its own evaluator (Les master's): the search values its leaves
    # with that one, not the game's. Here it favours one move above all others, and one ply
    # of reading plays it.
    state = random_positions("les", 1, seed=6)[0]
    favourite = sorted(state.legal_moves())[-1]
    favoured = state.play(favourite).cells

    def evaluate(position: object, colour: str) -> float:
        # valued for its side to move: after the favourite, nothing is left to the opponent
        return 0.0 if getattr(position, "cells", None) == favoured else 0.5

    settings = AlphaBetaSettings(max_depth=1, max_nodes=10**6, time_limit=60.0)
    assert AlphaBetaSearcher(settings).search(state, random.Random(0)).move != favourite
    chosen = AlphaBetaSettings(max_depth=1, max_nodes=10**6, time_limit=60.0, evaluator=evaluate)
    assert AlphaBetaSearcher(chosen).search(state, random.Random(0)).move == favourite


def test_alphabeta_stops_at_its_time_limit() -> None:
    state = get_game("lefe").new().play("e5")
    settings = AlphaBetaSettings(max_depth=8, max_nodes=10**9, time_limit=0.3)
    # the processor time: the work done, however busy the machine (tests/ai/test_search.py)
    started = time.process_time()
    result = AlphaBetaSearcher(settings).search(state, random.Random(1))
    assert result.move in state.legal_moves()
    assert time.process_time() - started < 0.3 + 1.0
