"""The worker-process pool that runs board-game searches off the Discord event loop.

A search is pure CPU work (up to ~5 s at level hard), so it runs in a separate process:
the event loop only awaits a future and stays free for every other match. The pool uses
the ``spawn`` start method, because forking a process that already runs an event loop and
database threads copies their locks in whatever state they happen to be in.

Every call carries the position as JSON (``state.to_json()``), so a worker holds no match
state and any worker can answer any call; the answer is a canonical move string that the
caller plays through the match service like a human move. A call that takes longer than
its level's time limit plus a grace period (worker start-up included) is answered in the
calling process by a quick, still legal, fallback move instead, so a match never hangs.

Leiff bot seats do not use this pool: the sensible seats' decisions are a few microseconds
of arithmetic over one view (:func:`engine.ai.leiff_bot.decide`), and the searching seats
(hard, master, and every stand-in for a player who left) think at most about a second,
which the service runs in a thread (``matchcore/service/bots.py``).

Module-level :func:`choose_move` and :func:`shutdown` use one shared pool, created on first
use with ``configure(max_workers)`` (default one worker, matching ``Settings.ai_workers``).
"""

from __future__ import annotations

import asyncio
import json
import logging
import multiprocessing
import os
from collections.abc import Awaitable, Callable
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool

from engine import board_game_names, get_board_game, origins, register_all
from engine.ai import puzzles, review
from engine.ai.levels import choose_move_from_json, get_level, position_seed, search_move
from matchcore.worker_processes import exit_with_parent

log = logging.getLogger(__name__)

ReviewProgress = Callable[[int, int], Awaitable[None]]

# Extra seconds allowed on top of a level's time limit before the fallback answers: the
# first call also pays for starting a worker and importing the engine.
GRACE_SECONDS = 10.0
# The fallback search: a quick look at the moves, well inside any Discord interaction.
FALLBACK_TIME_LIMIT = 0.2
# A review is scanned in parts of this many moves, each one call: the caller shows progress
# between them, and other searches (the bots' moves) get the worker between parts.
REVIEW_PART = 25
# Mining a finished match for puzzles: its last plies, each position's reading bounded.
MINE_LAST_PLIES = 24
MINE_BUDGET = 6_000
MINE_SECONDS_PER_POSITION = 5.0


def _fallback_move(state_json: str, game: str, level: str) -> str:
    state = get_board_game(game).from_json(state_json)
    return search_move(
        state, "easy", seed=position_seed(state_json, level), time_limit=FALLBACK_TIME_LIMIT
    ).move


def _choose_in_worker(
    games: tuple[str, ...], state_json: str, game: str, level: str, seed: int | None
) -> str:
    """The search, in a worker process: the games registered in the caller's process are
    registered here first (by their origins; a game known already is left as it is), so a
    game registered after the pool started is known too."""
    register_all(games)
    return choose_move_from_json(state_json, game, level, seed)


def _review_part(
    games: tuple[str, ...], state_json: str, game: str, start: int, stop: int
) -> list[dict[str, object]]:
    """The review's scan of moves ``start`` to ``stop`` of the finished game, in a worker."""
    register_all(games)
    positions = list(get_board_game(game).from_json(state_json).history())
    return [review.ply_dict(p) for p in review.scan(positions, start=start, stop=stop)]


def _review_end(
    games: tuple[str, ...], state_json: str, game: str, plies: list[dict[str, object]]
) -> str:
    """The review's second pass (the mistakes checked), in a worker: the review's JSON."""
    register_all(games)
    positions = list(get_board_game(game).from_json(state_json).history())
    done = review.conclude(positions, [review.ply_from(p) for p in plies])
    return json.dumps(done.to_dict(), sort_keys=True)


def _mine(games: tuple[str, ...], state_json: str, game: str) -> list[dict[str, object]]:
    """The puzzles of a finished game, in a worker (each as :meth:`Puzzle.to_dict`)."""
    register_all(games)
    positions = list(get_board_game(game).from_json(state_json).history())
    found = puzzles.mine_game(
        positions,
        horizon=puzzles.horizon_for(game),
        last_plies=MINE_LAST_PLIES,
        deadline_per_position=MINE_SECONDS_PER_POSITION,
        budget_per_position=MINE_BUDGET,
    )
    return [p.to_dict() for p in found]


def _validate(state_json: str, game: str, level: str) -> None:
    """Fail fast, in the caller, on a question no worker could answer."""
    if game not in board_game_names():
        raise ValueError(
            f"{game!r} is not a board game; the board games are: {', '.join(board_game_names())}"
        )
    get_level(level)
    if not isinstance(state_json, str):
        raise TypeError("state_json must be the text of state.to_json()")


