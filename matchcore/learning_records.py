"""The core's records of learning from games: a stored puzzle, a member's puzzle rating,
an answer, a server's daily puzzle (issue 37).

Plain values, as the other records the front ends receive (:mod:`matchcore.records`); the
storage maps its rows to them. A puzzle's own content is the engine's
:class:`engine.ai.puzzles.Puzzle`.
"""

from __future__ import annotations

from dataclasses import dataclass

from engine.ai.puzzles import Puzzle

# Glicko-2's starting values for a member who has never tried a puzzle
START_RATING = 1500.0
START_DEVIATION = 350.0
START_VOLATILITY = 0.06


@dataclass(frozen=True)
class StoredPuzzle:
    """A puzzle as the server keeps it: its id, where it came from, its own rating."""

    id: int
    guild_id: int | None  # None: the shipped starter set
    puzzle: Puzzle
    rating: float
    deviation: float
    volatility: float
    match_id: int | None = None  # the finished match it was mined from

    @property
    def game(self) -> str:
        return self.puzzle.game


@dataclass(frozen=True)
class PuzzlePlayer:
    """A member's puzzle rating (Glicko-2) and streak, one across the games."""

    user_id: int
    rating: float = START_RATING
    deviation: float = START_DEVIATION
    volatility: float = START_VOLATILITY
    streak: int = 0
    best_streak: int = 0
    solved: int = 0
    failed: int = 0


@dataclass(frozen=True)
class PuzzleAnswer:
    """What answering a puzzle did: right or wrong, the rating before and after."""

    puzzle: StoredPuzzle
    move: str
    solved: bool
    before: PuzzlePlayer
    after: PuzzlePlayer


@dataclass(frozen=True)
class DailyPuzzle:
    """A server's puzzle of one day (``day``: ``YYYY-MM-DD`` UTC) and where it was posted."""

    guild_id: int
    day: str
    puzzle_id: int
    channel_id: int
    message_id: int | None
    posted_by: str
