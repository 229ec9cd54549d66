"""Les's holes: finding them, who owns them, and how they decide the game (RULINGS).

The rules module (:mod:`engine.les`) and the search's model (:mod:`engine.ai.models.les`)
both read these, so they live apart from either.
"""

from __future__ import annotations

from functools import cache

from engine.board import EMPTY, FIRST, SECOND, BoardGame, Outcome
from engine.hexgrid import hex_grid

BLACK, WHITE = FIRST, SECOND


@cache
def two_steps_away(n: int) -> tuple[tuple[int, ...], ...]:
    """Per point, the points at distance exactly two (not adjacent, sharing a neighbour)."""
    grid = hex_grid(n)
    return tuple(
        tuple(other for other in range(grid.cell_count) if grid.distance(point, other) == 2)
        for point in range(grid.cell_count)
    )


@cache
def neighbour_sets(n: int) -> tuple[frozenset[int], ...]:
    return tuple(frozenset(nbs) for nbs in hex_grid(n).neighbours)


def holes(cells: bytes, neighbours: tuple[tuple[int, ...], ...]) -> list[tuple[int, int, int]]:
    """Every hole of the position as ``(owner, size, stones next to it)``.

    ``owner`` is the colour code of the only colour bordering the hole, or 0 when both
    colours (or none) border it.
    """
    seen = [False] * len(cells)
    result: list[tuple[int, int, int]] = []
    for start, value in enumerate(cells):
        if value != EMPTY or seen[start]:
            continue
        seen[start] = True
        stack = [start]
        size = 0
        border: set[int] = set()
        while stack:
            point = stack.pop()
            size += 1
            for nb in neighbours[point]:
                if cells[nb] == EMPTY:
                    if not seen[nb]:
                        seen[nb] = True
                        stack.append(nb)
                else:
                    border.add(nb)
        colours = {cells[stone] for stone in border}
        owner = colours.pop() if len(colours) == 1 else 0
        result.append((owner, size, len(border)))
    return result


def hole_cells(
    cells: bytes, neighbours: tuple[tuple[int, ...], ...]
) -> list[tuple[int, list[int]]]:
    """Every owned hole of the position as ``(owner, its points)``, in notation order of
    each hole's first point (the holes :func:`holes` counts with an owner)."""
    seen = [False] * len(cells)
    result: list[tuple[int, list[int]]] = []
    for start, value in enumerate(cells):
        if value != EMPTY or seen[start]:
            continue
        seen[start] = True
        stack, members, colours = [start], [], set()
        while stack:
            point = stack.pop()
            members.append(point)
            for nb in neighbours[point]:
                if cells[nb] == EMPTY:
                    if not seen[nb]:
                        seen[nb] = True
                        stack.append(nb)
                else:
                    colours.add(cells[nb])
        if len(colours) == 1:
            result.append((colours.pop(), sorted(members)))
    return result


def compare_holes(black: list[tuple[int, int]], white: list[tuple[int, int]]) -> tuple[int, str]:
    """Decide the game from each player's owned holes, given as ``(size, stones)`` pairs.

    Returns the winning colour code (0 for a draw) and which criterion decided it.
    """
    if len(black) != len(white):
        return (BLACK if len(black) > len(white) else WHITE), "more holes"
    black_sorted = sorted(black, reverse=True)  # by size, ties by stone count
    white_sorted = sorted(white, reverse=True)
    for (black_size, _), (white_size, _) in zip(black_sorted, white_sorted, strict=True):
        if black_size != white_size:
            return (BLACK if black_size > white_size else WHITE), "bigger holes"
    for (_, black_stones), (_, white_stones) in zip(black_sorted, white_sorted, strict=True):
        if black_stones != white_stones:
            return (BLACK if black_stones > white_stones else WHITE), "more stones around holes"
    return 0, "no difference in holes"


def owned_holes(
    cells: bytes, neighbours: tuple[tuple[int, ...], ...]
) -> dict[int, list[tuple[int, int]]]:
    """Per colour code, its owned holes as ``(size, stones next to it)`` pairs."""
    owned: dict[int, list[tuple[int, int]]] = {BLACK: [], WHITE: []}
    for owner, size, stones in holes(cells, neighbours):
        if owner:
            owned[owner].append((size, stones))
    return owned


def final_outcome(game: BoardGame, stuck: int, owned: dict[int, list[tuple[int, int]]]) -> Outcome:
    """How the game ends when ``stuck`` (the colour code to move) has no first placement,
    from each colour's owned holes (:func:`owned_holes`)."""
    colours = game.colors
    stuck_colour = game.colour_name(stuck)
    winner, criterion = compare_holes(owned[BLACK], owned[WHITE])
    black_holes, white_holes = len(owned[BLACK]), len(owned[WHITE])
    if winner == 0:
        if black_holes == 0:
            return Outcome.because(None, "les_draw_no_holes", stuck_colour=stuck_colour)
        return Outcome.because(None, "les_draw_alike", count=black_holes, stuck_colour=stuck_colour)
    name = colours[winner - 1]
    if criterion == "more holes":
        high, low = max(black_holes, white_holes), min(black_holes, white_holes)
        return Outcome.because(
            name, "les_win_more_holes", colour=name, high=high, low=low, stuck_colour=stuck_colour
        )
    code = "les_win_bigger_holes" if criterion == "bigger holes" else "les_win_more_stones"
    return Outcome.because(name, code, colour=name, count=black_holes, stuck_colour=stuck_colour)
