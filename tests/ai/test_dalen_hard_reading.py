"""Dalen hard reads the end whole from 16 placements (``LevelTuning.solve_below``, docs/ai.md,
Dalen, fifteenth round).

Two of hard's three losses in its line against the random player were wins it did not
read: game 58 at ply 112 (dark, hard, to move with 15 placements: c2 wins, proven in about
200,000 positions, where hard read no whole position above 12 placements and played i11)
and game 29 at ply 111 (light, hard, with 11: d6 wins, proven in about 152,000 positions,
where hard's reading had 25,000 and it played l4). The clock stands still here, so the
readings end on their counts, as on any machine fast enough for hard's clock.
"""

from __future__ import annotations

import dataclasses

import pytest

from engine.ai import levels
from engine.ai.model import search_root
from engine.board import BoardState
from engine.registry import get_spec, specs
from tests.ai.helpers import replayed

_GAME_58_TO_112 = """
f12 i2 m1 m2 l1 e3 d5 j1 h10 c9 i5 h6 i4 a1 j3 c8 k1 e9 h4 g4 f11 c5 e5 m5 j8 m7 m6 k5
k4 h2 l3 a2 k2 i10 g10 b1 l7 g8 i8 c4 h8 c7 f4 j9 f3 h7 i6 d8 j6 k7 k9 d4 g6 g11 e10 i1
g2 f10 e1 l6 d1 l4 d3 a3 c1 d10 a7 b6 i7 g5 j7 b7 b8 b2 a5 k6 b5 h5 f7 h1 e7 g7 l8 m3 d6
j4 c3 e4 k3 j2 j5 d7 g9 i3 a4 f1 d9 g13 l5 h3 h9 g1 c6 f2 f9 a6 l2 d2 e6 f5 f8 e2
"""

_GAME_29_TO_111 = """
m6 j8 i10 j9 c9 k5 b3 k6 i11 f6 h10 g7 c8 l7 f11 l8 e1 l1 e3 e11 c3 d10 e5 e8 a1 e9 d1
j4 h4 i4 a7 l2 g2 b8 e10 h8 a4 i7 f2 e2 h2 d2 f4 l3 b5 m5 i2 g13 j2 g3 j10 h3 i3 g1 c1
c2 k9 h12 j1 f12 d4 g5 i1 e7 i5 h6 h1 b1 b6 c7 k3 m3 k4 g12 b2 g9 d5 c5 d9 c4 f1 a5 a2
d8 b7 f3 a3 d3 l6 c6 k1 f10 h5 j5 h9 e4 k2 j3 m7 b4 m4 l5 m2 m1 f8 f7 g8 f9 i9 d7 g11
"""


def _position(record: str) -> BoardState:
    return replayed("dalen", 7, record)


@pytest.mark.usefixtures("stopped_clock")
def test_hard_reads_the_won_end_whole_at_fifteen_placements(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    state = _position(_GAME_58_TO_112)
    assert state.to_move == "dark" and len(state.legal_moves()) == 15
    assert levels.search_move(state, "hard").move == "c2"
    # before this round, hard read no position of 15 placements whole
    tunings = get_spec("dalen").ai.levels
    before = dataclasses.replace(
        tunings["hard"], solve_below=0, solve_nodes=25_000, solve_share=0.5, screen_nodes=10_000
    )
    settings = levels.level_settings("hard", game=get_spec("dalen"))
    assert levels._end_reading(search_root(state), settings, before, 15, 1.0) is None
    monkeypatch.setitem(tunings, "hard", before)
    assert levels.search_move(state, "hard").move != "c2"


@pytest.mark.usefixtures("stopped_clock")
def test_hard_s_reading_holds_the_win_that_took_150_000_positions() -> None:
    state = _position(_GAME_29_TO_111)
    assert state.to_move == "light" and len(state.legal_moves()) == 11
    assert levels.search_move(state, "hard").move == "d6"


def test_only_dalen_hard_reads_whole_above_its_narrow_positions() -> None:
    reading_above = {
        (spec.name, level)
        for spec in specs()
        for level, tuning in spec.ai.levels.items()
        if tuning.solve_below > tuning.narrow_below
    }
    assert reading_above == {("dalen", "hard")}
