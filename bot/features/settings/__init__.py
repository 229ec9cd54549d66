"""Settings: the server's (``/settings``), and the place for members' own preferences."""

from __future__ import annotations

from bot.features.settings.feature import ServerSettings

__all__ = ["ServerSettings"]
