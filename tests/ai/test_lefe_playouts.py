"""Lefe easy's random playouts as the tenth round tuned them (``LevelTuning.playouts``,
``playout_narrow``; docs/ai.md, Lefe, tenth round). The eleventh round took them out of
easy's tuning again (no loss to random saved that chance could not, easy nearer normal);
the mechanism stays, and these tests set the tenth round's tuning themselves.

From 32 moves down to the end, where the exact reading does not finish, easy plays each
move out to the end at random (both sides) and drops a move far below the best share of
won playouts. The positions below are from game 197 of the ladder's easy-against-random
line (light, easy, leading 4-2 as the cramped side), which easy lost 3-4 when its own
last placements merged its trees. At ply 69 (26 moves) easy played b3xf3: random
playouts win about half the games after it and nearly all after b3xg9 (40 a move: 0.54
against 0.94). At ply 75 (12 moves, its reading of 8,000 positions unfinished) it played
f10 (0.56 against g10's 0.78).
"""

from __future__ import annotations

import dataclasses
from types import SimpleNamespace
from typing import Any

import pytest

from engine.ai import levels
from engine.ai.mcts import SearchResult
from engine.ai.model import search_root
from engine.ai.settings import LevelTuning
from engine.board import BoardState
from engine.registry import get_board_game, get_spec

_MOVES = """
g6 g2 f3 f2xf3 e7 a4 d6 e3 b1 f4 j6 d2 a5 a3xa5 f6 e6 j3 g4 b2 h5 h4 h6xh4 f8 h7 g9 i1
d3 i7 c6 g8xc6 g7 i2 c4 j5 i3 d1 e7 c2xd3 e10 h4xj6 b6 d5xe7 j1 j7 i6 f11 h1 f7 d3 a5
j6xj5 d7 e9xf11 f11 h8 f8 f3 e8xf6 k4 c6 e5 k3 k2 j4xk4 b4 d4 i5 c3 k5
"""


def cramped_lead(then: str = "") -> BoardState:
    state = get_board_game("lefe").new(6)
    for move in (_MOVES + then).split():
        state = state.play(move)
    return state


# Lefe easy's playouts as the tenth round tuned them (be88df6)
TENTH: dict[str, Any] = {
    "playout_below": 32,
    "playouts": 16,
    "playout_narrow": True,
    "playout_draw": 1.0,
}


def tenth_round_tuning() -> LevelTuning:
    return dataclasses.replace(get_spec("lefe").ai.levels["easy"], **TENTH)


# game 197 from ply 69 to 75 and to 89 (3 moves left, every one proven lost)
_TO_75 = "b3xf3 g5 f1 e7 d9 g1"
_TO_89 = _TO_75 + " f10 k4 k6 a2 c5 i8 j2 g6 k1 a6 h9 c7 j5 b5"


def easy_move(
    state: BoardState,
    seed: int,
    monkeypatch: pytest.MonkeyPatch | None = None,
    **changes: Any,
) -> str:
    """Lefe easy's move in ``state`` (its tuning with ``changes``, for this test only)."""
    if changes:
        assert monkeypatch is not None
        tunings = get_spec("lefe").ai.levels
        monkeypatch.setitem(tunings, "easy", dataclasses.replace(tunings["easy"], **changes))
    return levels.search_move(state, "easy", seed=seed, time_limit=5.0).move


def test_the_playouts_drop_the_capture_that_loses_the_lead_to_random_play() -> None:
    state = cramped_lead()
    assert state.to_move == "light" and len(state.legal_moves()) == 26
    model = search_root(state)
    tuning = tenth_round_tuning()
    searched = SearchResult("b3xf3", 60, 0.01, 0.7, ranking=["b3xf3", "b3xg9"])
    chosen = levels._played_out(model, searched, tuning, seed=1, deadline=float("inf"))
    assert chosen.move != "b3xf3"
    assert chosen.ranking is not None and "b3xf3" not in chosen.ranking[:1]
    # the search's choice stands where it is within the margin of the best
    kept = dataclasses.replace(searched, move="b3xg9", ranking=["b3xg9", "b3xf3"])
    assert levels._played_out(model, kept, tuning, seed=1, deadline=float("inf")).move == "b3xg9"


