"""A wide line with rounded joints drawn into a greyscale mask, as Pillow draws it.

``ImageDraw.line(points, fill, width, joint="curve")`` works each joint out in Python:
a drawing object made, the ink looked up, the angles, a function made and a pie slice
drawn, per point. A replay's loop outlines (:func:`render.board.area_layers`) have a
joint per stone of the loop, each drawn once a replay, and the calls round them cost
more than the drawing, and a board picture draws every owned loop's outline twice (a
halo and a band). :func:`curved_line` makes the same calls on Pillow's drawing core
with the same numbers, so the pixels are Pillow's (``tests/render/test_lines.py``
compares them on random paths; the pinned pictures and the replay's bytes did not
change).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

from PIL import Image

Point = tuple[float, float]


def _gap_end(point: Point, angle: float, width: int) -> tuple[float, float]:
    """Where ImageDraw's ``coord_at_angle`` puts a joint's gap line end."""
    x, y = point
    angle -= 90
    distance = width / 2 - 1
    dx = distance * math.cos(math.radians(angle))
    dy = distance * math.sin(math.radians(angle))
    return (
        x + (math.floor(dx) if dx > 0 else math.ceil(dx)),
        y + (math.floor(dy) if dy > 0 else math.ceil(dy)),
    )


def core_draw(image: Image.Image) -> Any:
    """Pillow's drawing core for a new image of this process's own (one that no other
    image shares: ``ImageDraw.Draw`` makes a shared one the image's own first)."""
    return Image.core.draw(image.im, 0)  # type: ignore[attr-defined]  # Pillow's C core


def curved_line(draw: Any, points: Sequence[Point], ink: int, width: int) -> None:
    """Draw ``points`` with a drawing core (:func:`core_draw`, or an ``ImageDraw``'s
    ``draw``) in ``ink`` (its ``draw_ink`` of the colour), ``width`` wide, with the
    rounded joints of ``ImageDraw.line(..., joint="curve")``."""
    draw.draw_lines(points, ink, width)
    if width <= 4:
        return
    for i in range(1, len(points) - 1):
        before, point, after = points[i - 1], points[i], points[i + 1]
        first = math.degrees(math.atan2(point[0] - before[0], before[1] - point[1])) % 360
        second = math.degrees(math.atan2(after[0] - point[0], point[1] - after[1])) % 360
        if first == second:
            continue  # a straight line: no joint
        flipped = (second > first and second - 180 > first) or (
            second < first and second + 180 > first
        )
        corners = [
            (point[0] - width / 2 + 1, point[1] - width / 2 + 1),
            (point[0] + width / 2 - 1, point[1] + width / 2 - 1),
        ]
        if flipped:
            start, end = second + 90, first + 90
        else:
            start, end = first - 90, second - 90
        draw.draw_pieslice(corners, start - 90, end - 90, ink, 1)
        if width > 8:
            # the gap between the line and the joint, covered
            turn = 90 if flipped else -90
            gap = [
                _gap_end(point, first + turn, width),
                point,
                _gap_end(point, second + turn, width),
            ]
            draw.draw_lines(gap, ink, 3)
