"""Dalen easy's random playouts (``LevelTuning.playouts``, docs/ai.md, Dalen, ninth round).

From 30 placements down to the end reading, easy plays each move out to the end at random
(both sides) and drops a move far below the best share of won playouts. The position
below is game 194 of the ladder's easy-against-random line at ply 102 (dark, easy, to
move with 23 placements, 69-33 up): c7, which easy played, flips 13 stones and joins its
army into one tree of 82 stones with 5 leaves next to light trees of 2 and 3; it lost
the game. Random playouts win about a fifth of the games after c7 and most after f9.
"""

from __future__ import annotations

import dataclasses

from engine.ai import levels
from engine.ai.mcts import SearchResult
from engine.ai.model import search_root
from engine.board import BoardState
from engine.registry import get_board_game, get_spec

_MOVES = """
c3 l6 c2 e7 i4 e5 k5 a7 k6 m4 e11 h9 d10 k8 m5 g13 d2 i5 h4 f6 g1 b3 f8 m3 h8 h5 m6
g5 k7 f12 i7 a6 f7 b5 c5 j10 h10 a1 d6 h7 g10 d3 e3 k3 i11 l3 i1 g7 b1 e4 m2 i2 f1
e6 d1 a2 g4 k1 j1 d8 j3 d4 h2 f11 l2 i9 j6 d9 l4 g9 b4 l1 j9 k2 h3 k9 i10 l7 h1 g2
m1 g8 i8 h12 l5 i6 h6 b8 c6 a5 g6 j4 j2 d5 c9 d7 k4 j7 f10 e1 m7 e2
"""


def merging_flip() -> BoardState:
    state = get_board_game("dalen").new(7)
    for move in _MOVES.split():
        state = state.play(move)
    return state


def test_the_playouts_drop_the_flip_that_joins_the_army_into_one_tree() -> None:
    state = merging_flip()
    assert state.to_move == "dark" and len(state.legal_moves()) == 23
    model = search_root(state)
    tuning = get_spec("dalen").ai.levels["easy"]
    searched = SearchResult("c7", 60, 0.01, 0.7, ranking=["c7", "f9", "e9"])
    chosen = levels._played_out(model, searched, tuning, seed=1, deadline=float("inf"))
    assert chosen.move != "c7"
    assert chosen.ranking is not None and "c7" not in chosen.ranking[:1]
    # the search's choice stands where it is within the margin of the best
    kept = dataclasses.replace(searched, move="f9", ranking=["f9", "c7"])
    assert levels._played_out(model, kept, tuning, seed=1, deadline=float("inf")).move == "f9"
    # out of time before a move's playouts finished: the search's choice stands
    assert levels._played_out(model, searched, tuning, seed=1, deadline=0.0) is searched


def test_easy_plays_out_its_moves_and_the_other_levels_do_not() -> None:
    state = merging_flip()
    assert levels.search_move(state, "easy", seed=102, time_limit=5.0).move != "c7"
    tunings = get_spec("dalen").ai.levels
    assert tunings["easy"].playouts > 0
    assert all(tunings[level].playouts == 0 for level in ("normal", "hard", "master"))
