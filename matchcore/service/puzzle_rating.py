"""Puzzle ratings: Glicko-2 for the member and the puzzle at once, and the streak.

An answer is one game between the member and the puzzle: solved, the member won. Both
sides are rated by Glicko-2 (Glickman's paper, the ``glicko2`` package on PyPI), each from
the other's rating and deviation before the answer, one rating period per answer, as
lichess rates its puzzles. A right answer adds one to the member's streak, a wrong one ends
it.
"""

from __future__ import annotations

from dataclasses import replace

# The package has no type information; its Player takes and gives plain floats.
import glicko2  # type: ignore[import-untyped]  # untyped package: wrapped here with types

from matchcore.learning_records import PuzzlePlayer, StoredPuzzle

# How far a deviation may shrink: a rating settled at 60 still moves with new answers.
MIN_DEVIATION = 60.0


def _update(
    rating: float, deviation: float, volatility: float, other: tuple[float, float], won: bool
) -> tuple[float, float, float]:
    player = glicko2.Player(rating=rating, rd=deviation, vol=volatility)
    player.update_player([other[0]], [other[1]], [1.0 if won else 0.0])
    return (
        round(float(player.rating), 2),
        round(max(MIN_DEVIATION, float(player.rd)), 2),
        float(player.vol),
    )


def rate(
    member: PuzzlePlayer, puzzle: StoredPuzzle, solved: bool
) -> tuple[PuzzlePlayer, tuple[float, float, float]]:
    """The member after the answer, and the puzzle's new (rating, deviation, volatility)."""
    rating, deviation, volatility = _update(
        member.rating,
        member.deviation,
        member.volatility,
        (puzzle.rating, puzzle.deviation),
        solved,
    )
    streak = member.streak + 1 if solved else 0
    after = replace(
        member,
        rating=rating,
        deviation=deviation,
        volatility=volatility,
        streak=streak,
        best_streak=max(member.best_streak, streak),
        solved=member.solved + int(solved),
        failed=member.failed + int(not solved),
    )
    puzzle_after = _update(
        puzzle.rating,
        puzzle.deviation,
        puzzle.volatility,
        (member.rating, member.deviation),
        not solved,
    )
    return after, puzzle_after
