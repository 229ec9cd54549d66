"""Dalen's search-side model: the position as two bitboards and its trees as masks.

The engine's :class:`engine.dalen.DalenState` rebuilds its forest (every tree, every
stone's friendly neighbours) by a flood fill for each new position, and the evaluator
(:func:`engine.ai.heuristics.dalen_pressure`) floods the board again from the stones by
name. Here a position is one integer per colour, a bit per cell, and each tree is kept
as the mask of its stones with the mask of the cells next to it:

* trees only ever merge (a placement joins the trees it touches; a flip turns whole
  enemy trees, which join the mover's trees they touch): a new tree is an OR of masks,
  never a flood fill;
* a colour's leaves (stones with exactly one friendly neighbour) and the cells it may
  place on (touching at most one of its leaves) are a handful of shifts and ORs over the
  whole board at once;
* a tree is stagnant when its neighbour mask holds no cell its owner may place on, and it
  touches an enemy tree when its neighbour mask meets that tree's mask.

Bits are laid out column by column with a padding bit between columns, so that the six
neighbours of a cell are the six shifts of its bit, and ascending bits are the engine's
cell order (a move list comes out in the engine's order). The rules are the engine's
(:mod:`engine.dalen`), checked against it by differential tests
(``tests/ai/test_model_dalen.py``); the positions are immutable, as the engine's are.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass
from functools import cache
from typing import Any

from engine.board import PASS, SWAP, BoardGame, BoardState
from engine.errors import IllegalMove
from engine.hexgrid import HexGrid, hex_grid
from engine.reports import Outcome
from engine.trees import build_forest

# A tree: (mask of its stones, mask of every cell next to one of them, its stones included).
Tree = tuple[int, int]


@dataclass(frozen=True, eq=False)
class Geometry:
    """One board size as bits: where each cell's bit is and which bits are its neighbours."""

    names: tuple[str, ...]
    index_of_name: Mapping[str, int]
    bit: tuple[int, ...]  # cell index -> its bit
    near: tuple[int, ...]  # cell index -> the mask of its neighbours
    cell_of_bit: Mapping[int, int]  # a single bit -> its cell index
    column: int  # bits per column (the shift to the next column)
    valid: int  # every cell's bit


@cache
def geometry(size: int) -> Geometry:
    """The (cached) bit layout of the board of side ``size``."""
    grid = hex_grid(size)
    m = size - 1
    column = 2 * size  # 2n - 1 cells a column at most, and one padding bit
    positions = [(q + m) * column + (m - r) for q, r in grid.coords]
    bits = tuple(1 << p for p in positions)
    near = tuple(sum(bits[nb] for nb in grid.neighbours[cell]) for cell in range(len(bits)))
    return Geometry(
        names=grid.names,
        index_of_name=dict(grid.index_by_name),
        bit=bits,
        near=near,
        cell_of_bit={bit: cell for cell, bit in enumerate(bits)},
        column=column,
        valid=sum(bits),
    )


def neighbour_counts(mask: int, column: int) -> tuple[int, int]:
    """(cells with at least one neighbour in ``mask``, cells with at least two), as masks.

    Padding and off-board bits may be set in both; callers intersect with real cells."""
    up = column + 1
    ones = mask << 1
    twos = 0
    for shifted in (mask >> 1, mask << column, mask >> column, mask << up, mask >> up):
        twos |= ones & shifted
        ones |= shifted
    return ones, twos


def bits_of(mask: int) -> list[int]:
    """The single bits of ``mask``, lowest (first in the engine's cell order) first."""
    out = []
    while mask:
        low = mask & -mask
        out.append(low)
        mask ^= low
    return out


