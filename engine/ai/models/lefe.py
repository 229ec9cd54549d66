"""Lefe's search-side model: the same position as the engine's, kept in flat arrays and
updated move by move instead of rebuilt.

The engine's :class:`engine.lefe.LefeState` rebuilds its forest, its move table and both
players' placement checks for every position, and the evaluator counts every empty
cell's placements again from the stone names: about half a millisecond a position,
three quarters of it in the evaluator. A search reads tens of thousands of positions a
move. This model keeps, and carries from a position to its child:

* the stones (``cells``, bytes: the transposition key, as the engine's);
* per stone its tree and its number of friendly neighbours, per tree its owner, leaves,
  first cell (the capture's notation) and stones; a placement joins or merges the trees
  next to it, a capture removes a whole tree, so both are local changes;
* per empty cell which colours may place on it (a cell is refused to a colour when two of
  its neighbours of that colour touch each other), and how many cells each colour may
  place on: the end rule (either count at 0) and the evaluator's placements left, for
  the price of the few cells around what changed.

Its moves, their order, the outcome, the mover and the live score equal the engine's
(differential tests over random playouts at every size: ``tests/ai/test_model_lefe.py``),
and :func:`evaluate` equals :func:`engine.ai.heuristics.lefe_evaluator`.
"""

from __future__ import annotations

import random
from collections.abc import Iterable
from dataclasses import dataclass
from functools import cache
from typing import Any

from engine.ai.heuristics import captures_first, lefe_evaluator, lefe_value
from engine.board import SWAP, BoardGame, BoardState
from engine.errors import IllegalMove
from engine.hexgrid import hex_grid
from engine.lefe_scoring import lefe_outcome, placement_leaves, touching_neighbour_pairs
from engine.reports import Outcome
from engine.spec import Position
from engine.trees import build_forest

# One tree: (owner colour code, leaves, first cell in notation order, its stones).
_Tree = tuple[int, int, int, tuple[int, ...]]
_NO_EXTRA: dict[str, Any] = {}


@dataclass(frozen=True, eq=False)
class _Board:
    """What one board size needs, worked out once."""

    names: tuple[str, ...]
    neighbours: tuple[tuple[int, ...], ...]
    pairs: tuple[tuple[tuple[int, int], ...], ...]  # per cell: its touching neighbour pairs
    # per cell c: (x, the neighbours of c that x also touches) for each neighbour x of c,
    # the pairs of x's neighbours that a stone on c completes
    completes: tuple[tuple[tuple[int, tuple[int, ...]], ...], ...]


@cache
def _board(size: int) -> _Board:
    grid = hex_grid(size)
    neighbours = grid.neighbours
    pairs = touching_neighbour_pairs(size)  # the rule's geometry, the engine's own
    completes = tuple(
        tuple((x, tuple(y for y in neighbours[c] if y in neighbours[x])) for x in neighbours[c])
        for c in range(grid.cell_count)
    )
    return _Board(grid.names, neighbours, pairs, completes)


def _open_bits(cells: bytes | bytearray, cell: int, pairs: tuple[tuple[int, int], ...]) -> int:
    """Who may place on ``cell``: bit 1 the first colour, bit 2 the second (0 if taken)."""
    if cells[cell]:
        return 0
    bits = 3
    for a, b in pairs:
        colour = cells[a]
        if colour and colour == cells[b]:
            bits &= ~colour  # colour codes 1 and 2 are their own bits
    return bits


def _enemy_labels(model: LefeModel, owner: int, stones: Iterable[int]) -> set[int]:
    """The labels of the trees of the other colour next to ``stones`` (of ``owner``)."""
    cells, labels, neighbours = model.cells, model.labels, model._board.neighbours
    return {
        labels[nb]
        for stone in stones
        for nb in neighbours[stone]
        if cells[nb] and cells[nb] != owner
    }