class AIPool:
    """A pool of worker processes answering "which move?" for board-game positions."""

    def __init__(self, max_workers: int = 1, *, grace_seconds: float = GRACE_SECONDS) -> None:
        if max_workers < 1:
            raise ValueError("the AI pool needs at least one worker")
        self.max_workers = max_workers
        self.grace_seconds = grace_seconds
        self._executor: ProcessPoolExecutor | None = None

    def _pool(self) -> ProcessPoolExecutor:
        if self._executor is None:
            self._executor = ProcessPoolExecutor(
                max_workers=self.max_workers,
                mp_context=multiprocessing.get_context("spawn"),
                initializer=exit_with_parent,  # no worker outlives a killed bot
                initargs=(os.getpid(),),
            )
        return self._executor

    async def choose_move(
        self, state_json: str, game: str, level: str, *, seed: int | None = None
    ) -> str:
        """The AI's canonical move for the position ``state_json`` of ``game`` at ``level``.

        Deterministic for a given position, level and seed (the seed defaults to one derived
        from the position) as long as the search ends on its iteration cap.
        """
        _validate(state_json, game, level)
        level = level.strip().lower()
        loop = asyncio.get_running_loop()
        budget = get_level(level).time_limit + self.grace_seconds
        try:
            future = loop.run_in_executor(
                self._pool(), _choose_in_worker, origins(), state_json, game, level, seed
            )
            return await asyncio.wait_for(future, timeout=budget)
        except TimeoutError:
            log.warning(
                "AI search for %s at %s took over %.1f s; using the fallback", game, level, budget
            )
        except BrokenProcessPool:
            log.exception("the AI worker pool broke; starting a new one")
            await self._discard_pool()
        return await asyncio.to_thread(_fallback_move, state_json, game, level)

    async def review(
        self, state_json: str, game: str, progress: ReviewProgress | None = None
    ) -> str:
        """The review of the finished game ``state_json`` (its JSON), worked out in the
        workers a part at a time; ``progress(done, total)`` is awaited after each part."""
        if game not in board_game_names():
            raise ValueError(f"{game!r} is not a board game")
        loop = asyncio.get_running_loop()
        total = get_board_game(game).from_json(state_json).ply
        plies: list[dict[str, object]] = []
        for start in range(0, total, REVIEW_PART):
            stop = min(total, start + REVIEW_PART)
            part = await loop.run_in_executor(
                self._pool(), _review_part, origins(), state_json, game, start, stop
            )
            plies.extend(part)
            if progress is not None:
                await progress(stop, total)
        return await loop.run_in_executor(
            self._pool(), _review_end, origins(), state_json, game, plies
        )

    async def mine(self, state_json: str, game: str) -> list[dict[str, object]]:
        """The puzzles of a finished game (see :func:`engine.ai.puzzles.mine_game`)."""
        loop = asyncio.get_running_loop()
        return await loop.run_in_executor(self._pool(), _mine, origins(), state_json, game)

    async def _discard_pool(self) -> None:
        executor, self._executor = self._executor, None
        if executor is not None:
            await asyncio.to_thread(executor.shutdown, wait=False, cancel_futures=True)

    async def warm_up(self) -> None:
        """Start the workers now (they import the engine) instead of on the first move."""
        game = get_board_game(board_game_names()[0])
        await self.choose_move(game.new().to_json(), game.name, "easy", seed=0)

    async def shutdown(self) -> None:
        """Stop the workers; waits for searches already running to end (≤ 5 s each)."""
        executor, self._executor = self._executor, None
        if executor is not None:
            await asyncio.to_thread(executor.shutdown, wait=True, cancel_futures=True)


_shared: AIPool | None = None


def shared() -> AIPool:
    """The shared pool (created with one worker when nobody configured it)."""
    return _shared if _shared is not None else configure()


def configure(max_workers: int = 1) -> AIPool:
    """Create (or replace, when idle) the shared pool with ``max_workers`` workers."""
    global _shared
    _shared = AIPool(max_workers)
    return _shared


async def choose_move(state_json: str, game: str, level: str) -> str:
    """The shared pool's move for ``state_json`` (see :meth:`AIPool.choose_move`)."""
    pool = _shared if _shared is not None else configure()
    return await pool.choose_move(state_json, game, level)


async def shutdown() -> None:
    """Stop the shared pool's workers (call once when the bot closes)."""
    global _shared
    pool, _shared = _shared, None
    if pool is not None:
        await pool.shutdown()
