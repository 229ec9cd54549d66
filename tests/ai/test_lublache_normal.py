"""Lublache's normal reads as hard does, on a smaller scale (docs/ai.md, Lublache's
eleventh and twelfth rounds): alpha-beta over the ten best root moves, its choices screened
from sixteen placements, the end read whole to most of its clock, and a lost end played by
the Monte Carlo search it had before (``LevelTuning.lost_settings``), which averages over
the opponent's replies where alpha-beta tells the lost moves apart no better than at random,
and since the thirteenth round the move with the best chance against a random opponent
among those (tests/ai/test_lublache_normal_chance.py). Since the fifteenth round hard plays
its lost ends the same way, and reads the middle game as master does (four plies over the
twelve best root moves, lazily) within its own clock.

The position below is from game 0 of normal against the random player (size 7, the ladder's
seeds, CPU clock), replayed with the eleventh round's candidate: normal (black) to move with
five placements, every one of them lost against best play. The candidate played there by
alpha-beta; the random player found its wins and the game was lost.
"""

from __future__ import annotations

import dataclasses
import time

import pytest

from engine.ai import endsolver
from engine.ai.levels import _Odds, level_settings, search_move
from engine.ai.model import search_root
from engine.ai.settings import AlphaBetaSettings, SearchSettings
from engine.board import BoardState
from engine.registry import get_board_game, get_spec

RECORD = (
    "a1 b4 k8 f4 i8 k5 j2 f9 j3 d4 e11 k2 b7 i2 a2 d3 c8 e9 f1 i1 d7 m7 i10 g2 g7 f2 k1 "
    "b2 d9 c5 g3 g4 h12 f8 f5 l2 c1 c9 b1 f12 k3 h2 l1 b3 f10 a5 a7 m4 d10 l6 f11 e4 i5 "
    "d8 e7 k6 g5 m1 h10 b6 h8 f7 j9 m2 j8 g13 h9 g8 b8 k8 l8 j5 h7 i9 e1 m6 l5 d5 h1 j10 "
    "h3 j1 h5 c3 m3 g1 e3 h11 e2 a6 a4 d1 b5 i11 e5 k9 c4 d2"
)


@pytest.fixture(scope="module")
def lost_end() -> BoardState:
    state = get_board_game("lublache").new(7)
    for move in RECORD.split():
        state = state.play(move)
    return state


def test_normal_reads_by_alpha_beta_and_screens_as_hard_does() -> None:
    tuning = get_spec("lublache").ai.levels["normal"]
    hard = get_spec("lublache").ai.levels["hard"]
    assert isinstance(level_settings("normal", game="lublache"), AlphaBetaSettings)
    assert tuning.screen_below == hard.screen_below and tuning.screen_nodes > 0
    # the whole reading and the search after it share normal's clock, which leaves the
    # guard room within the level's 1.5 s
    narrow = level_settings("normal", game="lublache", moves=tuning.narrow_below)
    broad = level_settings("normal", game="lublache")
    assert narrow.time_limit == broad.time_limit < level_settings("normal").time_limit
    assert isinstance(tuning.lost_settings, SearchSettings)


def test_every_move_of_the_lost_end_is_lost(lost_end: BoardState) -> None:
    assert lost_end.to_move == "black"
    assert sorted(lost_end.legal_moves()) == ["a3", "b2", "c2", "f6", "l7"]
    solved = endsolver.solve(lost_end, max_nodes=5_000, time_limit=600.0)
    assert solved is not None
    assert set(solved[0].values()) == {endsolver.LOSS}


def test_normal_plays_a_lost_end_by_its_monte_carlo_search_and_the_chance(
    lost_end: BoardState, stopped_clock: None, monkeypatch: pytest.MonkeyPatch
) -> None:
    # the clock stands still: the Monte Carlo search stops at its iterations, the chance
    # reading at its positions (thirteenth round: the best chance against random decides)
    result = search_move(lost_end, "normal", seed=5)
    # the Monte Carlo search ran: it visited every move
    assert set(result.visits) == set(lost_end.legal_moves())
    root = search_root(lost_end)
    odds = _Odds(root.to_move, 1_000_000, time.perf_counter() + 600.0)
    chances = {m: odds.chance(odds.child(root, m), -1.0) for m in root.legal_moves()}
    assert chances[result.move] == max(chances.values())
    assert search_move(lost_end, "normal", seed=5).move == result.move
    # without the setting normal plays its alpha-beta's choice among the lost moves
    spec = get_spec("lublache")
    tuning = spec.ai.levels["normal"]
    plain = dataclasses.replace(tuning, lost_settings=None)
    monkeypatch.setitem(spec.ai.levels, "normal", plain)
    plain_result = search_move(lost_end, "normal", seed=5)
    assert plain_result.visits == {} and plain_result.value == 0.0


def test_hard_plays_a_lost_end_by_its_monte_carlo_search_and_the_chance_as_normal_does(
    lost_end: BoardState, stopped_clock: None
) -> None:
    # fifteenth round: hard plays a lost end for the random player's mistakes as normal
    # does (before, alpha-beta's first move at value 0, with no visits)
    assert isinstance(get_spec("lublache").ai.levels["hard"].lost_settings, SearchSettings)
    result = search_move(lost_end, "hard", seed=5)
    assert set(result.visits) == set(lost_end.legal_moves())
    root = search_root(lost_end)
    odds = _Odds(root.to_move, 1_000_000, time.perf_counter() + 600.0)
    chances = {m: odds.chance(odds.child(root, m), -1.0) for m in root.legal_moves()}
    assert chances[result.move] == max(chances.values())


def test_hard_reads_the_middle_game_four_plies_deep_lazily(stopped_clock: None) -> None:
    # fifteenth round: master's search within hard's clock (before, three plies over the
    # ten best root moves within 3,000 positions, the full move lists)
    settings = level_settings("hard", game="lublache")
    assert isinstance(settings, AlphaBetaSettings)
    assert settings.lazy_legality and settings.root_width == 12
    state = get_board_game("lublache").new(7)
    for move in RECORD.split()[:30]:
        state = state.play(move)
    assert len(state.legal_moves()) > 16  # neither the end reading nor the screen
    assert search_move(state, "hard", seed=5).depth == 4
