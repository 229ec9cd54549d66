"""A search model refuses a move the rules refuse, for the engine's own reason.

The searches only play legal moves, but a model stands in for the engine's position, so a
refused move must fail on it as it fails on the engine: the same IllegalMove code.
"""

from __future__ import annotations

import random

import pytest

from engine.ai.model import search_root
from engine.errors import IllegalMove
from engine.registry import get_board_game


def _code(play: object, move: str) -> str:
    with pytest.raises(IllegalMove) as refused:
        play(move)  # type: ignore[operator]  # a position's bound play method
    return refused.value.code


@pytest.mark.parametrize("game", ["lublache", "dalen"])
def test_a_model_refuses_what_the_engine_refuses_with_the_same_code(game: str) -> None:
    compared = 0
    for seed in range(30):
        rng = random.Random(seed)
        state = get_board_game(game).new()
        while state.outcome is None and state.ply < 60:
            model = search_root(state)
            assert model is not state, "the game offers no model"
            legal = set(state.legal_moves())
            for cell in state.grid.names:
                if state.stone_at(cell) is None and cell not in legal:
                    assert _code(model.play, cell) == _code(state.play, cell), (seed, cell)
                    compared += 1
            state = state.play(rng.choice(state.legal_moves()))
        if compared >= 40:
            break
    assert compared >= 40, f"only {compared} refused cells met"
