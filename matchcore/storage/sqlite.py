"""The SQLite back end of the repository (aiosqlite, one file, WAL, foreign keys on).

One connection per repository, in autocommit mode: every method that writes opens its own
``BEGIN IMMEDIATE`` transaction (taking SQLite's write lock at once, so two processes
queue instead of failing half-way) and commits before returning; a write of one statement
(:meth:`SqlAccess._write`) is its own transaction, as autocommit makes it. An asyncio lock
keeps coroutines sharing the connection from interleaving inside each other's transactions.
The queries themselves live in :class:`matchcore.storage.sql.SqlRepository`.

aiosqlite runs the connection in a thread of its own and every call to it is a round trip
to that thread (a queued call, a future, a wake-up of the event loop, and on a busy machine
two thread switches for the interpreter lock). A statement runs, is read and its cursor
closed in one trip (:func:`_run`, :func:`_rows`), where aiosqlite's cursor API would take
three; matches with their seats and messages are read in one trip (:func:`_match_rows`).
A transaction takes no trip of its own: ``BEGIN IMMEDIATE`` goes with its first statement,
and statements whose result nobody reads (``executemany``: the action log's rows) wait and
go with the next statement or with ``COMMIT`` (a move's commit: two trips, not four).

Plain reads (outside a transaction of ours) take no trip at all: a second connection,
read-only, runs them on the event loop's own thread. In WAL mode a reader never waits for
the writer and sees every transaction committed before it began, which is what a read
through the writer's lock saw too (and what PostgreSQL's pool gives); a read refused by
another connection's lock on the file is not waited for on the loop but goes through the
writer's thread. An indexed read of a few rows costs tens of microseconds, less than the
hand-over to another thread, and under load each trip also waits for a turn of the busy
event loop: a board move read its match and preferences in three trips before.

Writes of one statement (message ids, delivery records, table lines: a few per move, each
committed on its own) are committed together when several are waiting (group commit): they
queue, and one task commits everything queued at a time in one transaction, one trip and
one ``fsync`` instead of one each. A statement that fails fails alone (SQLite undoes just that
statement); one that ends the whole transaction, or a failed ``COMMIT``, fails them all.
"""

from __future__ import annotations

import asyncio
import sqlite3
from collections.abc import AsyncIterator, Sequence
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

import aiosqlite

from matchcore.storage.driver_logs import cap_driver_logs
from matchcore.storage.mapping import Row
from matchcore.storage.records import MatchRecord
from matchcore.storage.sql import SqlRepository, assemble_matches, children_queries, match_query
from matchcore.storage.sql_access import Transaction


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


def _run_writes(
    connection: sqlite3.Connection, writes: Sequence[tuple[str, Sequence[Any]]]
) -> list[int | BaseException]:
    """In aiosqlite's thread: the queued one-statement writes, committed together; each
    one's changed rows or its error. A single write is its own transaction (autocommit)."""
    if len(writes) == 1:
        sql, params = writes[0]
        try:
            return [_run(connection, sql, params)]
        except Exception as error:
            return [error]
    _run(connection, "BEGIN IMMEDIATE", ())
    results: list[int | BaseException] = []
    try:
        for sql, params in writes:
            try:
                results.append(_run(connection, sql, params))
            except sqlite3.Error as error:
                if not connection.in_transaction:
                    # the error ended the transaction: what ran before it is undone too
                    return [error] * len(writes)
                results.append(error)
        _run(connection, "COMMIT", ())
    except BaseException as error:
        if connection.in_transaction:
            _run(connection, "ROLLBACK", ())
        if isinstance(error, Exception):
            return [error] * len(writes)
        raise
    return results


def _settle(
    batch: Sequence[tuple[str, Sequence[Any], asyncio.Future[int]]],
    results: Sequence[int | BaseException],
) -> None:
    """Give each queued write its result (a caller that gave up is skipped)."""
    for (_, _, waiter), result in zip(batch, results, strict=True):
        if waiter.done():
            continue
        if isinstance(result, BaseException):
            waiter.set_exception(result)
        else:
            waiter.set_result(int(result))


# SQLite's primary result codes for "another connection holds a lock"
_BUSY_CODES = frozenset({sqlite3.SQLITE_BUSY, sqlite3.SQLITE_LOCKED})


def _is_busy(error: sqlite3.OperationalError) -> bool:
    return (getattr(error, "sqlite_errorcode", 0) & 0xFF) in _BUSY_CODES


