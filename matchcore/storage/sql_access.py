"""What every SQL query of the repository runs on: a back end's transaction and reads.

:class:`SqlAccess` is the one thing the groups of queries (:class:`matchcore.storage.sql.
SqlRepository`, :class:`matchcore.storage.sql_members.MemberQueries`) share: a back end supplies
:meth:`SqlAccess._transaction` and :meth:`SqlAccess._fetch`, and the queries use nothing
else of each other.
"""

from __future__ import annotations

import abc
from collections.abc import Iterable, Sequence
from contextlib import AbstractAsyncContextManager
from typing import Any

from matchcore.storage.mapping import Row


def in_list(values: Iterable[Any]) -> tuple[str, list[Any]]:
    """Placeholders for ``IN (...)`` and their values ("NULL" for none, which matches none)."""
    items = list(values)
    return ",".join("?" * len(items)) or "NULL", items


class Transaction(abc.ABC):
    """One open transaction of a back end."""

    @abc.abstractmethod
    async def execute(self, sql: str, params: Sequence[Any] = ()) -> int:
        """Run one statement; the number of rows it changed."""

    @abc.abstractmethod
    async def executemany(self, sql: str, rows: Sequence[Sequence[Any]]) -> None: ...

    @abc.abstractmethod
    async def fetch(self, sql: str, params: Sequence[Any] = ()) -> list[Row]: ...


class SqlAccess(abc.ABC):
    """A back end's way to run queries: transactions and plain reads."""

    #: "sqlite" or "postgresql": the folder of its migrations, and the few words where
    #: the two differ
    dialect: str = ""

    @abc.abstractmethod
    def _transaction(self) -> AbstractAsyncContextManager[Transaction]: ...

    @abc.abstractmethod
    async def _fetch(self, sql: str, params: Sequence[Any] = ()) -> list[Row]:
        """A read outside any transaction of ours (each back end's own consistency)."""

    async def _write(self, sql: str, params: Sequence[Any] = ()) -> int:
        """One statement as a transaction of its own; the number of rows it changed. A
        back end may run it without ``BEGIN`` and ``COMMIT`` (one statement is atomic)."""
        async with self._transaction() as tx:
            return await tx.execute(sql, params)
