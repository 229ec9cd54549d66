"""The repository written once in SQL that SQLite and PostgreSQL both speak.

:class:`SqlRepository` holds every query; a back end only supplies how to run them
(:class:`Transaction` and :meth:`SqlRepository._fetch`), its placeholder style and the few
words where the dialects differ (``FOR UPDATE SKIP LOCKED``). Queries are written with
``?`` placeholders; the PostgreSQL back end numbers them. Rows become records through
:mod:`matchcore.storage.mapping` only.

Migrations: every back end ships the same numbered history (``migrations/<dialect>/``,
checked to match by the tests), applies what is missing at start, each migration in its
own transaction, and refuses a database whose schema is newer than the code.
"""

from __future__ import annotations

import abc
import re
import time
from collections.abc import Iterable, Sequence
from contextlib import AbstractAsyncContextManager
from pathlib import Path
from typing import Any

from matchcore.records import ActionRecord
from matchcore.storage import mapping
from matchcore.storage.mapping import Row
from matchcore.storage.records import (
    MatchRecord,
    PlacementRecord,
    RatingRecord,
    SeatRecord,
    VsBotResult,
)
from matchcore.storage.repository import (
    ChallengeTaken,
    Repository,
    SchemaTooNew,
    VersionConflict,
)
from matchcore.storage.season_records import RatingPoint, SeasonRating
from matchcore.storage.sql_access import Transaction, in_list
from matchcore.storage.sql_challenges import ChallengeQueries
from matchcore.storage.sql_history import HistoryQueries
from matchcore.storage.sql_housekeeping import HousekeepingQueries
from matchcore.storage.sql_learning import LearningQueries
from matchcore.storage.sql_lookups import channel_lookup, guild_lookup
from matchcore.storage.sql_members import MemberQueries
from matchcore.storage.sql_messages import CHAT_AUDIENCES, CHAT_WHOLE, PENDING, MessageQueries
from matchcore.storage.sql_notices import NoticeQueries
from matchcore.storage.sql_profiles import ProfileQueries, write_history, write_season_ratings
from matchcore.storage.sql_results import write_results
from matchcore.storage.sql_sign_ins import SignInQueries
from matchcore.storage.sql_tournaments import TournamentQueries

# The outbox audience of a match's channel (or thread), the chat front end's.
CHANNEL = "channel"

MIGRATIONS_ROOT = Path(__file__).parent / "migrations"
_MIGRATION_NAME = re.compile(r"^(\d{4})_([a-z0-9_]+)\.sql$")

_MATCH_SELECT = "id, " + ", ".join(mapping.MATCH_COLUMNS) + ", " + mapping.DELIVERED_COLUMN
# What makes a match due for the clock: a passed deadline, or a warning due and not sent.
# The few candidates come from the partial indexes on deadline_at and on warn_at (a subquery
# of its own: offered the status as well, SQLite would read every running match through
# matches_by_status, on every tick); their status is checked by id.
_DUE = (
    "id IN (SELECT id FROM matches WHERE deadline_at IS NOT NULL AND deadline_at <= ? "
    "UNION ALL SELECT id FROM matches WHERE warn_at IS NOT NULL AND warn_at <= ? "
    "AND warned = ?) AND status IN ('lobby', 'running')"
)
# A bot is to act: the candidates from the partial index matches_bot_due, likewise.
_BOT_DUE = "id IN (SELECT id FROM matches WHERE bot_due) AND status = 'running'"
# A page of the matches with something pending for the chat front end, in id order.
UNDELIVERED_PAGE = (
    "WHERE id IN (SELECT DISTINCT o.match_id "
    + PENDING.format(audiences=CHAT_AUDIENCES, whole=CHAT_WHOLE)
    + " ORDER BY o.match_id LIMIT ?) ORDER BY id"
)


def migration_files(
    dialect: str = "sqlite", root: Path | None = None
) -> list[tuple[int, str, Path]]:
    """(number, name, path) of every migration shipped for ``dialect``, in order."""
    folder = (root or MIGRATIONS_ROOT) / dialect
    found = []
    for path in sorted(folder.glob("*.sql")):
        match = _MIGRATION_NAME.match(path.name)
        if match is None:
            raise RuntimeError(f"migration file {path.name!r} is not named NNNN_name.sql")
        found.append((int(match.group(1)), match.group(2), path))
    numbers = [number for number, _, _ in found]
    if numbers != list(range(1, len(numbers) + 1)):
        raise RuntimeError(f"migrations must be numbered 1, 2, 3, ... without gaps: {numbers}")
    return found


