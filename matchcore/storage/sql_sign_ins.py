"""The SQL of sign-ins (a front end's sessions, stored by a digest of their token) and of
the versions of a few matches at once (what a front end in another process polls to see
that a match it shows has moved on). Written once for SQLite and PostgreSQL.

A group of queries of :class:`matchcore.storage.sql.SqlRepository` over a back end's
:class:`matchcore.storage.sql_access.SqlAccess`.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterable, Mapping

from matchcore.records import SignInRecord
from matchcore.storage.sql_access import SqlAccess, in_list


def token_digest(token: str) -> str:
    """What is stored of a token: its SHA-256, never the token itself."""
    return hashlib.sha256(token.encode()).hexdigest()


class SignInQueries(SqlAccess):
    """Sign-ins by token, their expiry; matches' versions."""

    async def store_sign_in(
        self,
        token: str,
        user_id: int,
        data: Mapping[str, object],
        expires_at: float | None,
        now: float,
    ) -> None:
        await self._write(
            "INSERT INTO sign_ins (token_hash, user_id, data, expires_at, created_at) "
            "VALUES (?, ?, ?, ?, ?)",
            (token_digest(token), user_id, json.dumps(dict(data)), expires_at, now),
        )

    async def find_sign_in(self, token: str, now: float) -> SignInRecord | None:
        rows = await self._fetch(
            "SELECT user_id, data, expires_at FROM sign_ins WHERE token_hash = ? "
            "AND (expires_at IS NULL OR expires_at >= ?)",
            (token_digest(token), now),
        )
        if not rows:
            return None
        row = rows[0]
        data = json.loads(row["data"])
        expires = row["expires_at"]
        return SignInRecord(int(row["user_id"]), data, None if expires is None else float(expires))

    async def drop_sign_in(self, token: str) -> None:
        await self._write("DELETE FROM sign_ins WHERE token_hash = ?", (token_digest(token),))

    async def prune_sign_ins(self, now: float) -> int:
        return await self._write("DELETE FROM sign_ins WHERE expires_at < ?", (now,))

    async def match_versions(self, match_ids: Iterable[int]) -> dict[int, int]:
        ids = sorted(set(match_ids))
        if not ids:
            return {}
        sql, values = in_list(ids)
        rows = await self._fetch(f"SELECT id, version FROM matches WHERE id IN ({sql})", values)
        return {int(row["id"]): int(row["version"]) for row in rows}
