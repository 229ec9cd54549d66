"""Lublache's end: with at most ten placements left, the levels read the rest exactly, and
master screens its choices up to sixteen (each read to the end alone, a move proven lost
gives way to the next).

The position below comes from a game of the reference against itself (bench.reference at
scale 0.1, seed 2, size 7): white to move with seven placements, of which c8 and c9 win
and the other five lose. Before the exact reading every level played m7, a loss. The
clocks count processor time (bench.ladder.use_clock), so a busy machine does not cut the
reading short.
"""

from __future__ import annotations

import pytest

from engine import get_game
from engine.ai import endsolver, levels
from engine.ai.alphabeta import AlphaBetaSearcher
from engine.ai.levels import _screened, level_settings, search_move
from engine.ai.mcts import SearchResult
from engine.ai.settings import AlphaBetaSettings
from engine.board import BoardState

RECORD = (
    "d4 j3 h8 f6 g4 e10 k5 g6 a5 e8 d9 l4 e3 i1 k7 i10 e11 a1 l2 f4 i9 b2 g8 g11 g9 l8 g10 "
    "j1 d7 e9 b3 e5 m1 c6 b1 h3 j6 m2 k2 l6 c2 g5 e6 d3 g7 g2 d2 a4 h4 a3 h6 b6 c5 d6 e2 "
    "f11 f12 e1 a1 m5 a6 g13 a2 g3 c3 f2 e1 b4 d1 c1 g2 h12 h2 i5 h10 i4 j4 i11 i6 i8 j9 "
    "k3 b5 l3 m2 j2 m6 b8 g1"
)
GAME = RECORD.split()
WINNING = {"c8", "c9"}


@pytest.fixture(scope="module")
def narrow() -> BoardState:
    state = get_game("lublache").new(7)
    for move in GAME:
        state = state.play(move)
    assert state.to_move == "white"
    assert sorted(state.legal_moves()) == ["a7", "c8", "c9", "k8", "k9", "l7", "m7"]
    return state


def test_the_position_is_won_by_c8_or_c9_and_lost_otherwise(narrow: BoardState) -> None:
    solved = endsolver.solve(narrow, max_nodes=5_000, time_limit=600.0)
    assert solved is not None
    values, _ = solved
    assert set(values) <= WINNING and set(values.values()) == {endsolver.WIN}
    # m7, the move every level played before, loses: black, to move after it, wins
    after = endsolver.solve(narrow.play("m7"), max_nodes=5_000, time_limit=600.0)
    assert after is not None and max(after[0].values()) == endsolver.WIN


def test_lublache_reads_narrow_positions_exactly_at_every_level_from_normal() -> None:
    for level in ("normal", "hard", "master"):
        tuning = get_game("lublache").spec.ai.levels[level]
        assert tuning.narrow_below == 10 and tuning.solve_nodes > 0
        assert isinstance(level_settings(level, game="lublache", moves=10), AlphaBetaSettings)
    # hard reads at least as far as normal, and master as far as its clock allows
    levels = get_game("lublache").spec.ai.levels
    assert levels["hard"].solve_nodes > levels["normal"].solve_nodes


@pytest.mark.parametrize("level", ["hard", "master"])
def test_the_levels_play_the_proven_win(narrow: BoardState, level: str, cpu_clock: None) -> None:
    # the level's clock raised to the ceiling: the reading's budget decides, not the speed
    # of the machine (whether the level's own clock suffices is measured in benchmarks)
    result = search_move(narrow, level, seed=7, time_limit=5.0)
    assert result.move in WINNING


def test_the_same_seed_gives_the_same_move(narrow: BoardState, cpu_clock: None) -> None:
    first = search_move(narrow, "normal", seed=11, time_limit=5.0).move
    assert first in WINNING
    assert search_move(narrow, "normal", seed=11, time_limit=5.0).move == first


# One ply before: black to move at ply 88 with twelve placements, above the whole reading.
# Black played g1 in that game, and every placement but l5 and m7 is proven lost within the
# screen's 1,500 positions a move (white then has a winning reply: c8 or c9 after g1).
PROVEN_LOST_AT_88 = {"g1", "k8"}
NOT_PROVEN_AT_88 = {"l5", "m7"}


