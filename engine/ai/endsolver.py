"""Exact reading of small end positions: a proven win is always played.

The searches value an unfinished position by a heuristic, and near the end that is where
they lose games already won: in Dalen a big army turns over in the last plies (a stagnant
enemy tree with as many leaves), and which move avoids that is a matter of who runs out of
placements first, which no evaluator sees. With ten or twelve moves a position, the rest
of the game is small enough to read exactly: every line to its end, each position valued
win, draw or loss for the side to move, a position met again in another order read once.
A win for the mover needs one winning move, so the reading stops at the first; only
positions with no win read every move.

:func:`solve` reads within a budget of positions played (deterministic) and a deadline; it
answers the exact value of every root move read, or None when the budget ran out before
the answer was certain (or a line came back to a position it had passed: Lefe's captures
can restore one, and the rules give such a line no end). It reads the engine's public surface only (``legal_moves()``,
``play()``, ``to_move``, ``outcome``; a search model's ``moves_one_by_one()`` where it
offers one), so whatever it proves is what the rules say.
"""

from __future__ import annotations

import time

from engine.board import BoardState

WIN, DRAW, LOSS = 1.0, 0.5, 0.0


class _OutOfBudget(Exception):
    """Raised inside the reading when the node or time budget is spent."""


class _Repeated(_OutOfBudget):
    """Raised inside the reading when a line comes back to a position it has passed: the
    rules have no end for a repeating line (Lefe's captures can restore a position), so
    the reading cannot finish and answers as one out of positions."""


def _key(state: BoardState) -> tuple[bytes, int | None, int, object]:
    # the stones, the side to move, the opening's ply, and passes in a row (two end a game
    # in Dalen, so the same stones after a pass are another position)
    return (state.cells, state.mover, min(state.ply, 4), state.extra.get("passes"))


def position_key(state: BoardState) -> tuple[bytes, int | None, int, object]:
    """What tells positions apart for a table of positions read (the stones, the side to
    move, the opening's ply, passes in a row)."""
    return _key(state)


Known = dict[tuple[bytes, int | None, int, object], float]


def known_positions() -> Known:
    """An empty table of positions read, to share between readings of one game's positions
    (``solve(..., known=...)``): a position's exact value holds whatever reading found it."""
    return {}


class _Reader:
    def __init__(self, max_nodes: int, deadline: float, known: Known | None = None) -> None:
        self.max_nodes = max_nodes
        self.deadline = deadline
        self.nodes = 0
        # only finished positions enter the table, so a reading cut short leaves it exact
        self.known: Known = {} if known is None else known
        # the positions of the line being read, from the root down
        self.line: set[tuple[bytes, int | None, int, object]] = set()

    def child(self, state: BoardState, move: str) -> BoardState:
        self.nodes += 1
        if self.nodes > self.max_nodes or time.perf_counter() > self.deadline:
            raise _OutOfBudget
        return state.play(move)

    def value(self, state: BoardState) -> float:
        """The exact value of ``state`` for its side to move (WIN, DRAW or LOSS)."""
        key = _key(state)
        known = self.known.get(key)
        if known is not None:
            return known
        if key in self.line:
            raise _Repeated
        self.line.add(key)
        mover = state.to_move
        best = LOSS
        # a position may offer its moves one at a time, in the same order (the Lublache
        # model: a placement costs a loop reading near the end, and the reading of a won
        # position stops at its first winning move)
        one_by_one = getattr(state, "moves_one_by_one", None)
        for move in state.legal_moves() if one_by_one is None else one_by_one():
            child = self.child(state, move)
            best = max(best, self.value_for(child, mover))
            if best == WIN:
                break
        self.line.discard(key)
        self.known[key] = best
        return best

    def value_for(self, state: BoardState, colour: str | None) -> float:
        """The exact value of ``state`` for ``colour``."""
        outcome = state.outcome
        if outcome is not None:
            if outcome.winner is None:
                return DRAW
            return WIN if outcome.winner == colour else LOSS
        value = self.value(state)
        return value if state.to_move == colour else WIN + LOSS - value


def solve(
    state: BoardState,
    *,
    max_nodes: int,
    time_limit: float,
    partial: dict[str, float] | None = None,
    known: Known | None = None,
) -> tuple[dict[str, float], int] | None:
    """The exact values of ``state``'s moves for its side to move, and the positions read.

    When a move wins, the answer holds that move alone (the reading stops there); otherwise
    every move with its value (DRAW or LOSS). None when ``max_nodes`` positions or
    ``time_limit`` seconds were spent before the answer was certain, or when a line came
    back to a position it had passed (Lefe's captures can restore one: such a line has no
    end to read); ``partial``, when
    given, then holds the moves read to the end before that (a move proven lost is worth
    knowing even when the position is too big to read whole). ``known`` (from
    :func:`known_positions`) carries the positions read from one reading to the next: the
    screen of a level's moves (``engine.ai.levels``) reads several moves of one position,
    whose refutations often share their lines.
    """
    reader = _Reader(max_nodes, time.perf_counter() + time_limit, known)
    reader.line.add(_key(state))
    mover = state.to_move
    values: dict[str, float] = {} if partial is None else partial
    try:
        # every move's end first: a move that wins at once is the cheapest proof
        children = [(move, reader.child(state, move)) for move in state.legal_moves()]
        for move, child in children:
            if child.outcome is not None and child.outcome.winner == mover:
                return {move: WIN}, reader.nodes
        for move, child in children:
            values[move] = reader.value_for(child, mover)
            if values[move] == WIN:
                return {move: WIN}, reader.nodes
    except _OutOfBudget:
        return None
    return values, reader.nodes
