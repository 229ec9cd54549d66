"""Drawing the pictures a message carries, off the event loop.

A thin adapter over :mod:`render`: the bot hands it an engine state or view and the players'
names, and gets encoded image bytes back. Rendering runs in the renderer's worker threads
(``render.render_async``) so the event loop keeps answering interactions meanwhile.
"""

from __future__ import annotations

import functools
from collections.abc import Sequence
from typing import Any

import render

BOARD_WIDTH = 480
HAND_WIDTH = 480


async def _draw(func: Any, *args: Any, **kwargs: Any) -> Any:
    return await render.render_async(functools.partial(func, *args, **kwargs))


async def board_png(state: Any, names: Sequence[str]) -> bytes:
    """The board picture of a board-game state; ``names`` by seat (seat A first)."""
    return await _draw(_board_png, state, tuple(names))


def _board_png(state: Any, names: tuple[str, ...]) -> bytes:
    return render.png_bytes(render.render_board(state, names=names, width=BOARD_WIDTH))


async def table_png(view: dict[str, Any], names: Sequence[str]) -> bytes:
    """The Leiff table as everybody sees it (the spectator view)."""
    return await _draw(_table_png, view, tuple(names))


def _table_png(view: dict[str, Any], names: tuple[str, ...]) -> bytes:
    return render.png_bytes(render.render_table(view, names=names))


async def hand_png(view: dict[str, Any], seat: int, names: Sequence[str]) -> bytes:
    """One player's private picture: their hand as they know it, and the table."""
    return await _draw(_hand_png, view, seat, tuple(names))


def _hand_png(view: dict[str, Any], seat: int, names: tuple[str, ...]) -> bytes:
    return render.png_bytes(render.render_hand(view, seat, names=names))


async def replay_gif(states: Sequence[Any], names: Sequence[str]) -> bytes:
    """An animated GIF of a finished board-game match, one frame per position."""
    return await _draw(render.replay_gif, list(states), names=tuple(names))
