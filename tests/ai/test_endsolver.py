"""The exact end reading (engine/ai/endsolver.py) and what the levels do with it.

The solver's values are checked against a plain minimax of every line on the toy game;
the Dalen position is one a level lost to the uniformly random player: a proven win is
played there, and the move that lost is proven lost.
"""

from __future__ import annotations

import functools
import random

import pytest

from engine import get_game
from engine.ai import endsolver
from engine.ai.levels import LEVEL_NAMES, search_move
from engine.board import BoardState
from tests.ai.helpers import replayed
from tests.ai.toy_game import ThreeInRow

# Dark to move at ply 116 of game 20 of the ladder's normal-against-random pairing in Dalen
# (size 7, bench.ladder's seeds), as normal played it on 2026-11-29: dark led 85-34 with
# ten placements left, played l3, and light's stagnant tree turned all of dark's 88 stones
# ten plies later (light wins: dark has no stones left). Eight of the ten moves win.
_DARK = (
    "a2 a3 a4 a6 a7 b1 b2 b3 b4 b6 b8 c1 c2 c3 c5 c8 d10 d2 d3 d4 d6 d7 d9 e10 e11 e3 e5 "
    "e6 f1 f10 f11 f12 f2 f4 f5 f9 g1 g10 g11 g12 g13 g3 g4 g5 g6 g7 g9 h10 h11 h12 h4 h5 "
    "h6 h7 h9 i10 i11 i3 i4 i5 i7 i9 j1 j10 j2 j5 j6 j7 j9 k1 k3 k4 k5 k6 k8 k9 l4 l5 l6 "
    "l7 l8 m5 m6"
)
_LIGHT = (
    "a1 a5 b5 c4 c7 d1 d5 d8 e1 e4 e8 f3 f6 f7 h1 h2 h3 h8 i1 i2 i6 i8 j3 j4 j8 k2 k7 l2 "
    "m1 m2 m3 m4 m7"
)
_LOST_WITH = "l3"


def lost_dalen_end() -> BoardState:
    stones = {cell: "dark" for cell in _DARK.split()} | {cell: "light" for cell in _LIGHT.split()}
    return get_game("dalen").position(size=7, stones=stones, to_move="dark")


@functools.cache
def won_in_lost_end() -> frozenset[str]:
    return frozenset(winning_moves(lost_dalen_end()))


def winning_moves(state: BoardState) -> set[str]:
    """The moves after which the opponent, to move, is proven lost (read exactly)."""
    won = set()
    for move in state.legal_moves():
        after = state.play(move)
        if after.outcome is not None:
            won |= {move} if after.outcome.winner == state.to_move else set()
            continue
        solved = endsolver.solve(after, max_nodes=100_000, time_limit=120.0)
        assert solved is not None
        if max(solved[0].values()) == endsolver.LOSS:
            won.add(move)
    return won


def test_the_lost_dalen_end_had_winning_moves_and_the_move_played_lost() -> None:
    state = lost_dalen_end()
    assert len(state.legal_moves()) == 10
    won = won_in_lost_end()
    assert len(won) == 8 and _LOST_WITH not in won
    # after the move played, light has a win against any defence
    solved = endsolver.solve(state.play(_LOST_WITH), max_nodes=100_000, time_limit=120.0)
    assert solved is not None and list(solved[0].values()) == [endsolver.WIN]
    # and the solver's own answer at the root is one of the winning moves
    root = endsolver.solve(state, max_nodes=100_000, time_limit=120.0)
    assert root is not None
    ((move, value),) = root[0].items()
    assert value == endsolver.WIN and move in won


@pytest.mark.parametrize("level", [name for name in LEVEL_NAMES if name != "beginner"])
def test_every_level_above_the_lowest_plays_a_proven_win_in_the_lost_dalen_end(level: str) -> None:
    state = lost_dalen_end()
    won = won_in_lost_end()
    for seed in range(2):
        # a generous clock: the budget in positions decides, whatever the machine's load
        result = search_move(state, level, seed=seed, time_limit=5.0)
        assert result.move in won
        assert result.move == search_move(state, level, seed=seed, time_limit=5.0).move


def test_a_budget_too_small_for_the_proof_answers_nothing() -> None:
    state = lost_dalen_end()
    assert endsolver.solve(state, max_nodes=50, time_limit=60.0) is None
    assert endsolver.solve(state, max_nodes=100_000, time_limit=0.0) is None


def _minimax(state: BoardState) -> float:
    """The plain value of ``state`` for its side to move: every line, no pruning."""
    mover = state.to_move
    best = endsolver.LOSS
    for move in state.legal_moves():
        child = state.play(move)
        if child.outcome is not None:
            winner = child.outcome.winner
            value = endsolver.DRAW if winner is None else float(winner == mover)
        else:
            value = 1.0 - _minimax(child)
        best = max(best, value)
    return best


