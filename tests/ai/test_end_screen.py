"""The screen of a search's choices above the whole end reading (engine.ai.levels._screened).

Each ranked move is read to the end alone, best ranked first: a move proven lost gives way
to the next, a proven win is played, the first move not proven lost stands. Checked on the
toy game against plain minimax, on the Dalen end a level lost to the random player (a
proven win is played), and on a position of a game easy lost to the random player in
Dalen, where the move it played is proven lost by a small reading.
"""

from __future__ import annotations

import dataclasses
import random

import pytest

from engine import get_game
from engine.ai import endsolver
from engine.ai.levels import _screened, search_move
from engine.ai.mcts import SearchResult
from engine.ai.settings import LevelTuning
from engine.board import BoardState
from tests.ai.test_endsolver import _LOST_WITH, _value_after, lost_dalen_end, won_in_lost_end
from tests.ai.toy_game import ThreeInRow

# Light (easy) to move at ply 109 of game 49 of the ladder's easy-against-random pairing in
# Dalen (size 7, bench.ladder's seeds), as easy played it before the screen: light led 89-20
# with 13 placements, played c2, and dark's reply began the line that turned all of light's
# stones (dark wins: light has no stones left). c2 is proven lost within 3,000 positions.
_DARK_49 = "a1 a2 a3 b1 b2 b3 b4 c3 d3 d4 d9 e3 e5 f3 f5 g10 h4 j2 k2 k4"
_LIGHT_49 = (
    "a5 a6 a7 b5 b6 b7 b8 c1 c4 c5 c6 c7 c8 c9 d1 d5 d6 d7 d8 e10 e2 e6 e7 e8 f1 f10 f12 f4 "
    "f6 f8 f9 g11 g13 g2 g3 g4 g6 g7 g8 g9 h1 h10 h11 h12 h2 h5 h6 h7 h9 i1 i10 i11 i2 i3 i4 "
    "i5 i6 i7 i8 i9 j1 j10 j3 j4 j5 j6 j7 j8 j9 k1 k3 k5 k6 k7 k8 k9 l1 l2 l3 l4 l5 l6 l7 m1 "
    "m2 m3 m4 m5 m6"
)
_LOST_49 = "c2"

_TUNING = LevelTuning(solve_nodes=1_000_000, screen_below=16, screen_nodes=1_000_000)


def easy_lost_position() -> BoardState:
    stones = {cell: "dark" for cell in _DARK_49.split()}
    stones |= {cell: "light" for cell in _LIGHT_49.split()}
    return get_game("dalen").position(size=7, stones=stones, to_move="light")


def _result(ranking: list[str]) -> SearchResult:
    return SearchResult(ranking[0], 10, 0.1, 0.6, ranking=list(ranking))


def test_a_proven_win_is_played_when_the_search_ranked_a_losing_move_first() -> None:
    state = lost_dalen_end()
    others = [move for move in state.legal_moves() if move != _LOST_WITH]
    screened = _screened(state, _result([_LOST_WITH, *others]), _TUNING, 1.0, deadline=1e12)
    assert screened.move in won_in_lost_end()
    assert screened.value == 1.0
    assert _LOST_WITH not in screened.ranking[:1]


def test_the_move_easy_lost_with_is_proven_lost_and_gives_way() -> None:
    state = easy_lost_position()
    moves = state.legal_moves()
    assert len(moves) == 13 and _LOST_49 in moves
    replies = endsolver.solve(state.play(_LOST_49), max_nodes=3_000, time_limit=60.0)
    assert replies is not None and list(replies[0].values()) == [endsolver.WIN]
    tuning = LevelTuning(solve_nodes=8_000, screen_below=16, screen_nodes=3_000)
    ranking = [_LOST_49, *(move for move in moves if move != _LOST_49)]
    screened = _screened(state, _result(ranking), tuning, 1.0, deadline=1e12)
    assert screened.move != _LOST_49
    assert screened.ranking[0] == screened.move and _LOST_49 not in screened.ranking


def test_a_budget_too_small_to_prove_anything_leaves_the_result_as_it_was() -> None:
    state = easy_lost_position()
    found = _result([_LOST_49, "a4"])
    tiny = LevelTuning(solve_nodes=100, screen_below=16, screen_nodes=50)
    assert _screened(state, found, tiny, 1.0, deadline=1e12) is found


