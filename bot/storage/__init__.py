"""Persistence for the match service: a small repository interface and its SQLite version.

Callers depend on :class:`Repository` only; :func:`open_repository` returns the SQLite
implementation with its migrations applied. Nothing here knows about Discord.
"""

from __future__ import annotations

from bot.storage.records import (
    ACTIVE_STATUSES,
    ActionRecord,
    ChallengeRecord,
    MatchRecord,
    RatingRecord,
    SeatRecord,
    VsBotRecord,
    VsBotResult,
)
from bot.storage.repository import ChallengeTaken, Repository, StorageError, VersionConflict
from bot.storage.sqlite import SqliteRepository, migration_files, open_repository

__all__ = [
    "ACTIVE_STATUSES",
    "ActionRecord",
    "ChallengeRecord",
    "ChallengeTaken",
    "MatchRecord",
    "RatingRecord",
    "Repository",
    "SeatRecord",
    "SqliteRepository",
    "StorageError",
    "VersionConflict",
    "VsBotRecord",
    "VsBotResult",
    "migration_files",
    "open_repository",
]
