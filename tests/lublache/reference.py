"""A deliberately plain transcription of the loop construction, to check the fast one.

It follows RULINGS §6 word for word: every round it works out the enclosed cells with a
flood fill from the whole board edge, it takes no short cuts, and it remembers nothing.
Too slow for play, fine for comparing answers on small random boards.
"""

from __future__ import annotations

from engine.hexgrid import hex_grid


def enclosed_by(n: int, region: set[int]) -> set[int]:
    """The cells outside ``region`` that cannot reach the board's edge without crossing it."""
    grid = hex_grid(n)
    reach = {i for i in range(grid.cell_count) if grid.on_edge[i] and i not in region}
    stack = list(reach)
    while stack:
        cell = stack.pop()
        for nb in grid.neighbours[cell]:
            if nb not in region and nb not in reach:
                reach.add(nb)
                stack.append(nb)
    return {i for i in range(grid.cell_count) if i not in region and i not in reach}


def loop_around(n: int, occupied: bytes, cell: int) -> frozenset[int] | None:
    """The loop around ``cell`` as a set of cells, or None."""
    grid = hex_grid(n)
    region = {cell}
    while True:
        region |= enclosed_by(n, region)
        if any(grid.on_edge[x] for x in region):
            return None
        rim = {nb for x in region for nb in grid.neighbours[x] if nb not in region}
        moving = {
            w
            for w in rim
            if not occupied[w] or sum(1 for nb in grid.neighbours[w] if nb in rim) != 2
        }
        if not moving:
            return frozenset(rim)
        region |= moving


def all_loops(n: int, occupied: bytes) -> set[frozenset[int]]:
    """Every loop on the board: the loops around all cells."""
    found = {loop_around(n, occupied, cell) for cell in range(hex_grid(n).cell_count)}
    found.discard(None)
    return found  # type: ignore[return-value]
