"""Les's search-side model: the same position as :class:`engine.les.LesState`, for the search.

The engine's state rebuilds everything per position: the first placements (points
touching both colours) and the isolated points by scanning every point's neighbours, the
holes by a flood fill that collects each hole's border stones, and a move's text parsed
by a regular expression. The model keeps one number per point instead, what the point
touches:

* an empty point holds the colours of its stone neighbours as bits (1 black, 2 white):
  3 is a first placement (it touches both colours), 0 an isolated point, 1 or 2 a point
  one colour has claimed;
* a stone holds :data:`STONE`.

Stones are never taken off in Les, so a placement only adds its colour's bit to its empty
neighbours: a child costs two small copies and at most a dozen updates, and the number of
first placements left, which decides whether the game is over, is kept as a count. A hole's
owner is the union of its points' bits (only when it is 1 or 2 does one colour border it).

Only the ordinary turns are modelled: in the set-up and while seat B picks a side,
:func:`search_model` hands the search the engine's own state. The model trusts its moves to
be among its :meth:`LesPosition.legal_moves` (the searchers only play those); the tests hold
its moves (in the same order), outcome, mover and score equal to the engine's after every
move of random games on every board size (``tests/ai/test_model_les.py``).
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from functools import cache
from typing import Any

from engine.board import BoardGame, BoardState, Outcome
from engine.hexgrid import HexGrid, hex_grid
from engine.les_holes import final_outcome, neighbour_sets, owned_holes

STONE = 4  # a point's entry when a stone stands on it (above every set of colour bits)
_BOTH = 3  # an empty point touching both colours: a first placement for either side
_ISOLATED = 0  # an empty point with no stone next to it
_CLAIMED = re.compile(b"[\\x01\\x02]")  # an empty point touching one colour only

Holes = tuple[tuple[int, int], ...]  # one colour's owned holes: (size, stones), biggest first


class _Board:
    """What every position of one board size shares: names, neighbours, a name's index."""

    def __init__(self, size: int) -> None:
        self.grid: HexGrid = hex_grid(size)
        self.names: tuple[str, ...] = self.grid.names
        self.neighbours: tuple[tuple[int, ...], ...] = self.grid.neighbours
        self.near: tuple[frozenset[int], ...] = neighbour_sets(size)
        self.index: dict[str, int] = dict(self.grid.index_by_name)


@cache
def _board(size: int) -> _Board:
    return _Board(size)