async def _in_thread(db: aiosqlite.Connection, function: Any, *args: Any) -> Any:
    """Run ``function(connection, *args)`` in the connection's thread: one round trip.
    (aiosqlite's ``_execute`` is how its own helpers do it, e.g. ``execute_fetchall``.)"""
    return await db._execute(function, db._conn, *args)  # type: ignore[no-untyped-call]  # aiosqlite's own helpers call it so


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

    def __init__(
        self,
        connection: aiosqlite.Connection,
        path: Path,
        reader: sqlite3.Connection | None = None,
    ) -> None:
        self._db = connection
        self.path = path
        self._lock = asyncio.Lock()
        # plain reads on the loop's thread (None for ":memory:", a database of one connection)
        self._reader = reader
        # one-statement writes waiting for the next group commit: (sql, params, its future)
        self._queued_writes: list[tuple[str, Sequence[Any], asyncio.Future[int]]] = []
        self._writer: asyncio.Task[None] | None = None  # the task emptying that queue

    @classmethod
    async def open(cls, path: str | Path, *, synchronous: str = "FULL") -> SqliteRepository:
        path = Path(path)
        if str(path) != ":memory:":
            path.parent.mkdir(parents=True, exist_ok=True)
        cap_driver_logs()  # before the first statement: aiosqlite logs each at DEBUG
        connection = await aiosqlite.connect(str(path), isolation_level=None)
        connection.row_factory = sqlite3.Row
        await connection.execute("PRAGMA busy_timeout = 10000")
        await connection.execute("PRAGMA journal_mode = WAL")
        await connection.execute("PRAGMA foreign_keys = ON")
        # FULL: a commit survives a power cut too, not only a killed process.
        if synchronous.upper() not in ("FULL", "NORMAL", "EXTRA"):
            raise ValueError("synchronous must be FULL, NORMAL or EXTRA")
        await connection.execute(f"PRAGMA synchronous = {synchronous.upper()}")
        reader = None
        try:
            if str(path) != ":memory:":
                reader = _open_reader(path)
            repo = cls(connection, path, reader)
            await repo._migrate()
        except BaseException:
            if reader is not None:
                reader.close()
            await connection.close()
            raise
        return repo

    async def close(self) -> None:
        if self._writer is not None:
            # the writes queued before the close are committed first
            await asyncio.gather(self._writer, return_exceptions=True)
        async with self._lock:
            if self._reader is not None:
                self._reader.close()
                self._reader = None
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
        # Group commit (see the module's docstring): the statement waits in a queue that one
        # task empties, all that waits at a time in one trip. Alone, a statement is its own
        # transaction (autocommit: no BEGIN and COMMIT). A caller cancelled before its turn
        # is left out; one cancelled during its trip is written all the same (as before).
        future: asyncio.Future[int] = asyncio.get_running_loop().create_future()
        self._queued_writes.append((sql, params, future))
        if self._writer is None or self._writer.done():
            self._writer = asyncio.get_running_loop().create_task(self._commit_queued_writes())
        return await future

    async def _commit_queued_writes(self) -> None:
        while self._queued_writes:
            async with self._lock:
                batch = [write for write in self._queued_writes if not write[2].done()]
                self._queued_writes = []
                if not batch:
                    continue
                writes = [(sql, params) for sql, params, _ in batch]
                try:
                    results = await _in_thread(self._db, _run_writes, writes)
                except Exception as error:  # the trip itself failed (connection closed)
                    results = [error] * len(batch)
                except BaseException:  # cancelled: nobody may wait on a future forever
                    _settle(batch, [asyncio.CancelledError()] * len(batch))
                    raise
                _settle(batch, results)

    @asynccontextmanager
    async def _migration_lock(self) -> AsyncIterator[None]:
        # Each migration takes SQLite's write lock; a second process re-reads what is applied.
        yield

    async def _load_matches(
        self, where: str, params: Sequence[Any], tx: Transaction | None = None
    ) -> list[MatchRecord]:
        if tx is not None:
            return await super()._load_matches(where, params, tx)
        if self._reader is not None:
            try:
                rows, seat_rows, message_rows = _match_rows(
                    self._reader, match_query(where), params
                )
                return assemble_matches(rows, seat_rows, message_rows)
            except sqlite3.OperationalError as error:
                if not _is_busy(error):
                    raise
                # the file is locked (see _open_reader): wait in the database thread
        # the reads of the matches, their seats and their messages in one trip
        async with self._lock:
            rows, seat_rows, message_rows = await _in_thread(
                self._db, _match_rows, match_query(where), params
            )
        return assemble_matches(rows, seat_rows, message_rows)

    async def _fetch(self, sql: str, params: Sequence[Any] = ()) -> list[Row]:
        if self._reader is not None:
            try:
                return _rows(self._reader, sql, params)
            except sqlite3.OperationalError as error:
                if not _is_busy(error):
                    raise
                # the file is locked (see _open_reader): wait in the database thread
        async with self._lock:
            return list(await _in_thread(self._db, _rows, sql, params))


def _open_reader(path: Path) -> sqlite3.Connection:
    """The read-only connection for plain reads, used on the event loop's thread only.

    Autocommit, so that each read is a read transaction of its own that ends with the
    statement (an open one would keep the WAL from being checkpointed). ``query_only``
    makes a write through it an error rather than a surprise."""
    reader = sqlite3.connect(str(path), isolation_level=None, check_same_thread=False)
    reader.row_factory = sqlite3.Row
    # A WAL reader is refused only while another connection holds the file exclusively
    # (recovering it after a crash, the last connection of a process closing it, exclusive
    # locking mode). It must never wait on the event loop: refused at once, the read is
    # run through the writer's thread instead, which waits as long as busy_timeout allows.
    reader.execute("PRAGMA busy_timeout = 0")
    reader.execute("PRAGMA query_only = ON")
    reader.execute("PRAGMA foreign_keys = ON")  # as the writer (PRAGMA reads say so)
    return reader


async def open_sqlite(path: str | Path, *, synchronous: str = "FULL") -> SqliteRepository:
    """Open (creating if needed) the SQLite database at ``path`` and bring its schema up to date."""
    return await SqliteRepository.open(path, synchronous=synchronous)
