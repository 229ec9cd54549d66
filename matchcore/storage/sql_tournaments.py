"""The tournaments' queries: their rows, their games' matches, claims on their steps.

A step of a tournament is one transaction (:meth:`TournamentQueries.commit_tournament`):
the tournament's row with a compare-and-set on its version, the games it recorded marked,
and the matches of the games it paired inserted with their ``tournament_games`` rows. Of
two processes that read one version exactly one commits; a process killed before its
commit leaves nothing, and the next step sees the same finished matches again.
"""

from __future__ import annotations

import abc
import json
from collections.abc import Iterable, Sequence
from typing import Any

from matchcore.storage.mapping import Row, dumps
from matchcore.storage.records import MatchRecord, TournamentRecord
from matchcore.storage.repository import VersionConflict
from matchcore.storage.sql_access import SqlAccess, Transaction, in_list

COLUMNS: tuple[str, ...] = (
    "guild_id",
    "channel_id",
    "thread_id",
    "creator_id",
    "game",
    "format",
    "options",
    "rated",
    "status",
    "paused",
    "state",
    "version",
    "starts_at",
    "ends_at",
    "due_at",
    "created_at",
    "updated_at",
    "finished_at",
)
_SELECT = "id, " + ", ".join(COLUMNS)
# Running or upcoming tournaments with work to do: a time reached, or a game of theirs
# whose match ended and whose result is not recorded yet.
_DUE = (
    "status IN ('upcoming', 'running') AND ("
    "(due_at IS NOT NULL AND due_at <= ?) OR EXISTS (SELECT 1 FROM tournament_games g "
    "JOIN matches m ON m.id = g.match_id WHERE g.tournament_id = tournaments.id "
    "AND NOT g.recorded AND m.status IN ('finished', 'aborted')))"
)


def _values(record: TournamentRecord) -> tuple[Any, ...]:
    return (
        record.guild_id,
        record.channel_id,
        record.thread_id,
        record.creator_id,
        record.game,
        record.format,
        dumps(record.options),
        bool(record.rated),
        record.status,
        bool(record.paused),
        record.state,
        record.version,
        record.starts_at,
        record.ends_at,
        record.due_at,
        record.created_at,
        record.updated_at,
        record.finished_at,
    )


def _from_row(row: Row, messages: dict[str, int]) -> TournamentRecord:
    return TournamentRecord(
        id=int(row["id"]),
        guild_id=int(row["guild_id"]),
        channel_id=int(row["channel_id"]),
        thread_id=None if row["thread_id"] is None else int(row["thread_id"]),
        creator_id=int(row["creator_id"]),
        game=row["game"],
        format=row["format"],
        options=json.loads(row["options"]),
        rated=bool(row["rated"]),
        status=row["status"],
        paused=bool(row["paused"]),
        state=row["state"],
        version=int(row["version"]),
        starts_at=row["starts_at"],
        ends_at=row["ends_at"],
        due_at=row["due_at"],
        created_at=row["created_at"],
        updated_at=row["updated_at"],
        finished_at=row["finished_at"],
        messages=messages,
    )


