"""Lublache loops: the construction of RULINGS §6, computed from which cells hold stones.

A loop is a chordless cycle of at least six stones. Which loops a position has is settled
by a construction rather than by listing cycles (a crowded board has exponentially many):
the loop *around* a cell ``c`` is found by growing a region ``E`` from ``{c}``:

1. add to ``E`` every cell that ``E`` encloses (cells cut off from the board's edge by it);
2. if ``E`` now holds an edge cell, there is no loop around ``c``;
3. let ``W`` be the cells outside ``E`` next to ``E``; move into ``E`` every cell of ``W``
   that is empty or that does not have exactly two neighbours in ``W``;
4. repeat until nothing moves: then ``W`` is a chordless cycle of stones, the loop.

Colours play no part: the loops depend only on which cells are occupied, so one
:class:`LoopFinder` serves every colouring of the same occupancy (flips never change it).

What keeps this fast (a Lublache turn asks about the loops of every candidate board):

- An empty cell of ``W`` always moves, so once ``E`` meets an empty region that reaches the
  edge the answer is "no loop" at once (most cells of a sparse board stop after one round),
  even in the middle of a round: as soon as such a cell joins ``W``.
- Cells, ``E`` and ``W`` are bit masks on a padded layout (:class:`_Layout`) where every
  neighbour is a fixed shift, so a round works on whole masks: the stones of ``W`` with
  exactly two neighbours in ``W`` are counted for all cells at once from six shifted
  copies of ``W``, and the new ``W`` is six shifts of ``E``.
- Enclosure is checked locally: adding one cell to ``E`` can only cut the rest of the board
  apart when the cell's outside neighbours, taken round it, form more than one run (one
  shift, a mask and a table); only then is a flood fill needed, and a flood grows a
  ring of cells a step, giving up as soon as it meets a cell known to reach the edge.
- Every ``E`` met is remembered with its answer, as constructions from nearby cells
  often meet.
- :meth:`LoopFinder.with_stone` gives the loops of the board with one more stone by
  carrying over every answer whose construction never looked at the changed cells. It
  copies nothing: the new finder reads the old one's answers until it needs them all.
- Occupancy and the edge-reaching empty cells are also kept as bit masks, updated locally
  when a stone comes or goes, so the first round of a construction (which ends about half
  of them) is a few integer operations.
- Answers are shared between finders, and so between positions: an answer depends only
  on the cells its construction looked at, so it is reused on any board that agrees there
  (the move list of the next position tries the same placements next to one more stone).
- :func:`may_close_a_cycle` rules out, from the stone groups alone, placements that no
  loop can pass through; they need no loop work at all.
- A construction that must be worked out again on the board with one more stone (or a few
  fewer) goes exactly as it went on the board before until it looks at a changed cell:
  each construction keeps its *trail* (E, W and the cells looked at, at the start of each
  round), and the new one resumes at the first round that looks at a
  changed cell; the memo of the board before still answers for every E whose rest of
  the construction looked at none (see :func:`grow_loop`). The trails, the wide
  constructions and the loops by cell are carried from board to board like the answers,
  and the loops found are spelled (:func:`cycle_order`, walked on the mask) once for a
  whole lineage of boards.

Everything is checked against a plain transcription of the ruling in the tests.
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterable, Iterator, Mapping, Sequence
from contextvars import ContextVar
from functools import cache
from typing import NamedTuple

from engine.hexgrid import HexGrid, hex_grid

# The six axial directions in turning order, so consecutive entries are neighbours.
_TURNING = ((1, 0), (1, -1), (0, -1), (-1, 0), (-1, 1), (0, 1))

Loop = tuple[int, ...]  # cell indices in cycle order, starting at the smallest index
# E met by a construction (a bit mask) -> the answer reached from it, and the cells its
# construction looked at (those outside E are the ones looked at from E on)
Memo = dict[int, tuple[Loop | None, int]]
# A construction's rounds past the first: E, W and the cells looked at so far (bit masks)
# at the start of each round
Trail = tuple[tuple[int, int, int], ...]


def _several_runs(bits: int) -> bool:
    """Whether the set bits of a 6-bit ring pattern form more than one run (cyclically)."""
    changes = sum(1 for i in range(6) if (bits >> i & 1) != (bits >> (i - 1) % 6 & 1))
    return changes > 2


# Indexed by the pattern of a cell's neighbours (in turning order) lying outside E: adding the
# cell to E can only cut the outside apart when those neighbours form several runs, since
# otherwise every route through the cell can go round it through them.
SEVERAL_RUNS: tuple[bool, ...] = tuple(_several_runs(bits) for bits in range(64))


class _Layout(NamedTuple):
    """Where each cell of one board size sits in the bit masks, and masks of the board.

    A mask is an integer on a padded layout: the columns of the board one after another,
    ``stride`` bits each, a cell ``(q, r)`` at ``base + (q + n - 1)·stride + (n - 1 - r)``,
    with unused bits between the columns and before the first. Every neighbour of a cell
    is then a fixed shift away (±1, ±stride, ±(stride + 1)), so the neighbours of a whole
    set of cells are six shifts and a mask, whatever the set. Positions grow with the cell
    index, so the lowest bit of a mask is its smallest cell.
    """

    stride: int
    bits: tuple[int, ...]  # per cell, its bit
    cell_at: tuple[int, ...]  # per position, the cell there (-1 between columns)
    board: int  # every cell
    edge: int  # the cells on the board's edge
    rings: tuple[int, ...]  # per cell, its six neighbours (-1, matching no mask, on the edge)
    neighbours: tuple[int, ...]  # per cell, its neighbours on the board
    # the six neighbours of the cell at position p, read as ``mask >> (p - stride - 1) &
    # ring_key``, mapped to whether those outside E form several runs (see SEVERAL_RUNS)
    ring_key: int
    several_runs: dict[int, bool]


@cache
def _layout(n: int) -> _Layout:
    grid = hex_grid(n)
    m, stride = n - 1, 2 * n
    base = stride + 1  # room below the first column for the lowest neighbour's shift
    positions = [base + (q + m) * stride + (m - r) for q, r in grid.coords]
    bits = tuple(1 << p for p in positions)
    cell_at = [-1] * (positions[-1] + 1)
    for cell, p in enumerate(positions):
        cell_at[p] = cell
    offsets = [dq * stride - dr for dq, dr in _TURNING]  # turning order
    low = stride + 1
    several_runs = {}
    for inside in range(64):  # bit i: the i-th neighbour in turning order is inside E
        key = sum(1 << (offsets[i] + low) for i in range(6) if inside >> i & 1)
        several_runs[key] = SEVERAL_RUNS[63 ^ inside]

    def mask(cells: Sequence[int]) -> int:
        return sum(bits[x] for x in cells)

    return _Layout(
        stride=stride,
        bits=bits,
        cell_at=tuple(cell_at),
        board=mask(range(grid.cell_count)),
        edge=mask([cell for cell, edge in enumerate(grid.on_edge) if edge]),
        rings=tuple(-1 if -1 in ring else mask(ring) for ring in ring_of_six(n)),
        neighbours=tuple(mask(nbs) for nbs in grid.neighbours),
        ring_key=sum(1 << (offset + low) for offset in offsets),
        several_runs=several_runs,
    )


def cell_bit(n: int, cell: int) -> int:
    """The bit of ``cell`` in the loop finder's masks on the board of side ``n``."""
    return _layout(n).bits[cell]


