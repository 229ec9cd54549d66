"""The SQL of learning from games: reviews, puzzles, puzzle ratings, daily puzzles.

A group of queries of :class:`matchcore.storage.sql.SqlRepository`, written once for
SQLite and PostgreSQL over a back end's :class:`matchcore.storage.sql_access.SqlAccess`
(migration ``0015_reviews_and_puzzles``). Claims are single statements whose row count says
who won them, so two processes never both mine a match or post a day's puzzle.
"""

from __future__ import annotations

import json

from engine.ai.puzzles import Puzzle
from engine.registry import board_game_names
from matchcore.learning_records import DailyPuzzle, PuzzlePlayer, StoredPuzzle
from matchcore.storage.mapping import Row
from matchcore.storage.sql_access import SqlAccess


def position_key(puzzle: Puzzle) -> str:
    """The same position (stones and side to move) of a game is one puzzle."""
    stones = ",".join(f"{cell}:{colour}" for cell, colour in sorted(puzzle.stones.items()))
    return f"{puzzle.size}/{puzzle.to_move}/{stones}"


def _puzzle(row: Row) -> StoredPuzzle:
    return StoredPuzzle(
        id=int(row["id"]),
        guild_id=row["guild_id"],
        puzzle=Puzzle.from_dict(json.loads(row["body"])),
        rating=float(row["rating"]),
        deviation=float(row["deviation"]),
        volatility=float(row["volatility"]),
        match_id=row["match_id"],
    )


def _player(row: Row) -> PuzzlePlayer:
    return PuzzlePlayer(
        user_id=int(row["user_id"]),
        rating=float(row["rating"]),
        deviation=float(row["deviation"]),
        volatility=float(row["volatility"]),
        streak=int(row["streak"]),
        best_streak=int(row["best_streak"]),
        solved=int(row["solved"]),
        failed=int(row["failed"]),
    )


_PUZZLE = "id, guild_id, body, rating, deviation, volatility, match_id"