class LesPosition:
    """One Les position of the ordinary turns, as the search reads it (the surface of
    :class:`engine.ai.model.SearchPosition`, plus ``game``, ``size``, ``options`` and ``grid``
    for the evaluator). Never changed once made: :meth:`play` returns a new one."""

    __slots__ = (
        "_board",
        "_claims",
        "_contested",
        "_holes",
        "_moves",
        "_touch",
        "cells",
        "extra",
        "game",
        "mover",
        "options",
        "outcome",
        "ply",
        "size",
    )

    def __init__(
        self,
        game: BoardGame,
        size: int,
        options: Mapping[str, Any],
        extra: Mapping[str, Any],
        cells: bytes,
        touch: bytes,
        contested: int,
        holes: tuple[Holes, Holes],
        claims: tuple[int, int, int, int],
        mover: int | None,
        ply: int,
        outcome: Outcome | None,
    ) -> None:
        self.game = game
        self.size = size
        self.options = options
        self.extra = extra
        self.cells = cells
        self._touch = touch
        self._contested = contested
        # the holes owned by black, by white: each a (size, stones next to it) pair, biggest
        # first, as the engine's result compares them (engine.les_holes.compare_holes)
        self._holes = holes
        self._claims = claims  # claims of black, of white; claimed points of black, of white
        self.mover = mover
        self.ply = ply
        self.outcome = outcome
        self._board = _board(size)
        self._moves: list[str] | None = None

    @classmethod
    def of(cls, state: BoardState) -> LesPosition:
        """The model of ``state``, an engine position of the ordinary turns."""
        board = _board(state.size)
        cells = state.cells
        touch = bytearray(len(cells))
        for point, value in enumerate(cells):
            if value:
                touch[point] = STONE
                continue
            bits = 0
            for nb in board.neighbours[point]:
                bits |= cells[nb]
            touch[point] = bits
        touched = bytes(touch)
        owned = owned_holes(cells, board.neighbours)
        claims = _claims(touched, board.neighbours)
        return cls(
            state.game,
            state.size,
            state.options,
            state.extra,
            cells,
            touched,
            touch.count(_BOTH),
            (_biggest_first(owned[1]), _biggest_first(owned[2])),
            (claims[1], claims[2], touched.count(1), touched.count(2)),
            state.mover,
            state.ply,
            state.outcome,
        )

    # ---- what the search reads ----------------------------------------------------------
    @property
    def grid(self) -> HexGrid:
        return self._board.grid

    @property
    def to_move(self) -> str | None:
        if self.outcome is not None or self.mover is None:
            return None
        return self.game.colors[self.mover - 1]

    @property
    def score(self) -> dict[str, int]:
        """Holes each colour owns right now (as the engine's ``score``)."""
        colours = self.game.colors
        return {colours[0]: len(self._holes[0]), colours[1]: len(self._holes[1])}

    def owned_holes(self) -> tuple[Holes, Holes]:
        """Black's and white's owned holes, each a ``(size, stones next to it)`` pair, the
        biggest first (ties by stones): what the engine compares when the game ends."""
        return self._holes

    def isolated_points(self) -> int:
        """How many empty points touch no stone (the second stones of two-stone turns go
        there; once none is left, no new claimed point can appear)."""
        return self._touch.count(_ISOLATED)

    def fewest_plies_to_end(self) -> int:
        """How many plies the game lasts at the least (a lower bound, for the tactical
        guard: :func:`engine.ai.tactics.ends_within`). The game ends when the player to
        move has no first placement; a move's first stone takes one first placement, its
        second stone an isolated point (never a first placement), and a stone placed only
        adds colours to its empty neighbours, so a move leaves at most one fewer."""
        return 0 if self.outcome is not None else self._contested

    def claims(self) -> tuple[dict[str, int], dict[str, int]]:
        """What :func:`engine.ai.heuristics.les_claims` counts (claims, claimed points per
        colour), kept up to date move by move."""
        first, second = self.game.colors
        black, white, black_points, white_points = self._claims
        return {first: black, second: white}, {first: black_points, second: white_points}

    def legal_moves(self) -> list[str]:
        """The engine's moves in the engine's order: each first placement in notation
        order, paired with every isolated point not next to it in the order the engine's
        set of isolated points gives them (the same set built the same way)."""
        if self.outcome is not None:
            return []
        moves = self._moves
        if moves is None:
            board = self._board
            names, near = board.names, board.near
            touch = self._touch
            isolated = frozenset(p for p, bits in enumerate(touch) if bits == _ISOLATED)
            moves = []
            for first in [p for p, bits in enumerate(touch) if bits == _BOTH]:
                seconds = isolated - near[first]
                if seconds:
                    prefix = names[first] + "+"
                    moves.extend([prefix + names[second] for second in seconds])
                else:
                    moves.append(names[first])
            self._moves = moves
        return list(moves)

    def play(self, move: str) -> LesPosition:
        """The position after ``move``, one of :meth:`legal_moves`."""
        board = self._board
        index = board.index
        plus = move.find("+")
        placed = (index[move],) if plus < 0 else (index[move[:plus]], index[move[plus + 1 :]])
        mover = self.mover
        assert mover is not None and self.outcome is None  # a move of a running game
        cells = bytearray(self.cells)
        touch = bytearray(self._touch)
        contested = self._contested
        neighbours = board.neighbours
        for point in placed:
            if touch[point] == _BOTH:
                contested -= 1
            cells[point] = mover
            touch[point] = STONE
            for nb in neighbours[point]:
                bits = touch[nb]
                if bits < STONE and not bits & mover:
                    bits |= mover
                    touch[nb] = bits
                    if bits == _BOTH:
                        contested += 1
        following = 3 - mover
        new_cells, new_touch = bytes(cells), bytes(touch)
        outcome = None
        if contested == 0:
            # the player to move has no first placement: the game ends, holes are counted
            outcome = final_outcome(self.game, following, owned_holes(new_cells, neighbours))
        return LesPosition(
            self.game,
            self.size,
            self.options,
            self.extra,
            new_cells,
            new_touch,
            contested,
            _holes_after(self._holes, self._touch, new_touch, placed, neighbours),
            _claims_after(self._claims, self._touch, new_touch, placed, neighbours),
            None if outcome is not None else following,
            self.ply + 1,
            outcome,
        )

    # ---- moves that change nothing but the count of moves left -----------------------------
    def quiet_points(self) -> frozenset[int]:
        """The first placements whose every empty neighbour is a first placement too.

        Such a point touches no claimed and no isolated point, and never will: a first
        placement touches both colours, and a stone only adds colours. So a stone on it,
        of either colour, changes no claim, no hole and no other point's colours, now or
        later (a hole is a claim whose empty neighbours are its own points; this point
        is never one of them, nor next to one), nor the stones around a hole: it only
        takes one first placement off the board. Any two of them are the same move, as
        far as the rest of the game goes (the positions after them differ only in which
        of two such points is filled, and every line from one is a line from the other
        with the two points' roles swapped): reading one is reading all."""
        touch = self._touch
        neighbours = self._board.neighbours
        return frozenset(
            point
            for point, bits in enumerate(touch)
            if bits == _BOTH and all(touch[nb] >= _BOTH for nb in neighbours[point])
        )

    def one_quiet(self, moves: list[str]) -> list[str]:
        """``moves`` (one-stone moves of this position) in their order, less every quiet
        point (:meth:`quiet_points`) but the first: where no isolated point is left, the
        others are the same move. Where one is left, ``moves`` as they are."""
        touch = self._touch
        if _ISOLATED in touch:
            return moves
        # with no isolated point left, a first placement is quiet unless it touches a
        # claimed point
        neighbours, names = self._board.neighbours, self._board.names
        active: set[int] = set()
        for found in _CLAIMED.finditer(touch):
            active.update(neighbours[found.start()])
        touching = {names[point] for point in active}
        kept = [move for move in moves if move in touching]
        if len(kept) < len(moves) - 1:
            tempo = next(move for move in moves if move not in touching)
            kept = [move for move in moves if move in touching or move == tempo]
            return kept
        return moves

    def moves_one_by_one(self) -> list[str]:
        """The moves the exact end reading (:mod:`engine.ai.endsolver`) reads: the legal
        moves in the engine's order, with the first quiet point standing for every other
        where the turns are one stone (:meth:`one_quiet`). Reading one quiet point is
        reading all, so the values read are the same."""
        moves = self.legal_moves()
        if self.outcome is not None or not moves or "+" in moves[0]:
            return moves
        return self.one_quiet(moves)

    # ---- a lone stone, for the ordering of two-stone turns (engine.ai.heuristics.LesPairs)
    def lone_stone_points(self) -> tuple[list[int], list[int]]:
        """The first placements and the isolated points of the position, in point order."""
        touch = self._touch
        firsts = [p for p, bits in enumerate(touch) if bits == _BOTH]
        isolated = [p for p, bits in enumerate(touch) if bits == _ISOLATED]
        return firsts, isolated

    def after_lone_stone(self, point: int) -> tuple[tuple[int, int], tuple[int, int, int, int]]:
        """The holes owned and the claims (as :meth:`claims` counts them, black then white)
        were the mover to place one stone on ``point`` and nothing else: what a pair's
        stones are worth one at a time. No position is made."""
        mover = self.mover
        assert mover is not None and self.outcome is None
        touch = bytearray(self._touch)
        neighbours = self._board.neighbours
        touch[point] = STONE
        for nb in neighbours[point]:
            bits = touch[nb]
            if bits < STONE:
                touch[nb] = bits | mover
        after = bytes(touch)
        placed = (point,)
        black, white = _holes_after(self._holes, self._touch, after, placed, neighbours)
        return (
            (len(black), len(white)),
            _claims_after(self._claims, self._touch, after, placed, neighbours),
        )

    def names(self) -> tuple[str, ...]:
        """The points' names, by index."""
        return self._board.names

    def index(self) -> dict[str, int]:
        """The points' indices, by name."""
        return self._board.index

    def near(self) -> tuple[frozenset[int], ...]:
        """Per point, the points next to it."""
        return self._board.near

    def holes_and_claims(self) -> tuple[tuple[int, int], tuple[int, int, int, int]]:
        """The holes owned and the claims, as :meth:`after_lone_stone` gives them."""
        return (len(self._holes[0]), len(self._holes[1])), self._claims


