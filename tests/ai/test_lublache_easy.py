"""Lublache's easy reads the last placements exactly (docs/ai.md, Lublache, ninth round).

The position below is from game 166 of the ladder's easy against the random player (size
7, the code of f60366c, CPU clock): easy (black) to move with four placements, of which
d3 and k8 win, h11 and i10 lose. Easy played i10 and lost; a whole reading of forty
positions finds the win.
"""

from __future__ import annotations

import pytest

from engine.ai import endsolver
from engine.ai.levels import search_move
from engine.board import BoardState
from tests.ai.helpers import replayed

RECORD = (
    "g10 a7 c7 h8 g13 d6 g6 l1 c3 g4 g3 d1 e1 i6 g1 c5 e2 f5 k7 k9 b1 g9 a5 i1 g7 k1 d10 "
    "l3 f10 g2 a4 l4 c6 j8 e11 j1 h12 d8 b3 f2 h1 b6 c1 k2 e5 b7 b4 f11 j10 l5 m3 c7 i2 "
    "l8 b8 h6 j4 a1 m1 j6 i8 g8 j3 h4 i3 e6 c9 b3 i5 l7 i7 f8 a2 c2 e8 j9 m7 j5 l6 h5 k6 "
    "k4 m4 i4 k5 e3 i9 g1 l3 h10 b2 m2 m5 i11 d2 g12"
)


@pytest.fixture(scope="module")
def race() -> BoardState:
    return replayed("lublache", 7, RECORD)


def test_the_race_is_won_by_d3_or_k8_and_i10_loses(race: BoardState) -> None:
    assert race.to_move == "black"
    assert sorted(race.legal_moves()) == ["d3", "h11", "i10", "k8"]
    for move in race.legal_moves():
        after = race.play(move)
        assert after.outcome is None
        solved = endsolver.solve(after, max_nodes=5_000, time_limit=600.0)
        assert solved is not None
        # white, to move after it, wins after h11 and i10 only
        white_wins = max(solved[0].values()) == endsolver.WIN
        assert white_wins == (move in {"h11", "i10"})


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_easy_plays_the_won_race_it_used_to_throw_away(
    race: BoardState, seed: int, cpu_clock: None
) -> None:
    assert search_move(race, "easy", seed=seed).move in {"d3", "k8"}