@pytest.mark.usefixtures("stopped_clock")
def test_no_lefe_level_plays_out_its_moves() -> None:
    tunings = get_spec("lefe").ai.levels
    assert all(tuning.playouts == 0 and tuning.playout_below == 0 for tuning in tunings.values())


@pytest.mark.usefixtures("stopped_clock")
def test_lefe_easy_tuned_as_in_the_tenth_round_plays_out_its_moves(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    state = cramped_lead()
    assert easy_move(state, 1) == "b3xf3"  # easy as it is: the capture of the lost game
    assert easy_move(state, 1, monkeypatch, **TENTH) != "b3xf3"


@pytest.mark.usefixtures("stopped_clock")
def test_in_a_narrow_position_read_in_part_the_playouts_choose(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    state = cramped_lead(_TO_75)
    assert state.to_move == "light" and len(state.legal_moves()) == 12
    assert easy_move(state, 2, monkeypatch, **TENTH) != "f10"
    # without them, the narrow search's choice stands: the move of the lost game
    assert easy_move(state, 2, monkeypatch, **(TENTH | {"playout_narrow": False})) == "f10"


@pytest.mark.usefixtures("stopped_clock")
def test_a_narrow_position_read_to_the_end_is_not_played_out(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    state = cramped_lead(_TO_89)
    assert state.to_move == "light" and len(state.legal_moves()) == 3
    monkeypatch.setitem(get_spec("lefe").ai.levels, "easy", tenth_round_tuning())

    def played_out(*args: object, **kwargs: object) -> SearchResult:
        raise AssertionError("a finished reading decides alone")

    monkeypatch.setattr(levels, "_played_out", played_out)
    assert levels.search_move(state, "easy", seed=2, time_limit=5.0).move in state.legal_moves()
    # the same at ply 75, whose reading does not finish within 8,000 positions: played out
    with pytest.raises(AssertionError, match="decides alone"):
        levels.search_move(cramped_lead(_TO_75), "easy", seed=2, time_limit=5.0)


class _Ended:
    """A finished position of a two-move game: its winner (None: drawn)."""

    def __init__(self, winner: str | None) -> None:
        self.outcome = SimpleNamespace(winner=winner)


class _Gamble:
    """After "gamble" the opponent picks one of two replies: one wins for it, one loses."""

    outcome = None

    def legal_moves(self) -> list[str]:
        return ["takes", "blunders"]

    def play(self, move: str) -> _Ended:
        return _Ended("light" if move == "takes" else "dark")


class _Choice:
    """Dark to move: "safe" ends drawn, "gamble" wins or loses on the opponent's reply."""

    to_move = "dark"
    outcome = None

    def legal_moves(self) -> list[str]:
        return ["gamble", "safe"]

    def play(self, move: str) -> _Ended | _Gamble:
        return _Ended(None) if move == "safe" else _Gamble()


@pytest.mark.parametrize(("draw", "chosen"), [(0.5, "gamble"), (1.0, "safe")])
def test_a_drawn_playout_counts_what_the_tuning_says(draw: float, chosen: str) -> None:
    # a gamble won half the time is worth a draw at ½, and far less than one at 1 (the
    # chance of not losing): then the safe move is played
    tuning = LevelTuning(playout_below=2, playouts=64, playout_draw=draw)
    searched = SearchResult("gamble", 60, 0.01, 0.5, ranking=["gamble", "safe"])
    state: Any = _Choice()
    assert levels._played_out(state, searched, tuning, seed=3, deadline=float("inf")).move == chosen