def cells_of(n: int, bits: int) -> set[int]:
    """The cells of a mask on the board of side ``n``."""
    return cells_of_layout(_layout(n), bits)


def cells_of_layout(layout: _Layout, bits: int) -> set[int]:
    cell_at = layout.cell_at
    cells = set()
    while bits:
        lowest = bits & -bits
        bits ^= lowest
        cells.add(cell_at[lowest.bit_length() - 1])
    return cells


def _grown(bits: int, stride: int, board: int) -> int:
    """``bits`` and all their neighbours on the board."""
    step = stride + 1
    return (
        bits | bits << 1 | bits >> 1 | bits << stride | bits >> stride | bits << step | bits >> step
    ) & board


@cache
def _unconnected_neighbour_pairs(n: int) -> tuple[tuple[tuple[int, int], ...], ...]:
    """Per cell, the pairs of its neighbours that are not next to each other: a loop
    through the cell must enter and leave it through such a pair (it is chordless)."""
    grid = hex_grid(n)
    return tuple(
        tuple(
            (a, b) for i, a in enumerate(nbs) for b in nbs[i + 1 :] if b not in grid.neighbours[a]
        )
        for nbs in grid.neighbours
    )


def may_lie_on_a_loop(n: int, occupied: bytes | bytearray, cell: int) -> bool:
    """False when a stone on ``cell`` could not be part of any loop: it needs two occupied
    neighbours that do not touch each other."""
    return any(occupied[a] and occupied[b] for a, b in _unconnected_neighbour_pairs(n)[cell])


def stone_groups(
    n: int, occupied: bytes | bytearray, occupied_bits: int | None = None
) -> list[int]:
    """Per cell, a label shared by the stones joined to it through touching stones (-1 on
    empty cells); the groups are numbered in the order of their smallest cells.

    ``occupied_bits``, the occupied cells as a mask (see :class:`_Layout`), when known:
    each group is flooded a ring of stones at a time on the mask."""
    layout = _layout(n)
    if occupied_bits is None:
        occupied_bits = occupied_mask(n, occupied)
    stride, cell_at = layout.stride, layout.cell_at
    step = stride + 1
    labels = [-1] * len(occupied)
    rest = occupied_bits
    group = 0
    while rest:
        piece = rest & -rest  # the smallest cell not labelled yet
        while True:
            grown = (
                piece
                | piece << 1
                | piece >> 1
                | piece << stride
                | piece >> stride
                | piece << step
                | piece >> step
            ) & occupied_bits
            if grown == piece:
                break
            piece = grown
        rest ^= piece
        while piece:
            lowest = piece & -piece
            piece ^= lowest
            labels[cell_at[lowest.bit_length() - 1]] = group
        group += 1
    return labels


def unconnected_neighbour_pairs(n: int) -> tuple[tuple[tuple[int, int], ...], ...]:
    """Per cell, the pairs of its neighbours that are not next to each other (what
    :func:`may_close_a_cycle` reads), for a caller that tests many cells in a row."""
    return _unconnected_neighbour_pairs(n)


def may_close_a_cycle(n: int, groups: list[int], cell: int) -> bool:
    """False when a stone on the empty ``cell`` could not be part of any loop: a loop
    through it leaves it by two neighbours that do not touch each other and joins them
    again through stones, so those two must already be in one group (``groups`` from
    :func:`stone_groups` of the board without the stone). Stricter than
    :func:`may_lie_on_a_loop`, and as cheap once the groups are known."""
    for a, b in _unconnected_neighbour_pairs(n)[cell]:
        group = groups[a]
        if group >= 0 and group == groups[b]:
            return True
    return False


@cache
def ring_of_six(n: int) -> tuple[tuple[int, ...], ...]:
    """Per cell, its neighbours in turning order (-1 where the board ends)."""
    grid = hex_grid(n)
    rings = []
    for q, r in grid.coords:
        ring = []
        for dq, dr in _TURNING:
            index = grid.index_of_coord(q + dq, r + dr)
            ring.append(-1 if index is None else index)
        rings.append(tuple(ring))
    return tuple(rings)


@cache
def six_ring_loops(n: int) -> tuple[Loop | None, ...]:
    """Per inner cell, its six neighbours spelled as a loop (None on the edge)."""
    grid = hex_grid(n)
    return tuple(
        None if grid.on_edge[cell] else cycle_order(grid, set(grid.neighbours[cell]))
        for cell in range(grid.cell_count)
    )


def cycle_order(grid: HexGrid, cells: set[int] | frozenset[int]) -> Loop:
    """The cells of a cycle in walking order: from the smallest index, towards its smaller
    neighbour on the cycle, so that every loop has one canonical spelling."""
    neighbours = grid.neighbours
    start = min(cells)
    first_steps = sorted(x for x in neighbours[start] if x in cells)
    order = [start]
    previous, current = start, first_steps[0]
    while current != start:
        order.append(current)
        following = [x for x in neighbours[current] if x in cells and x != previous]
        if len(following) != 1:
            break
        previous, current = current, following[0]
    if len(order) != len(cells):
        raise RuntimeError(f"cells {sorted(cells)} do not form one cycle")
    return tuple(order)


