"""History commands: ``/history``, ``/replay`` (pages you can step), ``/import``."""

from __future__ import annotations

from bot.features.history.feature import History

__all__ = ["History"]