@pytest.mark.parametrize("level", ["easy", "normal"])
def test_the_levels_avoid_the_proven_loss_and_repeat_themselves(
    level: str, stopped_clock: None
) -> None:
    state = easy_lost_position()
    for seed in range(3):
        move = search_move(state, level, seed=seed).move
        assert move != _LOST_49
        assert move == search_move(state, level, seed=seed).move


@pytest.mark.parametrize("seed", range(8))
def test_the_screen_agrees_with_plain_minimax_on_the_toy_game(seed: int) -> None:
    # read without limits, the screen plays the first ranked move whose exact value is not
    # a loss, or the search's move when every ranked move is lost
    rng = random.Random(seed)
    state = ThreeInRow().new()
    while len(state.legal_moves()) > 5 + seed % 3 or state.outcome is not None:
        if state.outcome is not None:
            state = ThreeInRow().new()
        state = state.play(rng.choice(state.legal_moves()))
    ranking = state.legal_moves()
    rng.shuffle(ranking)
    exact = {move: _value_after(state.play(move), state.to_move) for move in ranking}
    screened = _screened(state, _result(ranking), _TUNING, 1.0, deadline=1e12)
    standing = [move for move in ranking if exact[move] != endsolver.LOSS]
    assert screened.move == (standing[0] if standing else ranking[0])
    if standing and exact[standing[0]] == endsolver.WIN:
        assert screened.value == 1.0
    else:
        assert screened.value == 0.6  # the search's own value: nothing proven won


@pytest.mark.parametrize("seed", range(6))
def test_a_table_shared_between_readings_changes_no_value(seed: int) -> None:
    # each move of a toy-game position read with one table (a first reading cut short
    # included): the same values as read alone, for no more positions in all
    rng = random.Random(200 + seed)
    state = ThreeInRow().new()
    while len(state.legal_moves()) > 7 or state.outcome is not None:
        if state.outcome is not None:
            state = ThreeInRow().new()
        state = state.play(rng.choice(state.legal_moves()))
    known = endsolver.known_positions()
    shared = alone = 0
    for move in state.legal_moves():
        after = state.play(move)
        if after.outcome is not None:
            continue
        assert endsolver.solve(after, max_nodes=3, time_limit=60.0, known=known) is None
        with_table = endsolver.solve(after, max_nodes=1_000_000, time_limit=60.0, known=known)
        fresh = endsolver.solve(after, max_nodes=1_000_000, time_limit=60.0)
        assert with_table is not None and fresh is not None
        assert with_table[0] == fresh[0]
        shared += with_table[1]
        alone += fresh[1]
    assert shared <= alone


def test_master_leaves_the_screen_its_share_of_the_clock(
    monkeypatch: pytest.MonkeyPatch, stopped_clock: None
) -> None:
    # Dalen master searches to its clock: in a position it screens, its Monte Carlo search
    # stops at the part of the clock the screen does not keep; elsewhere it has all of it
    import engine.ai.levels as levels

    limits: list[tuple[int, float]] = []

    class Recording(levels.Searcher):
        def search(self, state: BoardState, rng: random.Random) -> SearchResult:
            limits.append((len(state.legal_moves()), self.settings.time_limit))
            return super().search(state, rng)

    monkeypatch.setattr(levels, "Searcher", Recording)
    tuning = get_game("dalen").spec.ai.levels["master"]
    assert tuning.settings is not None and 0 < tuning.screen_keep < 1
    full = tuning.settings.time_limit
    small = dataclasses.replace(tuning.settings, max_iterations=30)
    monkeypatch.setitem(
        get_game("dalen").spec.ai.levels, "master", dataclasses.replace(tuning, settings=small)
    )
    search_move(easy_lost_position(), "master", seed=1)  # 13 moves: screened
    opening = get_game("dalen").new(7).play("d4")
    search_move(opening, "master", seed=1)
    assert limits[0] == (13, pytest.approx(full * (1 - tuning.screen_keep)))
    assert limits[-1][0] > 20 and limits[-1][1] == pytest.approx(full)
