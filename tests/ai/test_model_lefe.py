"""Lefe's search-side model (engine/ai/models/lefe.py) against the engine, position for
position: the same moves in the same order, outcome, mover, score and trees after every
move of random playouts at every size; the same evaluator values; and the same seeded
searches (move, positions read, ranking) on the model as on the engine's states.
"""

from __future__ import annotations

import random

import pytest

from engine.ai.alphabeta import AlphaBetaSearcher
from engine.ai.heuristics import lefe_evaluator
from engine.ai.levels import search_move
from engine.ai.mcts import Searcher
from engine.ai.model import search_root
from engine.ai.models.lefe import LefeModel, evaluate
from engine.ai.settings import DRAW_VALUE, AlphaBetaSettings, SearchSettings
from engine.board import BoardState
from engine.errors import IllegalMove
from engine.registry import get_board_game
from engine.trees import build_forest


def _trees_of(state: BoardState) -> set[tuple[int, int, int, frozenset[int]]]:
    forest = build_forest(state.cells, state.grid.neighbours, lone_stone_is_leaf=True)
    return {
        (forest.owner[tree], forest.leaves[tree], group[0], frozenset(group))
        for tree, group in enumerate(forest.members)
    }


def _assert_same(model: LefeModel, state: BoardState) -> None:
    assert model.legal_moves() == state.legal_moves()
    assert (model.to_move, model.mover, model.ply) == (state.to_move, state.mover, state.ply)
    assert model.cells == state.cells
    assert model.outcome == state.outcome
    if state.outcome is not None:
        assert model.outcome is not None
        assert (model.outcome.code, model.outcome.params) == (
            state.outcome.code,
            state.outcome.params,
        )
    assert model.score == state.score
    model_trees = {(o, lv, f, frozenset(s)) for o, lv, f, s in model.trees.values()}
    assert model_trees == _trees_of(state)
    for tree, (_, _, _, stones) in model.trees.items():
        assert all(model.labels[stone] == tree for stone in stones)
    # the carried placement counts equal the ones a fresh model counts from the stones
    fresh = LefeModel.from_state(state)
    assert (model.open, model.mobility) == (fresh.open, fresh.mobility)
    if state.outcome is None:
        for colour in state.game.colors:
            assert evaluate(model, colour) == lefe_evaluator(state, colour)  # type: ignore[arg-type]  # the model stands in for the state


@pytest.mark.parametrize("size", [5, 6, 7])
@pytest.mark.parametrize("seed", range(6))
def test_random_playouts_agree_with_the_engine_after_every_move(size: int, seed: int) -> None:
    rng = random.Random(seed * 31 + size)
    state = get_board_game("lefe").new(size)
    model = LefeModel.from_state(state)
    while True:
        _assert_same(model, state)
        if state.outcome is not None:
            break
        move = rng.choice(state.legal_moves())
        state, model = state.play(move), model.play(move)


def test_a_model_built_mid_game_agrees_as_one_played_there() -> None:
    rng = random.Random(4)
    state = get_board_game("lefe").new(6)
    for _ in range(40):
        state = state.play(rng.choice(state.legal_moves()))
    model = LefeModel.from_state(state)
    while state.outcome is None:
        _assert_same(model, state)
        move = rng.choice(state.legal_moves())
        state, model = state.play(move), model.play(move)
    _assert_same(model, state)


def test_a_set_up_position_offers_no_swap_and_the_pie_rule_is_followed() -> None:
    game = get_board_game("lefe")
    fresh = game.new(6)
    after_first = LefeModel.from_state(fresh).play("f6")
    assert "swap" in after_first.legal_moves()
    swapped = after_first.play("swap")
    assert "swap" not in swapped.legal_moves()
    _assert_same(swapped, fresh.play("f6").play("swap"))
    set_up = game.position(6, {"f6": "dark"}, "light")
    assert "swap" not in LefeModel.from_state(set_up).legal_moves()


def test_a_move_not_legal_in_the_position_is_refused() -> None:
    model = LefeModel.from_state(get_board_game("lefe").new(6)).play("f6")
    with pytest.raises(IllegalMove):
        model.play("f6")
    with pytest.raises(IllegalMove):
        model.play("zz9")


def _positions(count: int) -> list[BoardState]:
    positions: list[BoardState] = []
    rng = random.Random(11)
    while len(positions) < count:
        state = get_board_game("lefe").new(rng.choice([5, 6, 7]))
        for _ in range(rng.randrange(1, 100)):
            if state.outcome is not None:
                break
            state = state.play(rng.choice(state.legal_moves()))
        if state.outcome is None:
            positions.append(state)
    return positions


@pytest.mark.parametrize("index", range(12))
def test_the_same_seeded_search_reads_the_same_positions_on_the_model(index: int) -> None:
    state = _positions(12)[index]
    model = LefeModel.from_state(state)
    deep = AlphaBetaSettings(max_depth=6, max_nodes=1_500, time_limit=600.0, draw_value=DRAW_VALUE)
    monte = SearchSettings(max_iterations=150, time_limit=600.0, draw_value=DRAW_VALUE)
    for search in (AlphaBetaSearcher(deep).search, Searcher(monte).search):
        on_engine = search(state, random.Random(index))
        on_model = search(model, random.Random(index))  # type: ignore[arg-type]  # the model stands in for the state
        assert on_model.move == on_engine.move
        assert on_model.iterations == on_engine.iterations
        assert on_model.ranking == on_engine.ranking
        assert on_model.value == on_engine.value
        assert on_model.visits == on_engine.visits


def test_lefe_searches_its_model_and_plays_an_engine_move() -> None:
    state = _positions(1)[0]
    assert isinstance(search_root(state), LefeModel)
    result = search_move(state, "hard", seed=2, scale=0.05)
    assert result.move in state.legal_moves()
