"""The post-game review: the graph, the mistakes (legal, better by the engine's own
reading) and the reasons it names."""

from __future__ import annotations

import functools
import itertools
import random

import pytest

from engine import get_board_game
from engine.ai.alphabeta import AlphaBetaSearcher
from engine.ai.review import Review, reason_for, review_game
from engine.ai.settings import AlphaBetaSettings
from engine.board import BoardState

# an independent reading, deeper than the review's own check
JUDGE = AlphaBetaSettings(max_depth=2, max_nodes=4_000, time_limit=60.0)


@functools.cache
def _random_game(game: str, size: int, seed: int) -> tuple[BoardState, ...]:
    state = get_board_game(game).new(size=size)
    rng = random.Random(seed)
    positions = [state]
    while state.outcome is None:
        state = state.play(rng.choice(state.legal_moves()))
        positions.append(state)
    return tuple(positions)


def _value_after(state: BoardState, move: str) -> float:
    """The mover's chance after ``move``, by alpha-beta over the opponent's replies."""
    mover = state.to_move
    child = state.play(move)
    if child.outcome is not None:
        return 1.0 if child.outcome.winner == mover else 0.0 if child.outcome.winner else 0.5
    result = AlphaBetaSearcher(JUDGE).search(child, random.Random(1))
    return result.value if child.to_move == mover else 1.0 - result.value


@pytest.mark.parametrize(("game", "size"), [("lefe", 5), ("dalen", 5), ("lublache", 5)])
def test_a_review_marks_legal_better_moves_the_engine_prefers(game: str, size: int) -> None:
    positions = _random_game(game, size, 3)
    review = review_game(list(positions))
    assert len(review.graph) == len(positions) - 1
    assert all(0.0 <= chance <= 1.0 for chance in review.graph)
    shown = [m for ms in review.mistakes.values() for m in ms]
    assert shown, "a random game has mistakes"
    for colour, mistakes in review.mistakes.items():
        assert len(mistakes) <= 3
        for mistake in mistakes:
            before = positions[mistake.ply]
            assert before.to_move == colour == mistake.mover
            assert positions[mistake.ply + 1].moves[-1] == mistake.played
            assert mistake.best in before.legal_moves() and mistake.best != mistake.played
            assert _value_after(before, mistake.best) > _value_after(before, mistake.played)
    # the finished game's end is the graph's end: the winner's colour ends on top
    winner = positions[-1].outcome.winner if positions[-1].outcome else None
    if winner is not None:
        assert (review.graph[-1] == 1.0) == (winner == review.colours[0])
    assert all(0 <= ply < len(review.graph) for ply in review.turning_points)


def test_a_review_survives_its_storage_as_json() -> None:
    review = review_game(list(_random_game("lefe", 5, 3)))
    again = Review.from_dict(review.to_dict())
    assert again.graph == pytest.approx(review.graph, abs=1e-4)
    assert again.mistakes.keys() == review.mistakes.keys()
    for colour, mistakes in review.mistakes.items():
        assert [m.best for m in again.mistakes[colour]] == [m.best for m in mistakes]


def test_a_missed_capture_and_a_missed_win_are_named() -> None:
    positions = _random_game("lefe", 5, 3)
    found = None
    for before, after in itertools.pairwise(positions):
        captures = [m for m in before.legal_moves() if "x" in m]
        played = after.moves[-1]
        if captures and "x" not in played:
            found = (before, captures[0], played)
            break
    assert found is not None
    before, capture, played = found
    assert reason_for(before, capture, played) in ("capture_missed", "win_missed")


def test_a_dalen_win_missed_is_named() -> None:
    """In random Dalen games a move that flips the opponent's last stones turns up; the
    review names playing anything else a missed win."""
    for seed in range(40):
        for before in _random_game("dalen", 5, seed)[:-1]:
            if before.to_move is None:
                continue
            outcomes = {m: before.play(m).outcome for m in before.legal_moves()}
            wins = [m for m, o in outcomes.items() if o is not None and o.winner == before.to_move]
            others = [m for m in outcomes if m not in wins]
            if wins and others:
                assert reason_for(before, wins[0], others[0]) == "win_missed"
                return
    raise AssertionError("no Dalen position with a win at once beside another move")
