"""Information commands: ``/games``, ``/leaderboard``, ``/stats``."""

from __future__ import annotations

from bot.features.information.feature import Information

__all__ = ["Information"]
