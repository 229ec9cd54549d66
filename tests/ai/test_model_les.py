"""Les's search-side model (engine/ai/models/les.py) against the engine, position by position.

The model must be the engine's position in another form: the same moves in the same
order, outcome, mover and score after every move of random games on every board size, the
same claims and evaluation as the evaluator read them from the engine's stones before the
model existed (the frozen reference's copy, bench/reference/heuristics.py), and the same
seeded searches: the same move, value, ranking and positions read, on the engine's state and
on the model.
"""

from __future__ import annotations

import dataclasses
import random

import pytest

from bench.reference import heuristics as before
from engine.ai import heuristics
from engine.ai.alphabeta import AlphaBetaSearcher
from engine.ai.levels import search_move
from engine.ai.mcts import Searcher
from engine.ai.model import search_root
from engine.ai.models.les import LesPosition
from engine.ai.settings import DRAW_VALUE, AlphaBetaSettings, SearchSettings
from engine.board import BoardState
from engine.les import LesState
from engine.les_holes import owned_holes
from engine.registry import get_board_game

GAME = get_board_game("les")


def _playouts(size: int, games: int, seed: int) -> list[tuple[BoardState, LesPosition | None]]:
    """Every position of ``games`` random games on the ``size``-board, each with the model
    played along from the first ordinary turn (None before it)."""
    pairs: list[tuple[BoardState, LesPosition | None]] = []
    rng = random.Random(seed)
    for _ in range(games):
        state = GAME.new(size)
        model: LesPosition | None = None
        while True:
            if model is None and isinstance(state, LesState) and state.phase == "play":
                model = LesPosition.of(state)
            pairs.append((state, model))
            if state.outcome is not None:
                break
            move = rng.choice(state.legal_moves())
            state = state.play(move)
            if model is not None:
                model = model.play(move)
    return pairs


@pytest.mark.parametrize("size", GAME.sizes)
def test_the_model_plays_random_games_exactly_as_the_engine(size: int) -> None:
    modelled = 0
    for state, model in _playouts(size, games=4, seed=size):
        if model is None:
            continue
        modelled += 1
        assert model.legal_moves() == state.legal_moves()  # the same moves, in the same order
        assert model.outcome == state.outcome
        assert (model.mover, model.to_move, model.ply) == (state.mover, state.to_move, state.ply)
        assert model.score == state.score
        assert model.cells == state.cells
        # the holes owned, each (size, stones around it), biggest first, as the engine's
        # result compares them: kept move by move
        owned = owned_holes(state.cells, state.grid.neighbours)
        assert model.owned_holes() == tuple(
            tuple(sorted(owned[code], reverse=True)) for code in (1, 2)
        )
        assert dict(model.extra) == dict(state.extra)
    assert modelled > 40 * 4


@pytest.mark.parametrize("size", [5, 7, 9])
def test_the_model_is_valued_as_the_engine_was_before_it(size: int) -> None:
    first, second = GAME.colors
    for state, model in _playouts(size, games=3, seed=100 + size):
        if model is None or model.outcome is not None:
            continue
        # the claims the model keeps move by move, the claims read from the engine's cells,
        # and the claims of the evaluator as it was (read from the stones by name)
        assert model.claims() == heuristics.les_claims(state) == before.les_claims(state)
        for colour in (first, second):
            value = before.les_evaluator(state, colour)
            assert heuristics.les_evaluator(model, colour) == value
            assert heuristics.les_evaluator(state, colour) == value


def test_a_game_set_up_from_a_position_is_modelled_too() -> None:
    stones = {"e5": "black", "e6": "white", "c3": "black", "g7": "white", "a1": "white"}
    state = GAME.position(7, stones=stones, to_move="white")
    model = search_root(state)
    assert isinstance(model, LesPosition)
    rng = random.Random(3)
    while state.outcome is None:
        assert model.legal_moves() == state.legal_moves() and model.score == state.score
        move = rng.choice(state.legal_moves())
        state, model = state.play(move), model.play(move)
    assert model.outcome == state.outcome and model.legal_moves() == []


def test_the_set_up_and_the_choice_of_side_are_searched_on_the_engines_state() -> None:
    state = GAME.new(9)
    assert search_root(state) is state
    while isinstance(state, LesState) and state.phase != "play":
        assert search_root(state) is state
        state = state.play(state.legal_moves()[0])
    assert isinstance(search_root(state), LesPosition)


