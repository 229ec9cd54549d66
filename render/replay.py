"""A whole board game as an animated GIF: one frame per position, the last one held longer.

All frames share one palette, taken from the final position (it holds the most stones and
markers), so colours never flicker between frames and no frame needs its own quantising
pass. Pillow stores each frame as the rectangle that changed since the one before, with
unchanged pixels made transparent, which keeps even a long game far below Discord's 8 MB
limit.
"""

from __future__ import annotations

import io
from collections.abc import Iterable, Sequence

from PIL import Image

from engine.board import BoardState
from render.board import render_board
from render.geometry import MIN_WIDTH

FRAME_MS = 800
LAST_FRAME_MS = 4000
MAX_GIF_BYTES = 8 * 1024 * 1024
PALETTE_COLOURS = 96


def _encode(frames: list[Image.Image]) -> bytes:
    palette = frames[-1].quantize(colors=PALETTE_COLOURS, method=Image.Quantize.MEDIANCUT)
    indexed = [frame.quantize(palette=palette, dither=Image.Dither.NONE) for frame in frames]
    durations = [FRAME_MS] * (len(indexed) - 1) + [LAST_FRAME_MS]
    buffer = io.BytesIO()
    indexed[0].save(
        buffer,
        format="GIF",
        save_all=True,
        append_images=indexed[1:],
        duration=durations,
        loop=0,
        disposal=1,  # leave each frame in place: the next one only draws what changed
        # optimize: unchanged pixels inside a frame's changed rectangle become transparent,
        # which LZW compresses to almost nothing (a 60-move game: ~0.3 MB instead of ~2 MB)
        optimize=True,
    )
    return buffer.getvalue()


def replay_gif(
    states: Iterable[BoardState],
    *,
    names: Sequence[str] = ("", ""),
    theme: str = "classic",
    width: int = 400,
) -> bytes:
    """An animated GIF of ``states`` (e.g. ``state.history()``), one frame per state.

    The result is always under 8 MB: if a very long game would exceed that, the frames are
    drawn narrower until it fits.
    """
    positions = list(states)
    if not positions:
        raise ValueError("a replay needs at least one position")
    pair = (str(names[0]) if len(names) > 0 else "", str(names[1]) if len(names) > 1 else "")
    current = width
    while True:
        frames = [render_board(state, names=pair, theme=theme, width=current) for state in positions]
        data = _encode(frames)
        if len(data) < MAX_GIF_BYTES or current <= MIN_WIDTH:
            break
        current = max(MIN_WIDTH, int(current * 0.75))
    if len(data) >= MAX_GIF_BYTES:
        raise ValueError("this game is too long for a replay under 8 MB")
    return data
