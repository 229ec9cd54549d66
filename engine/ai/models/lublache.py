"""Lublache's search-side model: the engine's rules on plain cells, for the search alone.

The engine's :class:`engine.lublache.LublacheState` answers every front end: each
position it makes carries the move record, a last turn spelled in cell names, and
loop views with names for the pictures; its evaluator reads stones and loops by name.
A search reads thousands of positions a move and needs none of that. This model keeps
the same rules on the same loop machinery (:mod:`engine.loops`: the finder of a board
with one more stone carries the answers of the board before) and the same turn rule
(:func:`engine.lublache_turn.place_stone`, which the engine plays too), and drops the rest:

- a position is the cells, the colour code to move, the ply and whether the pie swap
  is still open; its outcome is settled when first asked;
- a candidate placement is worked out once, with the loop finder of the board it makes,
  and playing it hands that finder on (the engine keeps only the new cells and works
  the finder out again when the move is played);
- a placement no loop can pass through is not worked out at all until it is played;
- the exact end reading takes the moves one at a time (:meth:`moves_one_by_one`), so a
  won position's placements after its winning move are never worked out;
- alpha-beta with ``lazy_legality`` (master) reads an inner position's candidates (the
  empty cells its mover's loops do not close) and works out the end-of-turn test of a
  candidate only when it reaches it (:meth:`LublachePosition.play_if_legal`);
- the loops each colour owns, the score and the cells they close to their owner are
  read in one pass, shared by the move list, the end test and the evaluator
  (:meth:`LublachePosition.closed_cells`).

It must agree with the engine position for position: the same legal moves in the same
order, outcome, mover and score (``tests/ai/test_model_lublache.py`` plays random games
through both at every size, and runs the same seeded searches on both).
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from functools import cache
from typing import Any

from engine.board import EMPTY, SWAP, BoardGame, BoardState, other
from engine.errors import IllegalMove
from engine.hexgrid import HexGrid, hex_grid
from engine.loops import (
    Loop,
    LoopFinder,
    cell_bit,
    may_close_a_cycle,
    stone_groups,
    unconnected_neighbour_pairs,
)
from engine.lublache_turn import EndsOnEnemyLoop, place_stone, single_coloured
from engine.reports import Outcome

_STONE = {1: b"\x01", 2: b"\x02"}
_NO_EXTRA: Mapping[str, Any] = {}
# A legal placement that closes no loop and ends on none (no loop can pass through its
# cell): its board is made only when it is played.
_QUICK = "quick"


class _Turn:
    """A legal placement worked out: the board after it and that board's loop finder."""

    __slots__ = ("cells", "finder", "removed")

    def __init__(self, cells: bytes, removed: tuple[int, ...], finder: LoopFinder) -> None:
        self.cells = cells
        self.removed = removed
        self.finder = finder


def _work_out(
    grid: HexGrid, cells: bytes, finder: LoopFinder, mover: int, cell: int
) -> _Turn | None:
    """The mover's stone on the empty ``cell``, which a loop may pass through and which
    touches no loop the mover owns: the turn, or None when the end-of-turn test refuses
    it (the shared rule, :func:`engine.lublache_turn.place_stone`, without the reasons)."""
    placed = place_stone(grid.neighbours, cells, finder, mover, cell)
    if isinstance(placed, EndsOnEnemyLoop):
        return None
    return _Turn(placed.cells, placed.removed, placed.finder)


_LOOPS_KEPT = 50_000  # loops whose neighbourhood is remembered, per board size


class _Masks:
    """Cells as bits of the loop finder's masks (:func:`engine.loops.cell_bit`) on one
    board size: what the cells a player's loops close to it are counted with."""

    def __init__(self, n: int) -> None:
        grid = hex_grid(n)
        self.bits = tuple(cell_bit(n, cell) for cell in range(grid.cell_count))
        self.board = sum(self.bits)
        # per cell, its neighbours as a mask
        self.around = tuple(sum(self.bits[nb] for nb in nbs) for nbs in grid.neighbours)
        # per loop met, the cells next to its stones (its own included: always occupied)
        self.beside: dict[Loop, int] = {}

    def next_to(self, loop: Loop) -> int:
        beside = self.beside.get(loop)
        if beside is None:
            if len(self.beside) >= _LOOPS_KEPT:
                self.beside.clear()  # a long-lived worker meets ever new loops
            beside = 0
            for cell in loop:
                beside |= self.around[cell]
            self.beside[loop] = beside
        return beside


