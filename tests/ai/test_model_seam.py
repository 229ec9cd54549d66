"""The search-model seam (engine/ai/model.py): a game's model is what every level reads.

A stand-in model wraps the engine's states and counts the positions the search plays
through it: the search must go through the model, and return the engine's own move.
"""

from __future__ import annotations

import dataclasses
import random
from typing import Any

import pytest

from engine.ai.levels import search_move
from engine.ai.model import search_root
from engine.board import BoardState
from engine.registry import get_board_game


class CountingModel:
    """The engine's state behind the model surface, counting every position played."""

    def __init__(self, state: BoardState, counter: list[int]) -> None:
        self._state = state
        self._counter = counter

    def __getattr__(self, name: str) -> Any:
        return getattr(self._state, name)

    def play(self, move: str) -> CountingModel:
        self._counter[0] += 1
        return CountingModel(self._state.play(move), self._counter)


@pytest.fixture
def lefe_with_model(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    game = get_board_game("lefe")
    counter = [0]
    ai = dataclasses.replace(game.spec.ai, model=lambda state: CountingModel(state, counter))
    monkeypatch.setattr(type(game), "spec", dataclasses.replace(game.spec, ai=ai))
    return counter


def _midgame() -> BoardState:
    state = get_board_game("lefe").new()
    rng = random.Random(7)
    for _ in range(12):
        state = state.play(rng.choice(state.legal_moves()))
    return state


def test_without_a_model_the_search_reads_the_engine_state(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    game = get_board_game("lefe")
    ai = dataclasses.replace(game.spec.ai, model=None)
    monkeypatch.setattr(type(game), "spec", dataclasses.replace(game.spec, ai=ai))
    state = _midgame()
    assert search_root(state) is state


@pytest.mark.parametrize("level", ["easy", "hard"])
def test_every_level_searches_the_games_model_and_plays_the_engines_move(
    lefe_with_model: list[int], level: str
) -> None:
    state = _midgame()
    result = search_move(state, level, seed=3, scale=0.2)
    assert lefe_with_model[0] > 0, "the search never played a position through the model"
    assert result.move in state.legal_moves()
