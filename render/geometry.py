"""Cell ↔ pixel geometry of the board pictures, in one place.

Every picture of a board is ``width`` pixels wide: a header band on top, then the board with
a band of column letters above and below it. Hexagons are flat-topped (RULINGS §1), so the
cells form vertical columns; the cell with axial coordinates ``(q, r)`` sits at
``x = 1.5·R·q``, ``y = √3·R·(r + q/2)`` around the board centre, where ``R`` is the hexagon's
circumradius. Les draws the points of the triangular grid at exactly the same places.

Tests use :func:`board_geometry` to find the pixel at the centre of any cell.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from functools import cache

from engine.hexgrid import hex_grid

SQRT3 = math.sqrt(3.0)
REFERENCE_WIDTH = 480  # the layout is designed at this width and scaled from it
MIN_WIDTH, MAX_WIDTH = 240, 1600


def scale_of(width: int) -> float:
    return width / REFERENCE_WIDTH


def header_height(width: int) -> int:
    """Height of the header band: two name rows, an info row and two status rows."""
    return round(128 * scale_of(width))


def check_width(width: int) -> int:
    if not isinstance(width, int) or isinstance(width, bool) or not MIN_WIDTH <= width <= MAX_WIDTH:
        raise ValueError(f"picture width must be an integer from {MIN_WIDTH} to {MAX_WIDTH} pixels")
    return width


@dataclass(frozen=True)
class BoardGeometry:
    """Pixel layout of one board picture (image coordinates, header included)."""

    size: int
    width: int
    height: int
    points: bool  # True for Les: points and lines instead of hexagon cells
    header_height: int
    radius: float  # hexagon circumradius R; the point spacing of Les is √3·R
    origin: tuple[float, float]  # pixel of the board centre, axial (0, 0)
    centres: tuple[tuple[float, float], ...]  # per cell index, notation order
    letter_band: float  # height of the band holding the column letters
    stone_radius: float
    label_size: int  # font size of the cell labels
    letter_size: int  # font size of the column letters

    def centre(self, cell: int | str) -> tuple[float, float]:
        """Pixel centre of a cell given by index or by name."""
        if isinstance(cell, str):
            index = hex_grid(self.size).index(cell)
            if index is None:
                raise ValueError(f"{cell!r} is not a cell of the {self.size}-board")
            cell = index
        return self.centres[cell]

    def pixel(self, cell: int | str) -> tuple[int, int]:
        """The integer pixel that holds a cell's centre (for sampling a decoded image)."""
        x, y = self.centre(cell)
        return (math.floor(x), math.floor(y))

    def hexagon(self, cell: int, scale: float = 1.0) -> list[tuple[float, float]]:
        """The six corners of a cell's flat-topped hexagon, scaled about its centre."""
        x, y = self.centres[cell]
        r = self.radius * scale
        return [
            (x + r * math.cos(math.radians(60 * k)), y + r * math.sin(math.radians(60 * k)))
            for k in range(6)
        ]

    def cell_at(self, x: float, y: float) -> int | None:
        """The cell whose hexagon holds pixel ``(x, y)``, or None (axial rounding)."""
        grid = hex_grid(self.size)
        fx = (x - self.origin[0]) / self.radius
        fy = (y - self.origin[1]) / self.radius
        q = 2.0 / 3.0 * fx
        r = -1.0 / 3.0 * fx + SQRT3 / 3.0 * fy
        s = -q - r
        rq, rr, rs = round(q), round(r), round(s)
        dq, dr, ds = abs(rq - q), abs(rr - r), abs(rs - s)
        if dq > dr and dq > ds:
            rq = -rr - rs
        elif dr > ds:
            rr = -rq - rs
        return grid.index_of_coord(rq, rr)

    def column_ends(self) -> list[tuple[str, float, float, float]]:
        """Per column: its letter, x, and the y of the centres of its top and bottom cells."""
        grid = hex_grid(self.size)
        ends: dict[int, list[float]] = {}
        for index in range(grid.cell_count):
            column = grid.column_of(index)
            y = self.centres[index][1]
            low_high = ends.setdefault(column, [y, y])
            low_high[0] = min(low_high[0], y)
            low_high[1] = max(low_high[1], y)
        middle = self.size - 1
        return [
            (
                chr(ord("a") + column),
                self.origin[0] + 1.5 * self.radius * (column - middle),
                top,
                bottom,
            )
            for column, (top, bottom) in sorted(ends.items())
        ]


@cache
def board_geometry(size: int, width: int, points: bool = False) -> BoardGeometry:
    """The (cached) layout of a board of side ``size`` drawn ``width`` pixels wide."""
    check_width(width)
    grid = hex_grid(size)
    m = size - 1
    s = scale_of(width)
    margin_x = 8 * s
    # the board spans 1.5·R·2m between the outer column centres plus R on either side
    radius = (width - 2 * margin_x) / (3 * m + 2)
    letter_size = max(9, min(18, round(radius * 0.72)))
    letter_band = letter_size * 1.5
    top = header_height(width) + letter_band
    board_height = SQRT3 * radius * (2 * m + 1)
    origin = (width / 2.0, top + board_height / 2.0)
    centres = tuple(
        (origin[0] + 1.5 * radius * q, origin[1] + SQRT3 * radius * (r + q / 2.0))
        for q, r in grid.coords
    )
    height = math.ceil(top + board_height + letter_band + 4 * s)
    stone_radius = radius * (0.76 if points else 0.68)
    label_size = max(8, min(17, round(radius * 0.62)))
    return BoardGeometry(
        size=size,
        width=width,
        height=height,
        points=points,
        header_height=header_height(width),
        radius=radius,
        origin=origin,
        centres=centres,
        letter_band=letter_band,
        stone_radius=stone_radius,
        label_size=label_size,
        letter_size=letter_size,
    )
