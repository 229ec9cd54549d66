"""How a puzzle and an answer to it read, for both front ends: the Discord layer's
``/puzzle`` pages (``bot/features/review/puzzles.py``) and the web table's puzzle
(``web/puzzle_frame.py``) say the same sentences from the same message ids.

Names are resolved by the caller (the Discord layer asks Discord, the web table its
sessions): a puzzle's source names the players of the game it came from.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from engine import get_spec
from engine.ai.puzzles import Puzzle
from i18n import N_, translate
from matchcore.learning_records import PuzzleAnswer

RIGHT = N_("bot.puzzle.right")
WRONG = N_("bot.puzzle.wrong")
AT_ONCE = N_("bot.puzzle.how_at_once")
BY_FORCE = N_("bot.puzzle.how")


def game_title(game: str) -> str:
    """A game's display name ("Lefe")."""
    return get_spec(game).title.english


def title(language: str, puzzle: Puzzle, number: int) -> str:
    """ "Puzzle 12 (Lefe): Dark to move and win." """
    colour = translate(language, f"colour.{puzzle.to_move}")
    return translate(
        language, "bot.puzzle.title", game=game_title(puzzle.game), number=number, colour=colour
    )


def source(language: str, where: Mapping[str, Any], players: tuple[str, str] | None) -> str:
    """Where the puzzle came from: the players' names (``players``, when it was mined from a
    match) and the move, or the bot's training game; empty when unknown."""
    move = where.get("move")
    if players is not None:
        first, second = players
        return translate(language, "bot.puzzle.from_match", first=first, second=second, move=move)
    if "self_play" in where:
        return translate(language, "bot.puzzle.from_self_play", game=where["self_play"], move=move)
    return ""


def user_ids(where: Mapping[str, Any]) -> list[int | None] | None:
    """The two players' user ids of the match a puzzle came from (None: the bot), or None
    for a puzzle not mined from a match."""
    found = where.get("user_ids")
    if isinstance(found, list) and len(found) == 2:
        return [None if user is None else int(user) for user in found]
    return None


def how(language: str, puzzle: Puzzle, rating: float) -> str:
    """One move wins (at once, or by a line this long); the puzzle's rating."""
    if len(puzzle.solution) == 1:
        return translate(language, AT_ONCE, rating=round(rating))
    return translate(language, BY_FORCE, plies=len(puzzle.solution), rating=round(rating))


def verdict(language: str, answered: PuzzleAnswer) -> list[str]:
    """Right or wrong, the solution line and the member's rating after it."""
    puzzle = answered.puzzle.puzzle
    key = RIGHT if answered.solved else WRONG
    return [
        translate(language, key, move=answered.move, solution=puzzle.first_move),
        translate(language, "bot.puzzle.line", line=" ".join(puzzle.solution)),
        translate(
            language,
            "bot.puzzle.rating",
            before=round(answered.before.rating),
            after=round(answered.after.rating),
            streak=answered.after.streak,
            best=answered.after.best_streak,
        ),
    ]
