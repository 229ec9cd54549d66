"""The loop finder's speed bookkeeping agrees with working everything out from scratch.

The speed work keeps facts up to date incrementally (occupied and edge-reaching cells as
bit masks, the cells whose construction looked at a cell) and shares answers between
finders. Each is compared here with a finder built afresh on the same board, on boards
dense enough for enclosed empty regions, cut-off pieces and long constructions.
"""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from engine import loops
from engine.hexgrid import hex_grid
from engine.loops import LoopFinder, may_close_a_cycle, may_lie_on_a_loop, stone_groups


def random_board(rng: random.Random, size: int) -> bytearray:
    count = hex_grid(size).cell_count
    density = rng.uniform(0.3, 0.8)
    return bytearray(1 if rng.random() < density else 0 for _ in range(count))


def assert_same_facts(incremental: LoopFinder, fresh: LoopFinder) -> None:
    assert incremental._bits() == fresh._bits()
    assert incremental.all_loops() == fresh.all_loops()
    for cell in range(len(fresh.occupied)):
        assert incremental.around(cell) == fresh.around(cell)


def watchers_by_definition(finder: LoopFinder, cells: int) -> set[int]:
    finder.all_loops()
    return {start for start, mask in finder._looked_at.items() if mask & cells}


@settings(max_examples=40)
@given(seed=st.integers(0, 2**32 - 1), size=st.sampled_from((5, 7, 9)))
def test_a_stone_added_keeps_masks_and_answers_exact(seed: int, size: int) -> None:
    rng = random.Random(seed)
    board = random_board(rng, size)
    before = LoopFinder(size, board)
    empty = [cell for cell, stone in enumerate(board) if not stone]
    for cell in rng.sample(empty, min(5, len(empty))):
        after = before.with_stone(cell)
        board_after = bytearray(board)
        board_after[cell] = 1
        assert_same_facts(after, LoopFinder(size, board_after))


@settings(max_examples=30)
@given(seed=st.integers(0, 2**32 - 1), size=st.sampled_from((5, 7, 9)))
def test_stones_taken_away_keep_masks_and_answers_exact(seed: int, size: int) -> None:
    rng = random.Random(seed)
    board = random_board(rng, size)
    stones = [cell for cell, stone in enumerate(board) if stone]
    if len(stones) < 4:
        return
    base = LoopFinder(size, board)
    finders = [base]
    if 0 in board:  # also from a finder made by with_stone(), as a turn does
        finders.append(base.with_stone(board.index(0)))
    for finder in finders:
        taken = rng.sample(stones, rng.randint(1, 4))
        after = finder.without_stones(taken)
        board_after = bytearray(finder.occupied)
        for cell in taken:
            board_after[cell] = 0
        assert_same_facts(after, LoopFinder(size, board_after))


@settings(max_examples=30)
@given(seed=st.integers(0, 2**32 - 1), size=st.sampled_from((5, 7, 9)))
def test_watchers_shortcut_matches_the_definition(seed: int, size: int) -> None:
    rng = random.Random(seed)
    finder = LoopFinder(size, random_board(rng, size))
    finder.all_loops()
    count = hex_grid(size).cell_count
    for cell in rng.sample(range(count), 8):
        bit = loops.cell_bit(size, cell)
        assert finder._watchers_of(bit) == watchers_by_definition(finder, bit)
    several = sum(loops.cell_bit(size, cell) for cell in rng.sample(range(count), 5))
    assert finder._watchers_of(several) == watchers_by_definition(finder, several)


