"""FROZEN pre-optimisation copy of engine/loops.py, the loop finder of the oracle engine in
:mod:`tests.lublache.slow_reference.lublache_v1`. Do not change it.

Original docstring follows.

Lublache loops: the construction of RULINGS §6, computed from which cells hold stones.

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
  edge the answer is "no loop" at once (most cells of a sparse board stop after one round).
- Enclosure is checked locally: adding one cell to ``E`` can only cut the rest of the board
  apart when the cell's outside neighbours, taken round it, form more than one run; only
  then is a flood fill needed.
- ``W`` and the counts of neighbours in ``W`` are updated as cells join ``E``; every ``E``
  met is remembered with its answer, as constructions from nearby cells often meet.
- :meth:`LoopFinder.with_stone` gives the loops of the board with one more stone by
  carrying over every answer whose construction never looked at the changed cells.

Everything is checked against a plain transcription of the ruling in the tests.
"""

from __future__ import annotations

from functools import cache

from engine.hexgrid import HexGrid, hex_grid

# The six axial directions in turning order, so consecutive entries are neighbours.
_TURNING = ((1, 0), (1, -1), (0, -1), (-1, 0), (-1, 1), (0, 1))

Loop = tuple[int, ...]  # cell indices in cycle order, starting at the smallest index


def _several_runs(bits: int) -> bool:
    """Whether the set bits of a 6-bit ring pattern form more than one run (cyclically)."""
    changes = sum(1 for i in range(6) if (bits >> i & 1) != (bits >> (i - 1) % 6 & 1))
    return changes > 2


# Indexed by the pattern of a cell's neighbours (in turning order) lying outside E: adding the
# cell to E can only cut the outside apart when those neighbours form several runs, since
# otherwise every route through the cell can go round it through them.
SEVERAL_RUNS: tuple[bool, ...] = tuple(_several_runs(bits) for bits in range(64))


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
def neighbours_towards_edge(n: int) -> tuple[tuple[int, ...], ...]:
    """Per cell, its neighbours ordered so that the one nearest the board's edge comes
    last (a stack then explores it first)."""
    grid = hex_grid(n)
    centre = grid.centre
    return tuple(
        tuple(sorted(nbs, key=lambda nb: (grid.distance(centre, nb), -nb)))
        for nbs in grid.neighbours
    )


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


