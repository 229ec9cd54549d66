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

import pytest

from engine.ai import levels, tactics
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


# game 0 of the ladder's easy-against-random line to ply 88: dark (easy) to move with 30
# placements, 61-27 up, the first of its positions played out
_GAME_0_TO_88 = """
c4 h1 c3 e1 k9 e3 d3 a5 e5 i10 j9 m6 g5 g4 e11 b4 h4 k4 a4 g8 e7 g9 d6 a3 j6 k7 l6
f11 k2 f6 k5 m2 a7 i1 m5 l1 j2 l2 f5 f10 e10 j4 c9 h5 b8 b7 h3 d7 l8 g1 l4 b1 h11 d2
g2 f1 f2 c5 e8 c2 f7 i4 g12 g13 d8 j7 f4 l5 b2 g11 a2 i6 d1 g10 c1 h7 k3 h8 b5 i2 a6
g3 b6 g6 c7 h6 e2 j3
"""


class _Ticking:
    """A clock that moves on ``step`` seconds at every look: a machine on which each of
    easy's playouts (one look each) costs ``step`` seconds, the same on every run."""

    def __init__(self, step: float) -> None:
        self.now = 0.0
        self.step = step

    def perf_counter(self) -> float:
        self.now += self.step
        return self.now


def _easy_on(clock: _Ticking, state: BoardState, monkeypatch: pytest.MonkeyPatch) -> str:
    for module in (levels, tactics):
        monkeypatch.setattr(module, "time", clock)
    return levels.search_move(state, "easy", seed=6).move


def test_easy_s_move_does_not_follow_the_clock(monkeypatch: pytest.MonkeyPatch) -> None:
    # The playouts end on their count (24 a move), the clock a safety net at 1.25 times
    # easy's 0.5 s (docs/ai.md, Dalen, fourteenth round). On a clock that does not move (a
    # machine infinitely fast) and on one where the 30 moves' 720 playouts take 0.58 s,
    # more than easy's clock, easy plays the same move.
    state = get_board_game("dalen").new(7)
    for move in _GAME_0_TO_88.split():
        state = state.play(move)
    assert state.to_move == "dark" and len(state.legal_moves()) == 30
    tuning = get_spec("dalen").ai.levels["easy"]
    assert tuning.playouts == 24 and tuning.swindle_time == 1.25
    frozen = _easy_on(_Ticking(0.0), state, monkeypatch)
    ticking = _Ticking(0.0008)
    assert _easy_on(ticking, state, monkeypatch) == frozen == "i7"
    assert 0.58 < ticking.now < 0.625
    # with the net at easy's own clock (as before this round) the playouts of the last
    # moves are cut short on the ticking clock, and the move changes
    tunings = get_spec("dalen").ai.levels
    monkeypatch.setitem(tunings, "easy", dataclasses.replace(tuning, swindle_time=1.0))
    assert _easy_on(_Ticking(0.0008), state, monkeypatch) != "i7"
