"""The SQL of challenges: open, read, close and mark them (written once for both back ends).

A group of queries of :class:`matchcore.storage.sql.SqlRepository` over a back end's
:class:`matchcore.storage.sql_access.SqlAccess`; taking a challenge, which starts its match in
the same transaction, stays with the matches.
"""

from __future__ import annotations

from typing import Any

from matchcore.storage import mapping
from matchcore.storage.records import ChallengeRecord
from matchcore.storage.repository import ChallengeTaken
from matchcore.storage.sql_access import SqlAccess


class ChallengeQueries(SqlAccess):
    """Challenges and seeks."""

    async def create_challenge(self, challenge: ChallengeRecord) -> ChallengeRecord:
        columns = ", ".join(mapping.CHALLENGE_COLUMNS)
        marks = ",".join("?" * len(mapping.CHALLENGE_COLUMNS))
        async with self._transaction() as tx:
            rows = await tx.fetch(
                f"INSERT INTO challenges({columns}) VALUES ({marks}) RETURNING id",
                mapping.challenge_values(challenge),
            )
        return challenge.evolve(id=int(rows[0][0]))

    async def get_challenge(self, challenge_id: int) -> ChallengeRecord | None:
        rows = await self._fetch("SELECT * FROM challenges WHERE id = ?", (challenge_id,))
        return mapping.challenge_from_row(rows[0]) if rows else None

    async def open_challenges(
        self, guild_id: int | None = None, expired_by: float | None = None
    ) -> list[ChallengeRecord]:
        where = "status = 'open'"
        params: list[Any] = []
        if guild_id is not None:
            where += " AND guild_id = ?"
            params.append(guild_id)
        if expired_by is not None:
            where += " AND expires_at <= ?"
            params.append(float(expired_by))
        rows = await self._fetch(f"SELECT * FROM challenges WHERE {where} ORDER BY id", params)
        return [mapping.challenge_from_row(row) for row in rows]

    async def last_challenge_at(self, guild_id: int, user_id: int) -> float | None:
        rows = await self._fetch(
            "SELECT MAX(created_at) FROM challenges "
            "WHERE guild_id = ? AND challenger_id = ? AND rematch_of IS NULL",
            (guild_id, user_id),
        )
        latest = rows[0][0]
        return None if latest is None else float(latest)

    async def close_challenge(self, challenge_id: int, status: str) -> ChallengeRecord:
        async with self._transaction() as tx:
            rows = await tx.fetch(
                "UPDATE challenges SET status = ? WHERE id = ? AND status = 'open' RETURNING *",
                (status, challenge_id),
            )
            if not rows:
                raise ChallengeTaken(f"challenge {challenge_id} is not open")
        return mapping.challenge_from_row(rows[0])

    async def set_challenge_message(self, challenge_id: int, message_id: int | None) -> None:
        await self._write(
            "UPDATE challenges SET message_id = ? WHERE id = ?", (message_id, challenge_id)
        )