class LefeModel:
    """One Lefe position for the search (the surface of engine.ai.model.SearchPosition)."""

    __slots__ = (
        "_board",
        "_capture_allowed",
        "_moves",
        "_score",
        "_touching",
        "cells",
        "degree",
        "game",
        "labels",
        "mobility",
        "mover",
        "next_tree",
        "open",
        "outcome",
        "ply",
        "size",
        "swapped",
        "trees",
    )

    cells: bytes
    game: BoardGame
    size: int
    mover: int | None
    ply: int
    swapped: bool
    outcome: Outcome | None
    labels: list[int]  # per cell: its tree, -1 when empty
    degree: list[int]  # per stone: its friendly neighbours
    trees: dict[int, _Tree]
    next_tree: int  # the id the next new tree gets
    open: bytes  # per cell: _open_bits
    mobility: tuple[int, int]  # cells the first and the second colour may place on
    _board: _Board
    _capture_allowed: bool  # the pie rule's swap is still to be offered at ply 1
    _moves: dict[str, tuple[int, int]] | None  # legal move -> (cell, tree captured or -1)
    _score: dict[str, int] | None
    _touching: dict[int, set[int]] | None  # per tree read so far: enemy trees it touches

    @classmethod
    def from_state(cls, state: BoardState) -> LefeModel:
        """The model of an engine position (built once per search, at its root)."""
        board = _board(state.size)
        cells = bytes(state.cells)
        forest = build_forest(cells, board.neighbours, lone_stone_is_leaf=True)
        model = cls.__new__(cls)
        model.cells = cells
        model.game = state.game
        model.size = state.size
        model.mover = state.mover
        model.ply = state.ply
        model.swapped = state.swapped
        model.outcome = state.outcome
        model.labels = list(forest.labels)
        model.degree = list(forest.degree)
        model.trees = {
            tree: (forest.owner[tree], forest.leaves[tree], group[0], tuple(group))
            for tree, group in enumerate(forest.members)
        }
        model.next_tree = len(forest.members)
        opened = bytes(_open_bits(cells, cell, board.pairs[cell]) for cell in range(len(cells)))
        model.open = opened
        model.mobility = (
            sum(1 for bits in opened if bits & 1),
            sum(1 for bits in opened if bits & 2),
        )
        model._board = board
        model._capture_allowed = state.game.uses_pie and state.start is None
        model._moves = None
        model._score = None
        model._touching = None
        return model

    # ---- the surface the searchers read ---------------------------------------------
    @property
    def to_move(self) -> str | None:
        if self.outcome is not None or self.mover is None:
            return None
        return self.game.colors[self.mover - 1]

    @property
    def extra(self) -> dict[str, Any]:
        return _NO_EXTRA

    @property
    def score(self) -> dict[str, int]:
        """Points each player would get if the game were scored now (as the engine's)."""
        score = self._score
        if score is None:
            trees = self.trees.values()
            dark = [leaves for owner, leaves, _, _ in trees if owner == 1]
            light = [leaves for owner, leaves, _, _ in trees if owner == 2]
            # engine.lefe_scoring.lefe_points, faster: comparing the leaf counts biggest first
            # (the longer list ahead when one is the other's beginning) is how Python
            # compares lists sorted high to low
            dark_points, light_points = len(set(dark)), len(set(light))
            dark.sort(reverse=True)
            light.sort(reverse=True)
            if dark > light:
                dark_points += 1
            elif light > dark:
                light_points += 1
            first, second = self.game.colors
            score = self._score = {first: dark_points, second: light_points}
        return score

    def legal_moves(self) -> list[str]:
        """The engine's legal moves, in the engine's order."""
        if self.outcome is not None:
            return []
        return list(self._move_table())

    def play(self, move: str) -> LefeModel:
        """The position after ``move``, one of :meth:`legal_moves`."""
        found = self._move_table().get(move) if self.outcome is None else None
        if found is None:
            raise IllegalMove("lefe_bad_notation", text=move)
        cell, captured = found
        if cell < 0:
            return self._swapped()
        return self._placed(cell, captured)

    # ---- the moves -------------------------------------------------------------------
    def _move_table(self) -> dict[str, tuple[int, int]]:
        """Every legal move with its cell and the tree it captures (-1: none), in the
        engine's order: cells in notation order, a cell's captures by the captured tree's
        first cell (see ``LefeState._moves_by_cell``, which this follows step by step)."""
        table = self._moves
        if table is not None:
            return table
        table = {}
        colour = self.mover
        assert colour is not None
        cells, opened, labels, degree, trees = (
            self.cells,
            self.open,
            self.labels,
            self.degree,
            self.trees,
        )
        board = self._board
        names, neighbours = board.names, board.neighbours
        # no placement can capture unless it makes more leaves than some enemy tree has
        fewest = min((t[1] for t in trees.values() if t[0] != colour), default=None)
        for cell in range(len(cells)):
            if not opened[cell] & colour:
                continue
            leaves, joined, enemies = placement_leaves(
                cells, neighbours[cell], colour, labels, degree
            )
            best_joined = 0
            for tree in joined:
                tree_leaves = trees[tree][1]
                leaves += tree_leaves
                if tree_leaves > best_joined:
                    best_joined = tree_leaves
            name = names[cell]
            if leaves <= best_joined or fewest is None or leaves <= fewest:
                table[name] = (cell, -1)  # no leaf gain, or nothing small enough to take
                continue
            found = set(enemies)
            for tree in joined:
                found |= self._enemies_of(tree)
            targets = sorted((trees[tree][2], tree) for tree in found if trees[tree][1] < leaves)
            if not targets:
                table[name] = (cell, -1)
            for first, tree in targets:
                table[f"{name}x{names[first]}"] = (cell, tree)
        if self._capture_allowed and self.ply == 1 and not self.swapped:
            table[SWAP] = (-1, -1)
        self._moves = table
        return table

    def _enemies_of(self, tree: int) -> set[int]:
        """The enemy trees touching ``tree`` (read once per position and tree)."""
        touching = self._touching
        if touching is None:
            touching = self._touching = {}
        found = touching.get(tree)
        if found is None:
            owner, _, _, stones = self.trees[tree]
            found = touching[tree] = _enemy_labels(self, owner, stones)
        return found

    def _copy(self) -> LefeModel:
        child = LefeModel.__new__(LefeModel)
        child.game = self.game
        child.size = self.size
        child.swapped = self.swapped
        child._board = self._board
        child._capture_allowed = self._capture_allowed
        child._moves = None
        child._score = None
        child._touching = None
        return child

    def _swapped(self) -> LefeModel:
        """The pie rule's swap: the same stones and the same colour to move, one ply on."""
        child = self._copy()
        child.cells, child.open, child.mobility = self.cells, self.open, self.mobility
        child.labels, child.degree, child.trees = self.labels, self.degree, self.trees
        child.next_tree = self.next_tree
        child.mover, child.ply, child.swapped = self.mover, self.ply + 1, True
        child.outcome = self.outcome
        child._score = self._score
        return child

    def _placed(self, cell: int, captured: int) -> LefeModel:
        """The position after the mover places on ``cell`` capturing tree ``captured``."""
        colour = self.mover
        assert colour is not None
        board = self._board
        neighbours = board.neighbours
        cells = bytearray(self.cells)
        labels = self.labels.copy()
        degree = self.degree.copy()
        trees = self.trees.copy()
        opened = bytearray(self.open)
        first_free, second_free = self.mobility
        next_tree = self.next_tree

        # the stone joins the trees next to it (all of one tree's stones relabelled when
        # trees merge: the biggest keeps its id)
        cells[cell] = colour
        friends = 0
        gain = 0
        joined: list[int] = []
        for nb in neighbours[cell]:
            if cells[nb] == colour:
                friends += 1
                tree = labels[nb]
                if tree not in joined:
                    joined.append(tree)
                before = degree[nb]
                if before == 1:
                    gain -= 1
                degree[nb] = before + 1
        if friends <= 1:
            gain += 1
        degree[cell] = friends
        if not joined:
            trees[next_tree] = (colour, gain, cell, (cell,))
            labels[cell] = next_tree
            next_tree += 1
        elif len(joined) == 1:
            tree = joined[0]
            _, leaves, first, stones = trees[tree]
            trees[tree] = (colour, leaves + gain, min(first, cell), (*stones, cell))
            labels[cell] = tree
        else:
            keep = max(joined, key=lambda t: len(trees[t][3]))
            leaves, first, merged = gain, cell, [cell]
            for tree in joined:
                _, tree_leaves, tree_first, tree_stones = trees[tree]
                leaves += tree_leaves
                first = min(first, tree_first)
                merged.extend(tree_stones)
                if tree != keep:
                    del trees[tree]
                    for stone in tree_stones:
                        labels[stone] = keep
            trees[keep] = (colour, leaves, first, tuple(merged))
            labels[cell] = keep

        # who may place where: the cell is taken; a neighbour x of it is refused to the
        # mover when the stone completes a touching pair of x's neighbours
        bits = opened[cell]
        if bits & 1:
            first_free -= 1
        if bits & 2:
            second_free -= 1
        opened[cell] = 0
        for x, common in board.completes[cell]:
            if opened[x] & colour:
                for y in common:
                    if cells[y] == colour:
                        opened[x] &= ~colour
                        if colour == 1:
                            first_free -= 1
                        else:
                            second_free -= 1
                        break

        if captured >= 0:
            _, _, _, stones = trees.pop(captured)
            for stone in stones:
                cells[stone] = 0
                labels[stone] = -1
                degree[stone] = 0
            # a removed stone frees cells around it: read them again
            pairs = board.pairs
            around = {x for stone in stones for x in neighbours[stone]}
            around.update(stones)
            for x in around:
                before = opened[x]
                after = _open_bits(cells, x, pairs[x])
                if after != before:
                    opened[x] = after
                    first_free += (after & 1) - (before & 1)
                    second_free += ((after & 2) - (before & 2)) >> 1

        child = self._copy()
        child.cells = bytes(cells)
        child.labels, child.degree, child.trees, child.next_tree = labels, degree, trees, next_tree
        child.open = bytes(opened)
        child.mobility = (first_free, second_free)
        child.ply = self.ply + 1
        if first_free and second_free:
            child.mover = 3 - colour
            child.outcome = None
        else:
            child.mover = None
            child.outcome = lefe_outcome(
                not first_free, not second_free, child.score, self.game.colors
            )
        return child

    def __repr__(self) -> str:
        return f"<LefeModel n={self.size} ply={self.ply} to_move={self.to_move}>"


def evaluate(state: Position, colour: str) -> float:
    """Lefe's evaluator for the search: :func:`engine.ai.heuristics.lefe_evaluator`, read
    from the model's own counts (the engine's states, e.g. a review's, still get the
    evaluator itself)."""
    if not isinstance(state, LefeModel):
        return lefe_evaluator(state, colour)
    score = state.score
    first, second = state.game.colors
    lead = score[first] - score[second] if colour == first else score[second] - score[first]
    if lead == 0:
        return 0.5
    return lefe_value(lead, min(state.mobility))


def order(state: Position, moves: list[str], rng: random.Random) -> list[str]:
    """Lefe's move ordering, unchanged (captures first, in a seeded shuffle)."""
    return captures_first(state, moves, rng)
