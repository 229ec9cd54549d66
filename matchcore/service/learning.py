"""Learning from games: reviews of finished matches and puzzles (issue 37).

:class:`Reviews` works a finished board match's review out once, in the AI pool's worker
processes (the event loop only awaits it), and keeps it: a second request reads it back.
:class:`Puzzles` holds the puzzle library (the shipped starter set, loaded at start, and
the puzzles mined from a server's finished rated matches as claimed background work),
hands a member the untried puzzle nearest their puzzle rating, judges their answer
(Glicko-2 for the member and the puzzle alike, the member's streak) and claims each
server's daily puzzle once a day, whichever process asks first.
"""

from __future__ import annotations

import asyncio
import json
import zlib
from collections.abc import Awaitable, Callable, Mapping, Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Protocol

from engine import board_game_names
from engine.ai.puzzles import Puzzle, answer_is_right
from engine.ai.review import Review
from matchcore.learning_records import (
    START_DEVIATION,
    START_VOLATILITY,
    DailyPuzzle,
    PuzzleAnswer,
    PuzzlePlayer,
    StoredPuzzle,
)
from matchcore.service import puzzle_rating
from matchcore.service.errors import IllegalAction, NotFound
from matchcore.service.store import MatchStore

Progress = Callable[[int, int], Awaitable[None]]
# The shipped starter set: one JSON file per game (bench/mine_puzzles.py writes them).
STARTER_DIRECTORY = Path(__file__).resolve().parents[2] / "data" / "puzzles"
# A puzzle shown is answered with /move within this time; later /move is a move again.
ANSWER_SECONDS = 3600.0
# A claim on mining a match lasts this long (a process that dies lets it go).
MINING_LEASE_SECONDS = 600.0
# A new puzzle's deviation: it settles as members try it.
PUZZLE_DEVIATION = 200.0


class Analyst(Protocol):
    """What works reviews and puzzles out (the AI pool; tests may hand their own)."""

    async def review(self, state_json: str, game: str, progress: Progress | None = None) -> str: ...

    async def mine(self, state_json: str, game: str) -> list[dict[str, object]]: ...


@dataclass(frozen=True)
class MatchReview:
    """A finished match's review with what a front end needs to show it."""

    match_id: int
    game: str
    state_json: str  # the finished game (its record replays every position)
    review: Review
    players: Mapping[str, int | None]  # colour -> the user id (None: the bot)
    cached: bool  # True when it was read back, not worked out now


def _pool() -> Analyst:
    from matchcore import ai_pool

    return ai_pool.shared()


class Reviews:
    """Reviews of finished board matches, worked out once and kept."""

    def __init__(self, store: MatchStore, analyst: Analyst | None = None) -> None:
        self.store = store
        self.analyst = analyst
        self._running: dict[int, asyncio.Future[str]] = {}

    async def review(
        self, match_id: int, user_id: int, guild_id: int, progress: Progress | None = None
    ) -> MatchReview:
        """The review of a finished board match the member can see (a match of this
        server, or one they played in): read back, or worked out now with ``progress``
        awaited as it goes. Two requests at once in one process share one working out."""
        record = await self.store.load(match_id)
        seated = {s.user_id for s in record.seats}
        if record.guild_id != guild_id and user_id not in seated:
            raise NotFound("no_such_match")
        if record.game not in board_game_names() or record.state is None:
            raise IllegalAction("review_board_only")
        if record.status != "finished":
            raise IllegalAction("review_not_finished")
        players = {
            str(s.colour): (None if s.is_bot else s.user_id) for s in record.seats if s.colour
        }
        stored = await self.store.repo.get_review(match_id)
        cached = stored is not None
        if stored is None:
            running = self._running.get(match_id)
            if running is None:
                analyst = self.analyst or _pool()
                future = asyncio.ensure_future(analyst.review(record.state, record.game, progress))
                self._running[match_id] = future
                try:
                    stored = await future
                    await self.store.repo.put_review(match_id, stored, self.store.clock())
                finally:
                    self._running.pop(match_id, None)
            else:
                stored = await asyncio.shield(running)
        return MatchReview(
            match_id=match_id,
            game=record.game,
            state_json=record.state,
            review=Review.from_dict(json.loads(stored)),
            players=players,
            cached=cached,
        )


def starter_puzzles(directory: Path = STARTER_DIRECTORY) -> list[Puzzle]:
    """The shipped starter set (every game's file in ``directory``)."""
    found: list[Puzzle] = []
    for path in sorted(directory.glob("*.json")):
        body = json.loads(path.read_text())
        found.extend(Puzzle.from_dict(item) for item in body["puzzles"])
    return found


def day_of(at: float) -> str:
    """The UTC day of a Unix time, as daily puzzles are keyed: ``YYYY-MM-DD``."""
    import datetime

    return datetime.datetime.fromtimestamp(at, datetime.UTC).strftime("%Y-%m-%d")


