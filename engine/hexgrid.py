"""Hexagon-shaped board geometry and cell notation shared by all four board games.

A board of side ``n`` holds the cells (or, for Les, the points) with axial coordinates
``(q, r)`` where ``|q|, |r|, |q + r| <= n - 1``. Cells are drawn flat-topped, so they form
``2n - 1`` vertical columns lettered ``a, b, ...`` from left to right and numbered from 1 at
the bottom of each column (RULINGS §1).

Every game works on cell *indices* (0 .. cell_count-1) in notation order: column letter
first, then number. Index lookups are precomputed once per board size and cached, which is
what keeps ``legal_moves()`` fast.
"""

from __future__ import annotations

import string
from collections.abc import Mapping
from dataclasses import dataclass
from functools import cache

AXIAL_DIRECTIONS: tuple[tuple[int, int], ...] = ((1, 0), (-1, 0), (0, 1), (0, -1), (1, -1), (-1, 1))

MIN_SIZE = 2
MAX_SIZE = 13  # 25 columns still fit in the alphabet


@dataclass(frozen=True, eq=False)
class HexGrid:
    """The cells of one board size, with neighbours and names precomputed."""

    n: int
    coords: tuple[tuple[int, int], ...]
    names: tuple[str, ...]
    neighbours: tuple[tuple[int, ...], ...]
    on_edge: tuple[bool, ...]
    column_heights: tuple[int, ...]
    _index_of_name: dict[str, int]
    _index_of_coord: dict[tuple[int, int], int]

    @property
    def cell_count(self) -> int:
        return len(self.coords)

    @property
    def centre(self) -> int:
        return self._index_of_coord[(0, 0)]

    @property
    def index_by_name(self) -> Mapping[str, int]:
        """Each cell's index by its name as notation writes it (lower case, no spaces)."""
        return self._index_of_name

    def index(self, name: str) -> int | None:
        """Index of a cell name (case-insensitive, spaces ignored), or None if not on the board."""
        return self._index_of_name.get(name.strip().lower())

    def index_of_coord(self, q: int, r: int) -> int | None:
        return self._index_of_coord.get((q, r))

    def name(self, index: int) -> str:
        return self.names[index]

    def column_of(self, index: int) -> int:
        """0-based column (the letter's position in the alphabet)."""
        return self.coords[index][0] + self.n - 1

    def number_of(self, index: int) -> int:
        """1-based number within the column, counted from the bottom."""
        q, r = self.coords[index]
        return min(self.n - 1, self.n - 1 - q) - r + 1

    def are_adjacent(self, a: int, b: int) -> bool:
        return b in self.neighbours[a]

    def distance(self, a: int, b: int) -> int:
        (q1, r1), (q2, r2) = self.coords[a], self.coords[b]
        dq, dr = q1 - q2, r1 - r2
        return (abs(dq) + abs(dr) + abs(dq + dr)) // 2

    def corners(self) -> tuple[int, ...]:
        m = self.n - 1
        pts = [(-m, 0), (-m, m), (0, -m), (0, m), (m, -m), (m, 0)]
        return tuple(sorted(self._index_of_coord[p] for p in pts))


def _cell_name(n: int, q: int, r: int) -> str:
    letter = string.ascii_lowercase[q + n - 1]
    number = min(n - 1, n - 1 - q) - r + 1
    return f"{letter}{number}"


@cache
def hex_grid(n: int) -> HexGrid:
    """The (cached) geometry of the board with ``n`` cells per side."""
    if not MIN_SIZE <= n <= MAX_SIZE:
        raise ValueError(f"board side must be between {MIN_SIZE} and {MAX_SIZE}, not {n}")
    m = n - 1
    coords: list[tuple[int, int]] = []
    for q in range(-m, m + 1):
        r_lo, r_hi = max(-m, -m - q), min(m, m - q)
        # bottom of the column (number 1) is the largest r
        for r in range(r_hi, r_lo - 1, -1):
            coords.append((q, r))
    index_of_coord = {c: i for i, c in enumerate(coords)}
    names = tuple(_cell_name(n, q, r) for q, r in coords)
    neighbours = tuple(
        tuple(
            index_of_coord[(q + dq, r + dr)]
            for dq, dr in AXIAL_DIRECTIONS
            if (q + dq, r + dr) in index_of_coord
        )
        for q, r in coords
    )
    on_edge = tuple(len(nb) < 6 for nb in neighbours)
    heights = tuple(2 * n - 1 - abs(q) for q in range(-m, m + 1))
    return HexGrid(
        n=n,
        coords=tuple(coords),
        names=names,
        neighbours=neighbours,
        on_edge=on_edge,
        column_heights=heights,
        _index_of_name={name: i for i, name in enumerate(names)},
        _index_of_coord=index_of_coord,
    )