class LearningQueries(SqlAccess):
    """Reviews, puzzles and their players."""

    # ---- reviews ---------------------------------------------------------------------
    async def get_review(self, match_id: int) -> str | None:
        rows = await self._fetch("SELECT review FROM match_reviews WHERE match_id = ?", (match_id,))
        return str(rows[0]["review"]) if rows else None

    async def put_review(self, match_id: int, review: str, at: float) -> None:
        await self._write(
            "INSERT INTO match_reviews(match_id, review, created_at) VALUES (?, ?, ?) "
            "ON CONFLICT(match_id) DO NOTHING",
            (match_id, review, float(at)),
        )

    # ---- puzzles ---------------------------------------------------------------------
    async def add_puzzles(
        self,
        puzzles: list[Puzzle],
        guild_id: int | None,
        match_id: int | None,
        deviation: float,
        volatility: float,
        at: float,
    ) -> int:
        """Store the puzzles whose position is new; how many were new."""
        added = 0
        async with self._transaction() as tx:
            for puzzle in puzzles:
                added += await tx.execute(
                    "INSERT INTO puzzles(guild_id, game, position_key, body, rating, deviation, "
                    "volatility, match_id, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?) "
                    "ON CONFLICT(game, position_key) DO NOTHING",
                    (
                        guild_id,
                        puzzle.game,
                        position_key(puzzle),
                        json.dumps(puzzle.to_dict(), sort_keys=True),
                        puzzle.rating,
                        deviation,
                        volatility,
                        match_id,
                        float(at),
                    ),
                )
        return added

    async def get_puzzle(self, puzzle_id: int) -> StoredPuzzle | None:
        rows = await self._fetch(f"SELECT {_PUZZLE} FROM puzzles WHERE id = ?", (puzzle_id,))
        return _puzzle(rows[0]) if rows else None

    async def count_puzzles(self, game: str, guild_id: int | None) -> int:
        rows = await self._fetch(
            "SELECT COUNT(*) AS n FROM puzzles WHERE game = ? AND (guild_id IS NULL OR guild_id = ?)",
            (game, guild_id),
        )
        return int(rows[0]["n"])

    async def puzzle_near(
        self, games: list[str], guild_id: int | None, user_id: int, rating: float
    ) -> StoredPuzzle | None:
        """The puzzle of one of ``games`` (the starter set's or this server's) the member has
        not tried whose rating is nearest ``rating``."""
        marks = ",".join("?" * len(games))
        rows = await self._fetch(
            f"SELECT {_PUZZLE} FROM puzzles WHERE game IN ({marks}) "
            "AND (guild_id IS NULL OR guild_id = ?) AND id NOT IN "
            "(SELECT puzzle_id FROM puzzle_attempts WHERE user_id = ?) "
            "ORDER BY ABS(rating - ?), id LIMIT 1",
            (*games, guild_id, user_id, float(rating)),
        )
        return _puzzle(rows[0]) if rows else None

    async def put_puzzle_rating(
        self, puzzle_id: int, rating: float, deviation: float, volatility: float
    ) -> None:
        await self._write(
            "UPDATE puzzles SET rating = ?, deviation = ?, volatility = ? WHERE id = ?",
            (float(rating), float(deviation), float(volatility), puzzle_id),
        )

    # ---- members ---------------------------------------------------------------------
    async def get_puzzle_player(self, user_id: int) -> PuzzlePlayer | None:
        rows = await self._fetch("SELECT * FROM puzzle_players WHERE user_id = ?", (user_id,))
        return _player(rows[0]) if rows else None

    async def open_attempt(
        self, user_id: int, puzzle_id: int, guild_id: int | None, at: float
    ) -> None:
        """The member is shown the puzzle: their attempt is open until answered (showing
        the same puzzle again keeps its first showing)."""
        await self._write(
            "INSERT INTO puzzle_attempts(user_id, puzzle_id, guild_id, started_at) "
            "VALUES (?, ?, ?, ?) ON CONFLICT(user_id, puzzle_id) DO NOTHING",
            (user_id, puzzle_id, guild_id, float(at)),
        )

    async def open_puzzle(self, user_id: int, since: float) -> int | None:
        """The puzzle the member was last shown, still unanswered, after ``since``."""
        rows = await self._fetch(
            "SELECT puzzle_id FROM puzzle_attempts WHERE user_id = ? AND answered_at IS NULL "
            "AND started_at >= ? ORDER BY started_at DESC, puzzle_id DESC LIMIT 1",
            (user_id, float(since)),
        )
        return int(rows[0]["puzzle_id"]) if rows else None

    async def record_answer(
        self,
        user_id: int,
        puzzle_id: int,
        answer: str,
        solved: bool,
        player: PuzzlePlayer,
        puzzle_rating: tuple[float, float, float],
        at: float,
    ) -> bool:
        """Close the open attempt and store both new ratings, in one transaction; False
        (nothing stored) when the attempt was already answered (by another process)."""
        async with self._transaction() as tx:
            closed = await tx.execute(
                "UPDATE puzzle_attempts SET answered_at = ?, answer = ?, solved = ? "
                "WHERE user_id = ? AND puzzle_id = ? AND answered_at IS NULL",
                (float(at), answer, solved, user_id, puzzle_id),
            )
            if closed != 1:
                return False
            await tx.execute(
                "INSERT INTO puzzle_players(user_id, rating, deviation, volatility, streak, "
                "best_streak, solved, failed, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?) "
                "ON CONFLICT(user_id) DO UPDATE SET rating = excluded.rating, "
                "deviation = excluded.deviation, volatility = excluded.volatility, "
                "streak = excluded.streak, best_streak = excluded.best_streak, "
                "solved = excluded.solved, failed = excluded.failed, "
                "updated_at = excluded.updated_at",
                (
                    user_id,
                    player.rating,
                    player.deviation,
                    player.volatility,
                    player.streak,
                    player.best_streak,
                    player.solved,
                    player.failed,
                    float(at),
                ),
            )
            rating, deviation, volatility = puzzle_rating
            await tx.execute(
                "UPDATE puzzles SET rating = ?, deviation = ?, volatility = ? WHERE id = ?",
                (rating, deviation, volatility, puzzle_id),
            )
        return True

    async def solvers(self, puzzle_id: int, guild_id: int) -> list[int]:
        """Who on this server solved the puzzle, first solver first."""
        rows = await self._fetch(
            "SELECT user_id FROM puzzle_attempts WHERE puzzle_id = ? AND guild_id = ? "
            "AND solved = ? ORDER BY answered_at, user_id",
            (puzzle_id, guild_id, True),
        )
        return [int(row["user_id"]) for row in rows]

    # ---- mining (claimed work) -------------------------------------------------------
    async def claim_mining(
        self, owner: str, now: float, until: float, guild_ids: list[int] | None = None
    ) -> int | None:
        """Claim one finished, rated board match not mined yet (nor claimed by a live
        lease): its id, or None when there is none."""
        games = board_game_names()
        marks = ",".join("?" * len(games))
        rows = await self._fetch(
            "SELECT m.id FROM matches m LEFT JOIN puzzle_mining p ON p.match_id = m.id "
            f"WHERE m.status = 'finished' AND m.rated = ? AND m.vs_bot = ? "
            f"AND m.game IN ({marks}) "
            "AND (p.match_id IS NULL OR (p.done_at IS NULL AND p.claimed_until <= ?)) "
            "ORDER BY m.id LIMIT 5",
            (True, False, *games, float(now)),
        )
        for row in rows:
            match_id = int(row["id"])
            async with self._transaction() as tx:
                await tx.execute(
                    "INSERT INTO puzzle_mining(match_id, claimed_by, claimed_until) "
                    "VALUES (?, NULL, ?) ON CONFLICT(match_id) DO NOTHING",
                    (match_id, float(now)),
                )
                taken = await tx.execute(
                    "UPDATE puzzle_mining SET claimed_by = ?, claimed_until = ? "
                    "WHERE match_id = ? AND done_at IS NULL AND claimed_until <= ?",
                    (owner, float(until), match_id, float(now)),
                )
            if taken == 1:
                return match_id
        return None

    async def finish_mining(self, match_id: int, owner: str, at: float) -> None:
        await self._write(
            "UPDATE puzzle_mining SET done_at = ?, claimed_until = NULL "
            "WHERE match_id = ? AND claimed_by = ?",
            (float(at), match_id, owner),
        )

    # ---- daily puzzles ---------------------------------------------------------------
    async def claim_daily(
        self, guild_id: int, day: str, puzzle_id: int, channel_id: int, owner: str, at: float
    ) -> bool:
        """Claim the server's puzzle of ``day``: True for exactly one caller, ever."""
        return (
            await self._write(
                "INSERT INTO daily_puzzles(guild_id, day, puzzle_id, channel_id, posted_by, "
                "created_at) VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT(guild_id, day) DO NOTHING",
                (guild_id, day, puzzle_id, channel_id, owner, float(at)),
            )
            == 1
        )

    async def set_daily_message(self, guild_id: int, day: str, message_id: int) -> None:
        await self._write(
            "UPDATE daily_puzzles SET message_id = ? WHERE guild_id = ? AND day = ?",
            (message_id, guild_id, day),
        )

    async def get_daily(self, guild_id: int, day: str) -> DailyPuzzle | None:
        rows = await self._fetch(
            "SELECT * FROM daily_puzzles WHERE guild_id = ? AND day = ?", (guild_id, day)
        )
        if not rows:
            return None
        row = rows[0]
        return DailyPuzzle(
            guild_id=int(row["guild_id"]),
            day=str(row["day"]),
            puzzle_id=int(row["puzzle_id"]),
            channel_id=int(row["channel_id"]),
            message_id=row["message_id"],
            posted_by=str(row["posted_by"]),
        )