class Puzzles:
    """The puzzle library, members' puzzle ratings and the servers' daily puzzles."""

    def __init__(self, store: MatchStore, analyst: Analyst | None = None) -> None:
        self.store = store
        self.repo = store.repo
        self.analyst = analyst
        self._starter_loaded = False

    async def _ready(self) -> None:
        """The shipped starter set is stored on the first call that needs puzzles."""
        if not self._starter_loaded:
            self._starter_loaded = True
            await self.load_starter()

    async def load_starter(self, puzzles: Sequence[Puzzle] | None = None) -> int:
        """Store the starter set's puzzles not stored yet; how many were new."""
        chosen = list(starter_puzzles() if puzzles is None else puzzles)
        if not chosen:
            return 0
        return await self.repo.add_puzzles(
            chosen, None, None, PUZZLE_DEVIATION, START_VOLATILITY, self.store.clock()
        )

    async def player(self, user_id: int) -> PuzzlePlayer:
        return await self.repo.get_puzzle_player(user_id) or PuzzlePlayer(user_id)

    async def next_puzzle(
        self, user_id: int, guild_id: int | None, game: str | None = None
    ) -> tuple[StoredPuzzle, PuzzlePlayer]:
        """The untried puzzle (of ``game``, or any board game) nearest the member's
        rating, now open for their answer."""
        await self._ready()
        player = await self.player(user_id)
        games = [game] if game else list(board_game_names())
        puzzle = await self.repo.puzzle_near(games, guild_id, user_id, player.rating)
        if puzzle is None:
            raise IllegalAction("no_puzzle_left")
        await self.repo.open_attempt(user_id, puzzle.id, guild_id, self.store.clock())
        return puzzle, player

    async def show(self, user_id: int, puzzle_id: int, guild_id: int | None) -> StoredPuzzle:
        """Open a given puzzle (the daily one) for the member's answer."""
        puzzle = await self.repo.get_puzzle(puzzle_id)
        if puzzle is None:
            raise NotFound("no_such_match")
        await self.repo.open_attempt(user_id, puzzle.id, guild_id, self.store.clock())
        return puzzle

    async def get(self, puzzle_id: int) -> StoredPuzzle | None:
        return await self.repo.get_puzzle(puzzle_id)

    async def open_puzzle(self, user_id: int) -> StoredPuzzle | None:
        """The puzzle the member was last shown and has not answered (within the hour)."""
        since = self.store.clock() - ANSWER_SECONDS
        puzzle_id = await self.repo.open_puzzle(user_id, since)
        return None if puzzle_id is None else await self.repo.get_puzzle(puzzle_id)

    async def answer(self, user_id: int, move: str) -> PuzzleAnswer | None:
        """Judge the member's answer to their open puzzle (None: no puzzle is open).
        Right or wrong, the attempt closes and both ratings move (Glicko-2)."""
        puzzle = await self.open_puzzle(user_id)
        if puzzle is None:
            return None
        before = await self.player(user_id)
        solved = answer_is_right(puzzle.puzzle, move)
        after, puzzle_after = puzzle_rating.rate(before, puzzle, solved)
        stored = await self.repo.record_answer(
            user_id,
            puzzle.id,
            " ".join(move.split()).lower(),
            solved,
            after,
            puzzle_after,
            self.store.clock(),
        )
        if not stored:
            return None
        return PuzzleAnswer(puzzle, move, solved, before, after)

    async def solvers(self, puzzle_id: int, guild_id: int) -> list[int]:
        return await self.repo.solvers(puzzle_id, guild_id)

    # ---- mining (claimed work) -------------------------------------------------------
    async def mine_one(self) -> int | None:
        """Mine one finished rated match no process has mined: the match's id (None when
        none is left). Its puzzles name the players by user id and the move."""
        now = self.store.clock()
        owner = self.store.owner
        match_id = await self.repo.claim_mining(owner, now, now + MINING_LEASE_SECONDS)
        if match_id is None:
            return None
        record = await self.store.load(match_id)
        if record.state is not None:
            analyst = self.analyst or _pool()
            found = await analyst.mine(record.state, record.game)
            players = {str(s.colour): s.user_id for s in record.seats if s.colour}
            puzzles = [_with_source(Puzzle.from_dict(data), players, match_id) for data in found]
            await self.repo.add_puzzles(
                puzzles,
                record.guild_id,
                match_id,
                PUZZLE_DEVIATION,
                START_VOLATILITY,
                self.store.clock(),
            )
        await self.repo.finish_mining(match_id, owner, self.store.clock())
        return match_id

    # ---- the daily puzzle ------------------------------------------------------------
    async def claim_daily(self, guild_id: int, channel_id: int) -> StoredPuzzle | None:
        """Today's puzzle of the server, when this caller is the one to post it (exactly
        one caller a day, across restarts and processes); None otherwise."""
        now = self.store.clock()
        day = day_of(now)
        if await self.repo.get_daily(guild_id, day) is not None:
            return None
        await self._ready()
        # the day's puzzle: near a rating the day picks, the same for every process
        target = 1200.0 + zlib.crc32(f"{guild_id}:{day}".encode()) % 900
        puzzle = await self.repo.puzzle_near(list(board_game_names()), guild_id, 0, target)
        if puzzle is None:
            return None
        owner = self.store.owner
        if not await self.repo.claim_daily(guild_id, day, puzzle.id, channel_id, owner, now):
            return None
        return puzzle

    async def daily_posted(self, guild_id: int, message_id: int) -> None:
        await self.repo.set_daily_message(guild_id, day_of(self.store.clock()), message_id)

    async def daily(self, guild_id: int) -> DailyPuzzle | None:
        return await self.repo.get_daily(guild_id, day_of(self.store.clock()))


def _with_source(puzzle: Puzzle, players: Mapping[str, int | None], match_id: int) -> Puzzle:
    first, second = puzzle.position().game.colors
    source = {
        **dict(puzzle.source),
        "match": match_id,
        "user_ids": [players.get(first), players.get(second)],
    }
    return replace(puzzle, source=source)


__all__ = [
    "START_DEVIATION",
    "Analyst",
    "MatchReview",
    "Puzzles",
    "Reviews",
    "day_of",
    "starter_puzzles",
]
