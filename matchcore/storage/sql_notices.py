"""The SQL of turn notices and vacations (issue 35).

A turn notice (a DM saying a daily match waits for a member, or a reminder before its
deadline) is claimed by inserting its row: the process whose insert lands sends it, so a
turn never gets two, whatever restarts or processes. The seconds of vacation each server
gave a member are kept per year. A group of queries of
:class:`matchcore.storage.sql.SqlRepository`, written once for SQLite and PostgreSQL.
"""

from __future__ import annotations

from matchcore.storage.sql_access import SqlAccess

NOTICE_KINDS = ("turn", "reminder")


class NoticeQueries(SqlAccess):
    """Turn notices and the vacation days used."""

    async def turn_notice_candidates(
        self, kind: str, due_at: float, limit: int
    ) -> list[tuple[int, int]]:
        """(match id, user id) of running matches with a deadline where a seated member who
        asked for turn DMs has no notice of ``kind`` for the current deadline yet, and the
        notice is due at ``due_at``: a turn notice once the match last changed at or before
        it, a reminder once its warning time came. Whose turn it is, and whether the match
        is daily, the caller checks."""
        due = "m.updated_at <= ?" if kind == "turn" else "m.warn_at IS NOT NULL AND m.warn_at <= ?"
        rows = await self._fetch(
            "SELECT m.id AS match_id, s.user_id AS user_id FROM matches m "
            "JOIN match_seats s ON s.match_id = m.id "
            "JOIN member_preferences p ON p.user_id = s.user_id "
            f"WHERE m.status = 'running' AND m.deadline_at IS NOT NULL AND {due} "
            "AND p.turn_dms = ? AND s.removed = ? AND NOT EXISTS ("
            "SELECT 1 FROM turn_notices n WHERE n.match_id = m.id AND n.user_id = s.user_id "
            "AND n.kind = ? AND n.deadline_at = m.deadline_at) "
            "ORDER BY m.deadline_at, m.id LIMIT ?",
            (due_at, True, False, kind, limit),
        )
        return [(row["match_id"], row["user_id"]) for row in rows]

    async def claim_turn_notice(
        self, match_id: int, user_id: int, kind: str, deadline_at: float, now: float
    ) -> bool:
        """Claim the notice of ``kind`` for the match's turn that runs out at
        ``deadline_at``; False when a notice of it was claimed before (here or by another
        process)."""
        if kind not in NOTICE_KINDS:
            raise ValueError(kind)
        changed = await self._write(
            "INSERT INTO turn_notices(match_id, user_id, kind, deadline_at, sent_at) "
            "VALUES (?, ?, ?, ?, ?) ON CONFLICT DO NOTHING",
            (match_id, user_id, kind, float(deadline_at), float(now)),
        )
        return changed == 1

    async def move_turn_notices(
        self, match_id: int, user_id: int, deadline_at: float, moved_to: float
    ) -> None:
        """The notices of a turn whose deadline moved (a vacation) count for it still."""
        await self._write(
            "UPDATE turn_notices SET deadline_at = ? "
            "WHERE match_id = ? AND user_id = ? AND deadline_at = ?",
            (float(moved_to), match_id, user_id, float(deadline_at)),
        )

    async def vacation_used(self, guild_id: int, user_id: int, year: int) -> float:
        rows = await self._fetch(
            "SELECT seconds FROM vacation_used WHERE guild_id = ? AND user_id = ? AND year = ?",
            (guild_id, user_id, year),
        )
        return float(rows[0]["seconds"]) if rows else 0.0

    async def add_vacation_used(
        self, guild_id: int, user_id: int, year: int, seconds: float
    ) -> None:
        """Add ``seconds`` (less when a vacation ended early) to what the server gave the
        member this year, never below none."""
        async with self._transaction() as tx:
            await tx.execute(
                "INSERT INTO vacation_used(guild_id, user_id, year, seconds) "
                "VALUES (?, ?, ?, 0) ON CONFLICT DO NOTHING",
                (guild_id, user_id, year),
            )
            await tx.execute(
                "UPDATE vacation_used SET seconds = CASE WHEN seconds + ? < 0 THEN 0 "
                "ELSE seconds + ? END WHERE guild_id = ? AND user_id = ? AND year = ?",
                (float(seconds), float(seconds), guild_id, user_id, year),
            )
