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
* **Width.** ``root_width`` keeps only the best moves of the root scan for the deeper
  reading and ``width`` caps how many moves an inner node tries, in that order, for
  games where a position offers hundreds of moves (Les).

Values are the evaluators' win chances shifted to ``[-½, ½]`` so that a position's value
for one side is minus its value for the other (negamax). A drawn end is worth
``draw_value`` to the searching side, as in the Monte Carlo search.

Frozen for the strength ladder (bench/reference/__init__.py): a copy of
``engine/ai/alphabeta.py`` as of commit 15655db, only its imports changed and its evaluator
and move ordering given, never read from the game's spec. Never tune it: it is the fixed
yardstick the levels are measured against.
"""

from __future__ import annotations

import random
import time

from bench.reference.mcts import SearchResult, terminal_value
from bench.reference.settings import AlphaBetaSettings
from engine.board import BoardState
from engine.spec import Evaluator, MoveOrderer


class _OutOfBudget(Exception):
    """Raised inside the tree when the node or time budget is spent."""


class AlphaBetaSearcher:
    """Negamax with alpha-beta pruning, iterative deepening, killer and history ordering."""

    def __init__(
        self,
        settings: AlphaBetaSettings,
        *,
        evaluator: Evaluator,
        orderer: MoveOrderer,
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
        self._evaluate = self.evaluator
        self._order = self.orderer
        self._rng = rng
        self._killers: dict[int, list[str]] = {}
        self._history: dict[str, int] = {}
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
        return SearchResult(best_move, self._nodes, elapsed, best_value + 0.5, depth=depth - 1)

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
        moves = self._ordered(state, ply)
        best = -1.0
        for move in moves:
            self._spend()
            child = state.play(move)
            value = self._child_value(child, mover, depth - 1, alpha, beta, ply + 1)
            if value > best:
                best = value
            if value > alpha:
                alpha = value
            if alpha >= beta:
                killers = self._killers.setdefault(ply, [])
                if move not in killers:
                    killers.insert(0, move)
                    del killers[2:]
                self._history[move] = self._history.get(move, 0) + depth * depth
                break
        return best

    def _ordered(self, state: BoardState, ply: int) -> list[str]:
        moves = self._order(state, state.legal_moves(), self._rng)
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
        if mover == colour:
            return self._evaluate(state, colour) - 0.5
        return 0.5 - self._evaluate(state, mover)

    def _spend(self) -> None:
        self._nodes += 1
        if self._nodes > self.settings.max_nodes:
            raise _OutOfBudget()
        # every node: one Lublache position can cost ~10 ms, and hard promises 5 s
        if time.perf_counter() >= self._deadline:
            raise _OutOfBudget()