# ---- holes and claims, counted once and then kept up to date ----------------------------
# A placement changes the empty points only on and next to its stones, so only the holes
# and claims through those points can change: they are counted before and after the move
# and the difference applied. Stones are never removed, so nothing else moves.


def _biggest_first(holes: list[tuple[int, int]]) -> Holes:
    # the order the engine compares them in: by size, ties by stone count, biggest first
    return tuple(sorted(holes, reverse=True))


def _hole(
    touch: bytes, neighbours: tuple[tuple[int, ...], ...], start: int, judged: set[int]
) -> tuple[int, int, int]:
    """The hole through the empty point ``start``: its owner (0: nobody), and when it has
    one, its size and the stones next to it. The flood stops once both colours border the
    hole, so an unowned hole is usually left after a few points; ``judged`` holds the points
    of the holes judged so far (this one's are added), and a flood that meets one of them is
    in a hole already judged unowned (an owned one is flooded whole): it answers 0 too, so
    that no hole counts twice."""
    bits = touch[start]
    mine = {start}
    stack = [start]
    while stack and bits != _BOTH:
        point = stack.pop()
        for nb in neighbours[point]:
            other = touch[nb]
            if other < STONE and nb not in mine:
                if nb in judged:
                    bits = _BOTH
                    break
                mine.add(nb)
                bits |= other
                stack.append(nb)
    judged |= mine
    if bits != 1 and bits != 2:
        return 0, 0, 0
    # owned (rare): flooded whole, so its points are all in ``mine``
    stones = {nb for point in mine for nb in neighbours[point] if touch[nb] == STONE}
    return bits, len(mine), len(stones)


