"""Board games (Lefe, Dalen, Lublache, Les, and any board game registered): challenges,
moves, resignations, the board's buttons and the messages that show a board."""

from __future__ import annotations

from bot.features.board_games.feature import BoardGames

__all__ = ["BoardGames"]
