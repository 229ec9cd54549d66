"""Settings: the server's (``/settings``) and each member's own preferences (``/prefs``)."""

from __future__ import annotations

from bot.features.settings.feature import ServerSettings
from bot.features.settings.preferences import Preferences

__all__ = ["Preferences", "ServerSettings"]
