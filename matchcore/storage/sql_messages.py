"""The SQL of a match's messages: the ids the bot must find again, what they show, and
the event lines of a Leiff table's living message (written once for both back ends).

A group of queries of :class:`matchcore.storage.sql.SqlRepository` over a back end's
:class:`matchcore.storage.sql_access.SqlAccess`.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping, Sequence

from matchcore.storage.mapping import DELIVERED
from matchcore.storage.sql_access import SqlAccess, Transaction

# A delivery record ("delivered" on the match row; "delivered:channel", "delivered:<user>"
# here) holds a match version, which only grows: two steps' deliveries finishing out of
# order (in one process or in two) must not set it back, or the next start would send the
# newer step again.
_IS_DELIVERY_RECORD = "match_messages.kind LIKE 'delivered:%'"


# The outbox rows whose audience has not been shown their version yet (see
# migrations/*/0011_outbox.sql): ``{audiences}`` picks the sender's audiences, and
# ``{whole}`` adds the record of a whole step where the sender keeps one (the chat front
# end's delivered_version on the match row).
PENDING = (
    "FROM outbox o JOIN matches m ON m.id = o.match_id "
    "LEFT JOIN match_messages r ON r.match_id = o.match_id "
    "AND r.kind = 'delivered:' || o.audience "
    "WHERE o.match_id > ? AND {audiences} AND o.version > COALESCE(r.message_id, -1){whole}"
)
# The chat front end's audiences: the channel and the players' ids (no prefix).
CHAT_AUDIENCES = "(o.audience = 'channel' OR o.audience NOT LIKE '%:%')"
CHAT_WHOLE = " AND o.version > COALESCE(m.delivered_version, -1)"


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

    # ---- the outbox (see migrations/*/0011_outbox.sql) --------------------------------
    async def _write_outbox(
        self, tx: Transaction, match_id: int, version: int, audiences: Iterable[str]
    ) -> None:
        """Record in the step's transaction that each audience must be shown ``version``."""
        await tx.executemany(
            "INSERT INTO outbox(match_id, audience, version) VALUES (?, ?, ?) "
            "ON CONFLICT(match_id, audience) DO UPDATE SET version = excluded.version",
            [(match_id, audience, version) for audience in audiences],
        )

    async def pending_deliveries(
        self, prefix: str, after: int = 0, limit: int = 100
    ) -> list[tuple[int, str, int]]:
        rows = await self._fetch(
            "SELECT o.match_id, o.audience, o.version "
            + PENDING.format(audiences="o.audience LIKE ?", whole="")
            + " ORDER BY o.match_id, o.audience LIMIT ?",
            (after, f"{prefix}:%", limit),
        )
        return [(int(r[0]), str(r[1]), int(r[2])) for r in rows]
