"""Leiff tables: lobbies, the table in the channel, each player's hand and its controls."""

from __future__ import annotations

from bot.features.leiff_tables.feature import LeiffTables

__all__ = ["LeiffTables"]
