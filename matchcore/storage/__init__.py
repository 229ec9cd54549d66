"""Persistence for the match service: one repository interface, two back ends.

Callers depend on :class:`Repository` only. :func:`open_repository` takes a database URL
(``sqlite:///path``, ``postgresql://...``) or a plain SQLite path and returns the matching
back end with its migrations applied. Nothing here knows about Discord.
"""

from __future__ import annotations

from pathlib import Path

from matchcore.records import ActionRecord, DmFailure, MemberPreferences
from matchcore.storage.records import (
    ACTIVE_STATUSES,
    ChallengeRecord,
    MatchRecord,
    PlacementRecord,
    RatingRecord,
    SeatRecord,
    VsBotRecord,
    VsBotResult,
)
from matchcore.storage.repository import (
    ChallengeTaken,
    RatingConflict,
    Repository,
    SchemaTooNew,
    StorageError,
    VersionConflict,
)
from matchcore.storage.sql import CHANNEL, SqlRepository, migration_files
from matchcore.storage.sql_housekeeping import FIRST_KEY, PRUNE_RULES
from matchcore.storage.sqlite import SqliteRepository

# The tables housekeeping prunes, in the order a pass walks them.
PRUNABLE_TABLES = tuple(PRUNE_RULES)

POSTGRES_SCHEMES = ("postgresql://", "postgres://")
SQLITE_SCHEME = "sqlite:///"


def sqlite_path(target: str | Path) -> Path | None:
    """The SQLite file a URL or path names, or None for a PostgreSQL URL.

    ``sqlite:///data/x.sqlite3`` is relative to the working folder, ``sqlite:////srv/x``
    absolute (as in SQLAlchemy); anything without a scheme is a path.
    """
    text = str(target)
    if text.startswith(POSTGRES_SCHEMES):
        return None
    if text.startswith(SQLITE_SCHEME):
        text = text[len(SQLITE_SCHEME) :]
        if not text:
            raise ValueError("a sqlite URL needs a path: sqlite:///data/leafbot.sqlite3")
        return Path(text)
    if "://" in text:
        scheme = text.split("://", 1)[0]
        raise ValueError(
            f"unknown database URL scheme {scheme!r}: use sqlite:///path or postgresql://..."
        )
    return Path(text)


async def open_repository(
    target: str | Path, *, synchronous: str = "FULL", pool_size: int | None = None
) -> Repository:
    """Open the database ``target`` names (URL or SQLite path), migrated to this release.

    ``synchronous`` is SQLite's (FULL or NORMAL), ``pool_size`` PostgreSQL's most open
    connections. Raises :class:`SchemaTooNew` on a database migrated by a newer release.
    """
    path = sqlite_path(target)
    if path is not None:
        return await SqliteRepository.open(path, synchronous=synchronous)
    from matchcore.storage.postgres import DEFAULT_POOL_SIZE, PostgresRepository

    return await PostgresRepository.open(str(target), pool_size=pool_size or DEFAULT_POOL_SIZE)


__all__ = [
    "ACTIVE_STATUSES",
    "CHANNEL",
    "FIRST_KEY",
    "PRUNABLE_TABLES",
    "ActionRecord",
    "ChallengeRecord",
    "ChallengeTaken",
    "DmFailure",
    "MatchRecord",
    "MemberPreferences",
    "PlacementRecord",
    "RatingConflict",
    "RatingRecord",
    "Repository",
    "SchemaTooNew",
    "SeatRecord",
    "SqlRepository",
    "SqliteRepository",
    "StorageError",
    "VersionConflict",
    "VsBotRecord",
    "VsBotResult",
    "migration_files",
    "open_repository",
    "sqlite_path",
]