@cache
def _masks(n: int) -> _Masks:
    return _Masks(n)


_OUTCOMES: dict[tuple[int, str], Outcome] = {}


def _stuck_wins(game: BoardGame, colour: str) -> Outcome:
    """The engine's outcome when ``colour`` has no legal placement (made once a colour)."""
    key = (id(game), colour)
    outcome = _OUTCOMES.get(key)
    if outcome is None:
        outcome = _OUTCOMES[key] = Outcome.because(colour, "lublache_stuck_wins", colour=colour)
    return outcome


class LublachePosition:
    """One Lublache position as the search reads it (engine.ai.model.SearchPosition)."""

    __slots__ = (
        "_code",
        "_finder",
        "_groups",
        "_masks",
        "_moves",
        "_outcome",
        "_owned",
        "_pie",
        "_settled",
        "_turns",
        "cells",
        "game",
        "grid",
        "ply",
        "size",
    )

    extra: Mapping[str, Any] = _NO_EXTRA

    def __init__(
        self,
        game: BoardGame,
        size: int,
        cells: bytes,
        code: int,
        ply: int,
        pie: bool,
        finder: LoopFinder,
        groups: list[int] | None,
    ) -> None:
        self.game = game
        self.size = size
        self.grid = hex_grid(size)
        self.cells = cells
        self.ply = ply
        self._code = code  # the colour code whose turn it is, unless the game is over
        self._pie = pie  # the swap is open at ply 1 (a new game, nobody swapped yet)
        self._finder = finder
        self._groups = groups
        self._outcome: Outcome | None = None
        self._settled = False
        self._masks = _masks(size)
        # loops owned per colour code, and the empty cells closed to it as a mask (index
        # 1 and 2: the codes), read in one pass over the loops
        self._owned: tuple[list[int], list[int]] | None = None
        # empty cell -> its placement for the mover: a _Turn, _QUICK, or None (refused)
        self._turns: dict[int, _Turn | str | None] = {}
        self._moves: list[str] | None = None

    @classmethod
    def of(cls, state: BoardState) -> LublachePosition:
        """The model of the engine's ``state``."""
        fresh = state.game.uses_pie and state.start is None and not state.swapped
        position = cls(
            state.game,
            state.size,
            state.cells,
            state.mover if state.mover is not None else 1,
            state.ply,
            fresh,
            LoopFinder(state.size, state.cells),
            None,
        )
        if state.outcome is not None:
            position._outcome, position._settled = state.outcome, True
        return position

    # ---- the search's surface ------------------------------------------------------------
    @property
    def outcome(self) -> Outcome | None:
        if not self._settled:
            self._settled = True
            if not self._has_a_placement():
                self._outcome = _stuck_wins(self.game, self.game.colour_name(self._code))
        return self._outcome

    @property
    def mover(self) -> int | None:
        return None if self.outcome is not None else self._code

    @property
    def to_move(self) -> str | None:
        return None if self.outcome is not None else self.game.colour_name(self._code)

    @property
    def score(self) -> dict[str, int]:
        """Loops owned per colour."""
        owned = self._owned_loops()[0]
        first, second = self.game.colors
        return {first: owned[1], second: owned[2]}

    def closed_cells(self) -> dict[str, int]:
        """Per colour, the empty cells it may not place on because they touch a stone of a
        loop it owns (what :func:`engine.ai.heuristics.lublache_closed_cells` counts)."""
        closed = self._owned_loops()[1]
        first, second = self.game.colors
        return {first: closed[1].bit_count(), second: closed[2].bit_count()}

    def legal_moves(self) -> list[str]:
        if self.outcome is not None:
            return []
        moves = self._moves
        if moves is None:
            names = self.grid.names
            moves = [names[cell] for cell, turn in self._all_turns().items() if turn is not None]
            if self._pie and self.ply == 1:
                moves.append(SWAP)
            self._moves = moves
        return list(moves)

    def candidate_moves(self) -> list[str]:
        """The moves that may be legal, cheaply: every empty cell its mover's loops do not
        close to it, in cell order, and the swap where it is open. A superset of
        :meth:`legal_moves` (the end-of-turn test is left out): a search that reads only a
        few of a position's moves tries them with :meth:`play_if_legal` and works out the
        end-of-turn test for those alone."""
        if self.outcome is not None:
            return []
        forbidden = self._owned_loops()[1][self._code]
        names, bits = self.grid.names, self._masks.bits
        moves = [
            names[cell]
            for cell, code in enumerate(self.cells)
            if code == EMPTY and not forbidden & bits[cell]
        ]
        if self._pie and self.ply == 1:
            moves.append(SWAP)
        return moves

    def play_if_legal(self, move: str) -> LublachePosition | None:
        """The position after ``move``, one of :meth:`candidate_moves`, or None when the
        rules refuse it."""
        if move != SWAP:
            cell = self.grid.index_by_name.get(move, -1)
            if cell < 0 or self.cells[cell] != EMPTY or self._turn_at(cell) is None:
                return None
        return self.play(move)

    def moves_one_by_one(self) -> Iterator[str]:
        """:meth:`legal_moves`, each placement worked out only when the one before has
        been taken (a loop reading per empty cell near the end): the exact end reading
        stops at a position's first winning move and never needs the rest."""
        if self.outcome is not None:
            return
        if self._moves is not None:
            yield from list(self._moves)
            return
        names, turn_at = self.grid.names, self._turn_at
        for cell, code in enumerate(self.cells):
            if code == EMPTY and turn_at(cell) is not None:
                yield names[cell]
        if self._pie and self.ply == 1:
            yield SWAP

    def _refusal(self, move: str) -> IllegalMove:
        """Why the rules refuse the stone on ``move``, in the engine's words: the search
        never plays a refused move, so the engine's own position is built only here."""
        names, colours = self.grid.names, self.game.colors
        stones = {names[c]: colours[code - 1] for c, code in enumerate(self.cells) if code}
        state = self.game.position(self.size, stones, colours[self._code - 1])
        try:
            state.play(move)
        except IllegalMove as refused:
            return refused
        raise AssertionError(f"the model refused {move!r}, which the engine allows")

    def play(self, move: str) -> LublachePosition:
        """The position after the legal ``move`` (IllegalMove for any other)."""
        if self.outcome is not None:
            raise IllegalMove("game_over")
        if move == SWAP:
            if not (self._pie and self.ply == 1):
                raise IllegalMove("swap_second_move_only")
            # the same stones and colour to move: only the seats change
            swapped = LublachePosition(
                self.game,
                self.size,
                self.cells,
                self._code,
                self.ply + 1,
                False,
                self._finder,
                self._groups,
            )
            swapped._owned = self._owned
            swapped._turns = self._turns
            return swapped
        cell = self.grid.index_by_name.get(move, -1)
        if cell < 0 or self.cells[cell] != EMPTY:
            raise IllegalMove("not_a_cell", text=move)
        turn = self._turn_at(cell)
        if turn is None:
            raise self._refusal(move)
        mover = self._code
        groups = self._groups
        removed: tuple[int, ...] = ()
        if turn == _QUICK:
            cells = self.cells
            after = cells[:cell] + _STONE[mover] + cells[cell + 1 :]
            finder = self._finder.with_stone(cell)
        else:
            assert isinstance(turn, _Turn)
            after, removed, finder = turn.cells, turn.removed, turn.finder
        joined = None
        if groups is not None and not removed:
            # one more stone and none fewer: the groups it touches become one (as the
            # engine carries them)
            touching = {groups[nb] for nb in self.grid.neighbours[cell] if groups[nb] >= 0}
            label = min(touching) if touching else max(groups) + 1
            if len(touching) > 1:
                joined = [label if group in touching else group for group in groups]
            else:
                joined = groups.copy()
            joined[cell] = label
        return LublachePosition(
            self.game, self.size, after, other(mover), self.ply + 1, self._pie, finder, joined
        )

    # ---- the rules, as the engine applies them ------------------------------------------
    def _stone_groups(self) -> list[int]:
        groups = self._groups
        if groups is None:
            groups = self._groups = stone_groups(
                self.size, self.cells, self._finder.occupied_bits()
            )
        return groups

    def _owned_loops(self) -> tuple[list[int], list[int]]:
        """Per colour code (index 1 and 2), the loops it owns and, as a mask, the empty
        cells next to their stones: closed to it (the engine's ``_forbidden_for``)."""
        owned = self._owned
        if owned is None:
            counts, closed = [0, 0, 0], [0, 0, 0]
            cells, masks = self.cells, self._masks
            for loop in self._finder.all_loops():
                code = single_coloured(cells, loop)
                if code != EMPTY:
                    counts[code] += 1
                    closed[code] |= masks.next_to(loop)
            empty = masks.board & ~self._finder.occupied_bits()
            closed[1] &= empty
            closed[2] &= empty
            owned = self._owned = (counts, closed)
        return owned

    def _turn_at(self, cell: int) -> _Turn | str | None:
        turns = self._turns
        if cell in turns:
            return turns[cell]
        turn = self._placement(cell)
        turns[cell] = turn
        return turn

    def _placement(self, cell: int) -> _Turn | str | None:
        mover = self._code
        if self._owned_loops()[1][mover] & self._masks.bits[cell]:
            return None
        if not may_close_a_cycle(self.size, self._stone_groups(), cell):
            return _QUICK
        return _work_out(self.grid, self.cells, self._finder, mover, cell)

    def _all_turns(self) -> dict[int, _Turn | str | None]:
        """Every empty cell's placement, in cell order.

        The move list of every inner position of a search, so the tests of
        :meth:`_placement` are written out here with the position's masks and groups read
        once (over a hundred cells a position, most of them needing no loop work).
        """
        turns = self._turns
        mover, cells, grid, finder = self._code, self.cells, self.grid, self._finder
        forbidden = self._owned_loops()[1][mover]
        groups = self._stone_groups()
        pairs = unconnected_neighbour_pairs(self.size)
        bits = self._masks.bits
        every: dict[int, _Turn | str | None] = {}
        for cell, code in enumerate(cells):
            if code != EMPTY:
                continue
            if cell in turns:
                every[cell] = turns[cell]
                continue
            turn: _Turn | str | None
            if forbidden & bits[cell]:
                turn = None
            else:
                turn = _QUICK  # unless two neighbours a loop could pass share a group
                for a, b in pairs[cell]:
                    group = groups[a]
                    if group >= 0 and group == groups[b]:
                        turn = _work_out(grid, cells, finder, mover, cell)
                        break
            turns[cell] = every[cell] = turn
        return every

    def _has_a_placement(self) -> bool:
        """Whether the side to move has a legal placement, looking no further than the
        first found: cells no loop can pass through first (they need no loop work)."""
        forbidden = self._owned_loops()[1][self._code]
        groups = self._stone_groups()
        pairs = unconnected_neighbour_pairs(self.size)
        cells, turns, bits = self.cells, self._turns, self._masks.bits
        for cell, code in enumerate(cells):
            if code != EMPTY or forbidden & bits[cell]:
                continue
            for a, b in pairs[cell]:
                group = groups[a]
                if group >= 0 and group == groups[b]:
                    break
            else:  # no loop can pass through it (may_close_a_cycle is False)
                turns[cell] = _QUICK
                return True
        return any(
            code == EMPTY and self._turn_at(cell) is not None for cell, code in enumerate(cells)
        )


def lublache_model(state: BoardState) -> LublachePosition:
    """``spec.ai.model`` of Lublache: the search's copy of the engine's ``state``."""
    return LublachePosition.of(state)
