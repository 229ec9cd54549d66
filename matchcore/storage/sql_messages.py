"""The SQL of a match's messages: the ids the bot must find again, what they show, and
the event lines of a Leiff table's living message (written once for both back ends).

A group of queries of :class:`matchcore.storage.sql.SqlRepository` over a back end's
:class:`matchcore.storage.sql_access.SqlAccess`.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence

from matchcore.storage.mapping import DELIVERED
from matchcore.storage.sql_access import SqlAccess

# A delivery record ("delivered" on the match row; "delivered:channel", "delivered:<user>"
# here) holds a match version, which only grows: two steps' deliveries finishing out of
# order (in one process or in two) must not set it back, or the next start would send the
# newer step again.
_IS_DELIVERY_RECORD = "match_messages.kind LIKE 'delivered:%'"


class MessageQueries(SqlAccess):
    """Message ids and delivery records by kind; a living table's lines."""

    @property
    def _greatest(self) -> str:
        """The larger of two values: SQLite's MAX with two arguments, PostgreSQL's GREATEST."""
        return "MAX" if self.dialect == "sqlite" else "GREATEST"

    async def set_messages(self, match_id: int, messages: Mapping[str, int]) -> bool:
        # The record of the whole step lives on the match row: written last, so a process
        # stopped in between leaves it behind (the next start sends the step again and finds
        # the parts already shown), never ahead of the parts.
        kinds = {k: v for k, v in messages.items() if k != DELIVERED}
        exists = await self._set_message_rows(match_id, kinds) if kinds else True
        if DELIVERED in messages and exists:
            changed = await self._write(
                "UPDATE matches SET delivered_version = "
                f"{self._greatest}(COALESCE(delivered_version, -1), ?) WHERE id = ?",
                (messages[DELIVERED], match_id),
            )
            exists = changed > 0
        return exists

    async def _set_message_rows(self, match_id: int, messages: Mapping[str, int]) -> bool:
        # One statement that also tells whether the match exists (no row: nothing written).
        # The WHERE also keeps SQLite from reading ON CONFLICT as part of the SELECT; the
        # casts give PostgreSQL the types of the VALUES' parameters.
        rows = ", ".join(["(CAST(? AS TEXT), CAST(? AS BIGINT))"] * len(messages))
        changed = await self._write(
            "INSERT INTO match_messages(match_id, kind, message_id) "
            f"SELECT m.id, v.column1, v.column2 FROM (VALUES {rows}) AS v, matches m "
            "WHERE m.id = ? "
            "ON CONFLICT(match_id, kind) DO UPDATE SET message_id = CASE "
            f"WHEN {_IS_DELIVERY_RECORD} THEN {self._greatest}(match_messages.message_id, "
            "excluded.message_id) ELSE excluded.message_id END",
            (*(x for item in messages.items() for x in item), match_id),
        )
        return changed > 0

    async def table_lines(self, match_id: int) -> tuple[int, list[str]] | None:
        rows = await self._fetch(
            "SELECT message_id, lines FROM table_lines WHERE match_id = ?", (match_id,)
        )
        if not rows:
            return None
        return int(rows[0]["message_id"]), [str(line) for line in json.loads(rows[0]["lines"])]

    async def set_table_lines(self, match_id: int, message_id: int, lines: Sequence[str]) -> None:
        # one statement; a match deleted meanwhile writes nothing
        await self._write(
            "INSERT INTO table_lines(match_id, message_id, lines) "
            "SELECT id, ?, ? FROM matches WHERE id = ? "
            "ON CONFLICT(match_id) DO UPDATE "
            "SET message_id = excluded.message_id, lines = excluded.lines",
            (message_id, json.dumps(list(lines), ensure_ascii=False), match_id),
        )