class LoopFinder:
    """The loops of one occupancy pattern of one board, computed lazily and remembered.

    ``occupied[i]`` is truthy when cell ``i`` holds a stone of either colour (a state's
    ``cells`` bytes can be passed as they are).
    """

    def __init__(self, n: int, occupied: bytes | bytearray) -> None:
        self.grid = hex_grid(n)
        self.occupied = bytes(occupied)
        self._rings = ring_of_six(n)
        self._around: dict[int, Loop | None] = {}
        # cell -> the cells whose occupancy its construction looked at (every W it saw),
        # as a bit mask over cell indices
        self._looked_at: dict[int, int] = {}
        # E (as a bit mask, from the second round on) -> the answer of a construction that
        # reached it, and the cells looked at from there on
        self._memo: dict[int, tuple[Loop | None, int]] = {}
        self._reaches_edge: list[bool] | None = None
        self._all: list[Loop] | None = None
        self._through: dict[int, list[Loop]] | None = None
        # cell -> the cells whose construction looked at it (built on demand)
        self._watchers: dict[int, list[int]] | None = None
        # loop -> the cells whose answer it is (filled in by all_loops())
        self._producers: dict[Loop, list[int]] = {}
        # set by with_stone(): the new stone, the cells whose answer may have changed, and
        # the board-before's loops by cell and by producing cells (to answer loops_through()
        # without working out every cell again)
        self._new_stone: int | None = None
        self._unsettled: list[int] = []
        self._unsettled_set: set[int] = set()
        self._carried: tuple[dict[int, list[Loop]], dict[Loop, list[int]]] | None = None
        self._through_one: dict[int, list[Loop]] = {}

    # ---- empty regions --------------------------------------------------------------
    def _empty_reaching_edge(self) -> list[bool]:
        """Per cell: it is empty and its region of empty cells touches the board's edge."""
        flags = self._reaches_edge
        if flags is None:
            grid, occupied = self.grid, self.occupied
            neighbours, on_edge = grid.neighbours, grid.on_edge
            flags = [False] * grid.cell_count
            stack = [i for i in range(grid.cell_count) if on_edge[i] and not occupied[i]]
            for i in stack:
                flags[i] = True
            while stack:
                cell = stack.pop()
                for nb in neighbours[cell]:
                    if not flags[nb] and not occupied[nb]:
                        flags[nb] = True
                        stack.append(nb)
            self._reaches_edge = flags
        return flags

    # ---- the construction -------------------------------------------------------------
    def around(self, cell: int) -> Loop | None:
        """The loop around ``cell`` (RULINGS §6), or None when there is none."""
        if cell in self._around:
            return self._around[cell]
        loop, looked_at = self._grow(cell)
        self._around[cell] = loop
        self._looked_at[cell] = looked_at
        return loop

    def _grow(self, cell: int) -> tuple[Loop | None, int]:
        """The loop around ``cell`` and the cells looked at on the way (a bit mask)."""
        grid, occupied = self.grid, self.occupied
        neighbours, on_edge = grid.neighbours, grid.on_edge
        if on_edge[cell]:
            return None, 0
        reaches_edge = self._empty_reaching_edge()

        # First round, E = {cell}: W is the ring of six, where every cell has exactly two
        # neighbours in W, so only its empty cells move.
        rings = self._rings
        ring = rings[cell]
        ring_bits = sum(1 << w for w in ring)
        empties = [w for w in ring if not occupied[w]]
        if not empties:
            return six_ring_loops(grid.n)[cell], ring_bits
        if any(reaches_edge[w] or on_edge[w] for w in empties):
            return None, ring_bits
        region = {cell}
        for w in empties:
            region.add(w)
            if SEVERAL_RUNS[sum(1 << bit for bit, nb in enumerate(rings[w]) if nb not in region)]:
                self._add_enclosed(w, region)

        # Later rounds. W and each W cell's number of neighbours in W are kept up to date
        # as cells join E, and a round only re-examines the W cells whose count changed or
        # that are new to W: the others were stones with exactly two and still are.
        rim = {nb for x in region for nb in neighbours[x] if nb not in region}
        region_bits = sum(1 << x for x in region)
        looked_at = ring_bits | sum(1 << w for w in rim)
        degree = {w: sum(1 for nb in neighbours[w] if nb in rim) for w in rim}
        to_examine = set(rim)
        # Constructions from different cells often reach the same E and go on alike from
        # there: every E met is remembered with the answer. What was looked at from E on is
        # everything looked at outside E (a cell of an earlier W not in E is still in W).
        memo = self._memo
        path: list[int] = []
        result: Loop | None = None
        while True:
            known = memo.get(region_bits)
            if known is not None:
                result = known[0]
                looked_at |= known[1]
                break
            path.append(region_bits)
            moving = []
            escaped = False
            for w in to_examine:
                if w not in rim:
                    continue
                if not occupied[w]:
                    if reaches_edge[w]:
                        escaped = True  # this empty region, and with it the edge, joins E
                        break
                    moving.append(w)
                elif degree[w] != 2:
                    moving.append(w)
            if escaped:
                break
            if not moving:
                result = cycle_order(grid, rim)
                break
            if any(on_edge[w] for w in moving):
                break
            to_examine = set()
            for w in moving:
                if w in region:
                    continue  # already enclosed by an earlier cell of this round
                region.add(w)
                region_bits |= 1 << w
                rim.discard(w)
                del degree[w]
                outside_bits = 0
                for bit, nb in enumerate(rings[w]):
                    if nb in region:
                        continue
                    outside_bits |= 1 << bit
                    if nb in rim:
                        degree[nb] -= 1  # it loses w as a W neighbour
                        to_examine.add(nb)
                    else:
                        rim.add(nb)
                        looked_at |= 1 << nb
                        count = 0
                        for far in neighbours[nb]:
                            if far in rim:
                                degree[far] += 1
                                to_examine.add(far)
                                count += 1
                        degree[nb] = count
                        to_examine.add(nb)
                if SEVERAL_RUNS[outside_bits]:
                    # the pieces cut off are bounded by E alone: no W cell outside them
                    # neighbours them, so dropping them leaves the other counts right
                    for x in self._add_enclosed(w, region):
                        region_bits |= 1 << x
                        if x in rim:
                            rim.discard(x)
                            del degree[x]
        for seen_region in path:
            memo[seen_region] = (result, looked_at & ~seen_region)
        return result, looked_at

    def _add_enclosed(self, cell: int, region: set[int]) -> set[int]:
        """Add to ``region`` the pieces of the outside that ``cell`` has just cut off, and
        return them.

        Each piece is flooded from a neighbour of ``cell``, heading for the board's edge
        first (neighbours nearer the edge are tried first), and given up as open as soon
        as it reaches the edge: only pieces that really are cut off get flooded whole.
        """
        on_edge, towards_edge = self.grid.on_edge, neighbours_towards_edge(self.grid.n)
        known_open: set[int] = set()  # cells shown to connect to the edge
        enclosed: set[int] = set()
        for start in self._rings[cell]:
            if start in region or start in known_open:
                continue
            seen = {start}
            stack = [start]
            open_to_edge = False
            while stack:
                x = stack.pop()
                if on_edge[x] or x in known_open:
                    open_to_edge = True
                    break
                for nb in towards_edge[x]:
                    if nb not in region and nb not in seen:
                        seen.add(nb)
                        stack.append(nb)
            if open_to_edge:
                known_open |= seen
            else:
                region |= seen
                enclosed |= seen
        return enclosed

    # ---- the same board with one more stone ---------------------------------------------
    def with_stone(self, cell: int) -> LoopFinder:
        """The finder of this occupancy plus a stone on the empty ``cell``.

        An answer can only change if its construction looked at ``cell`` or at an empty
        cell whose region stops reaching the edge because of the new stone; every other
        answer is carried over. Regions are unchanged when the open neighbours of ``cell``
        (empty, or off the board) form a single run around it, since any route through
        ``cell`` can then go round it; otherwise they are worked out again and compared.
        """
        self.all_loops()  # every answer known here, so the watchers index is complete
        occupied = bytearray(self.occupied)
        occupied[cell] = 1
        successor = LoopFinder(self.grid.n, occupied)
        successor._new_stone = cell
        ring = self._rings[cell]
        open_ = [x < 0 or not self.occupied[x] for x in ring]
        runs_edges = sum(1 for i in range(6) if open_[i] != open_[i - 1])
        old_flags = self._empty_reaching_edge()
        unsettled = set(self._watchers_of(cell))
        if runs_edges <= 2:
            flags = list(old_flags)
            flags[cell] = False
            successor._reaches_edge = flags
        else:
            flags = successor._empty_reaching_edge()
            for x, (before, after) in enumerate(zip(old_flags, flags, strict=True)):
                if before != after and x != cell:
                    unsettled.update(self._watchers_of(x))
        self._hand_over(successor, unsettled)
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
        unsettled: set[int] = set()
        for cell in cells:
            unsettled.update(self._watchers_of(cell))
        old_flags, flags = self._empty_reaching_edge(), successor._empty_reaching_edge()
        for x, (before, after) in enumerate(zip(old_flags, flags, strict=True)):
            if before != after:
                unsettled.update(self._watchers_of(x))
        self._hand_over(successor, unsettled)
        return successor

    def _hand_over(self, successor: LoopFinder, unsettled: set[int]) -> None:
        """Give ``successor`` every answer of this finder except the ``unsettled`` ones."""
        successor._around = dict(self._around)
        successor._looked_at = dict(self._looked_at)
        for start in unsettled:
            del successor._around[start]
            del successor._looked_at[start]
        successor._unsettled = sorted(unsettled)
        successor._unsettled_set = unsettled
        successor._carried = (self._index_by_cell(), self._producers)

    def _watchers_of(self, cell: int) -> list[int]:
        """The cells whose construction looked at ``cell`` (every cell must be answered)."""
        if self._watchers is None:
            watchers: dict[int, list[int]] = {}
            for start, looked_at in self._looked_at.items():
                while looked_at:
                    lowest = looked_at & -looked_at
                    watchers.setdefault(lowest.bit_length() - 1, []).append(start)
                    looked_at ^= lowest
            self._watchers = watchers
        return list(self._watchers.get(cell, ()))

    def loops_through_new_stone(self) -> list[Loop]:
        """For a finder made by :meth:`with_stone`: the loops through that new stone.

        Answers copied from the board before the stone cannot pass through it (the cell was
        empty there), so only the answers that may have changed are worked out.
        """
        cell = self._new_stone
        if cell is None:
            raise ValueError("this finder was not made by with_stone()")
        found = {self.around(start) for start in self._unsettled}
        return sorted(loop for loop in found if loop is not None and cell in loop)

    # ---- the loops of the position ---------------------------------------------------------
    def all_loops(self) -> list[Loop]:
        """Every loop on the board (the loops around all cells), without repeats, in a
        stable order (by their canonical spelling)."""
        if self._all is None:
            producers: dict[Loop, list[int]] = {}
            for cell in range(self.grid.cell_count):
                loop = self.around(cell)
                if loop is not None:
                    producers.setdefault(loop, []).append(cell)
            self._producers = producers
            self._all = sorted(producers)
            self._carried = None  # no longer needed: everything is known here
        return self._all

    def loops_through(self, cell: int) -> list[Loop]:
        """The loops on the board that pass through ``cell``."""
        if self._all is None and self._carried is not None:
            return self._loops_through_carried(cell)
        return self._index_by_cell().get(cell, [])

    def _index_by_cell(self) -> dict[int, list[Loop]]:
        if self._through is None:
            through: dict[int, list[Loop]] = {}
            for loop in self.all_loops():
                for x in loop:
                    through.setdefault(x, []).append(loop)
            self._through = through
        return self._through

    def _loops_through_carried(self, cell: int) -> list[Loop]:
        """loops_through() for a finder made by with_stone(), before all_loops() is known:
        a loop of the board before still exists if some cell whose answer was carried over
        produced it; the rest come from the answers worked out again."""
        known = self._through_one.get(cell)
        if known is None and self._carried is not None:
            through_before, producers_before = self._carried
            unsettled = self._unsettled_set
            found = {
                loop
                for loop in through_before.get(cell, ())
                if any(start not in unsettled for start in producers_before[loop])
            }
            for start in self._unsettled:
                loop = self.around(start)
                if loop is not None and cell in loop:
                    found.add(loop)
            known = sorted(found)
            self._through_one[cell] = known
        return known or []

    def closed_by(self, cell: int) -> list[Loop]:
        """The loops around ``cell``'s neighbours that pass through it: the loops a stone
        just placed on ``cell`` closes (RULINGS §6)."""
        found: list[Loop] = []
        for nb in self.grid.neighbours[cell]:
            loop = self.around(nb)
            if loop is not None and cell in loop and loop not in found:
                found.append(loop)
        return sorted(found)
