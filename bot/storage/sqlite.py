"""The SQLite back end of the repository (aiosqlite, one file, WAL, foreign keys on).

One connection per repository, in autocommit mode: every method that writes opens its own
``BEGIN IMMEDIATE`` transaction (taking SQLite's write lock at once, so two processes
queue instead of failing half-way) and commits before returning; a write of one statement
(:meth:`SqlAccess._write`) is its own transaction, as autocommit makes it. An asyncio lock
keeps coroutines sharing the connection from interleaving inside each other's transactions.
The queries themselves live in :class:`bot.storage.sql.SqlRepository`.

aiosqlite runs the connection in a thread of its own and every call to it is a round trip
to that thread (a queued call, a future, a wake-up of the event loop, and on a busy machine
two thread switches for the interpreter lock). A statement runs, is read and its cursor
closed in one trip (:func:`_run`, :func:`_rows`), where aiosqlite's cursor API would take
three; matches with their seats and messages are read in one trip (:func:`_match_rows`).
A transaction takes no trip of its own: ``BEGIN IMMEDIATE`` goes with its first statement,
and statements whose result nobody reads (``executemany``: the action log's rows) wait and
go with the next statement or with ``COMMIT`` (a move's commit: two trips, not four).
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
from bot.storage.records import MatchRecord
from bot.storage.sql import SqlRepository, assemble_matches, children_queries, match_query
from bot.storage.sql_access import Transaction


def _run(connection: sqlite3.Connection, sql: str, params: Sequence[Any]) -> int:
    """In aiosqlite's thread: one statement; the number of rows it changed."""
    cursor = connection.execute(sql, params)
    try:
        return cursor.rowcount
    finally:
        cursor.close()


def _run_many(connection: sqlite3.Connection, sql: str, rows: Sequence[Sequence[Any]]) -> None:
    connection.executemany(sql, rows).close()


def _rows(connection: sqlite3.Connection, sql: str, params: Sequence[Any]) -> list[Row]:
    """In aiosqlite's thread: one query and all its rows."""
    cursor = connection.execute(sql, params)
    try:
        return cursor.fetchall()
    finally:
        cursor.close()


def _steps(
    connection: sqlite3.Connection,
    begin: bool,
    pending: Sequence[tuple[str, Sequence[Sequence[Any]]]],
    last: Any,
    *args: Any,
) -> Any:
    """In aiosqlite's thread: ``BEGIN IMMEDIATE`` first when ``begin``, the statements
    ``pending`` (``executemany``), then ``last(connection, *args)``; its result."""
    if begin:
        _run(connection, "BEGIN IMMEDIATE", ())
    for sql, rows in pending:
        _run_many(connection, sql, rows)
    return last(connection, *args)


def _flush_and_commit(
    connection: sqlite3.Connection,
    begin: bool,
    pending: Sequence[tuple[str, Sequence[Sequence[Any]]]],
) -> None:
    """In aiosqlite's thread: ``BEGIN IMMEDIATE`` first when ``begin``, the statements still
    waiting, then ``COMMIT``. A transaction that cannot end so (one of them fails, or SQLite
    refuses the commit) is rolled back."""
    try:
        if begin:
            _run(connection, "BEGIN IMMEDIATE", ())
        for sql, rows in pending:
            _run_many(connection, sql, rows)
        _run(connection, "COMMIT", ())
    except BaseException:
        if connection.in_transaction:
            _run(connection, "ROLLBACK", ())
        raise


def _match_rows(
    connection: sqlite3.Connection, sql: str, params: Sequence[Any]
) -> tuple[list[Row], list[Row], list[Row]]:
    """In aiosqlite's thread: matches, their seats and their messages, in one trip."""
    rows = _rows(connection, sql, params)
    if not rows:
        return rows, [], []
    (seats_sql, ids), (messages_sql, _) = children_queries(rows)
    return rows, _rows(connection, seats_sql, ids), _rows(connection, messages_sql, ids)


async def _in_thread(db: aiosqlite.Connection, function: Any, *args: Any) -> Any:
    """Run ``function(connection, *args)`` in the connection's thread: one round trip.
    (aiosqlite's ``_execute`` is how its own helpers do it, e.g. ``execute_fetchall``.)"""
    return await db._execute(function, db._conn, *args)  # type: ignore[no-untyped-call]


class _SqliteTransaction(Transaction):
    """A transaction that begins with its first statement and sends statements whose
    result is not read with the next trip (see the module's docstring)."""

    def __init__(self, db: aiosqlite.Connection) -> None:
        self._db = db
        self.begun = False
        self._pending: list[tuple[str, Sequence[Sequence[Any]]]] = []

    async def _trip(self, last: Any, *args: Any) -> Any:
        begin, pending = not self.begun, self._pending
        self.begun, self._pending = True, []
        return await _in_thread(self._db, _steps, begin, pending, last, *args)

    async def execute(self, sql: str, params: Sequence[Any] = ()) -> int:
        return int(await self._trip(_run, sql, params))

    async def executemany(self, sql: str, rows: Sequence[Sequence[Any]]) -> None:
        # Sent with the next trip; a failure then fails the whole transaction, as it would now.
        self._pending.append((sql, list(rows)))

    async def fetch(self, sql: str, params: Sequence[Any] = ()) -> list[Row]:
        return list(await self._trip(_rows, sql, params))

    async def commit(self) -> None:
        if not self.begun and not self._pending:
            return  # nothing was run: no transaction to end
        begin, pending = not self.begun, self._pending
        self.begun, self._pending = True, []
        await _in_thread(self._db, _flush_and_commit, begin, pending)

    async def rollback(self) -> None:
        self._pending = []
        if self.begun:
            await _in_thread(self._db, _rollback)


def _rollback(connection: sqlite3.Connection) -> None:
    """In aiosqlite's thread: end the open transaction, if any (a ``BEGIN`` that failed
    left none)."""
    if connection.in_transaction:
        _run(connection, "ROLLBACK", ())


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
            tx = _SqliteTransaction(self._db)
            try:
                yield tx
            except BaseException:
                await tx.rollback()
                raise
            await tx.commit()

    async def _write(self, sql: str, params: Sequence[Any] = ()) -> int:
        # Autocommit: the statement is its own transaction (it takes the write lock, waits
        # for it as long as busy_timeout allows, and commits), so no BEGIN and COMMIT.
        async with self._lock:
            return int(await _in_thread(self._db, _run, sql, params))

    @asynccontextmanager
    async def _migration_lock(self) -> AsyncIterator[None]:
        # Each migration takes SQLite's write lock; a second process re-reads what is applied.
        yield

    async def _load_matches(
        self, where: str, params: Sequence[Any], tx: Transaction | None = None
    ) -> list[MatchRecord]:
        if tx is not None:
            return await super()._load_matches(where, params, tx)
        # the reads of the matches, their seats and their messages in one trip
        async with self._lock:
            rows, seat_rows, message_rows = await _in_thread(
                self._db, _match_rows, match_query(where), params
            )
        return assemble_matches(rows, seat_rows, message_rows)

    async def _fetch(self, sql: str, params: Sequence[Any] = ()) -> list[Row]:
        async with self._lock:
            return list(await _in_thread(self._db, _rows, sql, params))


async def open_sqlite(path: str | Path, *, synchronous: str = "FULL") -> SqliteRepository:
    """Open (creating if needed) the SQLite database at ``path`` and bring its schema up to date."""
    return await SqliteRepository.open(path, synchronous=synchronous)