def _spelling(layout: _Layout, cycle: int) -> Loop:
    """:func:`cycle_order` of a cycle given as a mask, walked on the mask: from its
    lowest bit (the smallest cell) towards the lower of its two neighbours on it."""
    neighbours, cell_at = layout.neighbours, layout.cell_at
    first = cycle & -cycle
    start = cell_at[first.bit_length() - 1]
    order = [start]
    steps = neighbours[start] & cycle
    previous, current = first, steps & -steps
    while current != first and current:
        cell = cell_at[current.bit_length() - 1]
        order.append(cell)
        following = neighbours[cell] & cycle & ~previous
        if following & (following - 1):
            break  # a fork: not a cycle
        previous, current = current, following
    if len(order) != cycle.bit_count():
        raise RuntimeError(f"cells {sorted(cells_of_layout(layout, cycle))} do not form one cycle")
    return tuple(order)


# ---- the construction and its flood fills ----------------------------------------------
# Plain functions of the board and bit masks: LoopFinder keeps the answers and what they
# depend on, these work them out.


def edge_reaching_empty_cells(n: int, occupied_bits: int) -> int:
    """The empty cells whose region of empty cells touches the board's edge (a mask),
    given the occupied cells (a mask)."""
    layout = _layout(n)
    empty = layout.board & ~occupied_bits
    reach = layout.edge & empty
    while True:
        grown = _grown(reach, layout.stride, empty)
        if grown == reach:
            return reach
        reach = grown


def grow_loop(
    grid: HexGrid,
    occupied_bits: int,
    reach_bits: int,
    memo: Memo,
    cell: int,
    before: tuple[Memo, Trail | None, int] | None = None,
    spelled: dict[int, Loop] | None = None,
) -> tuple[Loop | None, int, Trail | None]:
    """The loop around ``cell``, the cells looked at on the way (a mask), and the
    construction's trail past its first round (None if it ended there).

    ``occupied_bits`` and ``reach_bits`` are the board's occupied and edge-reaching empty
    cells (see :func:`edge_reaching_empty_cells`); ``memo`` maps every E met (a mask) to
    the answer reached from it and the cells looked at (those outside E were looked at
    from there on), and is filled in on the way.

    ``before``, for a board one change away from an earlier one, is what the earlier board
    knew: its memo, the trail of this cell's construction there (or None), and the cells
    that changed since (stones come or gone, empty cells whose reach of the edge
    changed). A round goes as it went there as long as the construction has looked at
    none of those cells: so it resumes at the first round that had, and the memo's answers
    that looked at none of them still hold.

    ``spelled`` maps the loops found so far (masks) to their spelling (see
    :func:`cycle_order`), for the boards of one lineage: the same loop is found from
    several cells and on many boards in a row.
    """
    if grid.on_edge[cell]:
        return None, 0, None
    n = grid.n
    layout = _layout(n)
    ring_bits = layout.rings[cell]
    if before is not None and before[1] is not None and not ring_bits & before[2]:
        trail_before, changed = before[1], before[2]
        resume = 0
        while resume < len(trail_before) - 1 and not trail_before[resume][2] & changed:
            resume += 1
        region_bits, rim_bits, looked_at = trail_before[resume]
        return _grow_on(
            grid,
            occupied_bits,
            reach_bits,
            memo,
            before,
            region_bits,
            rim_bits,
            looked_at,
            list(trail_before[:resume]),
            spelled,
        )

    # First round, E = {cell}: W is the ring of six, where every cell has exactly two
    # neighbours in W, so only its empty cells move (answered with masks: about half of
    # all constructions end here).
    empty_ring = ring_bits & ~occupied_bits
    if not empty_ring:
        return six_ring_loops(n)[cell], ring_bits, None
    stop_bits = reach_bits | layout.edge
    if empty_ring & stop_bits:
        return None, ring_bits, None
    region_bits = _move_in(layout, layout.bits[cell], empty_ring, stop_bits)
    rim_bits = _grown(region_bits, layout.stride, layout.board) & ~region_bits
    looked_at = ring_bits | rim_bits
    if rim_bits & reach_bits:
        # an empty cell of W reaches the edge: the construction escapes in the next
        # round (the commonest ending, settled before any bookkeeping)
        return None, looked_at, None
    return _grow_on(
        grid, occupied_bits, reach_bits, memo, before, region_bits, rim_bits, looked_at, [], spelled
    )


def _move_in(layout: _Layout, region_bits: int, moving: int, stop_bits: int) -> int:
    """E (``region_bits``) with the cells of ``moving`` added, and every piece of the
    outside that they cut off from the board's edge.

    What comes out does not depend on the order the cells go in: E, the cells, and every
    piece of the outside left without a cell of ``stop_bits`` (the edge, and the empty
    cells reaching it, which never join E). So several cells go in at once, and the Euler
    characteristic of E with them says how many pieces they cut off (see
    :func:`_holes`): usually none, and then nothing is flooded. Otherwise each piece next
    to a new cell is flooded, a ring of cells a step, giving up on it as soon as it meets
    a cell of ``stop_bits``, until that many were found. A single cell goes in as
    :func:`_move_in_one` puts it.
    """
    if not moving & (moving - 1):
        return _move_in_one(layout, region_bits, moving, stop_bits) if moving else region_bits
    region_bits |= moving
    holes = _holes(layout.stride, region_bits)
    if not holes:
        return region_bits
    stride, board = layout.stride, layout.board
    step = stride + 1
    outside = board & ~region_bits
    starts = (
        moving << 1
        | moving >> 1
        | moving << stride
        | moving >> stride
        | moving << step
        | moving >> step
    ) & outside
    while holes and starts:
        piece = starts & -starts
        while True:
            grown = (
                piece
                | piece << 1
                | piece >> 1
                | piece << stride
                | piece >> stride
                | piece << step
                | piece >> step
            ) & outside
            if grown & stop_bits:
                starts &= ~grown  # the piece reaches the edge, and so do these
                break
            if grown == piece:  # cut off: it joins E
                region_bits |= piece
                outside &= ~piece
                starts &= ~piece
                holes -= 1
                break
            piece = grown
    return region_bits