@pytest.fixture(scope="module")
def screened() -> BoardState:
    state = get_game("lublache").new(7)
    for move in GAME[:-1]:
        state = state.play(move)
    assert state.to_move == "black" and len(state.legal_moves()) == 12
    return state


@pytest.mark.parametrize("level", ["hard", "master"])
def test_hard_and_master_screen_above_the_whole_reading(level: str) -> None:
    tuning = get_game("lublache").spec.ai.levels[level]
    assert tuning.narrow_below < 12 <= tuning.screen_below
    assert 0 < tuning.screen_nodes <= tuning.solve_nodes
    # time is kept for the screen: the whole reading and the search leave it some
    assert tuning.screen_keep > 0 and tuning.narrow_keep > 0
    assert tuning.solve_share + tuning.narrow_keep < 1


def test_the_played_move_and_the_first_choice_are_proven_lost(screened: BoardState) -> None:
    for move in PROVEN_LOST_AT_88:
        after = endsolver.solve(screened.play(move), max_nodes=1_500, time_limit=600.0)
        assert after is not None and max(after[0].values()) == endsolver.WIN, move


def test_the_screen_passes_over_proven_losses(screened: BoardState, stopped_clock: None) -> None:
    tuning = get_game("lublache").spec.ai.levels["master"]
    ranking = ["k8", "g1", "m7", "l5"]
    result = SearchResult("k8", 0, 0.0, 0.5, ranking=ranking)
    chosen = _screened(screened, result, tuning, 1.0, deadline=1.0)
    # the screen reads a position's moves with one table of positions (endsolver's
    # known_positions): the refutations read for k8 and g1 prove m7 lost as well within
    # its 1,500 positions (alone it needs 1,560), and l5, a win for black, stands
    assert chosen.move == "l5"
    assert chosen.ranking == ["l5"]


@pytest.mark.parametrize("level", ["normal", "hard", "master"])
def test_the_level_avoids_a_move_proven_lost(
    screened: BoardState, stopped_clock: None, level: str
) -> None:
    # the clock stands still: only the budgets end the readings, so the answer does not
    # depend on the machine's load
    first = search_move(screened, level, seed=11).move
    assert first in NOT_PROVEN_AT_88
    assert search_move(screened, level, seed=11).move == first


def _search_clocks(monkeypatch: pytest.MonkeyPatch) -> list[float]:
    """The time limits the levels' alpha-beta searches are given, as they are made."""
    clocks: list[float] = []
    made = levels.AlphaBetaSearcher

    def recording(settings: AlphaBetaSettings) -> AlphaBetaSearcher:
        clocks.append(settings.time_limit)
        return made(settings)

    monkeypatch.setattr(levels, "AlphaBetaSearcher", recording)
    return clocks


@pytest.mark.parametrize("level", ["hard", "master"])
def test_the_search_leaves_the_screen_its_share_of_the_time(
    screened: BoardState, narrow: BoardState, stopped_clock: None, level: str,
    monkeypatch: pytest.MonkeyPatch,
) -> None:  # fmt: skip
    tuning = get_game("lublache").spec.ai.levels[level]
    clocks = _search_clocks(monkeypatch)
    # twelve placements: no whole reading, the search stops the screen's share early
    search_move(screened, level, seed=3)
    broad = level_settings(level, game="lublache").time_limit
    assert clocks == [pytest.approx(broad * (1 - tuning.screen_keep))]
    # seven placements, the exact reading cut short (a hundredth of its budget, the level
    # scaled down): the search after it keeps the screen's share as well
    clocks.clear()
    search_move(narrow, level, seed=3, scale=0.01)
    allowed = level_settings(level, game="lublache", moves=7, scale=0.01).time_limit
    assert clocks == [pytest.approx(allowed * (1 - tuning.narrow_keep))]


def test_above_the_screen_the_search_has_the_whole_clock(
    stopped_clock: None, monkeypatch: pytest.MonkeyPatch
) -> None:
    state = get_game("lublache").new(7)
    for move in GAME[:40]:
        state = state.play(move)
    assert len(state.legal_moves()) > 16
    clocks = _search_clocks(monkeypatch)
    search_move(state, "hard", seed=3)
    assert clocks == [level_settings("hard", game="lublache").time_limit]