def test_shared_answers_never_leak_between_boards() -> None:
    """The same start cell and new stone on many different boards, with the shared
    answers kept between them: every answer matches a finder that shares nothing."""
    rng = random.Random(11)
    size = 7
    for _ in range(60):
        board = random_board(rng, size)
        empty = [cell for cell, stone in enumerate(board) if not stone]
        if not empty:
            continue
        cell = empty[len(empty) // 2]  # often the same cell from board to board
        incremental = LoopFinder(size, board).with_stone(cell)
        board[cell] = 1
        fresh = LoopFinder(size, board)
        for start in range(len(board)):
            assert incremental.around(start) == fresh.around(start)
    assert loops._shared_answers  # the sharing was exercised


@settings(max_examples=60)
@given(seed=st.integers(0, 2**32 - 1), size=st.sampled_from((5, 7, 9)))
def test_group_test_is_stricter_than_the_neighbour_test_and_never_misses_a_loop(
    seed: int, size: int
) -> None:
    rng = random.Random(seed)
    board = random_board(rng, size)
    groups = stone_groups(size, board)
    finder = LoopFinder(size, board)
    for cell, stone in enumerate(board):
        if stone:
            continue
        possible = may_close_a_cycle(size, groups, cell)
        assert not possible or may_lie_on_a_loop(size, board, cell)
        if not possible:
            assert finder.with_stone(cell).loops_through_new_stone() == []


def test_a_long_lineage_spells_every_loop_as_a_finder_of_its_own() -> None:
    """Finders made one from another share the loops they spelled (and drop them all when
    too many pile up): along a long chain of stones added and taken away, with the limit
    made small enough to be reached, every loop matches a finder that shares nothing."""
    rng = random.Random(5)
    size = 7
    limit = loops._SPELLED_LIMIT
    loops._SPELLED_LIMIT = 8
    try:
        finder = LoopFinder(size, random_board(rng, size))
        spelled = finder._spelled
        for _ in range(40):
            empty = [cell for cell, stone in enumerate(finder.occupied) if not stone]
            stones = [cell for cell, stone in enumerate(finder.occupied) if stone]
            if empty and (rng.random() < 0.7 or len(stones) < 3):
                finder = finder.with_stone(rng.choice(empty))
            else:
                finder = finder.without_stones(rng.sample(stones, 2))
            assert finder._spelled is spelled  # one lineage, one table
            assert finder.all_loops() == LoopFinder(size, finder.occupied).all_loops()
            assert len(spelled) <= 8
    finally:
        loops._SPELLED_LIMIT = limit


def test_the_answer_and_the_cells_it_looked_at_hold_on_any_board_agreeing_there() -> None:
    """A construction that ends as soon as an empty cell reaching the edge joins its rim
    has looked at enough: on boards that agree with the board on those cells (occupancy
    and reach of the edge), the loop around the same cell is the same."""
    rng = random.Random(8)
    size = 7
    checked = 0
    for _ in range(80):
        board = random_board(rng, size)
        finder = LoopFinder(size, board)
        finder.all_loops()
        occupied_bits, reach_bits = finder._bits()
        for start, looked_at in finder._looked_at.items():
            if not looked_at or finder._around[start] is not None:
                continue
            # change a cell the construction did not look at, keep the rest
            outside = [c for c in range(len(board)) if not looked_at & loops.cell_bit(size, c)]
            if not outside:
                continue
            other = bytearray(board)
            flip = rng.choice(outside)
            other[flip] ^= 1
            again = LoopFinder(size, other)
            other_occupied, other_reach = again._bits()
            if (other_occupied ^ occupied_bits) & looked_at or (
                other_reach ^ reach_bits
            ) & looked_at:
                continue  # the change reached a cell it looked at after all
            assert again.around(start) is None, (start, flip)
            checked += 1
    assert checked > 100


@settings(max_examples=30)
@given(seed=st.integers(0, 2**32 - 1), size=st.sampled_from((5, 7, 9)))
def test_loops_touching_several_cells_are_those_through_each(seed: int, size: int) -> None:
    """loops_touching() picks in one pass what loops_through() of each cell gives, on a
    finder made with one more stone (read from the board before) and on one built afresh
    (read from its loops by cell)."""
    rng = random.Random(seed)
    board = random_board(rng, size)
    empty = [cell for cell, code in enumerate(board) if not code]
    if not empty:
        return
    new_stone = rng.choice(empty)
    before = LoopFinder(size, board)
    board[new_stone] = 1
    grid = hex_grid(size)
    for _ in range(6):
        cells = rng.sample(range(grid.cell_count), rng.randrange(1, 7))
        carried, fresh = before.with_stone(new_stone), LoopFinder(size, board)
        expected = {loop for cell in cells for loop in fresh.loops_through(cell)}
        touching = carried.loops_touching(cells)
        assert len(touching) == len(set(touching))
        assert set(touching) == expected
        assert set(fresh.loops_touching(cells)) == expected