def _holes(stride: int, region_bits: int) -> int:
    """How many pieces of the outside a connected region (a mask) cuts off from the
    board's edge: one minus its Euler characteristic, cells less adjacent pairs plus
    triangles of mutually adjacent cells (on the hexagonal grid, pieces of the outside
    are joined through sides only, so that count is exact). Pairs are a cell and its
    neighbour at +1, +stride or +(stride + 1) bits; the triangles, a cell with its
    neighbours at +1 and +(stride + 1), or at +stride and +(stride + 1)."""
    up = region_bits >> 1
    across = region_bits >> stride
    diagonal = region_bits & region_bits >> (stride + 1)
    return (
        1
        - region_bits.bit_count()
        + (region_bits & up).bit_count()
        + (region_bits & across).bit_count()
        + diagonal.bit_count()
        - (diagonal & up).bit_count()
        - (diagonal & across).bit_count()
    )


def _move_in_one(layout: _Layout, region_bits: int, cell_bit: int, stop_bits: int) -> int:
    """E (``region_bits``) with the cell of ``cell_bit`` added, and every piece of the
    outside it cuts off from the board's edge (see :func:`_move_in`).

    A cell whose neighbours outside E form a single run cannot cut the outside apart
    (every route through it can go round it through them), so only otherwise are the
    pieces next to it flooded.
    """
    stride, board = layout.stride, layout.board
    step = stride + 1
    region_bits |= cell_bit
    if not layout.several_runs[region_bits >> (cell_bit.bit_length() - 1 - step) & layout.ring_key]:
        return region_bits
    outside = board & ~region_bits
    starts = (
        cell_bit << 1
        | cell_bit >> 1
        | cell_bit << stride
        | cell_bit >> stride
        | cell_bit << step
        | cell_bit >> step
    ) & outside
    while starts:
        piece = starts & -starts
        while True:
            grown = (
                piece
                | piece << 1
                | piece >> 1
                | piece << stride
                | piece >> stride
                | piece << step
                | piece >> step
            ) & outside
            if grown & stop_bits:
                starts &= ~grown  # the piece reaches the edge, and so do these
                break
            if grown == piece:  # cut off: it joins E
                region_bits |= piece
                outside &= ~piece
                starts &= ~piece
                break
            piece = grown
    return region_bits


def _grow_on(
    grid: HexGrid,
    occupied_bits: int,
    reach_bits: int,
    memo: Memo,
    before: tuple[Memo, Trail | None, int] | None,
    region_bits: int,
    rim_bits: int,
    looked_at: int,
    trail: list[tuple[int, int, int]],
    spelled: dict[int, Loop] | None = None,
) -> tuple[Loop | None, int, Trail]:
    """The later rounds of :func:`grow_loop`, from E (``region_bits``), its W
    (``rim_bits``) and the cells looked at so far; ``trail`` holds the rounds before (E, W
    and the cells looked at, at each round's start).

    A round works on whole masks: the stones of W with exactly two neighbours in W are
    found by counting, for every cell at once, how many of the six shifted copies of W
    hold it; the new W is E's neighbours outside E, six shifts again.
    """
    layout = _layout(grid.n)
    stride, board, edge_bits = layout.stride, layout.board, layout.edge
    step = stride + 1
    empty_bits = board & ~occupied_bits
    stop_bits = reach_bits | edge_bits
    memo_before, changed = (before[0], before[2]) if before is not None else ({}, 0)
    # Constructions from different cells often reach the same E and go on alike from
    # there: every E met is remembered with the answer. What was looked at from E on is
    # everything looked at outside E (a cell of an earlier W not in E is still in W).
    result: Loop | None = None
    remembered = 0  # how many of the trail's regions the memo learns (not one it knew)
    while True:
        trail.append((region_bits, rim_bits, looked_at))
        known = memo.get(region_bits)
        if known is None:
            known = memo_before.get(region_bits)
            if known is not None and known[1] & ~region_bits & changed:
                known = None  # it looked at a cell that changed since
        if known is not None:
            result = known[0]
            looked_at |= known[1] & ~region_bits
            remembered = len(trail) - 1
            break
        remembered = len(trail)
        moving = rim_bits & empty_bits
        if moving & reach_bits:
            break  # this empty region, and with it the edge, joins E: no loop
        # how many of each cell's six neighbours are in W, added up bit by bit for all
        # cells at once (two full adders of three neighbours each, then their sums): the
        # stones of W with exactly two stay
        first, second, third = rim_bits << 1, rim_bits >> 1, rim_bits << stride
        half = first ^ second
        ones_a = half ^ third
        twos_a = first & second | half & third
        first, second, third = rim_bits >> stride, rim_bits << step, rim_bits >> step
        half = first ^ second
        ones_b = half ^ third
        twos_b = first & second | half & third
        carry = ones_a & ones_b
        # exactly two: no odd one, and one of the three pairs (of six: all three)
        two = (twos_a ^ twos_b ^ carry) & ~(ones_a ^ ones_b | twos_a & twos_b & carry)
        moving |= rim_bits & occupied_bits & ~two
        if not moving:
            if spelled is None:
                result = _spelling(layout, rim_bits)
            else:
                result = spelled.get(rim_bits)
                if result is None:
                    if len(spelled) >= _SPELLED_LIMIT:
                        spelled.clear()  # a long search's lineage: start again
                    result = spelled[rim_bits] = _spelling(layout, rim_bits)
            break
        if moving & edge_bits:
            break
        region_bits = _move_in(layout, region_bits, moving, stop_bits)
        rim_bits = (
            region_bits << 1
            | region_bits >> 1
            | region_bits << stride
            | region_bits >> stride
            | region_bits << step
            | region_bits >> step
        ) & (board & ~region_bits)
        looked_at |= rim_bits
        if rim_bits & reach_bits:
            # an empty cell reaching the edge joined W: it moves in next round (nothing
            # encloses it) and the construction escapes, so it ends here
            break
    # every region of the trail learns the same entry (the cells looked at from it on
    # are those outside it: masked when read, fewer times than written)
    entry = (result, looked_at)
    for seen_region, _, _ in trail[:remembered]:
        memo[seen_region] = entry
    return result, looked_at, tuple(trail)


