"""Lublache's search-side model (engine/ai/models/lublache.py) against the engine.

Random games at every size are played through both, move for move: after every move the
model and the engine agree on the legal moves (in order), the outcome, the colour to
move, the score, the cells each colour's loops close to it and the evaluator's values.
Seeded searches with budgets and no clock to speak of (alpha-beta, Monte Carlo, the exact
end reading) return the same move after the same number of positions on both.
"""

from __future__ import annotations

import dataclasses
import random

import pytest

from engine import get_game
from engine.ai import endsolver
from engine.ai.alphabeta import AlphaBetaSearcher
from engine.ai.heuristics import lublache_closed_cells, lublache_evaluator
from engine.ai.mcts import Searcher
from engine.ai.model import search_root
from engine.ai.models.lublache import LublachePosition
from engine.ai.settings import AlphaBetaSettings, SearchSettings
from engine.board import SWAP, BoardState
from engine.errors import IllegalMove

COLOURS = ("black", "white")


def _agree(model: LublachePosition, state: BoardState) -> None:
    assert model.cells == state.cells
    assert model.ply == state.ply
    assert model.outcome == state.outcome
    assert model.to_move == state.to_move
    assert model.mover == state.mover
    assert model.legal_moves() == state.legal_moves()
    assert model.score == state.score
    assert dict(model.extra) == dict(state.extra)
    if state.outcome is None:
        assert model.closed_cells() == lublache_closed_cells(state)
        for colour in COLOURS:
            assert lublache_evaluator(model, colour) == lublache_evaluator(state, colour)


def _random_game(size: int, seed: int) -> None:
    """One random game through the engine and, in step, the model made at its start (so
    everything the model carries from position to position is checked) and a model made
    afresh from the engine's position now and then."""
    rng = random.Random(seed)
    state = get_game("lublache").new(size)
    model = search_root(state)
    assert isinstance(model, LublachePosition)
    while True:
        _agree(model, state)
        if rng.random() < 0.1:
            fresh = LublachePosition.of(state)
            # one at a time, before the list is known: the same moves in the same order
            assert list(fresh.moves_one_by_one()) == state.legal_moves()
            _agree(fresh, state)
            assert list(fresh.moves_one_by_one()) == state.legal_moves()
        moves = state.legal_moves()
        if not moves:
            return
        # a move sometimes played before the model's move list is read: the model then
        # works the placement out on its own
        move = SWAP if SWAP in moves and rng.random() < 0.5 else rng.choice(moves)
        if rng.random() < 0.3:
            model = LublachePosition.of(state).play(move)
        else:
            model = model.play(move)
        state = state.play(move)


@pytest.mark.parametrize("seed", range(6))
def test_random_games_on_the_5_board_agree_with_the_engine(seed: int) -> None:
    _random_game(5, seed)


@pytest.mark.parametrize("seed", range(4))
def test_random_games_on_the_7_board_agree_with_the_engine(seed: int) -> None:
    _random_game(7, 100 + seed)


def test_a_random_game_on_the_9_board_agrees_with_the_engine() -> None:
    _random_game(9, 200)


def test_the_model_refuses_what_the_engine_refuses() -> None:
    state = get_game("lublache").new(5)
    model = search_root(state)
    with pytest.raises(IllegalMove):
        model.play(SWAP)  # nobody has played yet
    after = model.play("c3")
    with pytest.raises(IllegalMove):
        after.play("c3")  # taken
    assert after.play(SWAP).to_move == state.play("c3").play(SWAP).to_move


def _positions(size: int, seed: int, every: int = 9) -> list[BoardState]:
    """Positions of a random game, every ``every`` plies from the second."""
    rng = random.Random(seed)
    state = get_game("lublache").new(size)
    found = []
    while state.outcome is None:
        if state.ply % every == 1:
            found.append(state)
        state = state.play(rng.choice(state.legal_moves()))
    return found


def _fresh(state: BoardState) -> BoardState:
    """The same position with no caches: the engine's search reads it from scratch."""
    return get_game("lublache").from_json(state.to_json())


@pytest.mark.parametrize("seed", range(2))
def test_alpha_beta_reads_the_model_as_it_reads_the_engine(seed: int) -> None:
    settings = AlphaBetaSettings(
        max_depth=3, max_nodes=400, time_limit=1_000.0, root_width=6, draw_value=0.4
    )
    for state in _positions(7, 300 + seed):
        on_engine = AlphaBetaSearcher(settings).search(_fresh(state), random.Random(seed))
        on_model = AlphaBetaSearcher(settings).search(search_root(state), random.Random(seed))
        # the same reading, position for position (only the time it took differs)
        assert dataclasses.replace(on_model, elapsed=0.0) == dataclasses.replace(
            on_engine, elapsed=0.0
        )


def test_monte_carlo_reads_the_model_as_it_reads_the_engine() -> None:
    settings = SearchSettings(max_iterations=60, time_limit=1_000.0, draw_value=0.4)
    for state in _positions(5, 400, every=5):
        on_engine = Searcher(settings).search(_fresh(state), random.Random(5))
        on_model = Searcher(settings).search(search_root(state), random.Random(5))
        assert (on_model.move, on_model.iterations, on_model.visits) == (
            on_engine.move,
            on_engine.iterations,
            on_engine.visits,
        )


def test_the_exact_end_reading_agrees_on_the_model() -> None:
    compared = 0
    for seed in range(3):
        for state in _positions(5, 500 + seed, every=3):
            if len(state.legal_moves()) > 9:
                continue
            on_engine = endsolver.solve(_fresh(state), max_nodes=3_000, time_limit=1_000.0)
            on_model = endsolver.solve(search_root(state), max_nodes=3_000, time_limit=1_000.0)
            assert on_model == on_engine
            compared += 1
    assert compared >= 5