def _holes_after(
    holes: tuple[Holes, Holes],
    before: bytes,
    after: bytes,
    placed: tuple[int, ...],
    neighbours: tuple[tuple[int, ...], ...],
) -> tuple[Holes, Holes]:
    """The holes owned after stones went on ``placed``, from those owned before. The old
    holes changed are the ones through the placed points (a first placement touches both
    colours: its hole was nobody's); the new ones run through the placed points' empty
    neighbours. Most moves change no owned hole: the same tuples are returned."""
    gone: list[tuple[int, int, int]] = []
    judged: set[int] = set()
    for point in placed:
        if before[point] != _BOTH and point not in judged:
            owner, size, stones = _hole(before, neighbours, point, judged)
            if owner:
                gone.append((owner, size, stones))
    new: list[tuple[int, int, int]] = []
    judged = set()
    for point in placed:
        for nb in neighbours[point]:
            if after[nb] < STONE and nb not in judged:
                owner, size, stones = _hole(after, neighbours, nb, judged)
                if owner:
                    new.append((owner, size, stones))
    if not gone and not new:
        return holes
    black, white = list(holes[0]), list(holes[1])
    for owner, size, stones in gone:
        (black if owner == 1 else white).remove((size, stones))
    for owner, size, stones in new:
        (black if owner == 1 else white).append((size, stones))
    return _biggest_first(black), _biggest_first(white)


def _claims(touch: bytes, neighbours: tuple[tuple[int, ...], ...]) -> list[int]:
    """How many claims each colour has (index 1 black, 2 white): groups of touching empty
    points whose stone neighbours are all of that colour."""
    counts = [0, 0, 0]
    seen: set[int] = set()
    for start, bits in enumerate(touch):
        if (bits == 1 or bits == 2) and start not in seen:
            counts[bits] += 1
            _flood_claim(touch, neighbours, start, seen)
    return counts


def _flood_claim(
    touch: bytes, neighbours: tuple[tuple[int, ...], ...], start: int, seen: set[int]
) -> None:
    """Add the claim through ``start`` (a claimed point) to ``seen``."""
    owner = touch[start]
    seen.add(start)
    stack = [start]
    while stack:
        point = stack.pop()
        for nb in neighbours[point]:
            if touch[nb] == owner and nb not in seen:
                seen.add(nb)
                stack.append(nb)


def _claims_after(
    claims: tuple[int, int, int, int],
    before: bytes,
    after: bytes,
    placed: tuple[int, ...],
    neighbours: tuple[tuple[int, ...], ...],
) -> tuple[int, int, int, int]:
    """The claims and claimed points after stones went on ``placed``, from those before.
    A claim of one colour changes only where a point joins or leaves that colour's claimed
    points (the placed points and some of their neighbours): it holds such a point or
    touches one (it may have split there, or joined another). So the claims of that colour
    through those points and their neighbours are counted before and after the move; the
    rest are the same claims."""
    counts = [0, claims[0], claims[1]]
    points = [0, claims[2], claims[3]]
    near: tuple[set[int], set[int], set[int]] = (set(), set(), set())
    for point in {p for stone in placed for p in (stone, *neighbours[stone])}:
        old, new = before[point], after[point]
        if old == new:
            continue
        for bits, sign in ((old, -1), (new, 1)):
            if bits == 1 or bits == 2:
                points[bits] += sign
                near[bits].add(point)
                near[bits].update(neighbours[point])
    for owner in (1, 2):
        for touch, sign in ((before, -1), (after, 1)):
            seen: set[int] = set()
            for point in near[owner]:
                if touch[point] == owner and point not in seen:
                    counts[owner] += sign
                    _flood_claim(touch, neighbours, point, seen)
    return counts[1], counts[2], points[1], points[2]


def search_model(state: BoardState) -> BoardState | LesPosition:
    """The position the search reads for ``state``: the model during the ordinary turns,
    the engine's own state in the set-up and while a side is chosen."""
    if state.extra.get("phase", "play") != "play" or state.outcome is not None:
        return state
    return LesPosition.of(state)
