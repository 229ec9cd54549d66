"""Cell ↔ pixel geometry of the board pictures, in one place.

Every picture of a board is ``width`` pixels wide: a header band on top, then the board with
a band of column letters above and below it. Hexagons are flat-topped (RULINGS §1), so the
cells form vertical columns; the cell with axial coordinates ``(q, r)`` sits at
``x = a·q``, ``y = b·(2r + q)`` around the board centre. For a regular hexagon of
circumradius ``R`` the steps would be ``a = 1.5·R`` and ``b = (√3/2)·R``; here both are
whole pixels (``R = a/1.5``, ``b`` rounded), so a cell is at most one pixel taller or shorter
than a regular hexagon, drawn a little flattened or stretched to tile exactly, and every cell
centre is a pixel centre. Then every cell, stone and groove is the same pixels as every
other, which the PNG's compression finds: the files are a third smaller and packed in two
thirds of the time than with cells at fractions of a pixel. Les draws the points of the
triangular grid at exactly the same places.

Tests use :func:`board_geometry` to find the pixel at the centre of any cell.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass
from functools import cache

from engine.hexgrid import hex_grid
from render.text import font, text_width

SQRT3 = math.sqrt(3.0)
REFERENCE_WIDTH = 480  # the layout is designed at this width and scaled from it
MIN_WIDTH, MAX_WIDTH = 240, 1600


def scale_of(width: int) -> float:
    return width / REFERENCE_WIDTH


def header_height(width: int) -> int:
    """Height of the header band: two name rows, an info row, the score in words (up to
    two rows) and the status (up to two rows)."""
    return round(160 * scale_of(width))


def check_width(width: int) -> int:
    if not isinstance(width, int) or isinstance(width, bool) or not MIN_WIDTH <= width <= MAX_WIDTH:
        raise ValueError(f"picture width must be an integer from {MIN_WIDTH} to {MAX_WIDTH} pixels")
    return width


@dataclass(frozen=True)
class RimLabel:
    """One coordinate on the board's rim: a column letter below the column's bottom cell,
    or a row number where the row would go on beyond its end cell."""

    text: str
    x: float
    y: float


@dataclass(frozen=True)
class BoardGeometry:
    """Pixel layout of one board picture (image coordinates, header included)."""

    size: int
    width: int
    height: int
    points: bool  # True for Les: points and lines instead of hexagon cells
    header_height: int
    radius: float  # hexagon circumradius R (= column_step / 1.5); Les's point spacing is √3·R
    column_step: int  # pixels from one column's centres to the next's (1.5·R)
    half_step: int  # half a cell's height: pixels between neighbouring columns' centres, up or down
    origin: tuple[float, float]  # pixel of the board centre, axial (0, 0)
    centres: tuple[tuple[float, float], ...]  # per cell index, notation order
    stone_radius: float
    rim_size: int  # font size of the coordinates on the rim
    label_size: int  # font size of the cell labels (the rim's: never smaller)
    cell_labels: bool  # whether the cells carry their names (only where they stay legible)
    rim: tuple[RimLabel, ...]

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

    def at(self, q: float, r: float) -> tuple[float, float]:
        """The pixel of axial coordinates ``(q, r)``, on the board or off it."""
        return (
            self.origin[0] + self.column_step * q,
            self.origin[1] + self.half_step * (2 * r + q),
        )

    @property
    def squash(self) -> float:
        """How much taller (above 1) or flatter (below) than a regular hexagon of the
        columns' circumradius the cells are drawn, so that they tile the whole-pixel
        lattice exactly (within one pixel of a cell's height; a few hundredths)."""
        return self.half_step / (SQRT3 / 2 * self.radius)

    def hexagon(self, cell: int, scale: float = 1.0) -> list[tuple[float, float]]:
        """The six corners of a cell's flat-topped hexagon, scaled about its centre."""
        x, y = self.centres[cell]
        r = self.radius * scale
        tall = r * self.squash
        return [
            (x + r * math.cos(math.radians(60 * k)), y + tall * math.sin(math.radians(60 * k)))
            for k in range(6)
        ]

    def cell_at(self, x: float, y: float) -> int | None:
        """The cell whose hexagon holds pixel ``(x, y)``, or None (axial rounding)."""
        grid = hex_grid(self.size)
        q = (x - self.origin[0]) / self.column_step
        r = ((y - self.origin[1]) / self.half_step - q) / 2
        s = -q - r
        rq, rr, rs = round(q), round(r), round(s)
        dq, dr, ds = abs(rq - q), abs(rr - r), abs(rs - s)
        if dq > dr and dq > ds:
            rq = -rr - rs
        elif dr > ds:
            rr = -rq - rs
        return grid.index_of_coord(rq, rr)


def rim_labels(
    size: int,
    at: Callable[[float, float], tuple[float, float]],
    beyond: float,
    above: float,
    side: float,
) -> tuple[RimLabel, ...]:
    """The coordinates round a board of side ``size`` (``at`` gives the pixel of axial
    coordinates): each column's letter ``beyond`` pixels under its bottom cell's centre and
    the number of its top cell as far above it; the numbers of the left and right columns'
    cells ``side`` pixels beside them, level with them.

    A number names a cell within its column, counted from 1 at the bottom (RULINGS §1), so
    the bottom rim is row 1 all along: the letters go there, and the top rim says how far
    each column reaches (``above`` pixels over its top cell's centre: a little further than
    the letters, clear of the taller neighbouring column). The outer columns' numbers go
    beside them instead, which also
    names the two corner cells at the top.
    """
    m = size - 1
    labels: list[RimLabel] = []
    for q in range(-m, m + 1):
        letter = chr(ord("a") + q + m)
        x, y = at(q, min(m, m - q))  # the column's bottom cell
        labels.append(RimLabel(letter, x, y + beyond))
        if abs(q) < m:
            x, y = at(q, max(-m, -m - q))  # its top cell
            labels.append(RimLabel(str(2 * m + 1 - abs(q)), x, y - above))
    for r in range(0, m + 1):
        x, y = at(-m, r)
        labels.append(RimLabel(str(size - r), x - side, y))
    for r in range(-m, 1):
        x, y = at(m, r)
        labels.append(RimLabel(str(1 - r), x + side, y))
    return tuple(labels)


@cache
def board_geometry(size: int, width: int, points: bool = False) -> BoardGeometry:
    """The (cached) layout of a board of side ``size`` drawn ``width`` pixels wide.

    The rim's coordinates are at least 15 pixels at 480 wide (11 on a phone's 360), whatever
    the size; the board takes what room is left. The cells carry their names only where a
    name in the rim's size fits its cell (and, on Les's points, leaves the lines between
    the points visible); otherwise the rim alone names them.
    """
    check_width(width)
    grid = hex_grid(size)
    m = size - 1
    s = scale_of(width)
    rough = width / (3 * m + 5)
    rim_size = round(s * max(16.0, min(18.0, 0.8 * rough / s)))
    # beside the outer columns: a one-digit number (n <= 9) and a small gap
    widest_radius = (width / 2 - 1.05 * rim_size - 3 * s) / (1.5 * m + 1)
    # whole-pixel steps (see the module's docstring): the board at most a pixel per column
    # narrower than the room allows, a cell within a pixel of a regular hexagon's height
    column_step = math.floor(1.5 * widest_radius)
    radius = column_step / 1.5
    half_step = round(column_step / SQRT3)
    edge = half_step  # from a cell's centre to its top or bottom edge
    beyond = edge + 0.7 * rim_size
    top = header_height(width) + 1.5 * rim_size + 3 * s
    # the board's centre, and so every cell's, on the centre of a pixel
    origin = (math.floor(width / 2) + 0.5, math.floor(top + 2 * half_step * m + edge) + 0.5)

    def at(q: float, r: float) -> tuple[float, float]:
        return (origin[0] + column_step * q, origin[1] + half_step * (2 * r + q))

    centres = tuple(at(q, r) for q, r in grid.coords)
    height = math.ceil(origin[1] + 2 * half_step * m + beyond + 0.7 * rim_size + 4 * s)
    stone_radius = radius * (0.76 if points else 0.68)
    widest = max(text_width(name, font(rim_size)) for name in grid.names)
    if points:
        # a name sits on a patch of board colour: a third of the spacing stays for the lines
        cell_labels = widest + 6 <= 0.62 * SQRT3 * radius
    else:
        cell_labels = widest <= 1.45 * radius
    return BoardGeometry(
        size=size,
        width=width,
        height=height,
        points=points,
        header_height=header_height(width),
        radius=radius,
        column_step=column_step,
        half_step=half_step,
        origin=origin,
        centres=centres,
        stone_radius=stone_radius,
        rim_size=rim_size,
        label_size=rim_size,
        cell_labels=cell_labels,
        rim=rim_labels(size, at, beyond, edge + 0.85 * rim_size, radius + 0.5 * rim_size),
    )