class TournamentQueries(SqlAccess):
    """Tournaments: create, read, commit a step, claim due ones, their messages."""

    skip_locked: str = ""

    # the matches' own queries (SqlRepository's), which a step writes and reads
    @abc.abstractmethod
    async def _insert_match(
        self, tx: Transaction, match: MatchRecord, audiences: Sequence[str] = ("channel",)
    ) -> int: ...

    @abc.abstractmethod
    async def _load_matches(
        self, where: str, params: Sequence[Any], tx: Transaction | None = None
    ) -> list[MatchRecord]: ...

    async def _tournaments(
        self, where: str, params: Sequence[Any], tx: Transaction | None = None
    ) -> list[TournamentRecord]:
        fetch = tx.fetch if tx is not None else self._fetch
        rows = await fetch(f"SELECT {_SELECT} FROM tournaments {where}", params)
        if not rows:
            return []
        ids_sql, ids = in_list(row["id"] for row in rows)
        message_rows = await fetch(
            "SELECT tournament_id, kind, message_id FROM tournament_messages "
            f"WHERE tournament_id IN ({ids_sql})",
            ids,
        )
        messages: dict[int, dict[str, int]] = {}
        for row in message_rows:
            messages.setdefault(int(row["tournament_id"]), {})[row["kind"]] = int(row["message_id"])
        return [_from_row(row, messages.get(int(row["id"]), {})) for row in rows]

    async def create_tournament(self, record: TournamentRecord) -> TournamentRecord:
        marks = ",".join("?" * len(COLUMNS))
        async with self._transaction() as tx:
            rows = await tx.fetch(
                f"INSERT INTO tournaments({', '.join(COLUMNS)}) VALUES ({marks}) RETURNING id",
                _values(record),
            )
        return record.evolve(id=int(rows[0][0]))

    async def get_tournament(self, tournament_id: int) -> TournamentRecord | None:
        found = await self._tournaments("WHERE id = ?", (tournament_id,))
        return found[0] if found else None

    async def tournaments_in_guild(
        self, guild_id: int, statuses: Iterable[str], limit: int = 25
    ) -> list[TournamentRecord]:
        sql, values = in_list(statuses)
        return await self._tournaments(
            f"WHERE guild_id = ? AND status IN ({sql}) ORDER BY created_at DESC, id DESC LIMIT ?",
            (guild_id, *values, limit),
        )

    async def tournament_of_match(self, match_id: int) -> tuple[int, int] | None:
        """(tournament id, game number) of a match a tournament started, or None."""
        rows = await self._fetch(
            "SELECT tournament_id, number FROM tournament_games WHERE match_id = ?", (match_id,)
        )
        return (int(rows[0][0]), int(rows[0][1])) if rows else None

    async def tournament_matches(
        self, tournament_id: int, *, ended_unrecorded: bool = False
    ) -> dict[int, MatchRecord]:
        """The matches of a tournament's games by game number (only those that ended and
        are not recorded yet, with ``ended_unrecorded``)."""
        where = "tournament_id = ?"
        if ended_unrecorded:
            where += " AND NOT recorded"
        rows = await self._fetch(
            f"SELECT number, match_id FROM tournament_games WHERE {where}", (tournament_id,)
        )
        if not rows:
            return {}
        number_of = {int(row["match_id"]): int(row["number"]) for row in rows}
        ids_sql, ids = in_list(number_of)
        status = " AND status IN ('finished', 'aborted')" if ended_unrecorded else ""
        matches = await self._load_matches(f"WHERE id IN ({ids_sql}){status}", ids)
        return {number_of[m.id]: m for m in matches}

    async def commit_tournament(
        self,
        record: TournamentRecord,
        expected_version: int,
        *,
        recorded: Sequence[int] = (),
        new_matches: Sequence[tuple[int, MatchRecord, Sequence[str]]] = (),
    ) -> dict[int, MatchRecord]:
        """One step of a tournament, all or nothing: its row (if still at
        ``expected_version``, else :class:`VersionConflict` and nothing stored), the game
        numbers it recorded, and the matches of its new games, stored with their numbers
        (each with its outbox audiences). Returns the new matches (with their ids) by game
        number."""
        assignments = ", ".join(f"{column} = ?" for column in COLUMNS)
        created: dict[int, MatchRecord] = {}
        async with self._transaction() as tx:
            changed = await tx.execute(
                f"UPDATE tournaments SET {assignments} WHERE id = ? AND version = ?",
                (*_values(record), record.id, expected_version),
            )
            if changed != 1:
                raise VersionConflict(
                    f"tournament {record.id} is no longer at version {expected_version}"
                )
            if recorded:
                numbers_sql, numbers = in_list(recorded)
                await tx.execute(
                    "UPDATE tournament_games SET recorded = ? "
                    f"WHERE tournament_id = ? AND number IN ({numbers_sql})",
                    (True, record.id, *numbers),
                )
            for number, match, outbox in new_matches:
                match_id = await self._insert_match(tx, match, outbox)
                await tx.execute(
                    "INSERT INTO tournament_games(tournament_id, number, match_id, recorded) "
                    "VALUES (?, ?, ?, ?)",
                    (record.id, number, match_id, False),
                )
                created[number] = match.evolve(id=match_id)
        return created

    async def claim_due_tournaments(
        self, now: float, owner: str, lease_now: float, lease_until: float, limit: int = 20
    ) -> list[int]:
        async with self._transaction() as tx:
            rows = await tx.fetch(
                "UPDATE tournaments SET claimed_by = ?, claimed_until = ? WHERE id IN ("
                f"SELECT id FROM tournaments WHERE {_DUE} "
                "AND (claimed_until IS NULL OR claimed_until <= ?) "
                f"ORDER BY id LIMIT ?{self.skip_locked}) RETURNING id",
                (owner, float(lease_until), float(now), float(lease_now), limit),
            )
        return sorted(int(row[0]) for row in rows)

    async def claim_tournament(
        self, tournament_id: int, owner: str, lease_now: float, lease_until: float
    ) -> bool:
        changed = await self._write(
            "UPDATE tournaments SET claimed_by = ?, claimed_until = ? WHERE id = ? "
            "AND (claimed_until IS NULL OR claimed_until <= ? OR claimed_by = ?)",
            (owner, float(lease_until), tournament_id, float(lease_now), owner),
        )
        return changed == 1

    async def release_tournament(self, tournament_id: int, owner: str) -> None:
        await self._write(
            "UPDATE tournaments SET claimed_by = NULL, claimed_until = NULL "
            "WHERE id = ? AND claimed_by = ?",
            (tournament_id, owner),
        )

    async def set_tournament_messages(self, tournament_id: int, messages: dict[str, int]) -> None:
        async with self._transaction() as tx:
            for kind, message_id in messages.items():
                await tx.execute(
                    "INSERT INTO tournament_messages(tournament_id, kind, message_id) "
                    "VALUES (?, ?, ?) ON CONFLICT(tournament_id, kind) "
                    "DO UPDATE SET message_id = excluded.message_id",
                    (tournament_id, kind, message_id),
                )

    async def set_tournament_thread(self, tournament_id: int, thread_id: int) -> None:
        await self._write(
            "UPDATE tournaments SET thread_id = ? WHERE id = ?", (thread_id, tournament_id)
        )
