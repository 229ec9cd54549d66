"""The SQL of profiles and seasons: rating history, records against opponents, season
ratings, seasons and their final standings.

A group of queries of :class:`matchcore.storage.sql.SqlRepository` over a back end's
:class:`matchcore.storage.sql_access.SqlAccess`, and the writes a rated result makes in its
own transaction (:func:`write_history`, :func:`write_season_ratings`), which
``commit_match`` calls.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

from matchcore.storage import mapping
from matchcore.storage.mapping import Row
from matchcore.storage.profiles import ProfileRepository
from matchcore.storage.records import RatingRecord
from matchcore.storage.repository import RatingConflict
from matchcore.storage.season_records import (
    OpponentRecord,
    RatingPoint,
    SeasonRating,
    SeasonRecord,
    SeasonStanding,
)
from matchcore.storage.sql_access import SqlAccess, Transaction, in_list

HISTORY_COLUMNS = ("match_id", "guild_id", "game", "user_id", "pool", "mu", "sigma", "games", "at")
SEASON_RATING_COLUMNS = ("season", *mapping.RATING_COLUMNS)
SEASON_RATING_KEY = ("guild_id", "season", "game", "pool", "user_id")
STANDING_COLUMNS = (
    "guild_id",
    "season",
    "game",
    "pool",
    "rank",
    "user_id",
    "mu",
    "sigma",
    "games",
    "wins",
    "losses",
    "draws",
)
# The order of a leaderboard (the all-time one's too): highest mu, then more games.
BOARD_ORDER = "mu DESC, games DESC, user_id ASC"


async def write_history(tx: Transaction, points: Sequence[RatingPoint]) -> None:
    """Store a result's rating history points."""
    if points:
        marks = ",".join("?" * len(HISTORY_COLUMNS))
        await tx.executemany(
            f"INSERT INTO rating_history({', '.join(HISTORY_COLUMNS)}) VALUES ({marks})",
            [
                (p.match_id, p.guild_id, p.game, p.user_id, p.pool, p.mu, p.sigma, p.games, p.at)
                for p in points
            ],
        )


async def write_season_ratings(tx: Transaction, ratings: Sequence[SeasonRating]) -> None:
    """Store a result's season ratings, each computed from the stored one with one game
    less (compare and set on ``games``, as the all-time rating), and note the season."""
    marks = ",".join("?" * len(SEASON_RATING_COLUMNS))
    updates = ", ".join(
        f"{column} = excluded.{column}"
        for column in SEASON_RATING_COLUMNS
        if column not in SEASON_RATING_KEY
    )
    for season in ratings:
        rating = season.rating
        await tx.execute(
            "INSERT INTO seasons(guild_id, season, ends_at) VALUES (?, ?, ?) "
            "ON CONFLICT(guild_id, season) DO NOTHING",
            (rating.guild_id, season.season, float(season.ends_at)),
        )
        changed = await tx.execute(
            f"INSERT INTO season_ratings({', '.join(SEASON_RATING_COLUMNS)}) VALUES ({marks}) "
            f"ON CONFLICT({', '.join(SEASON_RATING_KEY)}) DO UPDATE SET {updates} "
            "WHERE season_ratings.games = excluded.games - 1",
            (season.season, *mapping.rating_values(rating)),
        )
        if changed != 1:
            raise RatingConflict(
                f"the season rating of {rating.user_id} in {rating.game} changed meanwhile"
            )


def _season(row: Row) -> SeasonRecord:
    return SeasonRecord(
        guild_id=row["guild_id"],
        season=row["season"],
        ends_at=row["ends_at"],
        closed_at=row["closed_at"],
    )


