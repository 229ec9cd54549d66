"""The PostgreSQL back end of the repository (asyncpg with a connection pool).

Every write is one transaction on a connection of the pool (READ COMMITTED); a match's
version check is the ``UPDATE ... WHERE id = $n AND version = $m`` itself, which locks the
row until the commit, so of two processes writing the same version exactly one succeeds.
Due work is claimed with ``FOR UPDATE SKIP LOCKED`` and a lease. Migrations run under an
advisory lock, so processes starting together migrate one after the other. The queries
live in :class:`matchcore.storage.sql.SqlRepository`, written with ``?``; here they are numbered
``$1, $2, ...`` once per distinct query.

Every step's outbox rows are written with a ``NOTIFY`` (``pg_notify``, in the same
statement): PostgreSQL tells every process that listens (:meth:`PostgresRepository.
listen_outbox`, one connection of its own) when the step commits, so another process's
sender (the web table, another shard) learns of it at once instead of polling.
"""

from __future__ import annotations

import functools
from collections.abc import AsyncIterator, Callable, Iterable, Sequence
from contextlib import asynccontextmanager
from typing import Any

import asyncpg  # type: ignore[import-untyped]  # asyncpg ships no type hints

from matchcore.storage.driver_logs import cap_driver_logs
from matchcore.storage.mapping import Row
from matchcore.storage.sql import SqlRepository, split_sql
from matchcore.storage.sql_access import Transaction

#: pg_advisory_lock key held while migrating ("leafbot" in ASCII, as a number).
MIGRATION_LOCK_KEY = 0x6C656166626F74
DEFAULT_POOL_SIZE = 10
#: The channel of the NOTIFY that every step's commit sends ("<match id>:<version>").
OUTBOX_CHANNEL = "leafbot_outbox"


@functools.lru_cache(maxsize=512)
def numbered(sql: str) -> str:
    """``?`` placeholders as PostgreSQL's ``$1, $2, ...`` (our SQL has no ``?`` in text)."""
    parts = sql.split("?")
    out = [parts[0]]
    for index, part in enumerate(parts[1:], start=1):
        out.append(f"${index}{part}")
    return "".join(out)


def _rowcount(status: str) -> int:
    """Rows changed, from a command status such as ``UPDATE 1`` or ``INSERT 0 1``."""
    tail = status.rsplit(" ", 1)[-1]
    return int(tail) if tail.isdigit() else 0


async def _keep_session(connection: asyncpg.Connection) -> None:
    """Nothing to reset when a connection goes back to the pool: ours set no session
    state (no SET, LISTEN or cursors; the migration's advisory lock is released
    explicitly), and asyncpg rolls back any transaction left open. The default reset
    costs a round trip after every query."""


class _PostgresTransaction(Transaction):
    def __init__(self, connection: asyncpg.Connection) -> None:
        self._connection = connection

    async def execute(self, sql: str, params: Sequence[Any] = ()) -> int:
        return _rowcount(await self._connection.execute(numbered(sql), *params))

    async def executemany(self, sql: str, rows: Sequence[Sequence[Any]]) -> None:
        await self._connection.executemany(numbered(sql), rows)

    async def fetch(self, sql: str, params: Sequence[Any] = ()) -> list[Row]:
        return list(await self._connection.fetch(numbered(sql), *params))


class PostgresRepository(SqlRepository):
    """Repository over a PostgreSQL database. Build it with :func:`open_postgres`."""

    dialect = "postgresql"
    skip_locked = " FOR UPDATE SKIP LOCKED"

    def __init__(self, pool: asyncpg.Pool, url: str) -> None:
        self._pool = pool
        self.url = url
        # the connection that LISTENs for the outbox's commits (one per process, kept out
        # of the pool: a LISTEN is session state), once somebody listens
        self._listener: asyncpg.Connection | None = None
        self._heard: list[Callable[[int, int], None]] = []

    @classmethod
    async def open(cls, url: str, *, pool_size: int = DEFAULT_POOL_SIZE) -> PostgresRepository:
        cap_driver_logs()
        pool = await asyncpg.create_pool(
            url, min_size=1, max_size=max(1, pool_size), reset=_keep_session
        )
        repo = cls(pool, url)
        try:
            await repo._migrate()
        except BaseException:
            await pool.close()
            raise
        return repo

    async def close(self) -> None:
        if self._listener is not None:
            listener, self._listener = self._listener, None
            await listener.close()
        await self._pool.close()

    # ---- the outbox, told at once (NOTIFY) ---------------------------------------------
    async def _write_outbox(
        self, tx: Transaction, match_id: int, version: int, audiences: Iterable[str]
    ) -> None:
        """The step's outbox rows and, in the same statement, a NOTIFY on
        :data:`OUTBOX_CHANNEL` that PostgreSQL sends every listening process when the
        transaction commits (never before, never for a step rolled back)."""
        await tx.fetch(
            "WITH written AS (INSERT INTO outbox(match_id, audience, version) "
            "SELECT ?, audience, ? FROM unnest(?::text[]) AS a(audience) "
            "ON CONFLICT(match_id, audience) DO UPDATE SET version = excluded.version "
            "RETURNING match_id) "
            f"SELECT pg_notify('{OUTBOX_CHANNEL}', ?) FROM written LIMIT 1",
            (match_id, version, list(audiences), f"{match_id}:{version}"),
        )

    async def listen_outbox(self, heard: Callable[[int, int], None]) -> bool:
        self._heard.append(heard)
        if self._listener is None:
            self._listener = await asyncpg.connect(self.url)
            await self._listener.add_listener(OUTBOX_CHANNEL, self._notified)
        return True

    def _notified(self, connection: object, pid: int, channel: str, payload: str) -> None:
        match_id, _, version = payload.partition(":")
        if not (match_id.isdigit() and version.isdigit()):
            return
        for heard in self._heard:
            heard(int(match_id), int(version))

    @asynccontextmanager
    async def _transaction(self) -> AsyncIterator[Transaction]:
        async with self._pool.acquire() as connection, connection.transaction():
            yield _PostgresTransaction(connection)

    @asynccontextmanager
    async def _migration_lock(self) -> AsyncIterator[None]:
        async with self._pool.acquire() as connection:
            await connection.execute("SELECT pg_advisory_lock($1)", MIGRATION_LOCK_KEY)
            try:
                yield
            finally:
                await connection.execute("SELECT pg_advisory_unlock($1)", MIGRATION_LOCK_KEY)

    async def _apply_script(self, tx: Transaction, script: str) -> None:
        for statement in split_sql(script):
            await tx.execute(statement)

    async def _fetch(self, sql: str, params: Sequence[Any] = ()) -> list[Row]:
        return list(await self._pool.fetch(numbered(sql), *params))

    async def _write(self, sql: str, params: Sequence[Any] = ()) -> int:
        # Outside a transaction block PostgreSQL commits the statement by itself: one
        # round trip instead of BEGIN, the statement and COMMIT.
        return _rowcount(await self._pool.execute(numbered(sql), *params))


async def open_postgres(url: str, *, pool_size: int = DEFAULT_POOL_SIZE) -> PostgresRepository:
    """Connect a pool to the PostgreSQL database at ``url`` and bring its schema up to date."""
    return await PostgresRepository.open(url, pool_size=pool_size)
