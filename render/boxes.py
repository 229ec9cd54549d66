"""Rectangles of pixels: where a pasted sprite lands, and joining the ones that overlap.

A picture that is painted again only where it changes (a replay's frames, a reply's board
drawn straight to palette indices) works with these boxes.
"""

from __future__ import annotations

import math
from collections.abc import Iterable

from render.sprites import Sprite

Box = tuple[int, int, int, int]  # left, top, right, bottom (right and bottom exclusive)


def mark_box(sprite: Sprite, centre: tuple[float, float]) -> Box:
    """The pixels a sprite pasted at ``centre`` can touch."""
    left, top = math.floor(centre[0]) - sprite.half, math.floor(centre[1]) - sprite.half
    side = 2 * sprite.half + 1
    return (left, top, left + side, top + side)


def overlap(a: Box, b: Box) -> bool:
    return a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]


def union(boxes: Iterable[Box]) -> Box:
    lefts, tops, rights, bottoms = zip(*boxes, strict=True)
    return (min(lefts), min(tops), max(rights), max(bottoms))


def merged(boxes: Iterable[Box]) -> list[Box]:
    """Overlapping boxes joined into their union (a stone and its marker share a cell):
    fewer, larger boxes to paint again."""
    joined_boxes: list[Box] = []
    for box in sorted(boxes):
        while True:
            joined = next((other for other in joined_boxes if overlap(other, box)), None)
            if joined is None:
                break
            joined_boxes.remove(joined)
            box = union((joined, box))
        joined_boxes.append(box)
    return joined_boxes


def clipped(box: Box, size: tuple[int, int]) -> Box:
    """``box`` cut to a picture of ``size``."""
    width, height = size
    return (max(0, box[0]), max(0, box[1]), min(width, box[2]), min(height, box[3]))
