"""What the repository keeps of learning from games: the interface (issue 37).

Reviews, puzzles, members' puzzle ratings and daily puzzles; every back end implements it
with :class:`matchcore.storage.sql_learning.LearningQueries`.
"""

from __future__ import annotations

import abc

from engine.ai.puzzles import Puzzle
from matchcore.learning_records import DailyPuzzle, PuzzlePlayer, StoredPuzzle


class LearningRepository(abc.ABC):
    """Reviews, puzzles and their players (the queries' docstrings say what each does)."""

    @abc.abstractmethod
    async def get_review(self, match_id: int) -> str | None: ...

    @abc.abstractmethod
    async def put_review(self, match_id: int, review: str, at: float) -> None: ...

    @abc.abstractmethod
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

    @abc.abstractmethod
    async def get_puzzle(self, puzzle_id: int) -> StoredPuzzle | None: ...

    @abc.abstractmethod
    async def count_puzzles(self, game: str, guild_id: int | None) -> int: ...

    @abc.abstractmethod
    async def puzzle_near(
        self, games: list[str], guild_id: int | None, user_id: int, rating: float
    ) -> StoredPuzzle | None:
        """The puzzle of one of ``games`` (the starter set's or this server's) the member has
        not tried whose rating is nearest ``rating``."""

    @abc.abstractmethod
    async def put_puzzle_rating(
        self, puzzle_id: int, rating: float, deviation: float, volatility: float
    ) -> None: ...

    @abc.abstractmethod
    async def get_puzzle_player(self, user_id: int) -> PuzzlePlayer | None: ...

    @abc.abstractmethod
    async def open_attempt(
        self, user_id: int, puzzle_id: int, guild_id: int | None, at: float
    ) -> None:
        """The member is shown the puzzle: their attempt is open until answered (showing
        the same puzzle again keeps its first showing)."""

    @abc.abstractmethod
    async def open_puzzle(self, user_id: int, since: float) -> int | None:
        """The puzzle the member was last shown, still unanswered, after ``since``."""

    @abc.abstractmethod
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

    @abc.abstractmethod
    async def solvers(self, puzzle_id: int, guild_id: int) -> list[int]:
        """Who on this server solved the puzzle, first solver first."""

    @abc.abstractmethod
    async def claim_mining(
        self, owner: str, now: float, until: float, guild_ids: list[int] | None = None
    ) -> int | None:
        """Claim one finished, rated board match not mined yet (nor claimed by a live
        lease): its id, or None when there is none."""

    @abc.abstractmethod
    async def finish_mining(self, match_id: int, owner: str, at: float) -> None: ...

    @abc.abstractmethod
    async def claim_daily(
        self, guild_id: int, day: str, puzzle_id: int, channel_id: int, owner: str, at: float
    ) -> bool:
        """Claim the server's puzzle of ``day``: True for exactly one caller, ever."""

    @abc.abstractmethod
    async def set_daily_message(self, guild_id: int, day: str, message_id: int) -> None: ...

    @abc.abstractmethod
    async def get_daily(self, guild_id: int, day: str) -> DailyPuzzle | None: ...
