"""Small antialiased shapes (stones, markers) drawn once and pasted many times.

Pillow draws circles without antialiasing, so each shape is drawn four times larger and
scaled down. A sprite is a colour image plus a separate coverage mask: the colour layer is
solid under the whole mask, so scaling never mixes in a stray background colour. Sprites
are cached per (shape, size, colours), which is what keeps a whole board cheap to draw:
pasting is all a render does per stone.
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any

from PIL import Image, ImageDraw

SUPERSAMPLE = 4
RGB = tuple[int, int, int]


@dataclass(frozen=True)
class Sprite:
    colour: Image.Image  # RGB
    mask: Image.Image  # L, coverage
    half: int  # the sprite is 2·half+1 pixels square; its centre pixel is (half, half)
    _cores: tuple[Any, Any, int] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        # the cores, fetched once: Image.im is a property that checks the image every time,
        # and a board pastes a few hundred sprites
        object.__setattr__(self, "_cores", (self.colour.im, self.mask.im, 2 * self.half + 1))

    def paste_on(self, image: Image.Image, centre: tuple[float, float]) -> None:
        x = math.floor(centre[0]) - self.half
        y = math.floor(centre[1]) - self.half
        colour, mask, side = self._cores
        # Image.paste() with its checks costs more than the pasting of a small sprite; the
        # core call is the very same operation (our images are plain in-memory ones)
        image.load()
        image.im.paste(colour, (x, y, x + side, y + side), mask)


def paste_all(image: Image.Image, marks: Iterable[tuple[Sprite, tuple[float, float]]]) -> None:
    """:meth:`Sprite.paste_on` for each (sprite, centre) in turn: the same pixels, with the
    picture's core fetched once for a board's few hundred sprites."""
    image.load()
    core = image.im
    floor = math.floor
    for sprite, (cx, cy) in marks:
        colour, mask, side = sprite._cores
        x = floor(cx) - sprite.half
        y = floor(cy) - sprite.half
        core.paste(colour, (x, y, x + side, y + side), mask)


def _canvas(
    half: int,
) -> tuple[Image.Image, Image.Image, ImageDraw.ImageDraw, ImageDraw.ImageDraw, float]:
    side = (2 * half + 1) * SUPERSAMPLE
    colour = Image.new("RGB", (side, side))
    mask = Image.new("L", (side, side), 0)
    # the centre of the middle pixel, in supersampled coordinates
    middle = (half + 0.5) * SUPERSAMPLE
    return colour, mask, ImageDraw.Draw(colour), ImageDraw.Draw(mask), middle


def _finish(colour: Image.Image, mask: Image.Image, half: int) -> Sprite:
    side = 2 * half + 1
    return Sprite(
        colour=colour.resize((side, side), Image.Resampling.BOX),
        mask=mask.resize((side, side), Image.Resampling.BOX),
        half=half,
    )


def _circle(draw: ImageDraw.ImageDraw, middle: float, radius: float, fill: int | RGB) -> None:
    r = radius * SUPERSAMPLE
    draw.ellipse((middle - r, middle - r, middle + r, middle + r), fill=fill)


@lru_cache(maxsize=256)
def stone(radius: float, fill: RGB, edge: RGB, edge_width: float) -> Sprite:
    """A disc of ``radius`` pixels: ``fill`` inside an ``edge`` rim."""
    half = math.ceil(radius) + 1
    colour, mask, draw_colour, draw_mask, middle = _canvas(half)
    draw_colour.rectangle((0, 0, *colour.size), fill=edge)
    _circle(draw_colour, middle, radius - edge_width, fill)
    _circle(draw_mask, middle, radius, 255)
    return _finish(colour, mask, half)


@lru_cache(maxsize=256)
def ring(inner: float, outer: float, colour_rgb: RGB) -> Sprite:
    """An annulus between ``inner`` and ``outer`` radii (the 'placed here' marker)."""
    half = math.ceil(outer) + 1
    colour, mask, draw_colour, draw_mask, middle = _canvas(half)
    draw_colour.rectangle((0, 0, *colour.size), fill=colour_rgb)
    _circle(draw_mask, middle, outer, 255)
    _circle(draw_mask, middle, inner, 0)
    return _finish(colour, mask, half)


def _polyline_mask(
    draw_mask: ImageDraw.ImageDraw, points: list[tuple[float, float]], width: float
) -> None:
    draw_mask.line(points, fill=255, width=max(1, round(width * SUPERSAMPLE)), joint="curve")


@lru_cache(maxsize=256)
def broken_cross(reach: float, gap: float, width: float, colour_rgb: RGB) -> Sprite:
    """An X whose four arms run from ``gap`` to ``reach`` pixels out, leaving the middle free
    for the cell label (the 'captured' marker)."""
    half = math.ceil(reach + width) + 1
    colour, mask, draw_colour, draw_mask, middle = _canvas(half)
    draw_colour.rectangle((0, 0, *colour.size), fill=colour_rgb)
    for dx, dy in ((1, 1), (1, -1), (-1, 1), (-1, -1)):
        unit = math.sqrt(0.5)
        start = (middle + dx * unit * gap * SUPERSAMPLE, middle + dy * unit * gap * SUPERSAMPLE)
        end = (middle + dx * unit * reach * SUPERSAMPLE, middle + dy * unit * reach * SUPERSAMPLE)
        _polyline_mask(draw_mask, [start, end], width)
    return _finish(colour, mask, half)


@lru_cache(maxsize=256)
def hollow_polygon(
    sides: int, radius: float, width: float, rotation: float, colour_rgb: RGB
) -> Sprite:
    """A regular polygon outline: a square for 'removed', a diamond for 'flipped'."""
    half = math.ceil(radius + width) + 1
    colour, mask, draw_colour, draw_mask, middle = _canvas(half)
    draw_colour.rectangle((0, 0, *colour.size), fill=colour_rgb)
    corners = [
        (
            middle + radius * SUPERSAMPLE * math.cos(math.radians(rotation + 360 * k / sides)),
            middle + radius * SUPERSAMPLE * math.sin(math.radians(rotation + 360 * k / sides)),
        )
        for k in range(sides)
    ]
    draw_mask.polygon(corners, outline=255, width=max(1, round(width * SUPERSAMPLE)))
    return _finish(colour, mask, half)


@lru_cache(maxsize=64)
def triangle(size: float, colour_rgb: RGB) -> Sprite:
    """A right-pointing filled triangle: the 'to move' marker in headers."""
    half = math.ceil(size) + 1
    colour, mask, draw_colour, draw_mask, middle = _canvas(half)
    draw_colour.rectangle((0, 0, *colour.size), fill=colour_rgb)
    s = size * SUPERSAMPLE
    draw_mask.polygon(
        [(middle - s * 0.6, middle - s), (middle + s, middle), (middle - s * 0.6, middle + s)],
        fill=255,
    )
    return _finish(colour, mask, half)
