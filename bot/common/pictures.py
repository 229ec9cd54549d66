"""Drawing the pictures a message carries, off the event loop.

A thin adapter over :mod:`render`: the bot hands it an engine state or view and the players'
names and gets encoded image bytes back. With ``workers > 0`` (``RENDER_WORKERS``) the
drawing runs in that many worker processes, so the Python parts of drawing never compete
with the event loop for the interpreter lock; states travel as their small JSON form and
come back as PNG bytes. With ``workers == 0`` it uses the renderer's own worker threads
(``render.render_async``), which is lighter for tests and tiny servers.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import gc
import logging
import multiprocessing
import os
from collections.abc import Callable, Iterable, Iterator, Sequence
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from typing import Any, TypeVar

import render
from engine import board_game_names, get_board_game, origins, register_all, seen_once
from engine.board import BoardState
from engine.leiff import Leiff
from engine.leiff.views import LeiffView
from i18n import DEFAULT_LANGUAGE
from matchcore.worker_processes import exit_with_parent
from render import review as review_pictures
from render.annotations import board_panel, hint_cells
from render.encode import png_bytes
from render.rating_graph import GraphView, render_rating_graph
from render.standings import StandingsView, render_standings
from render.themes import get_theme
from tutorial import hint_picture, illegal_move_picture, tutorial_page

log = logging.getLogger(__name__)

# what a drawing function returns (PNG bytes, or a tuple of them for a tutorial page)
T = TypeVar("T")

BOARD_WIDTH = 480
HAND_WIDTH = 480


# ---- what runs in a worker (module-level so that it can be sent to a process) -----------
def board_png_from_json(
    game: str,
    state_json: str,
    names: tuple[str, ...],
    language: str = DEFAULT_LANGUAGE,
    hints: tuple[str, ...] | None = None,
    theme: str = "classic",
) -> bytes:
    """:func:`board_png` in a worker, from the state's JSON. ``hints`` are the cells to dot
    (:func:`render.annotations.hint_cells`), worked out by the bot, whose service knows the
    legal moves already: the worker would take milliseconds to find a Lublache 9-board's
    again. The same picture as :func:`board_png` draws."""
    state = get_board_game(game).from_json(state_json)
    if hints is None:
        return board_png(state, names, language, False, theme)
    pair = (names[0], names[1]) if len(names) >= 2 else ("", "")
    return render.board_png(
        state, names=pair, theme=theme, width=BOARD_WIDTH, language=language, hints=hints
    )


def board_png(
    state: BoardState,
    names: tuple[str, ...],
    language: str = DEFAULT_LANGUAGE,
    hints: bool = False,
    theme: str = "classic",
) -> bytes:
    """The board picture, its words in ``language``; with ``hints``, a dot on every cell
    where the player to move may put a stone (the same picture otherwise)."""
    pair = (names[0], names[1]) if len(names) >= 2 else ("", "")
    if hints:
        return hint_picture(state, names=pair, theme=theme, width=BOARD_WIDTH, language=language)
    return render.board_png(
        state, names=_pair(names), theme=theme, width=BOARD_WIDTH, language=language
    )


def table_png(
    view: LeiffView,
    names: tuple[str, ...],
    language: str = DEFAULT_LANGUAGE,
    theme: str = "classic",
) -> bytes:
    return render.table_png(view, names=names, language=language, theme=theme)


def hand_png(
    view: LeiffView,
    seat: int,
    names: tuple[str, ...],
    language: str = DEFAULT_LANGUAGE,
    theme: str = "classic",
) -> bytes:
    return render.hand_png(
        view, seat, names=names, width=HAND_WIDTH, language=language, theme=theme
    )


def replay_gif_from_json(
    game: str,
    state_json: str,
    names: tuple[str, ...],
    language: str = DEFAULT_LANGUAGE,
    theme: str = "classic",
) -> bytes:
    # positions seen once: the engine keeps nothing of them for other positions
    with _collector_paused(), seen_once():
        state = get_board_game(game).from_json(state_json)
        positions = list(state.history())
        if state.outcome is not None and positions[-1].outcome is None:
            # the match's last picture: a resignation, the clock or an agreement ended it,
            # which the moves alone do not say; the last frame shows the result
            positions[-1] = state
        return render.replay_gif(positions, names=_pair(names), language=language, theme=theme)


@contextlib.contextmanager
def _collector_paused() -> Iterator[None]:
    """Python's cycle collector paused for one replay.

    A replay keeps tens of thousands of small containers alive until it ends (every
    position's loop answers, for the next position to build on): the collector, which
    runs every few hundred new containers, walked them 25 to 40 times a 200-position
    Lublache replay and found nothing to free (reference counting frees them), for 6 to
    35 ms (a full pass now and then) of a replay's 100 or so. Garbage is freed meanwhile
    as always; cycles, if any, by the collector's first pass once it is resumed."""
    if not gc.isenabled():
        yield  # paused by someone else (a test, an outer replay): theirs to resume
        return
    gc.disable()
    try:
        yield
    finally:
        gc.enable()


def table_replay_gif(
    views: tuple[LeiffView, ...],
    names: tuple[str, ...],
    language: str = DEFAULT_LANGUAGE,
    theme: str = "classic",
) -> bytes:
    return render.table_replay_gif(views, names=names, language=language, theme=theme)


def refusal_png(
    state: BoardState, move: str, names: tuple[str, ...], language: str, theme: str
) -> bytes | None:
    """Why ``move`` is refused in ``state``, as a picture (None when words say it all)."""
    pair = (names[0], names[1]) if len(names) >= 2 else ("", "")
    return illegal_move_picture(
        state, move, names=pair, theme=theme, width=BOARD_WIDTH, language=language
    )


def refusal_png_from_json(
    game: str, state_json: str, move: str, names: tuple[str, ...], language: str, theme: str
) -> bytes | None:
    state = get_board_game(game).from_json(state_json)
    return refusal_png(state, move, names, language, theme)


def tutorial_png(game: str, number: int, language: str, theme: str) -> bytes:
    """A tutorial page's picture (each worker remembers the pages it has drawn)."""
    return tutorial_page(game, number, language, theme=theme).picture()


def _start_worker(bot: int, games: Iterable[str]) -> None:
    """A picture worker's start: it ends with the bot (process ``bot``), and knows the
    bot's games."""
    exit_with_parent(bot)
    register_all(games)


def _warm_up() -> int:
    """Import and draw once per kind of picture, so that no real picture pays for start-up.

    Besides the imports, each board size and the Leiff table and hand build their colour
    palette on first use (about 25 ms a board size, as much again with move hints, 85 ms
    for Leiff), and each board size checks once that its stones cannot touch
    (``render.indexed``; a few milliseconds more): drawing an empty board of every size,
    with and without hints, and a fresh table here, in the default theme that most servers
    keep, moves that cost out of the first moves' replies. Other themes pay it on first
    use."""
    drawn = 0
    for name in board_game_names():
        game = get_board_game(name)
        for size in game.sizes:
            empty = game.new(size=size)
            drawn += len(board_png(empty, ("", "")))
            drawn += len(board_png(empty, ("", ""), hints=True))  # the hint palette
    table = Leiff().new(players=2, seed=0)
    drawn += len(table_png(table.view(None), ("", "")))
    drawn += len(hand_png(table.view(0), 0, ("", "")))
    # As the bot does after start-up: what the worker holds now (modules, fonts, palettes,
    # sprites) lives as long as it does, so later full collections need not walk it; a long
    # one would hold up every picture queued behind it.
    gc.collect()
    gc.freeze()
    return drawn


def _pair(names: Sequence[str]) -> tuple[str, str]:
    """A board game's two names, seat A first."""
    first, second = names
    return first, second


def review_graph_png(
    chances: tuple[float, ...],
    turning_points: tuple[int, ...],
    mistakes: dict[int, int],
    title: str,
    axis_label: str,
    theme: str = "classic",
) -> bytes:
    """A review's evaluation graph (:func:`render.review.evaluation_graph`), as PNG."""
    image = review_pictures.evaluation_graph(
        chances,
        turning_points=turning_points,
        mistakes=mistakes,
        title=title,
        axis_label=axis_label,
        width=BOARD_WIDTH,
        theme=theme,
    )
    return png_bytes(image)


def review_move_png(
    game: str,
    state_json: str,
    played: str | None,
    better: str,
    caption: str,
    language: str = DEFAULT_LANGUAGE,
    theme: str = "classic",
) -> bytes:
    """A position with the move played and the better one marked, as PNG."""
    state = get_board_game(game).from_json(state_json)
    image = review_pictures.move_picture(
        state, played, better, caption=caption, width=BOARD_WIDTH, theme=theme, language=language
    )
    return png_bytes(image)


def puzzle_png(
    game: str,
    state_json: str,
    line: tuple[str, ...],
    caption: str,
    language: str = DEFAULT_LANGUAGE,
    theme: str = "classic",
) -> bytes:
    """A puzzle's position (``line`` empty) or its solution line drawn, as PNG."""
    state = get_board_game(game).from_json(state_json)
    if line:
        image = review_pictures.line_picture(
            state, line, caption=caption, width=BOARD_WIDTH, theme=theme, language=language
        )
    else:
        image = board_panel(
            state, caption=caption, width=BOARD_WIDTH, theme=theme, language=language
        ).image
    return png_bytes(image)


def rating_graph_png(view: GraphView, theme: str = "classic") -> bytes:
    """A member's rating graphs (:func:`render.rating_graph.render_rating_graph`), as PNG."""
    return render_rating_graph(view, get_theme(theme))


def standings_png(view: StandingsView, theme: str = "classic") -> bytes:
    """A tournament's standings (``render.standings``), as PNG."""
    return render_standings(view, get_theme(theme))


class Painter:
    """Turns states and views into PNG/GIF bytes without blocking the event loop."""

    def __init__(self, workers: int = 0) -> None:
        self.workers = max(0, workers)
        self._pool: ProcessPoolExecutor | None = None
        if self.workers:
            self._pool = self._new_pool()

    async def start(self) -> None:
        if self._pool is not None:
            loop = asyncio.get_running_loop()
            await asyncio.gather(
                *(loop.run_in_executor(self._pool, _warm_up) for _ in range(self.workers))
            )

    def close(self) -> None:
        if self._pool is not None:
            self._pool.shutdown(wait=False, cancel_futures=True)
            self._pool = None

    def _new_pool(self) -> ProcessPoolExecutor:
        # "spawn": a fresh interpreter per worker, never a fork of a running event loop
        context = multiprocessing.get_context("spawn")
        # each worker registers the games this process knows (a game added at run time too)
        return ProcessPoolExecutor(
            max_workers=self.workers,
            mp_context=context,
            initializer=_start_worker,
            initargs=(os.getpid(), origins()),
        )

    async def _run(self, func: Callable[..., T], *args: object) -> T:
        pool = self._pool
        if pool is not None:
            try:
                return await asyncio.get_running_loop().run_in_executor(pool, func, *args)
            except BrokenProcessPool:
                # A worker died (killed, out of memory): start fresh workers for the next
                # pictures and draw this one in a thread so the answer is not lost.
                log.warning("a picture worker died; starting new ones")
                if self._pool is pool:
                    pool.shutdown(wait=False, cancel_futures=True)
                    self._pool = self._new_pool()
        return await render.render_async(functools.partial(func, *args))

    async def board_png(
        self,
        state: BoardState,
        names: Sequence[str],
        language: str = DEFAULT_LANGUAGE,
        *,
        hints: bool = False,
        theme: str = "classic",
    ) -> bytes:
        """The board picture of a board-game state; ``names`` by seat (seat A first); its
        words in ``language``; ``hints`` marks where the player to move may play."""
        if self._pool is not None:
            return await self._run(
                board_png_from_json,
                state.game.name,
                state.to_json(),
                tuple(names),
                language,
                hint_cells(state, state.legal_moves()) if hints else None,
                theme,
            )
        return await self._run(board_png, state, tuple(names), language, hints, theme)

    async def table_png(
        self,
        view: LeiffView,
        names: Sequence[str],
        language: str = DEFAULT_LANGUAGE,
        *,
        theme: str = "classic",
    ) -> bytes:
        """The Leiff table as everybody sees it (the spectator view)."""
        return await self._run(table_png, view, tuple(names), language, theme)

    async def hand_png(
        self,
        view: LeiffView,
        seat: int,
        names: Sequence[str],
        language: str = DEFAULT_LANGUAGE,
        *,
        theme: str = "classic",
    ) -> bytes:
        """One player's private picture: their hand as they know it, and the table."""
        return await self._run(hand_png, view, seat, tuple(names), language, theme)

    async def refusal_png(
        self,
        state: BoardState,
        move: str,
        names: Sequence[str],
        language: str = "en",
        theme: str = "classic",
    ) -> bytes | None:
        """The board marking why ``move`` is refused (``tutorial.illegal_move_picture``), or
        None when the refusal names no stones."""
        if self._pool is not None:
            return await self._run(
                refusal_png_from_json,
                state.game.name,
                state.to_json(),
                move,
                tuple(names),
                language,
                theme,
            )
        return await self._run(refusal_png, state, move, tuple(names), language, theme)

    async def review_graph_png(self, *args: Any) -> bytes:
        """:func:`review_graph_png` off the event loop."""
        return await self._run(review_graph_png, *args)

    async def review_move_png(self, *args: Any) -> bytes:
        """:func:`review_move_png` off the event loop."""
        return await self._run(review_move_png, *args)

    async def rating_graph_png(self, view: GraphView, theme: str = "classic") -> bytes:
        """:func:`rating_graph_png` off the event loop."""
        return await self._run(rating_graph_png, view, theme)

    async def puzzle_png(self, *args: Any) -> bytes:
        """:func:`puzzle_png` off the event loop."""
        return await self._run(puzzle_png, *args)

    async def standings_png(self, view: StandingsView, theme: str = "classic") -> bytes:
        """:func:`standings_png` off the event loop."""
        return await self._run(standings_png, view, theme)

    async def tutorial_png(
        self, game: str, number: int, language: str, theme: str = "classic"
    ) -> bytes:
        """Page ``number`` of ``game``'s tutorial, its annotated picture."""
        return await self._run(tutorial_png, game, number, language, theme)

    async def replay_gif(
        self,
        state: BoardState,
        names: Sequence[str],
        language: str = DEFAULT_LANGUAGE,
        *,
        theme: str = "classic",
    ) -> bytes:
        """An animated GIF of a board-game match, one frame per position up to ``state``."""
        return await self._run(
            replay_gif_from_json, state.game.name, state.to_json(), tuple(names), language, theme
        )

    async def table_replay_gif(
        self,
        rounds: Sequence[LeiffView],
        names: Sequence[str],
        language: str = DEFAULT_LANGUAGE,
        *,
        theme: str = "classic",
    ) -> bytes:
        """An animated GIF of a finished Leiff table, one frame per round's end (the
        channel's views of ``TableReplay.rounds``)."""
        return await self._run(table_replay_gif, tuple(rounds), tuple(names), language, theme)
