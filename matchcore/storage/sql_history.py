"""The SQL of a member's finished matches, newest first, a page at a time (``/history``),
and of the table opened to play a finished Leiff table again.

A group of queries of :class:`matchcore.storage.sql.SqlRepository` over a back end's
:class:`matchcore.storage.sql_access.SqlAccess`, written once for both back ends. The
member's seats lead (``match_seats_by_user``): a member has played a few hundred matches
where a server may keep hundreds of thousands.
"""

from __future__ import annotations

import abc
from collections.abc import Sequence
from typing import Any

from matchcore.storage.records import MatchRecord
from matchcore.storage.sql_access import SqlAccess, Transaction


class _Taken(Exception):
    """Another process opened the table again first: the transaction rolls back."""


def _finished_where(guild_id: int, user_id: int, game: str | None) -> tuple[str, list[Any]]:
    where = (
        "WHERE guild_id = ? AND status = 'finished' "
        "AND id IN (SELECT match_id FROM match_seats WHERE user_id = ? AND is_bot = ?)"
    )
    params: list[Any] = [guild_id, user_id, False]
    if game is not None:
        where += " AND game = ?"
        params.append(game)
    return where, params


class HistoryQueries(SqlAccess):
    """A member's finished matches on a server; a finished table's table played again."""

    async def finished_matches(
        self, guild_id: int, user_id: int, game: str | None, offset: int, limit: int
    ) -> list[MatchRecord]:
        where, params = _finished_where(guild_id, user_id, game)
        order = " ORDER BY COALESCE(finished_at, updated_at) DESC, id DESC LIMIT ? OFFSET ?"
        return await self._load_matches(where + order, [*params, limit, offset])

    async def count_finished(self, guild_id: int, user_id: int, game: str | None) -> int:
        where, params = _finished_where(guild_id, user_id, game)
        rows = await self._fetch(f"SELECT COUNT(*) FROM matches {where}", params)
        return int(rows[0][0])

    @abc.abstractmethod
    async def _load_matches(
        self, where: str, params: Sequence[Any], tx: Transaction | None = None
    ) -> list[MatchRecord]:
        """The match rows ``where`` selects with their seats (the repository's own)."""

    @abc.abstractmethod
    async def _insert_match(
        self, tx: Transaction, match: MatchRecord, audiences: Sequence[str] = ("channel",)
    ) -> int:
        """Store a new match in ``tx`` (the repository's own)."""

    async def again_of(self, match_id: int) -> int | None:
        rows = await self._fetch("SELECT again_id FROM matches WHERE id = ?", (match_id,))
        return None if not rows or rows[0][0] is None else int(rows[0][0])

    async def open_again(
        self, lobby: MatchRecord, of_match: int, outbox: Sequence[str]
    ) -> MatchRecord | None:
        try:
            async with self._transaction() as tx:
                match_id = await self._insert_match(tx, lobby, outbox)
                changed = await tx.execute(
                    "UPDATE matches SET again_id = ? WHERE id = ? AND again_id IS NULL",
                    (match_id, of_match),
                )
                if changed != 1:
                    raise _Taken()
        except _Taken:
            return None
        return lobby.evolve(id=match_id)
