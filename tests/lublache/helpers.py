"""Small helpers for building Lublache positions by cell name in the tests."""

from __future__ import annotations

from engine import get_game
from engine.hexgrid import hex_grid
from engine.loops import ring_of_six
from engine.lublache import LublacheState

BLACK, WHITE = "black", "white"


def ring(cell: str, size: int = 7) -> list[str]:
    """The six neighbours of an inner ``cell``, in turning order."""
    grid = hex_grid(size)
    index = grid.index(cell)
    assert index is not None and not grid.on_edge[index]
    return [grid.names[x] for x in ring_of_six(size)[index]]


def position(
    black: list[str] | tuple[str, ...] = (),
    white: list[str] | tuple[str, ...] = (),
    to_move: str = BLACK,
    size: int = 7,
) -> LublacheState:
    stones = {cell: BLACK for cell in black} | {cell: WHITE for cell in white}
    assert len(stones) == len(black) + len(white), "a cell was given twice"
    state = get_game("lublache").position(size, stones, to_move)
    assert isinstance(state, LublacheState)
    return state


def loop_sets(state: LublacheState) -> set[frozenset[str]]:
    """The board's loops as sets of cell names."""
    return {frozenset(loop.cells) for loop in state.loops()}


def is_chordless_cycle(cells: tuple[str, ...], size: int) -> bool:
    """Whether the cells, in the given order, form a cycle where each cell touches only its
    two neighbours along the cycle."""
    grid = hex_grid(size)
    indices = [grid.index(cell) for cell in cells]
    count = len(indices)
    for position_in_cycle, cell in enumerate(indices):
        touching = {other for other in indices if other != cell and grid.are_adjacent(cell, other)}
        along = {indices[position_in_cycle - 1], indices[(position_in_cycle + 1) % count]}
        if touching != along:
            return False
    return True
