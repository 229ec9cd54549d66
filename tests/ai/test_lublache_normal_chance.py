"""Lublache's normal plays a lost end for the random player's mistakes (docs/ai.md,
Lublache, thirteenth round).

Where normal's end reading proves every move lost, its Monte Carlo search used to choose
among them, and the four games of the twelfth round's line that normal lost to the random
player (15, 63, 91 and 112) were thrown away there: the random player misses a proven win
most of the time, more or less often after one lost move than after another. Normal now
ranks the lost moves by the share of the random player's replies that leave it a win (the
swindle, ``LevelTuning.swindle_nodes``), then reads the exact chance of a win against a
uniformly random opponent in that order as far as its positions and time allow
(``LevelTuning.chance_nodes`` without playouts: the moves read whole are compared).

Both positions come from those games (size 7, the ladder's seeds, CPU clock, normal white):

- game 63, ply 87: four placements, every one lost; against random a1 (normal played it)
  wins 0.3 of the time, k2 and l1 0.25, m1 0.367;
- game 15, ply 95: six placements, every one lost; against random a4, a5, a6 and c6 win
  0.55 of the time, b7 and c8 (normal played c8) never: every reply of the random player
  keeps its win.
"""

from __future__ import annotations

import dataclasses
import time

import pytest

from engine.ai import endsolver
from engine.ai.levels import _Odds, search_move
from engine.ai.model import search_root
from engine.board import BoardState
from engine.registry import get_spec
from tests.ai.helpers import replayed

GAME_63 = (
    "i6 h6 m2 f11 i4 k9 f12 k3 i7 j2 a6 a5 m7 k5 g12 c2 l5 g2 i1 m3 c3 h7 d9 m6 a7 f3 g1 "
    "g11 a2 j6 d4 g7 l3 d3 d7 h4 b4 h3 g6 c1 c6 h12 c9 f4 a3 l8 h5 i5 j4 f1 b8 c5 m4 k4 "
    "l6 e7 i9 c7 h2 f2 i8 g4 f4 i10 k1 j8 d2 j9 e5 g13 i10 h11 g10 d1 c4 b7 e1 a4 f10 e4 "
    "g5 e9 j1 g9 h1 e6 e11"
)
GAME_15 = (
    "c7 g7 j1 i1 c9 l1 m3 k4 k3 h5 d9 b5 g10 i7 m5 b4 j4 i4 c2 j9 h7 b3 b6 j7 k5 l5 m6 d4 "
    "b1 h6 g11 k6 k7 e1 c8 f3 h11 f11 a1 a7 f12 h1 h2 f9 h8 g3 l5 c1 j2 e3 e6 f1 l8 d2 g12 "
    "g1 h12 d1 k2 c3 h3 a2 i9 i11 l2 m2 f8 m4 b4 l7 e8 k9 d6 h9 b8 k1 a5 e11 e9 e10 f6 g13 "
    "c6 c5 d7 e6 g5 e7 i11 f7 i2 e5 d3 f5 b2"
)


def _position(record: str) -> BoardState:
    return replayed("lublache", 7, record)


@pytest.fixture(scope="module")
def game_63() -> BoardState:
    return _position(GAME_63)


@pytest.fixture(scope="module")
def game_15() -> BoardState:
    return _position(GAME_15)


def _chances(state: BoardState) -> dict[str, float]:
    """Every move's exact chance against a uniformly random opponent, read in full."""
    root = search_root(state)
    odds = _Odds(root.to_move, 1_000_000, time.perf_counter() + 600.0)
    return {move: odds.chance(odds.child(root, move), -1.0) for move in root.legal_moves()}


def _proven_lost(state: BoardState) -> bool:
    solved = endsolver.solve(state, max_nodes=20_000, time_limit=600.0)
    assert solved is not None
    return set(solved[0].values()) == {endsolver.LOSS}


def test_game_63s_lost_end_is_won_most_often_after_m1(game_63: BoardState) -> None:
    assert game_63.to_move == "white" and _proven_lost(game_63)
    chances = _chances(game_63)
    assert sorted(chances) == ["a1", "k2", "l1", "m1"]
    assert max(chances, key=chances.__getitem__) == "m1"
    assert chances["m1"] == pytest.approx(0.367, abs=0.001)
    assert chances["a1"] == pytest.approx(0.3, abs=0.001)


# the seeds the ladder gave normal in those positions (game 63's ply 87, game 15's ply 95):
# with them the code before played a1 and c8, as in the recorded games
SEED_63 = 137_594_334
SEED_15 = 696_107_546


def test_normal_plays_the_best_chance_in_game_63s_lost_end(
    game_63: BoardState, stopped_clock: None
) -> None:
    # four placements: the exact chance is read for every move
    assert search_move(game_63, "normal", seed=SEED_63).move == "m1"


def test_normal_no_longer_plays_a_move_the_random_player_always_punishes(
    game_15: BoardState, stopped_clock: None
) -> None:
    assert game_15.to_move == "white" and _proven_lost(game_15)
    # six placements: the exact chance is out of reach, the swindle's share of the replies
    # that leave normal a win (one in six after a4, a5, a6 and c6, none after b7 and c8)
    result = search_move(game_15, "normal", seed=SEED_15)
    assert result.move in {"a4", "a5", "a6", "c6"}
    # the same seed, the same move
    assert search_move(game_15, "normal", seed=SEED_15).move == result.move


def test_without_the_chance_normals_search_picks_a_lost_move_blindly(
    game_63: BoardState, stopped_clock: None, monkeypatch: pytest.MonkeyPatch
) -> None:
    spec = get_spec("lublache")
    tuning = spec.ai.levels["normal"]
    assert tuning.chance_nodes > 0 and tuning.chance_playouts == 0
    plain = dataclasses.replace(tuning, chance_nodes=0, swindle_nodes=0)
    monkeypatch.setitem(spec.ai.levels, "normal", plain)
    # the Monte Carlo search alone: its most visited move, whatever its chance
    result = search_move(game_63, "normal", seed=SEED_63)
    assert result.move == "a1"
    assert result.visits[result.move] == max(result.visits.values())


def test_a_chance_reading_cut_short_keeps_the_moves_read_whole(
    game_15: BoardState, stopped_clock: None, monkeypatch: pytest.MonkeyPatch
) -> None:
    spec = get_spec("lublache")
    tuning = spec.ai.levels["normal"]
    # too few positions to read even the first move's chance whole: the swindle's choice
    # stands, as it does with no chance reading at all
    tiny = dataclasses.replace(tuning, chance_nodes=1)
    monkeypatch.setitem(spec.ai.levels, "normal", tiny)
    cut_short = search_move(game_15, "normal", seed=SEED_15).move
    monkeypatch.setitem(spec.ai.levels, "normal", dataclasses.replace(tuning, chance_nodes=0))
    assert search_move(game_15, "normal", seed=SEED_15).move == cut_short


def test_game_63s_chance_decides_after_the_swindle(
    game_63: BoardState, stopped_clock: None, monkeypatch: pytest.MonkeyPatch
) -> None:
    # the swindle alone prefers a1 (one reply in five leaves normal a win, none after the
    # others); the exact chance, read after it, finds m1 better against random
    spec = get_spec("lublache")
    tuning = spec.ai.levels["normal"]
    monkeypatch.setitem(spec.ai.levels, "normal", dataclasses.replace(tuning, chance_nodes=0))
    assert search_move(game_63, "normal", seed=SEED_63).move == "a1"
