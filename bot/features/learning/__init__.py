"""Learning the games in Discord: ``/help`` and the paged, illustrated ``/rules`` tutorial."""

from __future__ import annotations

from bot.features.learning.feature import Learning

__all__ = ["Learning"]
