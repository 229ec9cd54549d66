"""Alpha-beta search for the board games: minimax reading, for the level that must be sharp.

Monte Carlo tree search averages what it finds below a move, which is right against a
careless opponent and wrong against a careful one: a move with one crushing reply among
fifty harmless ones still looks good on average. This searcher assumes the opponent
finds its best reply. It reads the same public surface as :mod:`engine.ai.mcts`
(``legal_moves()``, ``play()``, ``to_move``, ``outcome``) and uses the same evaluators and
move orderings from :mod:`engine.ai.heuristics`, so it too can only ever return one of
the position's legal moves.

How it reads a position:

* **Iterative deepening.** Depth 1 is a scan of every move (one evaluation each); each
  further depth is a full alpha-beta search with the root moves ordered by the previous
  depth's values, until ``max_depth`` or the budget runs out. The answer comes from the
  deepest depth completed; a depth cut short only counts if it already proved a better
  move than the previous depth's choice.
* **Budgets.** ``max_nodes`` counts positions played out (deterministic: the same position
  and settings always give the same move); ``time_limit`` is the wall-clock ceiling.
* **Move ordering inside the tree.** The game's ordering, with the two "killer" moves
  that last caused a cut-off at the same depth tried first, and moves that caused
  cut-offs before ("history") ahead of the rest.
* **Lazy legality** (``lazy_legality``, for a model that offers candidate moves:
  Lublache's). Inner positions list their candidates, a cheap superset of the legal
  moves, and a move's legality is worked out when it is reached: a cut-off after the
  first few moves skips the rest. The values read to a depth are the same; the order
  (the game's shuffle of the candidates) and so the positions read differ.
* **Width.** ``root_width`` keeps only the best moves of the root scan for the deeper
  reading and ``width`` caps how many moves an inner node tries, in that order, for
  games where a position offers hundreds of moves (Les).

Values are the evaluators' win chances shifted to ``[-½, ½]`` so that a position's value
for one side is minus its value for the other (negamax). A drawn end is worth
``draw_value`` to the searching side, as in the Monte Carlo search.
"""

from __future__ import annotations

import random
import time
from typing import cast

from engine.ai import heuristics
from engine.ai.mcts import SearchResult, terminal_value
from engine.ai.model import LazyMoves
from engine.ai.settings import AlphaBetaSettings
from engine.board import BoardState
from engine.spec import Evaluator, MoveOrderer

# What a transposition-table entry's value is: exact, or only a bound on the true value.
_EXACT, _LOWER, _UPPER = 0, 1, 2


def _position_key(state: BoardState) -> tuple[bytes, int | None, int]:
    """Positions that transpose (the same stones reached in another order) share a key:
    the cells, the side to move, and the ply while the opening (swap, set-up) can differ."""
    return (state.cells, state.mover, min(state.ply, 4))


class _OutOfBudget(Exception):
    """Raised inside the tree when the node or time budget is spent."""


