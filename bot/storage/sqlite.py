"""The SQLite back end of the repository (aiosqlite, one file, WAL, foreign keys on).

One connection per repository, in autocommit mode: every method that writes opens its own
``BEGIN IMMEDIATE`` transaction (taking SQLite's write lock at once, so two processes
queue instead of failing half-way) and commits before returning. An asyncio lock keeps
coroutines sharing the connection from interleaving inside each other's transactions.
The queries themselves live in :class:`bot.storage.sql.SqlRepository`.
"""

from __future__ import annotations

import asyncio
import sqlite3
from collections.abc import AsyncIterator, Sequence
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

import aiosqlite

from bot.storage.mapping import Row
from bot.storage.sql import SqlRepository
from bot.storage.sql_access import Transaction


class _SqliteTransaction(Transaction):
    def __init__(self, db: aiosqlite.Connection) -> None:
        self._db = db

    async def execute(self, sql: str, params: Sequence[Any] = ()) -> int:
        cursor = await self._db.execute(sql, params)
        changed = cursor.rowcount
        await cursor.close()
        return changed

    async def executemany(self, sql: str, rows: Sequence[Sequence[Any]]) -> None:
        await self._db.executemany(sql, rows)

    async def fetch(self, sql: str, params: Sequence[Any] = ()) -> list[Row]:
        cursor = await self._db.execute(sql, params)
        rows = await cursor.fetchall()
        await cursor.close()
        return list(rows)


class SqliteRepository(SqlRepository):
    """Repository over one SQLite file. Build it with :func:`open_sqlite`."""

    dialect = "sqlite"

    def __init__(self, connection: aiosqlite.Connection, path: Path) -> None:
        self._db = connection
        self.path = path
        self._lock = asyncio.Lock()

    @classmethod
    async def open(cls, path: str | Path, *, synchronous: str = "FULL") -> SqliteRepository:
        path = Path(path)
        if str(path) != ":memory:":
            path.parent.mkdir(parents=True, exist_ok=True)
        connection = await aiosqlite.connect(str(path), isolation_level=None)
        connection.row_factory = sqlite3.Row
        await connection.execute("PRAGMA busy_timeout = 10000")
        await connection.execute("PRAGMA journal_mode = WAL")
        await connection.execute("PRAGMA foreign_keys = ON")
        # FULL: a commit survives a power cut too, not only a killed process.
        if synchronous.upper() not in ("FULL", "NORMAL", "EXTRA"):
            raise ValueError("synchronous must be FULL, NORMAL or EXTRA")
        await connection.execute(f"PRAGMA synchronous = {synchronous.upper()}")
        repo = cls(connection, path)
        try:
            await repo._migrate()
        except BaseException:
            await connection.close()
            raise
        return repo

    async def close(self) -> None:
        async with self._lock:
            await self._db.close()

    @asynccontextmanager
    async def _transaction(self) -> AsyncIterator[Transaction]:
        async with self._lock:
            await self._db.execute("BEGIN IMMEDIATE")
            try:
                yield _SqliteTransaction(self._db)
            except BaseException:
                await self._db.execute("ROLLBACK")
                raise
            await self._db.execute("COMMIT")

    @asynccontextmanager
    async def _migration_lock(self) -> AsyncIterator[None]:
        # Each migration takes SQLite's write lock; a second process re-reads what is applied.
        yield

    async def _fetch(self, sql: str, params: Sequence[Any] = ()) -> list[Row]:
        async with self._lock:
            cursor = await self._db.execute(sql, params)
            rows = await cursor.fetchall()
            await cursor.close()
            return list(rows)


async def open_sqlite(path: str | Path, *, synchronous: str = "FULL") -> SqliteRepository:
    """Open (creating if needed) the SQLite database at ``path`` and bring its schema up to date."""
    return await SqliteRepository.open(path, synchronous=synchronous)