class DalenPosition:
    """One Dalen position for the search: the surface of ``engine.ai.model.SearchPosition``
    plus what :func:`pressure` reads."""

    __slots__ = (
        "_legal",
        "_pressure",
        "game",
        "geo",
        "leaves",
        "masks",
        "mover",
        "outcome",
        "passes",
        "pie",
        "ply",
        "seen",
        "size",
        "swapped",
        "trees",
        "variant",
    )

    def __init__(
        self,
        game: BoardGame,
        size: int,
        variant: bool,
        masks: tuple[int, int, int],
        trees: tuple[tuple[Tree, ...], tuple[Tree, ...], tuple[Tree, ...]],
        leaves: list[int | None],
        mover: int | None,
        ply: int,
        passes: int,
        seen: int,
        swapped: bool,
        pie: bool,
        outcome: Outcome | None,
    ) -> None:
        self.game = game
        self.size = size
        self.geo = geometry(size)
        self.variant = variant
        # the stones of each colour, by colour code: [0] is unused, [1] dark, [2] light
        self.masks = masks
        self.trees = trees
        self.leaves = leaves  # the leaves mask per colour, worked out when first needed
        self.mover = mover
        self.ply = ply
        self.passes = passes
        self.seen = seen  # colours that have had stones: bit 1 dark, bit 2 light
        self.swapped = swapped
        self.pie = pie  # the match started from an empty board: the pie rule applies
        self.outcome = outcome
        self._legal: list[int | None] = [None, None, None]
        self._pressure: tuple[dict[str, int], dict[str, float]] | None = None

    @classmethod
    def from_state(cls, state: BoardState) -> DalenPosition:
        """The model of an engine state (the search's root: one flood fill, here only)."""
        geo = geometry(state.size)
        cells = state.cells
        masks = [0, 0, 0]
        for cell, colour in enumerate(cells):
            if colour:
                masks[colour] |= geo.bit[cell]
        forest = build_forest(cells, state.grid.neighbours, lone_stone_is_leaf=False)
        trees: list[list[Tree]] = [[], [], []]
        for tree, members in enumerate(forest.members):
            mask = sum(geo.bit[cell] for cell in members)
            near = 0
            for cell in members:
                near |= geo.near[cell]
            trees[forest.owner[tree]].append((mask, near))
        seen_names = state.extra.get("seen")
        if seen_names is None:
            seen = (1 if masks[1] else 0) | (2 if masks[2] else 0)
        else:
            seen = sum(state.game.colour_code(name) for name in seen_names)
        return cls(
            state.game,
            state.size,
            bool(state.options.get("variant", False)),
            (0, masks[1], masks[2]),
            ((), tuple(trees[1]), tuple(trees[2])),
            [None, None, None],
            None if state.outcome is not None else state.mover,
            state.ply,
            int(state.extra.get("passes", 0)),
            seen,
            state.swapped,
            state.start is None and state.game.uses_pie,
            state.outcome,
        )

    # ---- the search's surface ------------------------------------------------------------
    @property
    def to_move(self) -> str | None:
        if self.outcome is not None or self.mover is None:
            return None
        return self.game.colors[self.mover - 1]

    @property
    def score(self) -> dict[str, int]:
        dark, light = self.game.colors
        return {dark: self.masks[1].bit_count(), light: self.masks[2].bit_count()}

    @property
    def cells(self) -> tuple[int, int]:
        """The stones as a hashable key (half of a transposition key)."""
        return (self.masks[1], self.masks[2])

    @property
    def extra(self) -> dict[str, Any]:
        dark, light = self.game.colors
        return {"passes": self.passes, "seen": ([], [dark], [light], [dark, light])[self.seen]}

    @property
    def options(self) -> dict[str, Any]:
        return {"variant": self.variant}

    @property
    def grid(self) -> HexGrid:
        return hex_grid(self.size)

    @property
    def stones(self) -> dict[str, str]:
        """Cell name -> colour of every stone (the engine state's ``stones``)."""
        names, colours = self.geo.names, self.game.colors
        out = {}
        for cell, bit in enumerate(self.geo.bit):
            if bit & self.masks[1]:
                out[names[cell]] = colours[0]
            elif bit & self.masks[2]:
                out[names[cell]] = colours[1]
        return out

    def leaf_mask(self, colour: int) -> int:
        """The stones of ``colour`` with exactly one friendly neighbour (its leaves)."""
        leaves = self.leaves[colour]
        if leaves is None:
            own = self.masks[colour]
            ones, twos = neighbour_counts(own, self.geo.column)
            leaves = self.leaves[colour] = own & ones & ~twos
        return leaves

    def legal_mask(self, colour: int) -> int:
        """The empty cells ``colour`` may place on: touching at most one of its leaves."""
        legal = self._legal[colour]
        if legal is None:
            _, crowded = neighbour_counts(self.leaf_mask(colour), self.geo.column)
            empty = self.geo.valid & ~(self.masks[1] | self.masks[2])
            legal = self._legal[colour] = empty & ~crowded
        return legal

    def legal_moves(self) -> list[str]:
        if self.outcome is not None or self.mover is None:
            return []
        legal = self.legal_mask(self.mover)
        if legal:
            names, cell_of_bit = self.geo.names, self.geo.cell_of_bit
            moves = [names[cell_of_bit[bit]] for bit in bits_of(legal)]
        else:
            moves = [PASS]
        if self.pie and self.ply == 1 and not self.swapped:
            moves.append(SWAP)
        return moves

    def play(self, move: str) -> DalenPosition:
        if self.outcome is not None or self.mover is None:
            raise IllegalMove("game_over")
        if move == SWAP:
            if not (self.pie and self.ply == 1 and not self.swapped):
                raise IllegalMove("swap_second_move_only")
            return self._next(
                self.masks, self.trees, self.leaves, self.mover, self.passes, self.seen, True
            )
        if move == PASS:
            if self.legal_mask(self.mover):
                raise IllegalMove("dalen_pass_only_when_stuck")
            return self._next(
                self.masks, self.trees, self.leaves, 3 - self.mover, self.passes + 1, self.seen
            )
        cell = self.geo.index_of_name.get(move)
        if cell is None:
            raise IllegalMove("not_a_cell", text=move)
        if not self.geo.bit[cell] & self.legal_mask(self.mover):
            if self.geo.bit[cell] & (self.masks[1] | self.masks[2]):
                raise IllegalMove("cell_taken", cell=move)
            raise IllegalMove("dalen_two_leaves", cell=move)
        return place(self, cell)

    def _next(
        self,
        masks: tuple[int, int, int],
        trees: tuple[tuple[Tree, ...], tuple[Tree, ...], tuple[Tree, ...]],
        leaves: list[int | None],
        mover: int,
        passes: int,
        seen: int,
        swapped: bool | None = None,
    ) -> DalenPosition:
        outcome = outcome_of(self.game, masks, seen, passes)
        return DalenPosition(
            self.game,
            self.size,
            self.variant,
            masks,
            trees,
            leaves,
            None if outcome is not None else mover,
            self.ply + 1,
            passes,
            seen,
            self.swapped if swapped is None else swapped,
            self.pie,
            outcome,
        )

    def pressure(self) -> tuple[dict[str, int], dict[str, float]]:
        """:func:`engine.ai.heuristics.dalen_pressure` of this position (worked out once:
        the dicts are this position's, to be read, never changed)."""
        if self._pressure is None:
            self._pressure = pressure(self)
        return self._pressure

    def __repr__(self) -> str:
        return f"<DalenPosition n={self.size} ply={self.ply} to_move={self.to_move}>"