def pieces_cut_off(n: int, empty_bits: int, cell: int) -> int:
    """The empty cells next to a new stone on ``cell`` whose region no longer reaches the
    board's edge, when the region the stone was placed in did (``empty_bits`` without the
    stone's cell), as a mask."""
    layout = _layout(n)
    stride, edge = layout.stride, layout.edge
    starts = layout.neighbours[cell] & empty_bits
    cut = 0
    while starts:
        piece = starts & -starts
        while True:
            grown = _grown(piece, stride, empty_bits)
            if grown & edge:
                starts &= ~grown
                break
            if grown == piece:
                cut |= piece
                starts &= ~piece
                break
            piece = grown
    return cut


def reach_without(
    grid: HexGrid,
    occupied: bytearray,
    cells: list[int] | tuple[int, ...] | set[int],
    reach_bits: int,
) -> int:
    """The edge-reaching empty cells (a mask) once the stones on ``cells`` are gone
    (``occupied`` without them, ``reach_bits`` the edge-reaching empty cells with them):
    only the regions holding a freed cell can change, and they reach the edge if they
    hold an edge cell or meet a region that did."""
    neighbours, on_edge = grid.neighbours, grid.on_edge
    bits = _layout(grid.n).bits
    done: set[int] = set()
    for start in cells:
        if start in done:
            continue
        # the freed cells and formerly shut-in empty cells joined to ``start``
        joined = {start}
        stack = [start]
        reaches = False
        while stack:
            x = stack.pop()
            if on_edge[x]:
                reaches = True
            for nb in neighbours[x]:
                if occupied[nb] or nb in joined:
                    continue
                if reach_bits & bits[nb]:
                    reaches = True
                    continue
                joined.add(nb)
                stack.append(nb)
        done |= joined
        if reaches:
            for x in joined:
                reach_bits |= bits[x]
    return reach_bits


# Answers of the construction shared between finders, and so between positions: a move
# list makes a finder per candidate placement, and the next position's list tries the
# same placements on a board with one more stone. Keyed by board side, start cell and the
# new stone of a finder made by LoopFinder.with_stone() (or the stones taken away by
# LoopFinder.without_stones()), each entry holds the cells the
# construction looked at, the occupancy and the edge-reaching empty cells seen there (bit
# masks restricted to those cells) and the answer: an answer depends on nothing else, so
# it holds on any board that agrees on those cells. Only cells next to the new stone, or
# whose construction reached it, are looked up, so a board size fills a few thousand keys
# (_SHARED_DEPTH entries each); the limit is a backstop.
_SHARED_DEPTH = 3
# how many spelled loops a lineage of finders keeps (see grow_loop())
_SPELLED_LIMIT = 4096
_SHARED_KEYS_LIMIT = 100_000
# how many cells the boards made from a finder ask about (loops_through()) before it lists
# its loops by cell (see LoopFinder._loops_through_carried())
_ASKS_BEFORE_INDEX = 48
_shared_answers: dict[
    tuple[int, int, int | tuple[int, ...]],
    list[tuple[int, int, int, Loop | None, Trail | None]],
] = {}


# False while positions seen once are made (see unshared_answers()): finders then neither
# read nor fill _shared_answers (a context variable: each thread has its own)
_sharing: ContextVar[bool] = ContextVar("loop_answers_shared", default=True)


@contextlib.contextmanager
def unshared_answers() -> Iterator[None]:
    """Inside, loop finders neither read nor fill the answers shared between finders.

    For positions seen once, as a replay of a stored match: its boards are one lineage,
    each (cell, new stone) met once, so nothing it would share is read again (1725 keys
    of a 200-position 9-board replay, none read), and the worker kept them, about 2 MB
    a replay, until the keys' limit. The answers are the same either way."""
    token = _sharing.set(False)
    try:
        yield
    finally:
        _sharing.reset(token)


def occupied_mask(n: int, occupied: bytes | bytearray) -> int:
    """The occupied cells (``occupied[i]`` truthy) as a mask (see :class:`_Layout`)."""
    bits = _layout(n).bits
    mask = 0
    for index, code in enumerate(occupied):
        if code:
            mask |= bits[index]
    return mask


def _producers_after(
    around_before: Mapping[int, Loop | None],
    producers_before: Mapping[Loop, list[int]],
    around: Mapping[int, Loop | None],
    unsettled: Sequence[int],
) -> dict[Loop, list[int]]:
    """Each loop of a board with the cells whose answer it is, made from the board
    before's: only the ``unsettled`` cells' answers may differ (the lists of the others
    are shared with the board before)."""
    producers = dict(producers_before)
    for start in unsettled:
        was, now = around_before[start], around[start]
        if was == now:
            continue
        if was is not None:
            kept = [cell for cell in producers[was] if cell != start]
            if kept:
                producers[was] = kept
            else:
                del producers[was]
        if now is not None:
            producers[now] = [*producers.get(now, ()), start]
    return producers


def _index_changed(
    through_before: dict[int, list[Loop]],
    loops_before: Mapping[Loop, object],
    loops_now: Mapping[Loop, object],
) -> dict[int, list[Loop]]:
    """The loops by cell of a board, made from those of the board before it: only the
    cells of the loops that went or came are listed again (each list in the loops'
    order, as a list made from scratch has it; the other lists are shared)."""
    gone = {loop for loop in loops_before if loop not in loops_now}
    came: dict[int, list[Loop]] = {}  # the new loops by cell
    for loop in loops_now:
        if loop not in loops_before:
            for x in loop:
                came.setdefault(x, []).append(loop)
    through = dict(through_before)
    for x in {x for loop in gone for x in loop}.union(came):
        kept = [loop for loop in through_before.get(x, ()) if loop not in gone]
        kept += came.get(x, ())
        if kept:
            through[x] = sorted(kept)
        else:
            del through[x]
    return through


