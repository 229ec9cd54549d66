"""Lefe easy's random playouts (``LevelTuning.playouts``, docs/ai.md, Lefe, tenth round).

From 32 moves down to the end reading's 16, easy plays each move out to the end at random
(both sides) and drops a move far below the best share of won playouts. The position
below is game 197 of the ladder's easy-against-random line at ply 69 (light, easy, to
move with 26 moves, leading 4-2): easy played b3xf3 and lost the game 3-4 when its own
last placements merged its trees. Random playouts win about half the games after b3xf3
and nearly all after b3xg9 (40 a move: 0.54 against 0.94).
"""

from __future__ import annotations

import dataclasses

import pytest

from engine.ai import levels
from engine.ai.mcts import SearchResult
from engine.ai.model import search_root
from engine.board import BoardState
from engine.registry import get_board_game, get_spec

_MOVES = """
g6 g2 f3 f2xf3 e7 a4 d6 e3 b1 f4 j6 d2 a5 a3xa5 f6 e6 j3 g4 b2 h5 h4 h6xh4 f8 h7 g9 i1
d3 i7 c6 g8xc6 g7 i2 c4 j5 i3 d1 e7 c2xd3 e10 h4xj6 b6 d5xe7 j1 j7 i6 f11 h1 f7 d3 a5
j6xj5 d7 e9xf11 f11 h8 f8 f3 e8xf6 k4 c6 e5 k3 k2 j4xk4 b4 d4 i5 c3 k5
"""


def cramped_lead() -> BoardState:
    state = get_board_game("lefe").new(6)
    for move in _MOVES.split():
        state = state.play(move)
    return state


def test_the_playouts_drop_the_capture_that_loses_the_lead_to_random_play() -> None:
    state = cramped_lead()
    assert state.to_move == "light" and len(state.legal_moves()) == 26
    model = search_root(state)
    tuning = get_spec("lefe").ai.levels["easy"]
    searched = SearchResult("b3xf3", 60, 0.01, 0.7, ranking=["b3xf3", "b3xg9"])
    chosen = levels._played_out(model, searched, tuning, seed=1, deadline=float("inf"))
    assert chosen.move != "b3xf3"
    assert chosen.ranking is not None and "b3xf3" not in chosen.ranking[:1]
    # the search's choice stands where it is within the margin of the best
    kept = dataclasses.replace(searched, move="b3xg9", ranking=["b3xg9", "b3xf3"])
    assert levels._played_out(model, kept, tuning, seed=1, deadline=float("inf")).move == "b3xg9"


@pytest.mark.usefixtures("stopped_clock")
def test_lefe_easy_plays_out_its_moves_and_the_other_levels_do_not(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    tunings = get_spec("lefe").ai.levels
    assert 16 == tunings["easy"].narrow_below < tunings["easy"].playout_below
    assert tunings["easy"].playouts > 0
    assert all(tunings[level].playouts == 0 for level in ("normal", "hard", "master"))
    state = cramped_lead()
    assert levels.search_move(state, "easy", seed=1, time_limit=5.0).move != "b3xf3"
    # the same search without its playouts plays the capture
    monkeypatch.setitem(tunings, "easy", dataclasses.replace(tunings["easy"], playouts=0))
    assert levels.search_move(state, "easy", seed=1, time_limit=5.0).move == "b3xf3"
