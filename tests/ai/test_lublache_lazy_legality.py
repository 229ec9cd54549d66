"""Lazy legality: alpha-beta reads Lublache's candidate moves and works out the
end-of-turn test only for the moves it reaches (AlphaBetaSettings.lazy_legality).

The candidates must hold every legal move and ``play_if_legal`` must refuse exactly the
others; and since alpha-beta's value of a position read to a fixed depth does not depend
on the order its moves are tried in, the search must find the same move and value with
the candidates as with the full move lists wherever it completes its depth.
"""

from __future__ import annotations

import random

import pytest

from engine import get_board_game
from engine.ai.alphabeta import AlphaBetaSearcher
from engine.ai.model import search_root
from engine.ai.models.lublache import LublachePosition
from engine.ai.settings import AlphaBetaSettings
from engine.board import BoardState
from tests.ai.test_model_lublache import _positions


@pytest.mark.parametrize("size", [5, 7])
def test_the_candidates_hold_the_legal_moves_and_only_those_play(size: int) -> None:
    for state in _positions(size, 40 + size, every=3):
        position = LublachePosition.of(state)
        candidates = position.candidate_moves()
        legal = state.legal_moves()
        assert set(legal) <= set(candidates)
        played = [move for move in candidates if position.play_if_legal(move) is not None]
        assert played == legal  # the same moves in the same order
        for move in legal:
            child = position.play_if_legal(move)
            assert child is not None
            assert child.cells == state.play(move).cells


def test_a_finished_position_has_no_candidates() -> None:
    state = get_board_game("lublache").new(5)
    while state.outcome is None:
        state = state.play(state.legal_moves()[0])
    assert LublachePosition.of(state).candidate_moves() == []


@pytest.mark.parametrize("seed", range(2))
def test_lazy_legality_reads_the_same_move_and_value(seed: int) -> None:
    def read(state: BoardState, lazy: bool) -> tuple[str, float, int]:
        settings = AlphaBetaSettings(
            max_depth=3,
            max_nodes=10**7,  # the depth completes
            time_limit=1_000.0,
            root_width=6,
            draw_value=0.4,
            lazy_legality=lazy,
        )
        found = AlphaBetaSearcher(settings).search(search_root(state), random.Random(seed))
        return found.move, found.value, found.depth

    for state in _positions(7, 300 + seed, every=12):
        assert read(state, True) == pytest.approx(read(state, False), abs=1e-12)
