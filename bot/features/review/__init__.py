"""Learning from games: reviews of finished matches and puzzles (issue 37)."""

from bot.features.review.feature import Reviewing
from bot.features.review.puzzles import PuzzleDesk

__all__ = ["PuzzleDesk", "Reviewing"]