def _search_positions() -> list[BoardState]:
    """Positions of the default board from the early middle game (hundreds of two-stone
    moves) to the end (a handful of one-stone moves)."""
    positions = []
    for seed in range(4):
        rng = random.Random(seed)
        state = GAME.new(9)
        for ply in range(160):
            if state.outcome is not None:
                break
            if ply in (14, 50, 80, 110, 140):
                positions.append(state)
            state = state.play(rng.choice(state.legal_moves()))
    return positions


def test_a_seeded_alpha_beta_search_reads_the_model_as_it_reads_the_engine() -> None:
    settings = AlphaBetaSettings(
        max_depth=3, max_nodes=400, time_limit=600.0, root_width=8, draw_value=DRAW_VALUE
    )
    positions = _search_positions()
    assert len(positions) >= 16
    for state in positions:
        on_engine = AlphaBetaSearcher(settings).search(state, random.Random(7))
        on_model = AlphaBetaSearcher(settings).search(LesPosition.of(state), random.Random(7))
        # budget-bound, so the positions read count too: the same tree, move for move
        assert dataclasses.replace(on_model, elapsed=0.0) == dataclasses.replace(
            on_engine, elapsed=0.0
        )


def test_a_seeded_monte_carlo_search_reads_the_model_as_it_reads_the_engine() -> None:
    settings = SearchSettings(max_iterations=80, time_limit=600.0, draw_value=DRAW_VALUE)
    for state in _search_positions()[::3]:
        on_engine = Searcher(settings).search(state, random.Random(11))
        on_model = Searcher(settings).search(LesPosition.of(state), random.Random(11))
        assert dataclasses.replace(on_model, elapsed=0.0) == dataclasses.replace(
            on_engine, elapsed=0.0
        )


@pytest.mark.parametrize("level", ["easy", "normal", "master"])
def test_every_level_plays_the_move_it_played_on_the_engines_state(
    level: str, monkeypatch: pytest.MonkeyPatch, stopped_clock: None
) -> None:
    positions = _search_positions()[1::4]
    on_model = [
        search_move(state, level, seed=5, scale=0.05, time_limit=5.0) for state in positions
    ]
    assert all(isinstance(search_root(state), LesPosition) for state in positions)
    without = dataclasses.replace(GAME.spec, ai=dataclasses.replace(GAME.spec.ai, model=None))
    monkeypatch.setattr(type(GAME), "spec", without)
    for state, found in zip(positions, on_model, strict=True):
        assert search_root(state) is state
        on_engine = search_move(state, level, seed=5, scale=0.05, time_limit=5.0)
        assert (found.move, found.iterations, found.value) == (
            on_engine.move,
            on_engine.iterations,
            on_engine.value,
        )


@pytest.mark.parametrize("size", [5, 7, 9])
def test_the_fewest_plies_to_the_end_bound_every_game_and_spare_the_guard(size: int) -> None:
    # the bound the tactical guard trusts: never more plies than the game really lasts, and a
    # move takes at most one off it; where it is above two, the guard's full look (win in
    # one, refuted moves) answers the ranking's first move, as the short cut does
    from engine.ai import tactics

    games = _playouts(size, games=3, seed=300 + size)
    ends = [i for i, (state, _) in enumerate(games) if state.outcome is not None]
    spared = 0
    for i, (_, model) in enumerate(games):
        if model is None:
            continue
        end = min(e for e in ends if e >= i)
        assert model.fewest_plies_to_end() <= end - i
        if model.outcome is not None:
            continue
        rng = random.Random(i)
        moves = model.legal_moves()
        for move in rng.sample(moves, min(len(moves), 12)):
            assert model.play(move).fewest_plies_to_end() >= model.fewest_plies_to_end() - 1
        if not tactics.ends_within(model, 2) and i % 3 == 0:
            spared += 1
            ranking = rng.sample(moves, min(len(moves), 8))
            mover = model.to_move
            assert mover is not None
            assert tactics.winning_move(model) is None
            assert not any(tactics.loses_at_once(model.play(m), mover) for m in ranking)
            assert tactics.guarded_choice(model, ranking) == ranking[0]
    assert spared > 5
