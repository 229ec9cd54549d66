"""Pictures made of horizontal bands, each a pure function of its own arguments.

A Leiff table is a stack of strips: the header, the piles, one block per seat, the legend.
An action changes two or three of them (the status line, the piles, the seat that acted
and the seat to act next); the others come back pixel for pixel in the table's next
picture. So a picture is described as :class:`Band` s: the rows a band covers, the function
that draws it and the arguments it draws from. :func:`draw_bands` draws them all, in order,
on an RGB picture (the reference); :func:`bands_png` gives that picture's PNG file while
drawing and mapping to the palette only the bands it has not seen before: the others are
pasted as palette indices kept from earlier pictures.

A band's rows are compressed on their own too (:func:`render.encode.compressed_rows`), and
the compressed piece is kept with its indices: a picture's file is its kept pieces and the
new bands' pieces joined into one stream (:func:`render.encode.segmented_png_bytes`).

Mapping a pixel to the palette depends on that pixel alone, so the file is byte for byte
``png_bytes`` of the RGB picture (told where its bands meet, ``SEGMENTS_INFO``: see
:func:`band_cuts`) provided that a band paints nothing outside its rows and that its pixels
depend on nothing but its function and arguments. The first is checked by the tests, band
by band; the second is why a band's function takes plain values (names, lines of text, card
labels, a theme's name) rather than a whole view.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Callable, Hashable, Sequence
from dataclasses import dataclass
from typing import Any

from PIL import Image

from render.encode import PALETTE_COLOURS, Piece, compressed_rows, segmented_png_bytes

# bands kept as indices (and compressed, a twentieth of that), for all pictures: about 350
# of a table's seat blocks at 480 px (45 KB each), fewer of wider pictures
KEPT_BYTES = 16 * 2**20

Draw = Callable[..., Any]


@dataclass(frozen=True)
class Band:
    """Rows ``top`` to ``bottom`` (excluded) of a picture, drawn by ``draw(image, *args)``
    from ``args`` alone (whole pixels; ``args`` hashable)."""

    top: int
    bottom: int
    draw: Draw
    args: tuple[Hashable, ...]

    def paint(self, image: Image.Image) -> None:
        self.draw(image, *self.args)


def draw_bands(image: Image.Image, bands: Sequence[Band]) -> None:
    """Draw every band on ``image``, in order: the reference picture."""
    for band in bands:
        band.paint(image)


def band_cuts(bands: Sequence[Band]) -> tuple[int, ...]:
    """The rows where one band meets the next, for ``image.info[SEGMENTS_INFO]``: the file
    of the reference picture is then compressed band by band, as :func:`bands_png` does."""
    return tuple(band.top for band in bands if band.bottom > band.top and band.top > 0)


# a band's indices by its rows, its function and its arguments, for every picture drawn in
# this process; render_async draws on several threads
_kept: OrderedDict[tuple[Hashable, ...], tuple[Image.Image, Piece]] = OrderedDict()
_kept_lock = threading.Lock()
_kept_bytes = 0


def _keep(key: tuple[Hashable, ...], tile: Image.Image, piece: Piece) -> None:
    global _kept_bytes
    with _kept_lock:
        if key in _kept:
            return
        _kept[key] = (tile, piece)
        _kept_bytes += _kept_size(tile, piece)
        while _kept_bytes > KEPT_BYTES and len(_kept) > 1:
            _, (dropped, dropped_piece) = _kept.popitem(last=False)
            _kept_bytes -= _kept_size(dropped, dropped_piece)


def _kept_size(tile: Image.Image, piece: Piece) -> int:
    return tile.width * tile.height + len(piece.data)


def bands_png(
    size: tuple[int, int],
    background: tuple[int, int, int],
    palette: Image.Image,
    bands: Sequence[Band],
    level: int,
) -> bytes:
    """The PNG file of the picture that :func:`draw_bands` draws on a ``size`` picture of
    ``background`` colour, mapped to ``palette`` and compressed at ``level`` band by band:
    the same bytes as ``png_bytes`` of that picture (with its :func:`band_cuts`), drawing,
    mapping and compressing only the bands no earlier picture had."""
    width, height = size
    rows = 0
    for band in bands:
        if band.top != rows or band.bottom < band.top:
            raise ValueError(f"band {band.draw.__name__} starts at row {band.top}, not {rows}")
        rows = band.bottom
    if rows != height:
        raise ValueError(f"the bands cover {rows} rows of a picture {height} rows high")
    colours = bytes(palette.getpalette() or [])
    pieces: list[Piece] = []
    canvas: Image.Image | None = None
    for band in bands:
        if band.bottom == band.top:
            continue  # (a strip with nothing to show this time)
        key = (width, band.top, band.bottom, band.draw, band.args, background, colours, level)
        with _kept_lock:
            found = _kept.get(key)
            if found is not None:
                _kept.move_to_end(key)
        if found is None:
            if canvas is None:
                canvas = Image.new("RGB", size, background)
            band.paint(canvas)
            strip = canvas.crop((0, band.top, width, band.bottom))
            tile = strip.quantize(palette=palette, dither=Image.Dither.NONE)
            found = (tile, compressed_rows(tile, level))
            _keep(key, *found)
        pieces.append(found[1])
    return segmented_png_bytes(size, colours[: 3 * PALETTE_COLOURS], pieces, level)
