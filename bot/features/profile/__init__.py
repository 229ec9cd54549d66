"""The profile command: ``/profile [member]``, a member's ratings, graph and records."""

from __future__ import annotations

from bot.features.profile.feature import Profiles

__all__ = ["Profiles"]
