"""Slow, obviously-correct versions of the Lefe, Dalen and Les rules, for checking the engine.

Everything here recomputes from scratch on a dict ``{cell index: colour code}`` of the whole
board: trees by breadth-first search, leaves by counting neighbours, a candidate placement
by building the new board. No caching, no incremental shortcuts; only the board geometry is
shared with the engine (it has its own tests against the rulings' examples).
"""

from __future__ import annotations

from collections import deque

from engine.hexgrid import hex_grid

Board = dict[int, int]  # cell index -> 0 empty, 1 first colour, 2 second colour


def board_of(state) -> Board:
    return dict(enumerate(state.cells))


def group_from(board: Board, n: int, start: int, same: int) -> set[int]:
    """Cells connected to ``start`` through cells whose value is ``same``."""
    neighbours = hex_grid(n).neighbours
    seen = {start}
    queue = deque([start])
    while queue:
        cell = queue.popleft()
        for nb in neighbours[cell]:
            if board[nb] == same and nb not in seen:
                seen.add(nb)
                queue.append(nb)
    return seen


def all_trees(board: Board, n: int) -> list[set[int]]:
    trees: list[set[int]] = []
    covered: set[int] = set()
    for cell, value in board.items():
        if value and cell not in covered:
            tree = group_from(board, n, cell, value)
            covered |= tree
            trees.append(tree)
    return trees


def friends(board: Board, n: int, cell: int, colour: int) -> list[int]:
    return [nb for nb in hex_grid(n).neighbours[cell] if board[nb] == colour]


def touches(board: Board, n: int, group: set[int], other: set[int]) -> bool:
    neighbours = hex_grid(n).neighbours
    return any(nb in other for cell in group for nb in neighbours[cell])


# ---- Lefe -------------------------------------------------------------------------------
def lefe_leaves(board: Board, n: int, tree: set[int]) -> int:
    colour = board[next(iter(tree))]
    return sum(1 for cell in tree if len(friends(board, n, cell, colour)) <= 1)


def lefe_can_place(board: Board, n: int, cell: int, colour: int) -> bool:
    if board[cell]:
        return False
    grid = hex_grid(n)
    mine = friends(board, n, cell, colour)
    return not any(b in grid.neighbours[a] for a in mine for b in mine if a < b)


def lefe_moves(board: Board, n: int, colour: int) -> dict[str, tuple[int, set[int]]]:
    """Every legal move as canonical text -> (cell placed, cells captured)."""
    names = hex_grid(n).names
    enemy = 3 - colour
    result: dict[str, tuple[int, set[int]]] = {}
    for cell in board:
        if not lefe_can_place(board, n, cell, colour):
            continue
        joined = [
            t
            for t in all_trees(board, n)
            if board[next(iter(t))] == colour and touches(board, n, {cell}, t)
        ]
        best = max((lefe_leaves(board, n, t) for t in joined), default=0)
        after = dict(board)
        after[cell] = colour
        grown = group_from(after, n, cell, colour)
        grown_leaves = lefe_leaves(after, n, grown)
        capturable = []
        if grown_leaves > best:
            capturable = [
                t
                for t in all_trees(after, n)
                if after[next(iter(t))] == enemy
                and touches(after, n, grown, t)
                and lefe_leaves(after, n, t) < grown_leaves
            ]
        if capturable:
            for tree in capturable:
                result[f"{names[cell]}x{names[min(tree)]}"] = (cell, tree)
        else:
            result[names[cell]] = (cell, set())
    return result


def lefe_result(board: Board, n: int) -> tuple[int, int]:
    """(dark points, light points) by the end-of-game scoring."""
    counts = {1: [], 2: []}
    for tree in all_trees(board, n):
        counts[board[next(iter(tree))]].append(lefe_leaves(board, n, tree))
    points = {colour: len(set(values)) for colour, values in counts.items()}
    dark, light = sorted(counts[1], reverse=True), sorted(counts[2], reverse=True)
    # pad the shorter list with -1: running out of trees loses the comparison
    length = max(len(dark), len(light))
    dark += [-1] * (length - len(dark))
    light += [-1] * (length - len(light))
    if dark > light:
        points[1] += 1
    elif light > dark:
        points[2] += 1
    return points[1], points[2]