def place(position: DalenPosition, cell: int) -> DalenPosition:
    """The position after the mover places on ``cell`` (a legal placement), flips made."""
    geo = position.geo
    colour = position.mover
    assert colour is not None
    enemy = 3 - colour
    bit, near = geo.bit[cell], geo.near[cell]
    own = position.masks[colour] | bit
    others = position.masks[enemy]
    merged_mask, merged_near = bit, near
    kept: list[Tree] = []
    for tree in position.trees[colour]:
        if tree[0] & near:
            merged_mask |= tree[0]
            merged_near |= tree[1]
        else:
            kept.append(tree)
    kept.append((merged_mask, merged_near))
    masks = (0, own, others) if colour == 1 else (0, others, own)
    leaves: list[int | None] = [None, None, None]
    leaves[enemy] = position.leaves[enemy]  # a placement changes no enemy stone's neighbours
    trees: list[tuple[Tree, ...]] = [(), (), ()]
    trees[colour] = tuple(kept)
    trees[enemy] = position.trees[enemy]
    child = position._next(
        masks,
        (trees[0], trees[1], trees[2]),
        leaves,
        enemy,
        0,
        position.seen | colour,
    )
    if not others:
        return child
    doomed = _doomed(child, colour)
    if not doomed:
        return child
    return _flipped(position, child, colour, doomed)


def _doomed(child: DalenPosition, colour: int) -> int:
    """The enemy stones the mover's stagnant trees turn in ``child`` (after a placement)."""
    enemy = 3 - colour
    own, others = child.masks[colour], child.masks[enemy]
    legal = child.legal_mask(colour)
    own_leaves = -1  # worked out for the first stagnant tree that touches an enemy tree
    enemy_trees: list[tuple[int, int]] = []
    doomed = 0
    for mask, near in child.trees[colour]:
        touching = near & others
        if not touching:
            continue
        if not child.variant and near & legal:
            continue  # it can still grow
        if own_leaves < 0:
            own_leaves = child.leaf_mask(colour)
            enemy_leaves = child.leaf_mask(enemy)
            # a victim touches the mover's stones (touching is mutual)
            enemy_trees = [
                (m, (m & enemy_leaves).bit_count()) for m, n in child.trees[enemy] if n & own
            ]
        count = (mask & own_leaves).bit_count()
        victims = 0
        for enemy_mask, enemy_count in enemy_trees:
            if enemy_count <= count and enemy_mask & touching:
                victims |= enemy_mask
        if victims and (not child.variant or _cannot_gain_leaves(child, colour, near, count)):
            doomed |= victims
    return doomed


def _cannot_gain_leaves(child: DalenPosition, colour: int, near: int, count: int) -> bool:
    """The variant's stagnation: no legal cell next to the tree (of ``count`` leaves and
    neighbour mask ``near``) would leave it with more leaves (as engine.trees counts)."""
    geo = child.geo
    own = child.masks[colour]
    leaves = child.leaf_mask(colour)
    ones, _ = neighbour_counts(own, geo.column)
    lone = own & ~ones
    trees = child.trees[colour]
    for bit in bits_of(near & child.legal_mask(colour)):
        cell_near = geo.near[geo.cell_of_bit[bit]]
        friends = cell_near & own
        total = (friends & lone).bit_count() - (friends & leaves).bit_count()
        if friends.bit_count() == 1:
            total += 1
        for mask, _ in trees:
            if mask & cell_near:
                total += (mask & leaves).bit_count()
        if total > count:
            return False
    return True


