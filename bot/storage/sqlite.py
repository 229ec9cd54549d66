"""The SQLite implementation of the repository (aiosqlite, one file, WAL, foreign keys on).

One connection per repository, in autocommit mode: every method that writes opens its own
``BEGIN IMMEDIATE`` transaction (taking SQLite's write lock at once, so two processes
queue instead of failing half-way) and commits before returning. An asyncio lock keeps
coroutines sharing the connection from interleaving inside each other's transactions.
"""

from __future__ import annotations

import asyncio
import json
import re
import sqlite3
import time
from collections.abc import AsyncIterator, Iterable, Sequence
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

import aiosqlite

from bot.storage.records import (
    ActionRecord,
    ChallengeRecord,
    MatchRecord,
    RatingRecord,
    SeatRecord,
    VsBotRecord,
    VsBotResult,
)
from bot.storage.repository import ChallengeTaken, Repository, VersionConflict

MIGRATIONS_DIR = Path(__file__).parent / "migrations"
_MIGRATION_NAME = re.compile(r"^(\d{4})_([a-z0-9_]+)\.sql$")

_MATCH_COLUMNS = (
    "guild_id, channel_id, thread_id, game, options, status, state, version, host_id, vs_bot, "
    "rated, created_at, updated_at, finished_at, deadline_at, warn_at, warned, "
    "draw_offer_seat, result, rematch_of"
)
_CHALLENGE_COLUMNS = (
    "guild_id, channel_id, thread_id, challenger_id, target_id, game, size, options, status, "
    "created_at, expires_at, match_id, rematch_of"
)
_RATING_COLUMNS = (
    "guild_id, game, user_id, pool, mu, sigma, games, wins, losses, draws, streak, "
    "best_streak, updated_at"
)


def migration_files() -> list[tuple[int, str, Path]]:
    """(number, name, path) of every migration shipped with the code, in order."""
    found = []
    for path in sorted(MIGRATIONS_DIR.glob("*.sql")):
        match = _MIGRATION_NAME.match(path.name)
        if match is None:
            raise RuntimeError(f"migration file {path.name!r} is not named NNNN_name.sql")
        found.append((int(match.group(1)), match.group(2), path))
    numbers = [number for number, _, _ in found]
    if numbers != list(range(1, len(numbers) + 1)):
        raise RuntimeError(f"migrations must be numbered 1, 2, 3, ... without gaps: {numbers}")
    return found


def _dumps(value: Any) -> str:
    return json.dumps(value, sort_keys=True, separators=(",", ":"))


def _in(values: Iterable[Any]) -> tuple[str, list[Any]]:
    items = list(values)
    return ",".join("?" * len(items)) or "NULL", items