# ---- Dalen -------------------------------------------------------------------------------
def dalen_leaves(board: Board, n: int, tree: set[int]) -> int:
    colour = board[next(iter(tree))]
    return sum(1 for cell in tree if len(friends(board, n, cell, colour)) == 1)


def dalen_can_place(board: Board, n: int, cell: int, colour: int) -> bool:
    if board[cell]:
        return False
    leaves_next = [
        nb for nb in friends(board, n, cell, colour) if len(friends(board, n, nb, colour)) == 1
    ]
    return len(leaves_next) <= 1


def dalen_stagnant(board: Board, n: int, tree: set[int], variant: bool) -> bool:
    colour = board[next(iter(tree))]
    neighbours = hex_grid(n).neighbours
    around = {nb for cell in tree for nb in neighbours[cell] if board[nb] == 0}
    for cell in around:
        if not dalen_can_place(board, n, cell, colour):
            continue
        if not variant:
            return False
        after = dict(board)
        after[cell] = colour
        if dalen_leaves(after, n, group_from(after, n, cell, colour)) > dalen_leaves(
            board, n, tree
        ):
            return False
    return True


def dalen_after(board: Board, n: int, cell: int, colour: int, variant: bool) -> Board:
    """The board after ``colour`` places at ``cell`` and all flips are made."""
    after = dict(board)
    after[cell] = colour
    trees = all_trees(after, n)
    flip: set[int] = set()
    for mine in trees:
        if after[next(iter(mine))] != colour or not dalen_stagnant(after, n, mine, variant):
            continue
        for theirs in trees:
            if (
                after[next(iter(theirs))] != colour
                and touches(after, n, mine, theirs)
                and dalen_leaves(after, n, theirs) <= dalen_leaves(after, n, mine)
            ):
                flip |= theirs
    for stone in flip:
        after[stone] = colour
    return after


# ---- Les ---------------------------------------------------------------------------------
def les_moves(board: Board, n: int, colour: int) -> set[str]:
    names = hex_grid(n).names
    neighbours = hex_grid(n).neighbours
    moves: set[str] = set()
    for first in board:
        around = {board[nb] for nb in neighbours[first]}
        if board[first] or colour not in around or (3 - colour) not in around:
            continue
        after = dict(board)
        after[first] = colour
        lonely = [p for p in after if after[p] == 0 and all(after[nb] == 0 for nb in neighbours[p])]
        if lonely:
            moves |= {f"{names[first]}+{names[p]}" for p in lonely}
        else:
            moves.add(names[first])
    return moves


def les_owned_holes(board: Board, n: int) -> dict[int, list[tuple[int, int]]]:
    """Per colour, its holes as (size, number of bordering stones)."""
    neighbours = hex_grid(n).neighbours
    owned: dict[int, list[tuple[int, int]]] = {1: [], 2: []}
    covered: set[int] = set()
    for point, value in board.items():
        if value or point in covered:
            continue
        hole = group_from(board, n, point, 0)
        covered |= hole
        border = {nb for p in hole for nb in neighbours[p] if board[nb]}
        colours = {board[s] for s in border}
        if len(colours) == 1:
            owned[colours.pop()].append((len(hole), len(border)))
    return owned


def les_winner(board: Board, n: int) -> int:
    """1 black, 2 white, 0 draw, by the hole comparison."""
    owned = les_owned_holes(board, n)
    black, white = owned[1], owned[2]
    if len(black) != len(white):
        return 1 if len(black) > len(white) else 2
    black_sizes = sorted((size for size, _ in black), reverse=True)
    white_sizes = sorted((size for size, _ in white), reverse=True)
    if black_sizes != white_sizes:
        return 1 if black_sizes > white_sizes else 2
    black_stones = [stones for _, stones in sorted(black, reverse=True)]
    white_stones = [stones for _, stones in sorted(white, reverse=True)]
    if black_stones != white_stones:
        return 1 if black_stones > white_stones else 2
    return 0