def _flipped(
    position: DalenPosition, child: DalenPosition, colour: int, doomed: int
) -> DalenPosition:
    """``child`` with the ``doomed`` enemy trees turned to the mover's colour."""
    enemy = 3 - colour
    own = child.masks[colour] | doomed
    others = child.masks[enemy] & ~doomed
    groups = list(child.trees[colour])
    for mask, near in child.trees[enemy]:
        if not mask & doomed:
            continue
        joined_mask, joined_near = mask, near
        kept = []
        for tree in groups:
            if tree[0] & near:
                joined_mask |= tree[0]
                joined_near |= tree[1]
            else:
                kept.append(tree)
        kept.append((joined_mask, joined_near))
        groups = kept
    enemy_trees = tuple(tree for tree in child.trees[enemy] if not tree[0] & doomed)
    masks = (0, own, others) if colour == 1 else (0, others, own)
    trees: list[tuple[Tree, ...]] = [(), (), ()]
    trees[colour] = tuple(groups)
    trees[enemy] = enemy_trees
    leaves: list[int | None] = [None, None, None]
    # whole enemy trees went: the enemy stones left keep their friendly neighbours
    enemy_leaves = child.leaves[enemy]
    leaves[enemy] = None if enemy_leaves is None else enemy_leaves & ~doomed
    return position._next(
        masks, (trees[0], trees[1], trees[2]), leaves, enemy, 0, position.seen | colour
    )


def outcome_of(
    game: BoardGame, masks: tuple[int, int, int], seen: int, passes: int
) -> Outcome | None:
    """The engine's end rule (``DalenState._outcome_now``) on a model's stones."""
    colours = game.colors
    dark, light = masks[1].bit_count(), masks[2].bit_count()
    for code, count in ((1, dark), (2, light)):
        if seen & code and count == 0:
            winner, loser = colours[2 - code], colours[code - 1]
            return Outcome.because(winner, "dalen_wiped_out", colour=winner, loser_colour=loser)
    if passes >= 2:
        if dark == light:
            return Outcome.because(None, "dalen_draw_passed", count=dark)
        winner = colours[0] if dark > light else colours[1]
        high, low = max(dark, light), min(dark, light)
        return Outcome.because(winner, "dalen_win_passed", colour=winner, high=high, low=low)
    return None


def pressure(position: DalenPosition) -> tuple[dict[str, int], dict[str, float]]:
    """Threats and exposure per colour, as :func:`engine.ai.heuristics.dalen_pressure`
    defines them, from the model's trees and masks."""
    colours = position.game.colors
    threats = dict.fromkeys(colours, 0)
    exposure = dict.fromkeys(colours, 0.0)
    if position.variant:
        return threats, exposure
    masks = position.masks
    # Only trees that touch an enemy tree can flip or be flipped, and touching is mutual:
    # the enemy trees a tree may flip are among the enemy's touching trees. Early in a
    # game, none touch, and the leaves and legal cells are not needed at all.
    touching: list[list[tuple[int, int, int]]] = [[], [], []]
    for colour in (1, 2):
        others = masks[3 - colour]
        touching[colour] = [(m, n, n & others) for m, n in position.trees[colour] if n & others]
    if not touching[1]:
        return threats, exposure
    counts: list[list[int]] = [[], [], []]
    for colour in (1, 2):
        leaves = position.leaf_mask(colour)
        counts[colour] = [(m & leaves).bit_count() for m, _, _ in touching[colour]]
    for colour in (1, 2):
        enemy_trees = list(
            zip((t[0] for t in touching[3 - colour]), counts[3 - colour], strict=True)
        )
        legal = -1  # worked out for the first tree with victims
        doomed = 0
        exposed: dict[int, int] = {}  # exposed enemy tree's mask -> fewest growth cells
        for (_, near, touched), count in zip(touching[colour], counts[colour], strict=True):
            victims = [m for m, c in enemy_trees if c <= count and m & touched]
            if not victims:
                continue
            if legal < 0:
                legal = position.legal_mask(colour)
            room = (near & legal).bit_count()
            if room == 0:
                for victim in victims:
                    doomed |= victim
                continue
            for victim in victims:
                before = exposed.get(victim)
                if before is None or room < before:
                    exposed[victim] = room
        name = colours[colour - 1]
        threats[name] = doomed.bit_count()
        if exposed:
            exposure[name] = math.fsum(
                victim.bit_count() / (1 + room)
                for victim, room in exposed.items()
                if not victim & doomed
            )
    return threats, exposure
