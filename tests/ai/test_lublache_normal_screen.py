"""Lublache's normal keeps a share of its clock for the screen in narrow positions, as hard
does (docs/ai.md, Lublache's fourteenth round).

The position is from game 157 of normal against the random player (size 7, the ladder's
seeds, CPU clock, code of 1b578d8): normal (white) to move with ten placements. Its whole
reading reads the moves in board order and spent its clock (65 % of it then) inside c2,
the first, proving nothing; alpha-beta then chose f2, which read alone is proven lost in
150 positions, and no time was left for the screen: the random player found the win.
With the reading at half the clock and 35 % kept, the screen proves f2 lost and normal
plays another move (the game was won when replayed).

The clock here ticks a fixed step each time a search reads it (about a position's cost
at this point of the game), so the shares of the clock, not the machine, decide.
"""

from __future__ import annotations

import dataclasses
import itertools
from types import SimpleNamespace

import pytest

from engine.ai import endsolver
from engine.ai.levels import search_move
from engine.ai.model import search_root
from engine.board import BoardState
from engine.registry import get_spec
from tests.ai.conftest import SEARCH_MODULES
from tests.ai.helpers import replayed

RECORD = (
    "e10 h1 g5 k3 h2 g6 i11 e4 d4 k5 e7 h3 b3 j3 b5 g10 h9 b2 f11 m6 i8 l3 c9 a5 k1 g12 m7 "
    "d5 i1 f1 h6 f9 i10 e5 c1 k9 h5 f6 h11 f4 k4 d8 d5 j8 h4 c7 b1 j6 i9 f12 l6 g13 a3 h8 "
    "l7 i4 e8 i6 c4 j10 h12 k8 b7 g11 l1 m3 a7 a2 k7 m5 d6 c6 k2 i2 a1 j1 d1 a6 f9 g1 d2 "
    "e2 f8"
)
SEED = 3691718299  # the ladder's seed for normal's move there
TICK = 0.002  # seconds a reading of the clock costs


@pytest.fixture(scope="module")
def narrow() -> BoardState:
    return replayed("lublache", 7, RECORD)


@pytest.fixture
def ticking_clock(monkeypatch: pytest.MonkeyPatch) -> None:
    ticks = itertools.count()
    clock = SimpleNamespace(perf_counter=lambda: next(ticks) * TICK)
    for module in SEARCH_MODULES:
        monkeypatch.setattr(module, "time", clock)


def test_f2_is_lost_in_a_short_reading(narrow: BoardState) -> None:
    assert narrow.to_move == "white" and len(narrow.legal_moves()) == 10
    root = search_root(narrow)
    solved = endsolver.solve(root.play("f2"), max_nodes=400, time_limit=600.0)
    assert solved is not None and max(solved[0].values()) == endsolver.WIN  # for random


def test_normal_screens_its_choice_when_the_whole_reading_is_cut_short(
    narrow: BoardState, ticking_clock: None, monkeypatch: pytest.MonkeyPatch
) -> None:
    spec = get_spec("lublache")
    tuning = spec.ai.levels["normal"]
    assert tuning.narrow_keep > 0 and tuning.solve_share <= 0.5
    assert search_move(narrow, "normal", seed=SEED).move != "f2"
    # the shares of before: the whole reading and alpha-beta spend the clock, f2 stands
    before = dataclasses.replace(tuning, solve_share=0.65, narrow_keep=0.0)
    monkeypatch.setitem(spec.ai.levels, "normal", before)
    assert search_move(narrow, "normal", seed=SEED).move == "f2"