class ProfileQueries(SqlAccess, ProfileRepository):
    """Rating history, opponents, season ratings and seasons."""

    async def rating_history(self, guild_id: int, user_id: int) -> list[RatingPoint]:
        """Every history point of a person on a server, oldest first."""
        rows = await self._fetch(
            "SELECT * FROM rating_history WHERE guild_id = ? AND user_id = ? "
            "ORDER BY game, pool, at, match_id",
            (guild_id, user_id),
        )
        return [RatingPoint(**{column: row[column] for column in HISTORY_COLUMNS}) for row in rows]

    async def opponent_records(self, guild_id: int, user_id: int) -> list[OpponentRecord]:
        """Per game, pool and opponent: the rated matches both played and who finished
        ahead (from the placements)."""
        rows = await self._fetch(
            "SELECT me.game, me.pool, o.user_id AS opponent_id, COUNT(*) AS games, "
            "SUM(CASE WHEN me.place < o.place THEN 1 ELSE 0 END) AS wins, "
            "SUM(CASE WHEN me.place > o.place THEN 1 ELSE 0 END) AS losses, "
            "SUM(CASE WHEN me.place = o.place THEN 1 ELSE 0 END) AS draws "
            "FROM placements me JOIN placements o "
            "ON o.match_id = me.match_id AND o.user_id <> me.user_id "
            "WHERE me.guild_id = ? AND me.user_id = ? "
            "GROUP BY me.game, me.pool, o.user_id",
            (guild_id, user_id),
        )
        return [
            OpponentRecord(
                game=row["game"],
                pool=row["pool"],
                opponent_id=row["opponent_id"],
                games=int(row["games"]),
                wins=int(row["wins"]),
                losses=int(row["losses"]),
                draws=int(row["draws"]),
            )
            for row in rows
        ]

    async def get_season_ratings(
        self, guild_id: int, season: str, game: str, user_ids: list[int], pool: str
    ) -> dict[int, RatingRecord]:
        sql, values = in_list(user_ids)
        rows = await self._fetch(
            "SELECT * FROM season_ratings WHERE guild_id = ? AND season = ? AND game = ? "
            f"AND pool = ? AND user_id IN ({sql})",
            (guild_id, season, game, pool, *values),
        )
        return {row["user_id"]: mapping.rating_from_row(row) for row in rows}

    async def season_leaderboard(
        self, guild_id: int, season: str, game: str, limit: int, pool: str
    ) -> list[RatingRecord]:
        """The season's ratings as they stand now, the board's order."""
        rows = await self._fetch(
            "SELECT * FROM season_ratings WHERE guild_id = ? AND season = ? AND game = ? "
            f"AND pool = ? AND games > 0 ORDER BY {BOARD_ORDER} LIMIT ?",
            (guild_id, season, game, pool, limit),
        )
        return [mapping.rating_from_row(row) for row in rows]

    async def seasons(self, guild_id: int) -> list[SeasonRecord]:
        """The server's seasons that had a result, the latest first."""
        rows = await self._fetch(
            "SELECT * FROM seasons WHERE guild_id = ? ORDER BY ends_at DESC, season DESC",
            (guild_id,),
        )
        return [_season(row) for row in rows]

    async def seasons_to_close(self, before: float) -> list[SeasonRecord]:
        """Open seasons (of any server) that ended before ``before``."""
        rows = await self._fetch(
            "SELECT * FROM seasons WHERE closed_at IS NULL AND ends_at <= ? "
            "ORDER BY ends_at, guild_id LIMIT 100",
            (before,),
        )
        return [_season(row) for row in rows]

    async def close_season(self, guild_id: int, season: str, at: float) -> bool:
        async with self._transaction() as tx:
            claimed = await tx.execute(
                "UPDATE seasons SET closed_at = ? "
                "WHERE guild_id = ? AND season = ? AND closed_at IS NULL",
                (at, guild_id, season),
            )
            if claimed != 1:
                return False
            await tx.execute(
                f"INSERT INTO season_standings({', '.join(STANDING_COLUMNS)}) "
                "SELECT guild_id, season, game, pool, "
                f"ROW_NUMBER() OVER (PARTITION BY game, pool ORDER BY {BOARD_ORDER}), "
                "user_id, mu, sigma, games, wins, losses, draws FROM season_ratings "
                "WHERE guild_id = ? AND season = ? AND games > 0",
                (guild_id, season),
            )
            return True

    async def season_posts_due(
        self, guild_ids: Iterable[int], lease_now: float
    ) -> list[SeasonRecord]:
        sql, values = in_list(guild_ids)
        if not values:
            return []
        rows = await self._fetch(
            f"SELECT * FROM seasons WHERE guild_id IN ({sql}) AND closed_at IS NOT NULL "
            "AND posted_at IS NULL AND (post_claimed_until IS NULL OR post_claimed_until <= ?) "
            "ORDER BY ends_at, guild_id LIMIT 100",
            (*values, float(lease_now)),
        )
        return [_season(row) for row in rows]

    async def claim_season_post(
        self, guild_id: int, season: str, owner: str, lease_now: float, lease_until: float
    ) -> bool:
        changed = await self._write(
            "UPDATE seasons SET post_claimed_by = ?, post_claimed_until = ? "
            "WHERE guild_id = ? AND season = ? AND closed_at IS NOT NULL AND posted_at IS NULL "
            "AND (post_claimed_until IS NULL OR post_claimed_until <= ? OR post_claimed_by = ?)",
            (owner, float(lease_until), guild_id, season, float(lease_now), owner),
        )
        return changed == 1

    async def season_post_done(self, guild_id: int, season: str, owner: str, at: float) -> bool:
        changed = await self._write(
            "UPDATE seasons SET posted_at = ?, post_claimed_by = NULL, post_claimed_until = NULL "
            "WHERE guild_id = ? AND season = ? AND posted_at IS NULL AND post_claimed_by = ?",
            (float(at), guild_id, season, owner),
        )
        return changed == 1

    async def season_standings(
        self, guild_id: int, season: str, game: str, limit: int, pool: str
    ) -> list[SeasonStanding]:
        """A closed season's final standings of a game and pool, first place first."""
        rows = await self._fetch(
            "SELECT * FROM season_standings WHERE guild_id = ? AND season = ? AND game = ? "
            "AND pool = ? ORDER BY rank LIMIT ?",
            (guild_id, season, game, pool, limit),
        )
        values: list[dict[str, Any]] = [
            {column: row[column] for column in STANDING_COLUMNS} for row in rows
        ]
        return [SeasonStanding(**value) for value in values]