@pytest.mark.parametrize("seed", range(6))
def test_the_solver_agrees_with_plain_minimax_on_the_toy_game(seed: int) -> None:
    # random positions of three in a row with 5 to 7 empty cells: each root move's value
    # (or, where a move wins, that move) is what reading every line says
    rng = random.Random(seed)
    state = ThreeInRow().new()
    while len(state.legal_moves()) > 5 + seed % 3 or state.outcome is not None:
        if state.outcome is not None:
            state = ThreeInRow().new()
        state = state.play(rng.choice(state.legal_moves()))
    solved = endsolver.solve(state, max_nodes=1_000_000, time_limit=120.0)
    assert solved is not None
    values, read = solved
    exact = functools.partial(_value_after, mover=state.to_move)
    if list(values.values()) == [endsolver.WIN]:
        assert exact(state.play(next(iter(values)))) == endsolver.WIN
    else:
        assert values == {move: exact(state.play(move)) for move in state.legal_moves()}
        assert endsolver.WIN not in values.values()
    assert 0 < read <= 1_000_000


def _value_after(state: BoardState, mover: str | None) -> float:
    if state.outcome is not None:
        winner = state.outcome.winner
        return endsolver.DRAW if winner is None else float(winner == mover)
    return 1.0 - _minimax(state)


def test_a_reading_cut_short_still_tells_the_moves_it_proved() -> None:
    # toy-game positions with 7 empty cells, budgets too small for the whole: the moves
    # read to the end before the budget ran out carry their exact values
    proved = 0
    for seed in range(40):
        rng = random.Random(100 + seed)
        state = ThreeInRow().new()
        while len(state.legal_moves()) > 7 or state.outcome is not None:
            if state.outcome is not None:
                state = ThreeInRow().new()
            state = state.play(rng.choice(state.legal_moves()))
        whole = endsolver.solve(state, max_nodes=1_000_000, time_limit=120.0)
        assert whole is not None
        for budget in sorted({b for b in (20, 60, 200, whole[1] - 1) if 0 < b < whole[1]}):
            partial: dict[str, float] = {}
            cut = endsolver.solve(state, max_nodes=budget, time_limit=60.0, partial=partial)
            assert cut is None
            for move, value in partial.items():
                assert value == _value_after(state.play(move), state.to_move)
            proved += len(partial)
    assert proved > 0


def test_a_move_proven_lost_gives_way_to_the_next_the_search_ranked() -> None:
    from engine.ai.levels import _EndReading, _within_reading
    from engine.ai.mcts import SearchResult

    found = SearchResult("a1", 10, 0.1, 0.6, ranking=["a1", "b2", "c3"])
    cut_short = _EndReading(False, endsolver.LOSS, [], frozenset({"a1"}), 50)
    assert _within_reading(found, cut_short).move == "b2"
    # nothing else ranked: the search's move stands
    alone = _EndReading(False, endsolver.LOSS, [], frozenset({"a1", "b2", "c3"}), 50)
    assert _within_reading(found, alone).move == "a1"
    # read whole, the best a draw: the drawing move the search ranked highest
    drawn = _EndReading(True, endsolver.DRAW, ["c3", "b2"], frozenset({"a1"}), 50)
    assert _within_reading(found, drawn).move == "b2"
    # the search's move among the best: it stands
    assert (
        _within_reading(found, _EndReading(True, endsolver.DRAW, ["a1"], frozenset(), 9)) is found
    )


# Dark to move (leading 5-2) at ply 74 of game 80 of the ladder's easy-against-random pairing in Lefe
# (size 6, bench.ladder's seeds), as a candidate easy of the twelfth round played it: 16
# moves, and a line of the exact reading comes back to a position it has passed (a
# capture restores the stones 22 plies later), which the reading followed round and
# round until Python's recursion limit (docs/ai.md, Lefe, twelfth round).
_LEFE_REPEATING = """
d7 h1 c6 i8 f8 a3 d8 h4 e4 k5 d3 f4 k1 h8 e7 e5 c2 g3 b5 c3 d9 h2 i2 b6 a4 e9 b1 a2 g8 c4
i3xh4 d6 d5 b2 i4 e6xd5 h7 i5 g9xd6 g10 i6 e5 h5 f2 j4xi5 k2 e2 i5 k4 e8 i1 h6 g6 f7 g2 c5
e1xf2 j2xk1 a1 d6 h9 c7 f10xf7 j5 f11 h4 d5 d1 f5 g7 k1 j7 b7 k3
"""


def repeating_lefe_end() -> BoardState:
    return replayed("lefe", 6, _LEFE_REPEATING)


def test_a_line_that_comes_back_to_a_position_ends_the_reading_unfinished() -> None:
    state = repeating_lefe_end()
    assert state.ply == 74 and len(state.legal_moves()) == 16
    partial: dict[str, float] = {}
    # 8,000 positions (easy's) reach the repetition after about 4,100: no answer, no crash
    assert endsolver.solve(state, max_nodes=8_000, time_limit=60.0, partial=partial) is None
    assert set(partial) <= set(state.legal_moves())
    # the line the reading follows first comes back to a position it passed
    reader = endsolver._Reader(8_000, float("inf"))
    with pytest.raises(endsolver._Repeated):
        for move in state.legal_moves():
            reader.value_for(reader.child(state, move), state.to_move)


@pytest.mark.usefixtures("stopped_clock")
@pytest.mark.parametrize("level", ["easy", "normal"])
def test_a_level_answers_where_its_reading_comes_back_to_a_position(level: str) -> None:
    state = repeating_lefe_end()
    assert search_move(state, level, seed=1).move in state.legal_moves()
