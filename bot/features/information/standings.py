"""How the leaderboard and a member's statistics read."""

from __future__ import annotations

from typing import Any


def games_count(count: int) -> str:
    return "1 game" if count == 1 else f"{count} games"


def record(row: Any) -> str:
    """ "3 games: 1W 2L 0D"."""
    return f"{games_count(row.games)}: {row.wins}W {row.losses}L {row.draws}D"


def streak(row: Any) -> str:
    """The current run and the best run of wins, in words ("" when there is nothing to say)."""
    parts = []
    if row.streak > 0:
        parts.append("won the last game" if row.streak == 1 else f"won the last {row.streak}")
    elif row.streak < 0:
        lost = -row.streak
        parts.append("lost the last game" if lost == 1 else f"lost the last {lost}")
    if row.best_streak > 1:
        parts.append(f"best run {row.best_streak} wins in a row")
    return "; " + ", ".join(parts) if parts else ""
