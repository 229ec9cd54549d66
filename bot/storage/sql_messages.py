"""The SQL of a match's messages: the ids the bot must find again, and what they show
(written once for both back ends).

A group of queries of :class:`bot.storage.sql.SqlRepository` over a back end's
:class:`bot.storage.sql_access.SqlAccess`.
"""

from __future__ import annotations

from collections.abc import Mapping

from bot.storage.sql_access import SqlAccess


class MessageQueries(SqlAccess):
    """Message ids and delivery records by kind."""

    async def set_messages(self, match_id: int, messages: Mapping[str, int]) -> bool:
        # One statement that also tells whether the match exists (no row: nothing written).
        # The WHERE also keeps SQLite from reading ON CONFLICT as part of the SELECT; the
        # casts give PostgreSQL the types of the VALUES' parameters.
        if not messages:
            return True
        rows = ", ".join(["(CAST(? AS TEXT), CAST(? AS BIGINT))"] * len(messages))
        changed = await self._write(
            "INSERT INTO match_messages(match_id, kind, message_id) "
            f"SELECT m.id, v.column1, v.column2 FROM (VALUES {rows}) AS v, matches m "
            "WHERE m.id = ? "
            "ON CONFLICT(match_id, kind) DO UPDATE SET message_id = excluded.message_id",
            (*(x for item in messages.items() for x in item), match_id),
        )
        return changed > 0