class SqliteRepository(Repository):
    """Repository over one SQLite file. Build it with :func:`open_repository`."""

    def __init__(self, connection: aiosqlite.Connection, path: Path) -> None:
        self._db = connection
        self.path = path
        self._lock = asyncio.Lock()

    # ---- life cycle ----------------------------------------------------------------------
    @classmethod
    async def open(cls, path: str | Path, *, synchronous: str = "FULL") -> SqliteRepository:
        path = Path(path)
        if str(path) != ":memory:":
            path.parent.mkdir(parents=True, exist_ok=True)
        connection = await aiosqlite.connect(str(path), isolation_level=None)
        connection.row_factory = sqlite3.Row
        await connection.execute("PRAGMA busy_timeout = 10000")
        await connection.execute("PRAGMA journal_mode = WAL")
        await connection.execute("PRAGMA foreign_keys = ON")
        # FULL: a commit survives a power cut too, not only a killed process.
        if synchronous.upper() not in ("FULL", "NORMAL", "EXTRA"):
            raise ValueError("synchronous must be FULL, NORMAL or EXTRA")
        await connection.execute(f"PRAGMA synchronous = {synchronous.upper()}")
        repo = cls(connection, path)
        try:
            await repo._migrate()
        except BaseException:
            await connection.close()
            raise
        return repo

    async def close(self) -> None:
        async with self._lock:
            await self._db.close()

    @asynccontextmanager
    async def _transaction(self) -> AsyncIterator[aiosqlite.Connection]:
        async with self._lock:
            await self._db.execute("BEGIN IMMEDIATE")
            try:
                yield self._db
            except BaseException:
                await self._db.execute("ROLLBACK")
                raise
            await self._db.execute("COMMIT")

    async def _fetchall(self, sql: str, params: Sequence[Any] = ()) -> list[sqlite3.Row]:
        async with self._lock:
            cursor = await self._db.execute(sql, params)
            rows = await cursor.fetchall()
            await cursor.close()
            return list(rows)

    async def _migrate(self) -> None:
        async with self._transaction() as db:
            await db.execute(
                "CREATE TABLE IF NOT EXISTS schema_migrations ("
                "version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at REAL NOT NULL)"
            )
        applied = set(await self.applied_migrations())
        for number, name, path in migration_files():
            if number in applied:
                continue
            statements = path.read_text(encoding="utf-8")
            # Each migration is one transaction: a failure leaves the previous schema intact.
            async with self._transaction() as db:
                for statement in _split_sql(statements):
                    await db.execute(statement)
                await db.execute(
                    "INSERT INTO schema_migrations(version, name, applied_at) VALUES (?, ?, ?)",
                    (number, name, time.time()),
                )

    async def applied_migrations(self) -> list[int]:
        rows = await self._fetchall("SELECT version FROM schema_migrations ORDER BY version")
        return [row[0] for row in rows]

    # ---- matches --------------------------------------------------------------------------
    @staticmethod
    def _match_values(match: MatchRecord) -> tuple[Any, ...]:
        return (
            match.guild_id,
            match.channel_id,
            match.thread_id,
            match.game,
            _dumps(match.options),
            match.status,
            match.state,
            match.version,
            match.host_id,
            int(match.vs_bot),
            int(match.rated),
            match.created_at,
            match.updated_at,
            match.finished_at,
            match.deadline_at,
            match.warn_at,
            int(match.warned),
            match.draw_offer_seat,
            None if match.result is None else _dumps(match.result),
            match.rematch_of,
        )

    async def _insert_match(self, db: aiosqlite.Connection, match: MatchRecord) -> int:
        placeholders = ",".join("?" * 20)
        cursor = await db.execute(
            f"INSERT INTO matches({_MATCH_COLUMNS}) VALUES ({placeholders})",
            self._match_values(match),
        )
        match_id = cursor.lastrowid
        await cursor.close()
        assert match_id is not None
        await self._write_seats(db, match_id, match.seats)
        for kind, message_id in match.messages.items():
            await db.execute(
                "INSERT INTO match_messages(match_id, kind, message_id) VALUES (?, ?, ?)",
                (match_id, kind, message_id),
            )
        return match_id

    @staticmethod
    async def _write_seats(
        db: aiosqlite.Connection, match_id: int, seats: Iterable[SeatRecord]
    ) -> None:
        await db.execute("DELETE FROM match_seats WHERE match_id = ?", (match_id,))
        await db.executemany(
            "INSERT INTO match_seats"
            "(match_id, seat, user_id, is_bot, colour, timeouts, removed, bot_level) "
            "VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
            [
                (
                    match_id,
                    s.seat,
                    s.user_id,
                    int(s.is_bot),
                    s.colour,
                    s.timeouts,
                    int(s.removed),
                    s.bot_level,
                )
                for s in seats
            ],
        )

    async def create_match(self, match: MatchRecord) -> MatchRecord:
        async with self._transaction() as db:
            match_id = await self._insert_match(db, match)
        return match.evolve(id=match_id)

    async def _load_matches(self, where: str, params: Sequence[Any]) -> list[MatchRecord]:
        rows = await self._fetchall(f"SELECT id, {_MATCH_COLUMNS} FROM matches {where}", params)
        if not rows:
            return []
        ids_sql, ids = _in(row["id"] for row in rows)
        seat_rows = await self._fetchall(
            f"SELECT * FROM match_seats WHERE match_id IN ({ids_sql}) ORDER BY match_id, seat", ids
        )
        message_rows = await self._fetchall(
            f"SELECT * FROM match_messages WHERE match_id IN ({ids_sql}) ORDER BY kind", ids
        )
        seats: dict[int, list[SeatRecord]] = {}
        for row in seat_rows:
            seats.setdefault(row["match_id"], []).append(
                SeatRecord(
                    seat=row["seat"],
                    user_id=row["user_id"],
                    is_bot=bool(row["is_bot"]),
                    colour=row["colour"],
                    timeouts=row["timeouts"],
                    removed=bool(row["removed"]),
                    bot_level=row["bot_level"],
                )
            )
        messages: dict[int, dict[str, int]] = {}
        for row in message_rows:
            messages.setdefault(row["match_id"], {})[row["kind"]] = row["message_id"]
        return [
            MatchRecord(
                id=row["id"],
                guild_id=row["guild_id"],
                channel_id=row["channel_id"],
                thread_id=row["thread_id"],
                game=row["game"],
                options=json.loads(row["options"]),
                status=row["status"],
                state=row["state"],
                version=row["version"],
                host_id=row["host_id"],
                vs_bot=bool(row["vs_bot"]),
                rated=bool(row["rated"]),
                created_at=row["created_at"],
                updated_at=row["updated_at"],
                finished_at=row["finished_at"],
                deadline_at=row["deadline_at"],
                warn_at=row["warn_at"],
                warned=bool(row["warned"]),
                draw_offer_seat=row["draw_offer_seat"],
                result=None if row["result"] is None else json.loads(row["result"]),
                rematch_of=row["rematch_of"],
                seats=tuple(seats.get(row["id"], ())),
                messages=messages.get(row["id"], {}),
            )
            for row in rows
        ]

    async def get_match(self, match_id: int) -> MatchRecord | None:
        found = await self._load_matches("WHERE id = ?", (match_id,))
        return found[0] if found else None

    async def commit_match(
        self,
        match: MatchRecord,
        expected_version: int,
        actions: Sequence[ActionRecord],
        ratings: Sequence[RatingRecord] = (),
        bot_results: Sequence[VsBotResult] = (),
    ) -> None:
        assignments = ", ".join(f"{column.strip()} = ?" for column in _MATCH_COLUMNS.split(","))
        async with self._transaction() as db:
            cursor = await db.execute(
                f"UPDATE matches SET {assignments} WHERE id = ? AND version = ?",
                (*self._match_values(match), match.id, expected_version),
            )
            changed = cursor.rowcount
            await cursor.close()
            if changed != 1:
                raise VersionConflict(
                    f"match {match.id} is no longer at version {expected_version}"
                )
            await self._write_seats(db, match.id, match.seats)
            await db.executemany(
                "INSERT INTO actions(match_id, version, user_id, seat, action, at) "
                "VALUES (?, ?, ?, ?, ?, ?)",
                [(a.match_id, a.version, a.user_id, a.seat, a.action, a.at) for a in actions],
            )
            for rating in ratings:
                await db.execute(
                    f"INSERT OR REPLACE INTO ratings({_RATING_COLUMNS}) "
                    "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                    (
                        rating.guild_id,
                        rating.game,
                        rating.user_id,
                        rating.pool,
                        rating.mu,
                        rating.sigma,
                        rating.games,
                        rating.wins,
                        rating.losses,
                        rating.draws,
                        rating.streak,
                        rating.best_streak,
                        rating.updated_at,
                    ),
                )
            # Added in SQL, not read-modified-written: two matches of one player may end
            # at the same moment under different match locks.
            for result in bot_results:
                await db.execute(
                    "INSERT INTO vs_bot_stats"
                    "(guild_id, game, level, user_id, games, wins, losses, draws, updated_at) "
                    "VALUES (?, ?, ?, ?, 1, ?, ?, ?, ?) "
                    "ON CONFLICT(guild_id, game, level, user_id) DO UPDATE SET "
                    "games = games + 1, wins = wins + excluded.wins, "
                    "losses = losses + excluded.losses, draws = draws + excluded.draws, "
                    "updated_at = excluded.updated_at",
                    (
                        result.guild_id,
                        result.game,
                        result.level,
                        result.user_id,
                        int(result.outcome == "win"),
                        int(result.outcome == "loss"),
                        int(result.outcome == "draw"),
                        result.at,
                    ),
                )

    async def mark_warned(self, match_id: int, version: int) -> bool:
        async with self._transaction() as db:
            cursor = await db.execute(
                "UPDATE matches SET warned = 1 WHERE id = ? AND version = ?", (match_id, version)
            )
            changed = cursor.rowcount
            await cursor.close()
        return changed == 1

    async def matches_with_status(self, statuses: Iterable[str]) -> list[MatchRecord]:
        sql, values = _in(statuses)
        return await self._load_matches(f"WHERE status IN ({sql}) ORDER BY id", values)

    async def matches_of_user(
        self, user_id: int, statuses: Iterable[str], guild_id: int | None = None
    ) -> list[MatchRecord]:
        sql, values = _in(statuses)
        where = f"WHERE status IN ({sql}) AND id IN (SELECT match_id FROM match_seats WHERE user_id = ?)"
        params: list[Any] = [*values, user_id]
        if guild_id is not None:
            where += " AND guild_id = ?"
            params.append(guild_id)
        return await self._load_matches(where + " ORDER BY updated_at DESC, id DESC", params)

    async def matches_in_channel(
        self,
        guild_id: int,
        channel_id: int,
        statuses: Iterable[str],
        user_id: int | None = None,
    ) -> list[MatchRecord]:
        sql, values = _in(statuses)
        where = f"WHERE guild_id = ? AND (channel_id = ? OR thread_id = ?) AND status IN ({sql})"
        params: list[Any] = [guild_id, channel_id, channel_id, *values]
        if user_id is not None:  # only the matches with a seat of that user
            where += " AND id IN (SELECT match_id FROM match_seats WHERE user_id = ?)"
            params.append(user_id)
        return await self._load_matches(where + " ORDER BY updated_at DESC, id DESC", params)

    async def matches_in_guild(
        self, guild_id: int, statuses: Iterable[str], limit: int | None = None
    ) -> list[MatchRecord]:
        sql, values = _in(statuses)
        params: list[Any] = [guild_id, *values]
        tail = " ORDER BY updated_at DESC, id DESC"
        if limit is not None:
            tail += " LIMIT ?"
            params.append(limit)
        return await self._load_matches(f"WHERE guild_id = ? AND status IN ({sql})" + tail, params)

    async def due_matches(self, now: float) -> list[MatchRecord]:
        return await self._load_matches(
            "WHERE status IN ('lobby', 'running') AND ("
            "(deadline_at IS NOT NULL AND deadline_at <= ?) OR "
            "(warn_at IS NOT NULL AND warn_at <= ? AND warned = 0)) ORDER BY deadline_at, id",
            (now, now),
        )

    async def running_matches_with_bots(self) -> list[MatchRecord]:
        return await self._load_matches(
            "WHERE status = 'running' AND id IN (SELECT match_id FROM match_seats WHERE is_bot = 1) "
            "ORDER BY updated_at, id",
            (),
        )

    async def actions(self, match_id: int) -> list[ActionRecord]:
        rows = await self._fetchall(
            "SELECT * FROM actions WHERE match_id = ? ORDER BY version", (match_id,)
        )
        return [
            ActionRecord(
                match_id=row["match_id"],
                version=row["version"],
                user_id=row["user_id"],
                seat=row["seat"],
                action=row["action"],
                at=row["at"],
            )
            for row in rows
        ]

    async def set_message(self, match_id: int, kind: str, message_id: int) -> None:
        async with self._transaction() as db:
            await db.execute(
                "INSERT OR REPLACE INTO match_messages(match_id, kind, message_id) VALUES (?, ?, ?)",
                (match_id, kind, message_id),
            )

    async def set_thread(self, match_id: int, thread_id: int | None) -> None:
        async with self._transaction() as db:
            await db.execute("UPDATE matches SET thread_id = ? WHERE id = ?", (thread_id, match_id))

    # ---- challenges ----------------------------------------------------------------------
    @staticmethod
    def _challenge(row: sqlite3.Row) -> ChallengeRecord:
        return ChallengeRecord(
            id=row["id"],
            guild_id=row["guild_id"],
            channel_id=row["channel_id"],
            thread_id=row["thread_id"],
            challenger_id=row["challenger_id"],
            target_id=row["target_id"],
            game=row["game"],
            size=row["size"],
            options=json.loads(row["options"]),
            status=row["status"],
            created_at=row["created_at"],
            expires_at=row["expires_at"],
            match_id=row["match_id"],
            rematch_of=row["rematch_of"],
        )

    async def create_challenge(self, challenge: ChallengeRecord) -> ChallengeRecord:
        async with self._transaction() as db:
            cursor = await db.execute(
                f"INSERT INTO challenges({_CHALLENGE_COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                (
                    challenge.guild_id,
                    challenge.channel_id,
                    challenge.thread_id,
                    challenge.challenger_id,
                    challenge.target_id,
                    challenge.game,
                    challenge.size,
                    _dumps(challenge.options),
                    challenge.status,
                    challenge.created_at,
                    challenge.expires_at,
                    challenge.match_id,
                    challenge.rematch_of,
                ),
            )
            challenge_id = cursor.lastrowid
            await cursor.close()
        assert challenge_id is not None
        return challenge.evolve(id=challenge_id)

    async def get_challenge(self, challenge_id: int) -> ChallengeRecord | None:
        rows = await self._fetchall("SELECT * FROM challenges WHERE id = ?", (challenge_id,))
        return self._challenge(rows[0]) if rows else None

    async def open_challenges(self, guild_id: int | None = None) -> list[ChallengeRecord]:
        if guild_id is None:
            rows = await self._fetchall(
                "SELECT * FROM challenges WHERE status = 'open' ORDER BY id"
            )
        else:
            rows = await self._fetchall(
                "SELECT * FROM challenges WHERE status = 'open' AND guild_id = ? ORDER BY id",
                (guild_id,),
            )
        return [self._challenge(row) for row in rows]

    async def last_challenge_at(self, guild_id: int, user_id: int) -> float | None:
        rows = await self._fetchall(
            "SELECT MAX(created_at) FROM challenges "
            "WHERE guild_id = ? AND challenger_id = ? AND rematch_of IS NULL",
            (guild_id, user_id),
        )
        return rows[0][0]

    async def close_challenge(self, challenge_id: int, status: str) -> ChallengeRecord:
        async with self._transaction() as db:
            cursor = await db.execute(
                "UPDATE challenges SET status = ? WHERE id = ? AND status = 'open'",
                (status, challenge_id),
            )
            changed = cursor.rowcount
            await cursor.close()
            if changed != 1:
                raise ChallengeTaken(f"challenge {challenge_id} is not open")
            cursor = await db.execute("SELECT * FROM challenges WHERE id = ?", (challenge_id,))
            row = await cursor.fetchone()
            await cursor.close()
        assert row is not None
        return self._challenge(row)

    async def accept_challenge(self, challenge_id: int, match: MatchRecord) -> MatchRecord:
        async with self._transaction() as db:
            cursor = await db.execute(
                "UPDATE challenges SET status = 'accepted' WHERE id = ? AND status = 'open'",
                (challenge_id,),
            )
            changed = cursor.rowcount
            await cursor.close()
            if changed != 1:
                raise ChallengeTaken(f"challenge {challenge_id} is not open")
            match_id = await self._insert_match(db, match)
            await db.execute(
                "UPDATE challenges SET match_id = ? WHERE id = ?", (match_id, challenge_id)
            )
        return match.evolve(id=match_id)

    # ---- ratings -------------------------------------------------------------------------
    @staticmethod
    def _rating(row: sqlite3.Row) -> RatingRecord:
        return RatingRecord(
            guild_id=row["guild_id"],
            game=row["game"],
            user_id=row["user_id"],
            pool=row["pool"],
            mu=row["mu"],
            sigma=row["sigma"],
            games=row["games"],
            wins=row["wins"],
            losses=row["losses"],
            draws=row["draws"],
            streak=row["streak"],
            best_streak=row["best_streak"],
            updated_at=row["updated_at"],
        )

    async def get_ratings(
        self, guild_id: int, game: str, user_ids: Iterable[int], pool: str = "human"
    ) -> dict[int, RatingRecord]:
        sql, values = _in(user_ids)
        rows = await self._fetchall(
            f"SELECT * FROM ratings WHERE guild_id = ? AND game = ? AND pool = ? AND user_id IN ({sql})",
            [guild_id, game, pool, *values],
        )
        return {row["user_id"]: self._rating(row) for row in rows}

    async def leaderboard(
        self, guild_id: int, game: str, limit: int, pool: str = "human"
    ) -> list[RatingRecord]:
        rows = await self._fetchall(
            "SELECT * FROM ratings WHERE guild_id = ? AND game = ? AND pool = ? AND games > 0 "
            "ORDER BY (mu - 3.0 * sigma) DESC, games DESC, user_id ASC LIMIT ?",
            (guild_id, game, pool, limit),
        )
        return [self._rating(row) for row in rows]

    async def player_ratings(
        self, guild_id: int, user_id: int, pool: str = "human"
    ) -> list[RatingRecord]:
        rows = await self._fetchall(
            "SELECT * FROM ratings WHERE guild_id = ? AND user_id = ? AND pool = ? ORDER BY game",
            (guild_id, user_id, pool),
        )
        return [self._rating(row) for row in rows]

    async def vs_bot_stats(
        self, guild_id: int, user_id: int, game: str | None = None
    ) -> list[VsBotRecord]:
        sql = "SELECT * FROM vs_bot_stats WHERE guild_id = ? AND user_id = ?"
        params: list[Any] = [guild_id, user_id]
        if game is not None:
            sql += " AND game = ?"
            params.append(game)
        rows = await self._fetchall(sql + " ORDER BY game, level", params)
        return [
            VsBotRecord(
                guild_id=row["guild_id"],
                game=row["game"],
                level=row["level"],
                user_id=row["user_id"],
                games=row["games"],
                wins=row["wins"],
                losses=row["losses"],
                draws=row["draws"],
                updated_at=row["updated_at"],
            )
            for row in rows
        ]

    # ---- settings ------------------------------------------------------------------------
    async def get_settings(self, guild_id: int) -> dict[str, Any] | None:
        rows = await self._fetchall(
            "SELECT data FROM guild_settings WHERE guild_id = ?", (guild_id,)
        )
        return json.loads(rows[0][0]) if rows else None

    async def put_settings(
        self, guild_id: int, data: dict[str, Any], updated_at: float, updated_by: int | None
    ) -> None:
        async with self._transaction() as db:
            await db.execute(
                "INSERT OR REPLACE INTO guild_settings(guild_id, data, updated_at, updated_by) "
                "VALUES (?, ?, ?, ?)",
                (guild_id, _dumps(data), updated_at, updated_by),
            )


def _split_sql(script: str) -> list[str]:
    """Split a migration into statements (our migrations keep ';' out of string literals)."""
    body = "\n".join(line for line in script.splitlines() if not line.strip().startswith("--"))
    return [statement.strip() for statement in body.split(";") if statement.strip()]


async def open_repository(path: str | Path, *, synchronous: str = "FULL") -> SqliteRepository:
    """Open (creating if needed) the SQLite database at ``path`` and bring its schema up to date."""
    return await SqliteRepository.open(path, synchronous=synchronous)