class LoopFinder:
    """The loops of one occupancy pattern of one board, computed lazily and remembered.

    ``occupied[i]`` is truthy when cell ``i`` holds a stone of either colour (a state's
    ``cells`` bytes can be passed as they are).
    """

    # slots: a move list makes a finder per candidate placement, so making one is hot
    __slots__ = (
        "_all",
        "_around",
        "_asks",
        "_base",
        "_before",
        "_carried",
        "_index_before",
        "_looked_at",
        "_memo",
        "_new_stone",
        "_new_through",
        "_occupied_bits",
        "_producers",
        "_reach_bits",
        "_rings",
        "_spelled",
        "_survives",
        "_tag",
        "_through",
        "_through_one",
        "_trails",
        "_unsettled",
        "_unsettled_set",
        "_wide_before",
        "_wide_looks",
        "grid",
        "occupied",
    )

    def __init__(self, n: int, occupied: bytes | bytearray) -> None:
        self.grid = hex_grid(n)
        self.occupied = bytes(occupied)
        self._rings = ring_of_six(n)
        self._around: dict[int, Loop | None] = {}
        # cell -> the cells whose occupancy its construction looked at (every W it saw),
        # as a mask (see _Layout)
        self._looked_at: dict[int, int] = {}
        # E (as a bit mask, from the second round on) -> the answer of a construction that
        # reached it, and the cells looked at from there on
        self._memo: Memo = {}
        # the loops found on this board and the boards it was made from (bit mask ->
        # spelling), shared along the lineage (see grow_loop())
        self._spelled: dict[int, Loop] = {}
        # cell -> the trail of its construction past the first round (None if it ended
        # there), for the boards made from this one (see grow_loop())
        self._trails: dict[int, Trail | None] = {}
        # set by with_stone() / without_stones() until every answer is known: the memo and
        # the trails of the board before, and the cells whose occupancy or reach of the
        # edge changed since (a construction goes on alike here until it looks at one)
        self._before: tuple[Memo, dict[int, Trail | None], int] | None = None
        # masks (see _Layout), made on demand (see _bits())
        self._occupied_bits: int | None = None
        self._reach_bits: int | None = None
        self._all: list[Loop] | None = None
        self._through: dict[int, list[Loop]] | None = None
        # loop -> the cells whose answer it is (filled in by all_loops())
        self._producers: dict[Loop, list[int]] = {}
        # set by with_stone(): the new stone, the cells whose answer may have changed, and
        # the board-before's loops by cell and by producing cells (to answer loops_through()
        # without working out every cell again)
        self._new_stone: int | None = None
        # how this finder was made from the one before, to key the shared answers: the
        # new stone, or the stones taken away (None for a finder made from scratch)
        self._tag: int | tuple[int, ...] | None = None
        self._unsettled: list[int] = []
        self._unsettled_set: set[int] = set()
        # set by with_stone() / without_stones(): the complete answers of the board before,
        # valid here for every cell outside _unsettled_set
        self._base: tuple[dict[int, Loop | None], dict[int, int], dict[Loop, list[int]]] | None = (
            None
        )
        # the answers whose construction went past its first round, with the cells they
        # looked at (made on demand, once every answer is known)
        self._wide_looks: dict[int, int] | None = None
        # the board before's, kept by with_stone() / without_stones() to make those
        self._wide_before: dict[int, int] | None = None
        # the board before's loops by cell and producers, to make this board's from
        self._index_before: tuple[dict[int, list[Loop]], dict[Loop, list[int]]] | None = None
        # the distinct answers of the unsettled cells (on demand)
        self._new_through: list[Loop] | None = None
        # set by with_stone() / without_stones() until all_loops(): the finder before (to
        # read its loops by cell, or only its loops, see _loops_through_carried())
        self._carried: LoopFinder | None = None
        # how often the boards made from this one asked for the loops through a cell
        self._asks = 0
        self._through_one: dict[int, list[Loop]] = {}
        # loop of the board before -> whether a carried-over answer still produces it
        self._survives: dict[Loop, bool] = {}

    def occupied_bits(self) -> int:
        """The occupied cells as a mask (see :class:`_Layout`)."""
        occupied_bits = self._occupied_bits
        if occupied_bits is None:
            occupied_bits = self._occupied_bits = occupied_mask(self.grid.n, self.occupied)
        return occupied_bits

    # ---- empty regions --------------------------------------------------------------
    def _bits(self) -> tuple[int, int]:
        """As masks (see :class:`_Layout`): the occupied cells, and the empty cells whose
        region of empty cells touches the board's edge."""
        occupied_bits = self._occupied_bits
        if occupied_bits is None:
            occupied_bits = self._occupied_bits = occupied_mask(self.grid.n, self.occupied)
        reach_bits = self._reach_bits
        if reach_bits is None:
            reach_bits = self._reach_bits = edge_reaching_empty_cells(self.grid.n, occupied_bits)
        return occupied_bits, reach_bits

    # ---- the construction -------------------------------------------------------------
    def around(self, cell: int) -> Loop | None:
        """The loop around ``cell`` (RULINGS §6), or None when there is none."""
        around = self._around
        if cell in around:
            return around[cell]
        base = self._base
        if base is not None and cell not in self._unsettled_set:
            return base[0][cell]  # carried over (all_loops() merges the base in)
        if self.grid.on_edge[cell]:
            around[cell] = None  # nothing around an edge cell, whatever the board
            self._looked_at[cell] = 0
            return None
        occupied_bits = self._occupied_bits
        reach_bits = self._reach_bits
        if occupied_bits is None or reach_bits is None:
            occupied_bits, reach_bits = self._bits()
        # The first round of the construction (see grow_loop()) ends most of them and costs
        # less than looking the answer up.
        n = self.grid.n
        layout = _layout(n)
        ring_bits = layout.rings[cell]
        empty_ring = ring_bits & ~occupied_bits
        if not empty_ring or empty_ring & (reach_bits | layout.edge):
            loop = None if empty_ring else six_ring_loops(n)[cell]
            around[cell] = loop
            self._looked_at[cell] = ring_bits
            return loop
        # a finder made from scratch (no tag) shares nothing with the boards around it
        tag, entries = self._tag, None
        if tag is not None and _sharing.get():
            key = (n, cell, tag)
            entries = _shared_answers.get(key)
            if entries is not None:
                for looked_at, occupied_seen, reach_seen, loop, trail in entries:
                    if (
                        occupied_bits & looked_at == occupied_seen
                        and reach_bits & looked_at == reach_seen
                    ):
                        around[cell] = loop
                        self._looked_at[cell] = looked_at
                        self._trails[cell] = trail
                        return loop
            else:
                if len(_shared_answers) >= _SHARED_KEYS_LIMIT:
                    _shared_answers.clear()  # only after board sizes were mixed a lot
                entries = _shared_answers[key] = []
        before = self._before  # set only with a tag
        loop, looked_at, trail = grow_loop(
            self.grid,
            occupied_bits,
            reach_bits,
            self._memo,
            cell,
            None if before is None else (before[0], before[1].get(cell), before[2]),
            self._spelled,
        )
        around[cell] = loop
        self._looked_at[cell] = looked_at
        self._trails[cell] = trail
        if entries is not None:
            entries.insert(
                0, (looked_at, occupied_bits & looked_at, reach_bits & looked_at, loop, trail)
            )
            del entries[_SHARED_DEPTH:]
        return loop

    # ---- the same board with one more stone ---------------------------------------------
    def with_stone(self, cell: int) -> LoopFinder:
        """The finder of this occupancy plus a stone on the empty ``cell``.

        An answer can only change if its construction looked at ``cell`` or at an empty
        cell whose region stops reaching the edge because of the new stone; every other
        answer is carried over. Regions are unchanged when the open neighbours of ``cell``
        (empty, or off the board) form a single run around it, since any route through
        ``cell`` can then go round it; otherwise they are worked out again and compared.
        """
        self.all_loops()  # every answer known here, so the watchers scan is complete
        occupied = self.occupied[:cell] + b"\x01" + self.occupied[cell + 1 :]
        successor = LoopFinder(self.grid.n, occupied)
        successor._new_stone = successor._tag = cell
        occupied_bits, reach_bits = self._bits()
        changed = _layout(self.grid.n).bits[cell]  # the cells whose answers must be redone
        successor._occupied_bits = occupied_bits | changed
        open_around = 0  # which of the six neighbours are empty or off the board
        for bit, x in enumerate(self._rings[cell]):
            if x < 0 or not occupied[x]:
                open_around |= 1 << bit
        if SEVERAL_RUNS[open_around] and reach_bits & changed:
            # the stone may cut its empty region apart: a piece that no longer reaches the
            # edge is entirely made of neighbours' pieces, so flood from each of them
            layout = _layout(self.grid.n)
            changed |= pieces_cut_off(self.grid.n, layout.board & ~(occupied_bits | changed), cell)
        successor._reach_bits = reach_bits & ~changed
        successor._before = (self._memo, self._trails, changed)
        self._hand_over(successor, self._watchers_of(changed))
        return successor

    def without_stones(self, cells: list[int] | tuple[int, ...] | set[int]) -> LoopFinder:
        """The finder of this occupancy with the stones on ``cells`` taken away.

        As in :meth:`with_stone`, only the answers whose construction looked at one of
        those cells, or at an empty cell whose region now reaches the edge, are dropped.
        """
        self.all_loops()
        occupied = bytearray(self.occupied)
        for cell in cells:
            occupied[cell] = 0
        successor = LoopFinder(self.grid.n, occupied)
        successor._tag = tuple(sorted(cells))
        occupied_bits, reach_bits = self._bits()
        bits = _layout(self.grid.n).bits
        changed = 0
        for cell in cells:
            changed |= bits[cell]
        successor._occupied_bits = occupied_bits & ~changed
        successor._reach_bits = reach_without(self.grid, occupied, cells, reach_bits)
        # the empty cells whose region's reach of the edge changed
        changed |= reach_bits ^ successor._reach_bits
        successor._before = (self._memo, self._trails, changed)
        self._hand_over(successor, self._watchers_of(changed))
        return successor

    def _hand_over(self, successor: LoopFinder, unsettled: set[int]) -> None:
        """Give ``successor`` every answer of this finder except the ``unsettled`` ones.

        Nothing is copied here: most successors (the boards a move list tries out) ask
        about a handful of cells and are dropped, so they read this finder's complete,
        never-changing answers directly (see :meth:`around`).
        """
        successor._spelled = self._spelled
        successor._base = (self._around, self._looked_at, self._producers)
        successor._unsettled = sorted(unsettled)
        successor._unsettled_set = unsettled
        successor._carried = self
        successor._wide_before = self._wide_looks

    def _watchers_of(self, cells: int) -> set[int]:
        """The cells whose construction looked at any of ``cells`` (a bit mask); every
        cell must be answered.

        Nearly every construction stops in its first round, having looked at its six
        neighbours only: those watchers are the neighbours of ``cells``. Only the few
        that went further are scanned.
        """
        layout = _layout(self.grid.n)
        ring_masks = layout.rings
        looked_at = self._looked_at
        wide = self._wide_looks
        if wide is None and self._wide_before is not None:
            # those of the board before, but for the answers worked out again here
            unsettled = self._unsettled_set
            wide = {s: mask for s, mask in self._wide_before.items() if s not in unsettled}
            for start in self._unsettled:
                mask = looked_at[start]
                if mask and mask != ring_masks[start]:
                    wide[start] = mask
            self._wide_looks, self._wide_before = wide, None
        elif wide is None:
            wide = self._wide_looks = {
                start: mask
                for start, mask in looked_at.items()
                if mask and mask != ring_masks[start]
            }
        found = {start for start, mask in wide.items() if mask & cells}
        neighbours, cell_at = self.grid.neighbours, layout.cell_at
        rest = cells
        while rest:
            lowest = rest & -rest
            rest ^= lowest
            for nb in neighbours[cell_at[lowest.bit_length() - 1]]:
                if looked_at[nb] == ring_masks[nb]:
                    found.add(nb)
        return found

    def loops_through_new_stone(self) -> list[Loop]:
        """For a finder made by :meth:`with_stone`: the loops through that new stone.

        Answers copied from the board before the stone cannot pass through it (the cell was
        empty there), so only the answers that may have changed are worked out.
        """
        cell = self._new_stone
        if cell is None:
            raise ValueError("this finder was not made by with_stone()")
        return sorted(self._new_loops_through(cell))

    def _new_loops_through(self, cell: int) -> list[Loop]:
        """The answers of the unsettled cells (the only ones that can be new loops) that
        pass through ``cell``, without repeats. They are few, so scanning them beats
        indexing them by cell."""
        return [loop for loop in self._new_answers() if cell in loop]

    def _new_answers(self) -> list[Loop]:
        """The distinct loops the unsettled cells' answers give."""
        answers = self._new_through
        if answers is None:
            around = self.around
            found = {around(start) for start in self._unsettled}
            answers = self._new_through = [loop for loop in found if loop is not None]
        return answers

    # ---- the loops of the position ---------------------------------------------------------
    def all_loops(self) -> list[Loop]:
        """Every loop on the board (the loops around all cells), without repeats, in a
        stable order (by their canonical spelling)."""
        if self._all is None:
            base = self._base
            producers: dict[Loop, list[int]]
            if base is not None:
                # settled answers come from the board before in one go
                for start in self._unsettled:
                    self.around(start)
                own = self._around
                around, looked_at = dict(base[0]), dict(base[1])
                around.update(own)
                looked_at.update(self._looked_at)
                self._around, self._looked_at = around, looked_at
                self._base = None
                producers = _producers_after(base[0], base[2], own, self._unsettled)
                if self._before is not None:
                    # the trails of the answers carried over still hold here
                    trails = dict(self._before[1])
                    own_trails = self._trails
                    for start in self._unsettled:
                        trails[start] = own_trails.get(start)
                    self._trails = trails
                    self._before = None
            else:
                for cell in range(self.grid.cell_count):
                    self.around(cell)
                producers = {}
                for cell, loop in self._around.items():
                    if loop is not None:
                        producers.setdefault(loop, []).append(cell)
            self._producers = producers
            self._all = sorted(producers)
            before = self._carried
            if before is not None and self._through is None and before._through is not None:
                # the board before's loops by cell, to make this board's from
                self._index_before = (before._through, before._producers)
            self._carried = None  # no longer needed (nor kept: no chain of boards)
        return self._all

    def loops_through(self, cell: int) -> list[Loop]:
        """The loops on the board that pass through ``cell``."""
        if self._all is None and self._carried is not None:
            return self._loops_through_carried(cell)
        return self._index_by_cell().get(cell, [])

    def loops_touching(self, cells: Sequence[int]) -> list[Loop]:
        """The loops on the board through any of ``cells``, each once (in no set order):
        one pass where :meth:`loops_through` of each would make one each."""
        if self._all is None and self._carried is not None:
            return _carried_loops_touching(self, self._carried, cells)
        index = self._index_by_cell()
        return list(dict.fromkeys(loop for cell in cells for loop in index.get(cell, ())))

    def _index_by_cell(self) -> dict[int, list[Loop]]:
        if self._through is None:
            self.all_loops()
            before = self._index_before
            if before is not None:
                self._through = _index_changed(before[0], before[1], self._producers)
                self._index_before = None
            else:
                through: dict[int, list[Loop]] = {}
                for loop in self._all or ():
                    for x in loop:
                        through.setdefault(x, []).append(loop)
                self._through = through
        return self._through

    def _loops_through_carried(self, cell: int) -> list[Loop]:
        known = self._through_one.get(cell)
        if known is None and self._carried is not None:
            known = self._through_one[cell] = _carried_loops_through(self, self._carried, cell)
        return known or []

    def closed_by(self, cell: int) -> list[Loop]:
        """The loops around ``cell``'s neighbours that pass through it: the loops a stone
        just placed on ``cell`` closes (RULINGS §6)."""
        found: list[Loop] = []
        neighbours = self.grid.neighbours[cell]
        if cell == self._new_stone and self._base is not None:
            # answers carried over from the board before cannot pass through the cell,
            # which was empty there: only the neighbours worked out again can close a loop
            unsettled = self._unsettled_set
            neighbours = tuple(nb for nb in neighbours if nb in unsettled)
        for nb in neighbours:
            loop = self.around(nb)
            if loop is not None and cell in loop and loop not in found:
                found.append(loop)
        return sorted(found)