class AlphaBetaSearcher:
    """Negamax with alpha-beta pruning, iterative deepening, killer and history ordering."""

    def __init__(
        self,
        settings: AlphaBetaSettings,
        *,
        evaluator: Evaluator | None = None,
        orderer: MoveOrderer | None = None,
    ) -> None:
        self.settings = settings
        self.evaluator = evaluator
        self.orderer = orderer

    # ---- the public entry point ------------------------------------------------------
    def search(self, state: BoardState, rng: random.Random) -> SearchResult:
        """Search ``state`` (whose game is not over) and return the move to play."""
        started = time.perf_counter()
        self._deadline = started + self.settings.time_limit
        self._nodes = 0
        self._chooser = state.to_move
        self._evaluate = (
            self.evaluator or self.settings.evaluator or heuristics.evaluator_for(state)
        )
        self._order = self.orderer or self.settings.orderer or heuristics.orderer_for(state)
        self._rng = rng
        self._killers: dict[int, list[str]] = {}
        self._history: dict[str, int] = {}
        # one table per search: values hold the searching side's contempt for draws
        self._table: dict[tuple[bytes, int | None, int], tuple[int, float, int, str | None]] = {}
        self._leaves: dict[tuple[bytes, int | None, int], float] = {}
        moves = state.legal_moves()
        if not moves:
            raise ValueError("the game is over: there is no move to choose")
        mover = state.to_move
        assert mover is not None  # the game runs: it has moves
        if len(moves) == 1:
            return SearchResult(moves[0], 0, time.perf_counter() - started, 0.5)

        # Depth 1: every move played and valued once. A move that wins at once is played.
        children: list[tuple[str, BoardState]] = []
        values: dict[str, float] = {}
        for move in self._order(state, moves, rng):
            child = state.play(move)
            self._nodes += 1
            value = self._leaf_value(child, mover)
            if child.outcome is not None and child.outcome.winner == mover:
                elapsed = time.perf_counter() - started
                return SearchResult(move, self._nodes, elapsed, 1.0, depth=1)
            children.append((move, child))
            values[move] = value
            if time.perf_counter() >= self._deadline and len(children) > 1:
                break
        order = sorted(range(len(children)), key=lambda i: -values[children[i][0]])
        ranked = [children[i] for i in order]
        best_move, best_value = ranked[0][0], values[ranked[0][0]]
        first_look = [move for move, _ in ranked]
        if self.settings.root_width:
            ranked = ranked[: self.settings.root_width]

        depth = 2
        while depth <= self.settings.max_depth and len(ranked) > 1:
            try:
                depth_values = self._root(ranked, mover, depth)
            except _OutOfBudget as spent:
                partial = spent.args[0] if spent.args else None
                if partial is not None and partial[0] != best_move:
                    best_move, best_value = partial
                break
            ranked.sort(key=lambda item: -depth_values.get(item[0], -1.0))
            best_move = ranked[0][0]
            best_value = depth_values[best_move]
            depth += 1
        elapsed = time.perf_counter() - started
        # best first: the move chosen, the deepest reading's order, then the first look's
        read = [move for move, _ in ranked]
        ranking = [best_move, *(m for m in read + first_look if m != best_move)]
        ranking = list(dict.fromkeys(ranking))
        return SearchResult(
            best_move, self._nodes, elapsed, best_value + 0.5, depth=depth - 1, ranking=ranking
        )

    # ---- the tree ---------------------------------------------------------------------
    def _root(
        self, ranked: list[tuple[str, BoardState]], mover: str, depth: int
    ) -> dict[str, float]:
        """One alpha-beta pass over the root moves; exact values only for the best one."""
        alpha, beta = -1.0, 1.0
        values: dict[str, float] = {}
        best: tuple[str, float] | None = None
        for move, child in ranked:
            try:
                value = self._child_value(child, mover, depth - 1, alpha, beta, 1)
            except _OutOfBudget:
                # The moves searched so far at this depth: a proven improvement on the
                # previous depth's choice (the first move searched is that choice) counts.
                raise _OutOfBudget(best) from None
            values[move] = value
            if best is None or value > best[1]:
                best = (move, value)
            alpha = max(alpha, value)
        return values

    def _child_value(
        self, child: BoardState, mover: str, depth: int, alpha: float, beta: float, ply: int
    ) -> float:
        """The value for ``mover`` of ``child``, the position after one of its moves."""
        if child.outcome is not None or depth == 0:
            return self._leaf_value(child, mover)
        if child.to_move == mover:  # the same side moves again: no change of sign
            return self._negamax(child, depth, alpha, beta, ply)
        return -self._negamax(child, depth, -beta, -alpha, ply)

    def _negamax(self, state: BoardState, depth: int, alpha: float, beta: float, ply: int) -> float:
        """The value of ``state`` for its side to move, searched ``depth`` plies deep."""
        mover = state.to_move
        assert mover is not None  # only positions whose game runs are searched
        key = _position_key(state)
        entry = self._table.get(key)
        hint = None
        if entry is not None:
            stored_depth, stored_value, bound, hint = entry
            if stored_depth >= depth:
                if bound == _EXACT:
                    return stored_value
                if bound == _LOWER and stored_value >= beta:
                    return stored_value
                if bound == _UPPER and stored_value <= alpha:
                    return stored_value
        # a model offering candidates (engine.ai.model.LazyMoves) has their legality worked out one
        # at a time, as they are reached: a cut-off skips the rest
        try_move = getattr(state, "play_if_legal", None) if self.settings.lazy_legality else None
        moves = self._ordered(state, ply, lazy=try_move is not None)
        if hint is not None and hint in moves:
            moves.remove(hint)
            moves.insert(0, hint)
        original_alpha = alpha
        best = -1.0
        best_move = None  # the first move read: every value beats -1
        for move in moves:
            if try_move is None:
                self._spend()
                child = state.play(move)
            else:
                child = try_move(move)
                if child is None:
                    continue  # refused by the rules
                self._spend()
            value = self._child_value(child, mover, depth - 1, alpha, beta, ply + 1)
            if value > best:
                best = value
                best_move = move
            if value > alpha:
                alpha = value
            if alpha >= beta:
                killers = self._killers.setdefault(ply, [])
                if move not in killers:
                    killers.insert(0, move)
                    del killers[2:]
                self._history[move] = self._history.get(move, 0) + depth * depth
                break
        if self.settings.transpositions:
            bound = _UPPER if best <= original_alpha else _LOWER if best >= beta else _EXACT
            self._table[key] = (depth, best, bound, best_move)
        return best

    def _ordered(self, state: BoardState, ply: int, lazy: bool = False) -> list[str]:
        listed = cast(LazyMoves, state).candidate_moves() if lazy else state.legal_moves()
        moves = self._order(state, listed, self._rng)
        history = self._history
        if history:
            # stable: the game's order breaks ties (Lefe keeps captures first among equals)
            moves.sort(key=lambda move: -history.get(move, 0))
        killers = [m for m in self._killers.get(ply, ()) if m in moves]
        if killers:
            moves = killers + [m for m in moves if m not in killers]
        if self.settings.width:
            moves = moves[: self.settings.width]
        return moves

    def _leaf_value(self, state: BoardState, colour: str) -> float:
        """The value for ``colour`` of a position where the reading stops."""
        if state.outcome is not None:
            return (
                terminal_value(
                    state, colour, draw_value=self.settings.draw_value, chooser=self._chooser
                )
                - 0.5
            )
        mover = state.to_move
        assert mover is not None  # the game runs: finished ones returned above
        if self.settings.transpositions:
            # the same stones reached in another order are valued once (the evaluator is
            # most of a leaf's cost): the value for the side to move, by position
            key = _position_key(state)
            for_mover = self._leaves.get(key)
            if for_mover is None:
                for_mover = self._leaves[key] = self._evaluate(state, mover)
        else:
            for_mover = self._evaluate(state, mover)
        return for_mover - 0.5 if mover == colour else 0.5 - for_mover

    def _spend(self) -> None:
        self._nodes += 1
        if self._nodes > self.settings.max_nodes:
            raise _OutOfBudget()
        # every node: one Lublache position can cost ~10 ms, and hard promises 5 s
        if time.perf_counter() >= self._deadline:
            raise _OutOfBudget()