def split_sql(script: str) -> list[str]:
    """Split a migration into statements (our migrations keep ';' out of string literals)."""
    body = "\n".join(line for line in script.splitlines() if not line.strip().startswith("--"))
    return [statement.strip() for statement in body.split(";") if statement.strip()]


def match_query(where: str) -> str:
    """The query of the match rows ``where`` selects (their seats and messages apart)."""
    return f"SELECT {_MATCH_SELECT} FROM matches {where}"


def children_queries(rows: Sequence[Row]) -> list[tuple[str, list[Any]]]:
    """The queries (with their values) of the seats and the messages of these match rows."""
    ids_sql, ids = in_list(row["id"] for row in rows)
    return [
        (
            f"SELECT * FROM match_seats WHERE match_id IN ({ids_sql}) ORDER BY match_id, seat",
            ids,
        ),
        (f"SELECT * FROM match_messages WHERE match_id IN ({ids_sql}) ORDER BY kind", ids),
    ]


def assemble_matches(
    rows: Sequence[Row], seat_rows: Sequence[Row], message_rows: Sequence[Row]
) -> list[MatchRecord]:
    """Match records from their rows, their seats' rows and their messages' rows."""
    seats: dict[int, list[SeatRecord]] = {}
    for row in seat_rows:
        seats.setdefault(row["match_id"], []).append(mapping.seat_from_row(row))
    messages: dict[int, dict[str, int]] = {}
    for row in message_rows:
        messages.setdefault(row["match_id"], {})[row["kind"]] = row["message_id"]
    return [
        mapping.match_from_row(row, seats.get(row["id"], ()), messages.get(row["id"]))
        for row in rows
    ]


