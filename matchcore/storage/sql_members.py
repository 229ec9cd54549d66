"""The SQL of what the repository keeps about people and servers.

Ratings and standings, the record against the bot, server settings, refused DMs and the
tables told of them, and members' own preferences: a group of queries of
:class:`matchcore.storage.sql.SqlRepository`, written once for SQLite and PostgreSQL over a back
end's :class:`matchcore.storage.sql_access.SqlAccess`.
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from typing import Any

from matchcore.records import DmFailure, MemberPreferences
from matchcore.storage import mapping
from matchcore.storage.records import (
    PlacementRecord,
    RatingRecord,
    VsBotRecord,
)
from matchcore.storage.sql_access import SqlAccess, in_list


class MemberQueries(SqlAccess):
    """Ratings, standings, settings, DM refusals and preferences."""

    # ---- ratings -------------------------------------------------------------------------
    async def get_ratings(
        self, guild_id: int, game: str, user_ids: Iterable[int], pool: str = "live"
    ) -> dict[int, RatingRecord]:
        sql, values = in_list(user_ids)
        rows = await self._fetch(
            "SELECT * FROM ratings WHERE guild_id = ? AND game = ? AND pool = ? "
            f"AND user_id IN ({sql})",
            [guild_id, game, pool, *values],
        )
        return {row["user_id"]: mapping.rating_from_row(row) for row in rows}

    async def leaderboard(
        self, guild_id: int, game: str, limit: int, pool: str = "live"
    ) -> list[RatingRecord]:
        rows = await self._fetch(
            "SELECT * FROM ratings WHERE guild_id = ? AND game = ? AND pool = ? AND games > 0 "
            "ORDER BY mu DESC, games DESC, user_id ASC LIMIT ?",
            (guild_id, game, pool, limit),
        )
        return [mapping.rating_from_row(row) for row in rows]

    async def player_ratings(
        self, guild_id: int, user_id: int, pool: str = "live"
    ) -> list[RatingRecord]:
        rows = await self._fetch(
            "SELECT * FROM ratings WHERE guild_id = ? AND user_id = ? AND pool = ? ORDER BY game",
            (guild_id, user_id, pool),
        )
        return [mapping.rating_from_row(row) for row in rows]

    async def place_counts(
        self,
        guild_id: int,
        user_ids: Iterable[int],
        game: str | None = None,
        pool: str = "live",
        between: tuple[float, float] | None = None,
    ) -> dict[tuple[int, str], dict[int, int]]:
        sql, values = in_list(user_ids)
        query = (
            "SELECT user_id, game, place, COUNT(*) AS times FROM placements "
            f"WHERE guild_id = ? AND pool = ? AND user_id IN ({sql})"
        )
        params: list[Any] = [guild_id, pool, *values]
        if game is not None:
            query += " AND game = ?"
            params.append(game)
        if between is not None:
            query += " AND finished_at >= ? AND finished_at < ?"
            params.extend(between)
        rows = await self._fetch(query + " GROUP BY user_id, game, place", params)
        counts: dict[tuple[int, str], dict[int, int]] = {}
        for row in rows:
            counts.setdefault((row["user_id"], row["game"]), {})[row["place"]] = row["times"]
        return {key: dict(sorted(places.items())) for key, places in counts.items()}

    async def last_placements(
        self, guild_id: int, user_id: int, pool: str = "live"
    ) -> dict[str, PlacementRecord]:
        rows = await self._fetch(
            "SELECT * FROM placements WHERE guild_id = ? AND user_id = ? AND pool = ? "
            "AND match_id = (SELECT p.match_id FROM placements p "
            "WHERE p.guild_id = placements.guild_id AND p.user_id = placements.user_id "
            "AND p.game = placements.game AND p.pool = placements.pool "
            "ORDER BY p.finished_at DESC, p.match_id DESC LIMIT 1)",
            (guild_id, user_id, pool),
        )
        return {row["game"]: mapping.placement_from_row(row) for row in rows}

    async def vs_bot_stats(
        self, guild_id: int, user_id: int, game: str | None = None
    ) -> list[VsBotRecord]:
        sql = "SELECT * FROM vs_bot_stats WHERE guild_id = ? AND user_id = ?"
        params: list[Any] = [guild_id, user_id]
        if game is not None:
            sql += " AND game = ?"
            params.append(game)
        rows = await self._fetch(sql + " ORDER BY game, level", params)
        return [mapping.vs_bot_from_row(row) for row in rows]

    # ---- settings ------------------------------------------------------------------------
    async def get_settings(self, guild_id: int) -> dict[str, Any] | None:
        rows = await self._fetch("SELECT data FROM guild_settings WHERE guild_id = ?", (guild_id,))
        return json.loads(rows[0][0]) if rows else None

    async def put_settings(
        self, guild_id: int, data: dict[str, Any], updated_at: float, updated_by: int | None
    ) -> None:
        await self._write(
            "INSERT INTO guild_settings(guild_id, data, updated_at, updated_by) "
            "VALUES (?, ?, ?, ?) ON CONFLICT(guild_id) DO UPDATE SET "
            "data = excluded.data, updated_at = excluded.updated_at, "
            "updated_by = excluded.updated_by",
            (guild_id, mapping.dumps(data), float(updated_at), updated_by),
        )

    # ---- direct messages -----------------------------------------------------------------
    async def dm_failures(self, user_ids: Iterable[int]) -> dict[int, DmFailure]:
        sql, values = in_list(user_ids)
        if not values:
            return {}
        rows = await self._fetch(
            f"SELECT user_id, failed_at, code FROM dm_failures WHERE user_id IN ({sql})", values
        )
        if not rows:  # the usual answer: one query
            return {}
        sql, values = in_list(row["user_id"] for row in rows)
        notices = await self._fetch(
            f"SELECT user_id, match_id FROM dm_notices WHERE user_id IN ({sql})", values
        )
        noticed: dict[int, set[int]] = {}
        for row in notices:
            noticed.setdefault(row["user_id"], set()).add(row["match_id"])
        return {
            row["user_id"]: DmFailure(
                user_id=row["user_id"],
                failed_at=row["failed_at"],
                code=row["code"],
                noticed=frozenset(noticed.get(row["user_id"], ())),
            )
            for row in rows
        }

    async def record_dm_failure(self, user_id: int, at: float, code: int | None = None) -> None:
        await self._write(
            "INSERT INTO dm_failures(user_id, failed_at, code) VALUES (?, ?, ?) "
            "ON CONFLICT(user_id) DO UPDATE SET failed_at = excluded.failed_at, "
            "code = excluded.code",
            (user_id, float(at), code),
        )

    async def claim_dm_notice(self, user_id: int, match_id: int) -> bool:
        changed = await self._write(
            "INSERT INTO dm_notices(user_id, match_id) VALUES (?, ?) "
            "ON CONFLICT(user_id, match_id) DO NOTHING",
            (user_id, match_id),
        )
        return changed == 1

    async def clear_dm_failure(self, user_id: int) -> None:
        async with self._transaction() as tx:
            await tx.execute("DELETE FROM dm_failures WHERE user_id = ?", (user_id,))
            await tx.execute("DELETE FROM dm_notices WHERE user_id = ?", (user_id,))

    # ---- members' preferences ----------------------------------------------------------
    async def get_preferences(self, user_id: int) -> MemberPreferences | None:
        rows = await self._fetch(
            "SELECT user_id, hints, theme, updated_at, turn_dms, vacation_until "
            "FROM member_preferences WHERE user_id = ?",
            (user_id,),
        )
        if not rows:
            return None
        row = rows[0]
        hints = row["hints"]
        turn_dms = row["turn_dms"]
        return MemberPreferences(
            user_id=row["user_id"],
            hints=None if hints is None else bool(hints),
            theme=row["theme"],
            updated_at=row["updated_at"],
            turn_dms=None if turn_dms is None else bool(turn_dms),
            vacation_until=row["vacation_until"],
        )

    async def put_preferences(self, preferences: MemberPreferences) -> None:
        await self._write(
            "INSERT INTO member_preferences"
            "(user_id, hints, theme, updated_at, turn_dms, vacation_until) "
            "VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT(user_id) DO UPDATE SET "
            "hints = excluded.hints, theme = excluded.theme, "
            "updated_at = excluded.updated_at, turn_dms = excluded.turn_dms, "
            "vacation_until = excluded.vacation_until",
            (
                preferences.user_id,
                preferences.hints,
                preferences.theme,
                float(preferences.updated_at),
                preferences.turn_dms,
                None if preferences.vacation_until is None else float(preferences.vacation_until),
            ),
        )

    async def finished_games(self, user_id: int, game: str) -> int:
        rows = await self._fetch(
            "SELECT COUNT(*) AS n FROM matches JOIN match_seats ON match_seats.match_id = "
            "matches.id WHERE match_seats.user_id = ? AND matches.game = ? "
            "AND matches.status = 'finished'",
            (user_id, game),
        )
        return int(rows[0]["n"])

    async def hints_facts(self, user_id: int, game: str) -> tuple[bool | None, int]:
        rows = await self._fetch(
            "SELECT (SELECT hints FROM member_preferences WHERE user_id = ?) AS hints, "
            "(SELECT COUNT(*) FROM matches JOIN match_seats ON match_seats.match_id = "
            "matches.id WHERE match_seats.user_id = ? AND matches.game = ? "
            "AND matches.status = 'finished') AS n",
            (user_id, user_id, game),
        )
        hints = rows[0]["hints"]
        return (None if hints is None else bool(hints)), int(rows[0]["n"])

    # ---- members' languages --------------------------------------------------------------
    async def member_languages(self, user_ids: Iterable[int]) -> dict[int, str]:
        sql, values = in_list(user_ids)
        if not values:
            return {}
        rows = await self._fetch(
            f"SELECT user_id, language FROM member_languages WHERE user_id IN ({sql})", values
        )
        return {row["user_id"]: row["language"] for row in rows}

    async def set_member_language(self, user_id: int, language: str, at: float) -> None:
        await self._write(
            "INSERT INTO member_languages(user_id, language, seen_at) VALUES (?, ?, ?) "
            "ON CONFLICT(user_id) DO UPDATE SET language = excluded.language, "
            "seen_at = excluded.seen_at",
            (user_id, language, float(at)),
        )
