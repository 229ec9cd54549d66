"""Which loops a position has: the construction of RULINGS §6, on named examples and on
random boards against a plain transcription of the ruling."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from engine import loops
from engine.hexgrid import hex_grid
from engine.loops import LoopFinder, cycle_order
from tests.lublache import reference
from tests.lublache.helpers import BLACK, WHITE, is_chordless_cycle, loop_sets, position, ring


def cells_at_distance(centre: str, distance: int, size: int = 7) -> list[str]:
    grid = hex_grid(size)
    index = grid.index(centre)
    assert index is not None
    return [grid.names[x] for x in range(grid.cell_count) if grid.distance(index, x) == distance]


def random_occupancy(rng: random.Random, size: int) -> bytes:
    density = rng.uniform(0.2, 0.95)
    return bytes(rng.random() < density for _ in range(hex_grid(size).cell_count))


# ---- named shapes ----------------------------------------------------------------------------


def test_ring_of_six_around_an_empty_cell_is_a_loop() -> None:
    state = position(black=ring("g7"))
    (loop,) = state.loops()
    assert set(loop.cells) == set(ring("g7"))
    assert loop.cells == ("f6", "f7", "g8", "h7", "h6", "g6")  # walking order, from f6
    assert loop.owner == BLACK and loop.controllers == (BLACK,)


def test_ring_of_six_around_a_stone_is_a_loop() -> None:
    state = position(black=ring("g7"), white=["g7"])
    assert loop_sets(state) == {frozenset(ring("g7"))}


def test_ring_of_six_with_a_gap_is_no_loop() -> None:
    assert position(black=ring("g7")[:5]).loops() == []


def test_ring_on_the_edge_of_the_board_counts() -> None:
    # b2 is an inner cell next to the corner a1; its ring touches the board's edge
    state = position(black=ring("b2"))
    assert loop_sets(state) == {frozenset(ring("b2"))}


def test_the_whole_rim_of_the_board_is_a_loop_around_the_inside() -> None:
    # E grows over every inner cell, never onto the rim, and each rim cell has exactly two
    # rim neighbours: the construction ends with the rim as the loop
    grid = hex_grid(5)
    rim = [name for index, name in enumerate(grid.names) if grid.on_edge[index]]
    (loop,) = position(black=rim, size=5).loops()
    assert set(loop.cells) == set(rim) and len(loop.cells) == 24


def test_a_broken_rim_of_the_board_is_no_loop() -> None:
    grid = hex_grid(5)
    rim = [name for index, name in enumerate(grid.names) if grid.on_edge[index]]
    assert position(black=[cell for cell in rim if cell != "c1"], size=5).loops() == []


def test_ring_around_two_empty_cells_is_one_loop_of_eight() -> None:
    cells = sorted((set(ring("g7")) | set(ring("g8"))) - {"g7", "g8"})
    state = position(black=cells[:4], white=cells[4:])
    (loop,) = state.loops()
    assert len(loop.cells) == 8 and set(loop.cells) == set(cells)
    assert loop.owner is None
    assert loop.controllers == (BLACK, WHITE) and loop.controller is None


def test_ring_of_twelve_around_seven_empty_cells_is_one_loop() -> None:
    cells = cells_at_distance("g7", 2)
    state = position(white=cells)
    (loop,) = state.loops()
    assert len(loop.cells) == 12 and loop.owner == WHITE


def test_nested_rings_give_the_smallest_loop_around_each_cell() -> None:
    # A solid hexagon of radius two with an empty centre: around g7 the ring of six; around
    # each stone of that ring, the ring of eight round it and the centre. The outer ring of
    # twelve is found from no cell, so it is not a loop of this position.
    inner, outer = ring("g7"), cells_at_distance("g7", 2)
    state = position(black=inner, white=outer)
    around_pairs = {
        frozenset((set(ring(stone)) | set(ring("g7"))) - {stone, "g7"}) for stone in inner
    }
    assert loop_sets(state) == {frozenset(inner)} | around_pairs
    assert frozenset(outer) not in loop_sets(state)


def test_stone_sticking_out_of_a_ring_is_a_chord_not_part_of_a_loop() -> None:
    # i6 touches both h6 and h7: the seven-stone cycle through it has the chord h6-h7
    state = position(black=[*ring("g7"), "i6"])
    assert loop_sets(state) == {frozenset(ring("g7"))}


def test_stone_sticking_into_a_ring_gives_the_ring_and_the_cycle_through_it() -> None:
    outer = cells_at_distance("g7", 2)
    state = position(black=outer, white=["h6"])
    loops = loop_sets(state)
    # the ring itself (around h6, taken with its empty neighbours) and the shortcut
    # through h6 that skips the corner i5 (around g7): both are chordless
    assert loops == {frozenset(outer), frozenset((set(outer) - {"i5"}) | {"h6"})}
    for loop in state.loops():
        assert is_chordless_cycle(loop.cells, 7)


def test_filled_board_has_a_ring_around_every_inner_stone() -> None:
    grid = hex_grid(5)
    state = position(white=list(grid.names), to_move=BLACK, size=5)
    inner = [name for index, name in enumerate(grid.names) if not grid.on_edge[index]]
    assert loop_sets(state) == {frozenset(ring(cell, 5)) for cell in inner}
    assert state.score == {BLACK: 0, WHITE: len(inner)}


def test_loops_ignore_colours() -> None:
    cells = ring("g7")
    assert loop_sets(position(black=cells)) == loop_sets(position(black=cells[:3], white=cells[3:]))


def test_cycle_order_starts_at_the_smallest_cell_towards_its_smaller_neighbour() -> None:
    grid = hex_grid(7)
    indices = {grid.index(cell) for cell in ring("g7")}
    order = cycle_order(grid, indices)  # type: ignore[arg-type]
    assert [grid.names[x] for x in order] == ["f6", "f7", "g8", "h7", "h6", "g6"]


# ---- the fast construction against the ruling, on random boards -------------------------------


@settings(max_examples=25)
@given(seed=st.integers(0, 2**32 - 1), size=st.sampled_from((5, 7)))
def test_construction_matches_a_plain_transcription_of_the_ruling(seed: int, size: int) -> None:
    occupied = random_occupancy(random.Random(seed), size)
    finder = LoopFinder(size, occupied)
    for cell in range(hex_grid(size).cell_count):
        fast = finder.around(cell)
        assert (None if fast is None else frozenset(fast)) == reference.loop_around(
            size, occupied, cell
        )


@settings(max_examples=40)
@given(seed=st.integers(0, 2**32 - 1), size=st.sampled_from((5, 7, 9)))
def test_every_loop_is_a_chordless_cycle_of_at_least_six_stones(seed: int, size: int) -> None:
    occupied = random_occupancy(random.Random(seed), size)
    grid = hex_grid(size)
    for loop in LoopFinder(size, occupied).all_loops():
        assert len(loop) >= 6
        assert all(occupied[cell] for cell in loop)
        assert is_chordless_cycle(tuple(grid.names[cell] for cell in loop), size)


@settings(max_examples=40)
@given(seed=st.integers(0, 2**32 - 1), size=st.sampled_from((5, 7, 9)))
def test_adding_a_stone_reuses_answers_without_changing_them(seed: int, size: int) -> None:
    rng = random.Random(seed)
    occupied = random_occupancy(rng, size)
    empty = [cell for cell, stone in enumerate(occupied) if not stone]
    if not empty:
        return
    before = LoopFinder(size, occupied)
    for cell in rng.sample(empty, min(4, len(empty))):
        after = before.with_stone(cell)
        with_stone = bytearray(occupied)
        with_stone[cell] = 1
        fresh = LoopFinder(size, with_stone)
        for other in range(len(occupied)):  # answered from what was carried over
            assert after.loops_through(other) == fresh.loops_through(other)
        assert after.all_loops() == fresh.all_loops()
        assert after.loops_through_new_stone() == fresh.loops_through(cell)
        assert after.closed_by(cell) == fresh.closed_by(cell)


@settings(max_examples=30)
@given(seed=st.integers(0, 2**32 - 1), size=st.sampled_from((5, 7, 9)))
def test_taking_stones_away_reuses_answers_without_changing_them(seed: int, size: int) -> None:
    rng = random.Random(seed)
    occupied = bytearray(random_occupancy(rng, size))
    stones = [cell for cell, stone in enumerate(occupied) if stone]
    if len(stones) < 3:
        return
    before = LoopFinder(size, occupied)
    taken = rng.sample(stones, rng.randint(1, 3))
    after = before.without_stones(taken)
    for cell in taken:
        occupied[cell] = 0
    fresh = LoopFinder(size, occupied)
    for cell in range(len(occupied)):
        assert after.loops_through(cell) == fresh.loops_through(cell)
    assert after.all_loops() == fresh.all_loops()


# ---- a round's cells moved in at once ----------------------------------------------------------


def _random_region(rng: random.Random, size: int) -> set[int]:
    """A connected set of inner cells (a construction's E never holds an edge cell)."""
    grid = hex_grid(size)
    inner = [cell for cell in range(grid.cell_count) if not grid.on_edge[cell]]
    region = {rng.choice(inner)}
    for _ in range(rng.randrange(1, 3 * size * size)):
        cell = rng.choice(sorted(region))
        step = rng.choice(grid.neighbours[cell])
        if not grid.on_edge[step]:
            region.add(step)
    return region


def _pieces_cut_off(size: int, region: set[int]) -> list[set[int]]:
    """The pieces of the board outside ``region`` that hold no edge cell, by flood fill."""
    grid = hex_grid(size)
    outside = set(range(grid.cell_count)) - region
    pieces, seen = [], set()
    for start in sorted(outside):
        if start in seen:
            continue
        piece, stack = {start}, [start]
        while stack:
            for nb in grid.neighbours[stack.pop()]:
                if nb in outside and nb not in piece:
                    piece.add(nb)
                    stack.append(nb)
        seen |= piece
        if not any(grid.on_edge[cell] for cell in piece):
            pieces.append(piece)
    return pieces


@settings(max_examples=60)
@given(seed=st.integers(0, 2**32 - 1), size=st.sampled_from((4, 5, 7, 9)))
def test_euler_characteristic_counts_the_pieces_a_region_cuts_off(seed: int, size: int) -> None:
    rng = random.Random(seed)
    layout = loops._layout(size)
    for _ in range(20):
        region = _random_region(rng, size)
        assert loops._holes(layout.stride, sum(layout.bits[c] for c in region)) == len(
            _pieces_cut_off(size, region)
        )


@settings(max_examples=60)
@given(seed=st.integers(0, 2**32 - 1), size=st.sampled_from((5, 7, 9)))
def test_cells_moved_in_at_once_enclose_what_one_at_a_time_does(seed: int, size: int) -> None:
    """_move_in adds a round's cells together and floods only when the Euler
    characteristic says a piece was cut off; the cells added one at a time (each with
    _move_in_one) give the same E, whatever the stop cells."""
    rng = random.Random(seed)
    grid = hex_grid(size)
    layout = loops._layout(size)
    bits = layout.bits
    for _ in range(20):
        region = _random_region(rng, size)
        for piece in _pieces_cut_off(size, region):
            region |= piece  # as a construction keeps E: nothing cut off
        rim = {nb for cell in region for nb in grid.neighbours[cell]} - region
        moving = {cell for cell in rim if not grid.on_edge[cell] and rng.random() < 0.6}
        # the stop cells: the edge, and empty cells joined to it through empty cells
        # outside E and the cells moving in (as on a board, where they never join E)
        empty = {
            cell for cell in set(range(grid.cell_count)) - region - moving if rng.random() < 0.5
        }
        stops = {cell for cell in range(grid.cell_count) if grid.on_edge[cell]}
        frontier = list(stops)
        while frontier:
            for nb in grid.neighbours[frontier.pop()]:
                if nb in empty and nb not in stops:
                    stops.add(nb)
                    frontier.append(nb)
        region_bits = sum(bits[c] for c in region)
        stop_bits = sum(bits[c] for c in stops)
        one_at_a_time = region_bits
        for cell in sorted(moving):
            if not one_at_a_time & bits[cell]:
                one_at_a_time = loops._move_in_one(layout, one_at_a_time, bits[cell], stop_bits)
        at_once = loops._move_in(layout, region_bits, sum(bits[c] for c in moving), stop_bits)
        assert at_once == one_at_a_time
