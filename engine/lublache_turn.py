"""Lublache's turn rule on plain cells: flips, removals and the end-of-turn test (RULINGS §6).

The rules module (:mod:`engine.lublache`) and the search's model
(:mod:`engine.ai.models.lublache`) both play a stone through :func:`place_stone`, so the
rule is written once and a change to it reaches both; they differ only in what they keep
of the answer (the engine the names for its move record and its refusals, the model the
loop finder of the board it hands on). The rules module names the model in its spec, so
the model cannot import it: the rule lives here, below both.
"""

from __future__ import annotations

from collections.abc import Sequence
from operator import itemgetter
from typing import NamedTuple

from engine.board import EMPTY, other
from engine.loops import Loop, LoopFinder


# These run for every stone of every loop a candidate placement meets, so they use plain
# loops and list methods where a generator would cost more.
def controls(colours: bytes | bytearray, loop: Loop, colour: int) -> bool:
    """Whether ``colour`` holds at least half the stones of ``loop``."""
    # a loop has six cells or more: the getter gives a tuple
    stones: tuple[int, ...] = itemgetter(*loop)(colours)
    return 2 * stones.count(colour) >= len(loop)


def single_coloured(colours: bytes | bytearray, loop: Loop) -> int:
    """The colour code of every stone of ``loop``, or EMPTY when it holds both colours."""
    first = colours[loop[0]]
    for cell in loop:
        if colours[cell] != first:
            return EMPTY
    return first


def _on_owned_loop(
    finder: LoopFinder, colours: bytes | bytearray, cell: int, colour: int, seen: dict[int, int]
) -> bool:
    """Whether ``cell`` lies on a loop made only of ``colour`` stones. ``seen`` keeps the
    loops' colours (:func:`single_coloured`) by the loop object's id, while ``colours``
    and the finder stay the same: the stones of one loop meet the same loops through them
    (a closed loop passes through every one of its stones)."""
    for loop in finder.loops_through(cell):
        code = seen.get(id(loop))
        if code is None:
            code = seen[id(loop)] = single_coloured(colours, loop)
        if code == colour:
            return True
    return False


def _two_of(colours: bytes | bytearray, cells: Sequence[int], colour: int) -> bool:
    """Whether at least two of ``cells`` hold a ``colour`` stone."""
    found = False
    for cell in cells:
        if colours[cell] == colour:
            if found:
                return True
            found = True
    return False


def _on_single_coloured_loop(finder: LoopFinder, colours: bytes | bytearray, cell: int) -> bool:
    return any(single_coloured(colours, loop) != EMPTY for loop in finder.loops_through(cell))


class Placed(NamedTuple):
    """A legal placement: the board after it, what happened on the way, and the loop
    finder of that board."""

    cells: bytes
    closed: tuple[Loop, ...]
    flipped: tuple[int, ...]
    removed: tuple[int, ...]
    finder: LoopFinder


class EndsOnEnemyLoop(NamedTuple):
    """A placement the end-of-turn test refuses: the loop through the new stone that the
    enemy controls and could still own."""

    loop: Loop


def place_stone(
    neighbours: Sequence[Sequence[int]],
    cells: bytes,
    finder: LoopFinder,
    mover: int,
    cell: int,
) -> Placed | EndsOnEnemyLoop:
    """The ``mover``'s stone on the empty ``cell`` of ``cells`` (whose loops ``finder``
    holds): steps 2-4 of a turn. The caller has made sure the cell touches no loop the
    mover owns (step 1)."""
    enemy = other(mover)
    colours = bytearray(cells)
    colours[cell] = mover
    placed = finder.with_stone(cell)
    through_new_stone = placed.loops_through_new_stone()
    if not through_new_stone:
        # the loops it closes are among these: nothing closed, flipped, removed or left
        # to test
        return Placed(bytes(colours), (), (), (), placed)
    closed = placed.closed_by(cell)

    # Flips: decided on the board as it is just after placing, then applied together: the
    # enemy stones of the closed loops the mover controls, but those on a loop the enemy
    # owns (the loops through them read in one pass)
    flips = {
        stone
        for loop in closed
        if controls(colours, loop, mover)
        for stone in loop
        if colours[stone] == enemy
    }
    if flips:
        flips.difference_update(
            protected
            for loop in placed.loops_touching(sorted(flips))
            if single_coloured(colours, loop) == enemy
            for protected in loop
        )
    for stone in flips:
        colours[stone] = mover

    # Removals: own stones next to a closed loop the mover now owns, unless they lie on a
    # single-coloured loop (the board's loops are unchanged: flips keep occupancy).
    removals: set[int] = set()
    for loop in closed:
        if single_coloured(colours, loop) == mover:
            members = set(loop)
            for stone in loop:
                for nb in neighbours[stone]:
                    if (
                        nb not in members
                        and colours[nb] == mover
                        and nb not in removals
                        and not (
                            _two_of(colours, neighbours[nb], mover)
                            and _on_single_coloured_loop(placed, colours, nb)
                        )
                    ):
                        removals.add(nb)
    for stone in removals:
        colours[stone] = EMPTY
    final = placed if not removals else placed.without_stones(removals)

    # The end-of-turn test: no loop through the new stone that the enemy controls and could
    # still own, i.e. that holds none of the mover's protected stones.
    seen: dict[int, int] = {}  # the loops' colours after the flips, read once each
    for loop in final.loops_through(cell) if removals else through_new_stone:
        if controls(colours, loop, enemy) and not any(
            colours[stone] == mover
            # a loop of the mover's own through the stone needs two of its neighbours
            # that are the mover's: a cheap no before the loops are read
            and _two_of(colours, neighbours[stone], mover)
            and _on_owned_loop(final, colours, stone, mover, seen)
            for stone in loop
        ):
            return EndsOnEnemyLoop(loop)
    return Placed(
        bytes(colours), tuple(closed), tuple(sorted(flips)), tuple(sorted(removals)), final
    )