def _carried_loops_through(finder: LoopFinder, before: LoopFinder, cell: int) -> list[Loop]:
    """loops_through() for a finder made by with_stone(), before all_loops() is known:
    a loop of the board before still exists if some cell whose answer was carried over
    produced it; the rest come from the answers worked out again.

    The board before's loops through the cell are read from its loops by cell, which
    it makes only once it has been asked often (a move list's boards ask it hundreds
    of times); until then they are picked from all its loops (a replay's next board
    asks a handful of cells, fewer than making the index would cost). A function beside
    the class, not a method of it: it reads two finders, the new one and the one before."""
    producers_before = before._producers
    through_before = before._through
    if through_before is None:
        before._asks += 1
        if before._asks > _ASKS_BEFORE_INDEX:
            through_before = before._index_by_cell()
    loops = (
        [loop for loop in producers_before if cell in loop]
        if through_before is None
        else through_before.get(cell, ())
    )
    unsettled = finder._unsettled_set
    survives = finder._survives
    found = set()
    for loop in loops:
        kept = survives.get(loop)
        if kept is None:
            kept = survives[loop] = any(start not in unsettled for start in producers_before[loop])
        if kept:
            found.add(loop)
    found.update(finder._new_loops_through(cell))
    return sorted(found)


def _carried_loops_touching(
    finder: LoopFinder, before: LoopFinder, cells: Sequence[int]
) -> list[Loop]:
    """:func:`_carried_loops_through` for several cells at once, each loop once: the board
    before's loops are picked in one pass (each cell counts as an ask towards its loops
    by cell, as it would asked alone)."""
    producers_before = before._producers
    through_before = before._through
    if through_before is None:
        before._asks += len(cells)
        if before._asks > _ASKS_BEFORE_INDEX:
            through_before = before._index_by_cell()
    wanted = frozenset(cells)
    loops: Iterable[Loop] = (
        [loop for loop in producers_before if not wanted.isdisjoint(loop)]
        if through_before is None
        else dict.fromkeys(loop for cell in cells for loop in through_before.get(cell, ()))
    )
    unsettled = finder._unsettled_set
    survives = finder._survives
    found: dict[Loop, None] = {}
    for loop in loops:
        kept = survives.get(loop)
        if kept is None:
            kept = survives[loop] = any(start not in unsettled for start in producers_before[loop])
        if kept:
            found[loop] = None
    for loop in finder._new_answers():
        if not wanted.isdisjoint(loop):
            found[loop] = None
    return list(found)
