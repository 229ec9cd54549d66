"""A whole board game as an animated GIF: one frame per position, the last one held longer.

All frames share one palette, taken from the final position (it holds the most stones and
markers), so colours never flicker between frames and no frame needs its own quantising
pass. Every frame after the first keeps only the pixels that changed since the one before
(the rest transparent, which LZW compresses to almost nothing) and Pillow crops it to the
changed rectangle, which keeps even a long game far below Discord's 8 MB limit.
"""

from __future__ import annotations

import io
import itertools
from collections.abc import Iterable, Sequence

from PIL import Image, ImageChops

from engine.board import BoardState
from i18n import DEFAULT_LANGUAGE
from render.board import render_board
from render.geometry import MIN_WIDTH

FRAME_MS = 800
LAST_FRAME_MS = 4000
MAX_GIF_BYTES = 8 * 1024 * 1024
TRANSPARENT = 255  # palette index of 'unchanged' pixels; the frames use the 255 others


def _indices(frame: Image.Image) -> Image.Image:
    """A palette image's raw colour indices as a greyscale image (for exact comparisons)."""
    return Image.frombytes("L", frame.size, frame.tobytes())


def _encode(frames: list[Image.Image]) -> bytes:
    # index TRANSPARENT stays free in the palette: it marks "unchanged since the last frame"
    palette = frames[-1].quantize(colors=TRANSPARENT, method=Image.Quantize.FASTOCTREE)
    indexed = [frame.quantize(palette=palette, dither=Image.Dither.NONE) for frame in frames]
    deltas = [indexed[0]]
    for before, after in itertools.pairwise(indexed):
        unchanged = ImageChops.difference(_indices(after), _indices(before)).point(
            [255, *([0] * 255)], "1"
        )
        delta = after.copy()
        delta.paste(TRANSPARENT, mask=unchanged)
        deltas.append(delta)
    durations = [FRAME_MS] * (len(deltas) - 1) + [LAST_FRAME_MS]
    buffer = io.BytesIO()
    deltas[0].save(
        buffer,
        format="GIF",
        save_all=True,
        append_images=deltas[1:],
        duration=durations,
        loop=0,
        # each frame stays on screen under the next, which only paints what changed (its
        # other pixels are transparent); Pillow also crops every frame to its changed box
        disposal=1,
        transparency=TRANSPARENT,
        optimize=False,
    )
    return buffer.getvalue()


def replay_gif(
    states: Iterable[BoardState],
    *,
    names: Sequence[str] = ("", ""),
    theme: str = "classic",
    width: int = 400,
    language: str = DEFAULT_LANGUAGE,
) -> bytes:
    """An animated GIF of ``states`` (e.g. ``state.history()``), one frame per state, its
    headers in the reader's ``language``.

    The result is always under 8 MB: if a very long game would exceed that, the frames are
    drawn narrower until it fits.
    """
    positions = list(states)
    if not positions:
        raise ValueError("a replay needs at least one position")
    pair = (str(names[0]) if len(names) > 0 else "", str(names[1]) if len(names) > 1 else "")
    current = width
    while True:
        frames = [
            render_board(state, names=pair, theme=theme, width=current, language=language)
            for state in positions
        ]
        data = _encode(frames)
        if len(data) < MAX_GIF_BYTES or current <= MIN_WIDTH:
            break
        current = max(MIN_WIDTH, int(current * 0.75))
    if len(data) >= MAX_GIF_BYTES:
        raise ValueError("this game is too long for a replay under 8 MB")
    return data