class SqlRepository(
    ChallengeQueries,
    HistoryQueries,
    HousekeepingQueries,
    LearningQueries,
    MemberQueries,
    MessageQueries,
    NoticeQueries,
    ProfileQueries,
    SignInQueries,
    TournamentQueries,
    Repository,
):
    """Every repository method over a back end's :class:`Transaction` and ``_fetch``.

    Here: migrations, matches, their seats, actions, claims and the taking of a challenge;
    the challenges themselves are :class:`matchcore.storage.sql_challenges.ChallengeQueries`, what
    is kept about people and servers :class:`matchcore.storage.sql_members.MemberQueries`.
    """

    #: Appended to the query that claims due matches (PostgreSQL: skip rows others hold).
    skip_locked: str = ""

    #: Put before the WHERE of the search for matches to send again: SQLite, without
    #: statistics, would rather read every running match through matches_by_status.
    # ---- what a back end supplies (with _transaction and _fetch of SqlAccess) ----------
    @abc.abstractmethod
    def _migration_lock(self) -> AbstractAsyncContextManager[None]:
        """Held while migrating, so two processes starting at once migrate one at a time."""

    # ---- migrations --------------------------------------------------------------------
    async def _migrate(self) -> None:
        shipped = migration_files(self.dialect)
        async with self._migration_lock():
            async with self._transaction() as tx:
                await tx.execute(
                    "CREATE TABLE IF NOT EXISTS schema_migrations ("
                    "version INTEGER PRIMARY KEY, name TEXT NOT NULL, "
                    "applied_at DOUBLE PRECISION NOT NULL)"
                )
            applied = await self.applied_migrations()
            known = len(shipped)
            if applied and max(applied) > known:
                raise SchemaTooNew(
                    f"the database schema is at version {max(applied)}, newer than this "
                    f"Leafbot knows (version {known}): it was upgraded by a newer release. "
                    "Run that release (or newer), or restore a backup taken before the upgrade."
                )
            done = set(applied)
            for number, name, path in shipped:
                if number in done:
                    continue
                # Each migration is one transaction: a failure leaves the previous schema.
                async with self._transaction() as tx:
                    await self._apply_script(tx, path.read_text(encoding="utf-8"))
                    await tx.execute(
                        "INSERT INTO schema_migrations(version, name, applied_at) VALUES (?, ?, ?)",
                        (number, name, _now()),
                    )

    async def _apply_script(self, tx: Transaction, script: str) -> None:
        for statement in split_sql(script):
            await tx.execute(statement)

    async def applied_migrations(self) -> list[int]:
        rows = await self._fetch("SELECT version FROM schema_migrations ORDER BY version")
        return [row[0] for row in rows]

    # ---- matches --------------------------------------------------------------------------
    async def _insert_match(
        self, tx: Transaction, match: MatchRecord, audiences: Sequence[str] = (CHANNEL,)
    ) -> int:
        columns = ", ".join(mapping.MATCH_COLUMNS)
        marks = ",".join("?" * len(mapping.MATCH_COLUMNS))
        rows = await tx.fetch(
            f"INSERT INTO matches({columns}) VALUES ({marks}) RETURNING id",
            mapping.match_values(match),
        )
        match_id = int(rows[0][0])
        await self._write_seats(tx, match_id, match.seats)
        messages = dict(match.messages)
        delivered = messages.pop(mapping.DELIVERED, None)
        if messages:
            await tx.executemany(
                "INSERT INTO match_messages(match_id, kind, message_id) VALUES (?, ?, ?)",
                [(match_id, kind, message_id) for kind, message_id in messages.items()],
            )
        if delivered is not None:
            await tx.execute(
                "UPDATE matches SET delivered_version = ? WHERE id = ?", (delivered, match_id)
            )
        elif audiences:
            await self._write_outbox(tx, match_id, match.version, audiences)
        return match_id

    @staticmethod
    async def _write_seats(tx: Transaction, match_id: int, seats: Iterable[SeatRecord]) -> None:
        await tx.execute("DELETE FROM match_seats WHERE match_id = ?", (match_id,))
        rows = [mapping.seat_values(match_id, seat) for seat in seats]
        if rows:
            columns = ", ".join(mapping.SEAT_COLUMNS)
            marks = ",".join("?" * len(mapping.SEAT_COLUMNS))
            await tx.executemany(f"INSERT INTO match_seats({columns}) VALUES ({marks})", rows)

    async def create_match(
        self, match: MatchRecord, outbox: Sequence[str] = (CHANNEL,)
    ) -> MatchRecord:
        async with self._transaction() as tx:
            match_id = await self._insert_match(tx, match, outbox)
        return match.evolve(id=match_id)

    async def _load_matches(
        self, where: str, params: Sequence[Any], tx: Transaction | None = None
    ) -> list[MatchRecord]:
        fetch = tx.fetch if tx is not None else self._fetch
        rows = await fetch(match_query(where), params)
        return await self._with_children(rows, tx)

    async def _with_children(
        self, rows: Sequence[Row], tx: Transaction | None = None
    ) -> list[MatchRecord]:
        if not rows:
            return []
        fetch = tx.fetch if tx is not None else self._fetch
        (seats_sql, ids), (messages_sql, _) = children_queries(rows)
        seat_rows = await fetch(seats_sql, ids)
        message_rows = await fetch(messages_sql, ids)
        return assemble_matches(rows, seat_rows, message_rows)

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
        previous_seats: Sequence[SeatRecord] | None = None,
        placements: Sequence[PlacementRecord] = (),
        outbox: Sequence[str] = (),
        history: Sequence[RatingPoint] = (),
        season_ratings: Sequence[SeasonRating] = (),
    ) -> None:
        assignments = ", ".join(f"{column} = ?" for column in mapping.MATCH_COLUMNS)
        async with self._transaction() as tx:
            # The version check is part of the write itself: the row is locked by the UPDATE
            # until the commit, so of two processes at one version exactly one succeeds.
            changed = await tx.execute(
                f"UPDATE matches SET {assignments} WHERE id = ? AND version = ?",
                (*mapping.match_values(match), match.id, expected_version),
            )
            if changed != 1:
                raise VersionConflict(
                    f"match {match.id} is no longer at version {expected_version}"
                )
            if previous_seats is None or tuple(previous_seats) != tuple(match.seats):
                await self._write_seats(tx, match.id, match.seats)
            if outbox:
                await self._write_outbox(tx, match.id, match.version, outbox)
            if actions:
                columns = ", ".join(mapping.ACTION_COLUMNS)
                await tx.executemany(
                    f"INSERT INTO actions({columns}) VALUES (?, ?, ?, ?, ?, ?)",
                    [mapping.action_values(action) for action in actions],
                )
            await write_results(tx, ratings, placements, bot_results)
            await write_history(tx, history)
            await write_season_ratings(tx, season_ratings)

    async def mark_warned(self, match_id: int, version: int) -> bool:
        # "warned = false" too: of two processes warning at once, one sends it.
        changed = await self._write(
            "UPDATE matches SET warned = ? WHERE id = ? AND version = ? AND warned = ?",
            (True, match_id, version, False),
        )
        return changed == 1

    async def matches_with_status(self, statuses: Iterable[str]) -> list[MatchRecord]:
        sql, values = in_list(statuses)
        return await self._load_matches(f"WHERE status IN ({sql}) ORDER BY id", values)

    async def undelivered_matches(self, after: int = 0, limit: int = 100) -> list[MatchRecord]:
        return await self._load_matches(UNDELIVERED_PAGE, (after, limit))

    async def matches_of_user(
        self, user_id: int, statuses: Iterable[str], guild_id: int | None = None
    ) -> list[MatchRecord]:
        sql, values = in_list(statuses)
        where = (
            f"WHERE status IN ({sql}) "
            "AND id IN (SELECT match_id FROM match_seats WHERE user_id = ?)"
        )
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
        return await self._load_matches(*channel_lookup(guild_id, channel_id, statuses, user_id))

    async def matches_in_guild(
        self, guild_id: int, statuses: Iterable[str], limit: int | None = None
    ) -> list[MatchRecord]:
        return await self._load_matches(*guild_lookup(guild_id, statuses, limit))

    async def claim_due_matches(
        self, now: float, owner: str, lease_now: float, lease_until: float, limit: int = 100
    ) -> list[MatchRecord]:
        async with self._transaction() as tx:
            rows = await tx.fetch(
                "UPDATE matches SET claimed_by = ?, claimed_until = ? WHERE id IN ("
                f"SELECT id FROM matches WHERE {_DUE} "
                "AND (claimed_until IS NULL OR claimed_until <= ?) "
                f"ORDER BY deadline_at, id LIMIT ?{self.skip_locked}) "
                f"RETURNING {_MATCH_SELECT}",
                (
                    owner,
                    float(lease_until),
                    float(now),
                    float(now),
                    False,
                    float(lease_now),
                    limit,
                ),
            )
            found = await self._with_children(rows, tx)
        return sorted(found, key=lambda m: (m.deadline_at is None, m.deadline_at or 0.0, m.id))

    async def claim_bot_matches(
        self, owner: str, lease_now: float, lease_until: float, limit: int = 100
    ) -> list[MatchRecord]:
        async with self._transaction() as tx:
            rows = await tx.fetch(
                "UPDATE matches SET claimed_by = ?, claimed_until = ? WHERE id IN ("
                f"SELECT id FROM matches WHERE {_BOT_DUE} "
                "AND (claimed_until IS NULL OR claimed_until <= ?) "
                f"ORDER BY updated_at, id LIMIT ?{self.skip_locked}) "
                f"RETURNING {_MATCH_SELECT}",
                (owner, float(lease_until), float(lease_now), limit),
            )
            found = await self._with_children(rows, tx)
        return sorted(found, key=lambda m: (m.updated_at, m.id))

    async def claim_match(
        self, match_id: int, owner: str, lease_now: float, lease_until: float
    ) -> bool:
        changed = await self._write(
            "UPDATE matches SET claimed_by = ?, claimed_until = ? WHERE id = ? "
            "AND (claimed_until IS NULL OR claimed_until <= ? OR claimed_by = ?)",
            (owner, float(lease_until), match_id, float(lease_now), owner),
        )
        return changed == 1

    async def release_match(self, match_id: int, owner: str) -> None:
        await self._write(
            "UPDATE matches SET claimed_by = NULL, claimed_until = NULL "
            "WHERE id = ? AND claimed_by = ?",
            (match_id, owner),
        )

    async def actions(self, match_id: int) -> list[ActionRecord]:
        rows = await self._fetch(
            "SELECT * FROM actions WHERE match_id = ? ORDER BY version", (match_id,)
        )
        return [mapping.action_from_row(row) for row in rows]

    async def set_thread(self, match_id: int, thread_id: int | None) -> bool:
        changed = await self._write(
            "UPDATE matches SET thread_id = ? WHERE id = ?", (thread_id, match_id)
        )
        return changed > 0

    # ---- challenges ----------------------------------------------------------------------
    async def accept_challenge(
        self, challenge_id: int, match: MatchRecord, outbox: Sequence[str] = (CHANNEL,)
    ) -> MatchRecord:
        async with self._transaction() as tx:
            changed = await tx.execute(
                "UPDATE challenges SET status = 'accepted' WHERE id = ? AND status = 'open'",
                (challenge_id,),
            )
            if changed != 1:
                raise ChallengeTaken(f"challenge {challenge_id} is not open")
            match_id = await self._insert_match(tx, match, outbox)
            await tx.execute(
                "UPDATE challenges SET match_id = ? WHERE id = ?", (match_id, challenge_id)
            )
        return match.evolve(id=match_id)


def _now() -> float:
    return time.time()
