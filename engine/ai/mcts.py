"""Monte Carlo tree search for the four board games, over the engine's public surface only.

The search sees a position exactly as any caller does: ``legal_moves()``, ``play(move)``,
``to_move`` and ``outcome`` (plus, through :mod:`engine.ai.heuristics`, the live
``score``). It never reaches into rule internals, so a new board game on the mould of
:mod:`engine.board` is searchable without changes here.

Shape of one iteration (UCT with progressive widening and a heuristic leaf value):

1. *Select*: from the root, follow the child with the best UCB1 value while the node is
   "full" (it already has as many children as its visit count allows).
2. *Expand*: add the next untried move, taken in prior order (heuristic ordering, or a
   seeded shuffle), so that wide boards are explored best-first instead of uniformly.
3. *Evaluate*: play a short random rollout (``rollout_depth`` plies, possibly zero) and
   score the position reached: 1/0 for a finished game won/lost, ``draw_value`` for a draw
   (to the searching side), otherwise the game's heuristic.
4. *Back up* the value along the path, each node storing it from the point of view of the
   colour that made the move leading to it.

The answer is the most visited root child, unless the root scan finds a move that wins
the game at once. All randomness comes from one seeded
``random.Random``, so with an iteration cap that binds before the clock the search is
exactly reproducible; the wall-clock ``time_limit`` is a safety ceiling on top.
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from engine.ai import heuristics
from engine.ai.settings import SearchSettings
from engine.board import BoardState
from engine.spec import Evaluator, MoveOrderer

# How often (in iterations) the search checks whether its answer can still change.
_DECIDED_CHECK_EVERY = 16


@dataclass
class SearchResult:
    """The chosen move and what the search did to find it (for logs and the benchmark)."""

    move: str
    iterations: int
    elapsed: float
    value: float  # estimated chance that the mover wins after ``move``
    visits: dict[str, int] = field(default_factory=dict)  # Monte Carlo: root visit counts
    depth: int = 0  # alpha-beta: the deepest reading completed, in plies
    # the root moves best first, as far as the search ranked them (``move`` first): what a
    # tactical guard (:mod:`engine.ai.tactics`) falls back on when ``move`` is refuted
    ranking: list[str] = field(default_factory=list)


class _Node:
    """One position in the search tree; values are from ``colour_moved``'s point of view."""

    __slots__ = (
        "children",
        "colour_moved",
        "move",
        "proven",
        "state",
        "total",
        "untried",
        "visits",
    )

    def __init__(self, state: BoardState, move: str | None, colour_moved: str | None) -> None:
        self.state = state
        self.move = move
        self.colour_moved = colour_moved
        self.children: list[_Node] = []
        self.untried: list[str] | None = None  # filled on first expansion, in prior order
        self.visits = 0.0
        self.total = 0.0
        # Solver: 1.0 when ``colour_moved`` is proven to win from here with best play,
        # 0.0 when proven to lose, None while unknown (draws are never proven).
        self.proven: float | None = None
        if state.outcome is not None and colour_moved is not None:
            winner = state.outcome.winner
            if winner is not None:
                self.proven = 1.0 if winner == colour_moved else 0.0


def terminal_value(
    state: BoardState, colour: str, *, draw_value: float = 0.5, chooser: str | None = None
) -> float:
    """1 if ``colour`` won the finished game in ``state``, 0 if it lost; a draw is worth
    ``draw_value`` to ``chooser`` (the searching player) and the rest to the other side."""
    assert state.outcome is not None
    winner = state.outcome.winner
    if winner is None:
        if chooser is None:
            return 0.5
        return draw_value if colour == chooser else 1.0 - draw_value
    return 1.0 if winner == colour else 0.0


class Searcher:
    """A reusable search configured for one game: evaluator and move ordering."""

    def __init__(
        self,
        settings: SearchSettings,
        *,
        evaluator: Evaluator | None = None,
        orderer: MoveOrderer | None = None,
    ) -> None:
        self.settings = settings
        self.evaluator = evaluator
        self.orderer = orderer
        self._chooser: str | None = None  # the colour the current search chooses for

    # ---- the public entry point ------------------------------------------------------
    def search(self, state: BoardState, rng: random.Random) -> SearchResult:
        """Search ``state`` (whose game is not over) and return the move to play."""
        started = time.perf_counter()
        deadline = started + self.settings.time_limit
        moves = state.legal_moves()
        if not moves:
            raise ValueError("the game is over: there is no move to choose")
        evaluator = self.evaluator or heuristics.evaluator_for(state)
        self._chooser = state.to_move
        orderer = self.orderer or heuristics.orderer_for(state)
        if len(moves) == 1:
            return SearchResult(moves[0], 0, time.perf_counter() - started, 0.5, {moves[0]: 0})

        root = _Node(state, None, None)
        root.untried = orderer(state, moves, rng)
        if self.settings.scan_depth >= 1:
            self._scan(root, evaluator, deadline)
            winning = self._immediate_win(root)
            if winning is not None:
                # Nothing to search: a move that wins the game now cannot be bettered, and
                # counting visits could still prefer a "safe" lead that later slips away.
                elapsed = time.perf_counter() - started
                return SearchResult(winning, 0, elapsed, 1.0, {winning: 1})
        iterations = 0
        cap = self.settings.max_iterations
        while iterations < cap:
            if time.perf_counter() >= deadline:
                break
            if (
                self.settings.stop_when_decided
                and iterations % _DECIDED_CHECK_EVERY == 0
                and self._decided(root, cap - iterations)
            ):
                break
            if self._root_proven(root):
                break
            self._iterate(root, rng, evaluator, orderer, deadline)
            iterations += 1

        best = self._best_child(root)
        if best is None:  # not even one child was reached in time: trust the ordering
            move = root.untried[0] if root.untried else moves[0]
            ranking = [move, *(m for m in (root.untried or moves) if m != move)]
            return SearchResult(
                move, iterations, time.perf_counter() - started, 0.5, ranking=ranking
            )
        visits = {child.move: int(child.visits) for child in root.children if child.move}
        value = best.proven if best.proven is not None else best.total / max(best.visits, 1e-9)
        assert best.move is not None  # only the root has no move
        ranking = [
            c.move for c in sorted(root.children, key=self._rank_key, reverse=True) if c.move
        ]
        ranking += list(root.untried or ())
        return SearchResult(
            best.move,
            iterations,
            time.perf_counter() - started,
            value,
            visits,
            ranking=[best.move, *(m for m in ranking if m != best.move)],
        )

    # ---- the four phases ---------------------------------------------------------------
    def _scan(self, node: _Node, evaluator: Evaluator, deadline: float) -> None:
        """Give every move of ``node`` one heuristic look, best first, as a prior visit.

        A node with a hundred moves would otherwise need hundreds of visits before the
        widening even reaches a strong but late-ordered move (a capture, or the opponent's
        winning reply); one evaluation each is cheap and starts from a sensible ranking.
        When the clock runs out mid-scan, the moves not yet looked at stay untried.
        """
        assert node.untried is not None
        mover = node.state.to_move
        assert mover is not None  # only positions whose game runs are scanned
        scored: list[tuple[float, int, _Node]] = []
        for order, move in enumerate(node.untried[: self.settings.scan_limit]):
            if time.perf_counter() >= deadline and scored:
                break
            child_state = node.state.play(move)
            child = _Node(child_state, move, mover)
            value = (
                self._terminal(child_state, mover)
                if child_state.outcome is not None
                else evaluator(child_state, mover)
            )
            child.visits = self.settings.prior_weight
            child.total = value * self.settings.prior_weight
            scored.append((value, -order, child))
        scored.sort(key=lambda item: (item[0], item[1]), reverse=True)
        node.children = [child for _, _, child in scored]
        node.untried = node.untried[len(scored) :]

    def _iterate(
        self,
        root: _Node,
        rng: random.Random,
        evaluator: Evaluator,
        orderer: MoveOrderer,
        deadline: float,
    ) -> None:
        path = [root]
        node = root
        # Selection: descend while this node is full or has nothing left to add, and its
        # value is not already proven.
        while node.state.outcome is None and node.proven is None:
            if node.untried is None:
                node.untried = orderer(node.state, node.state.legal_moves(), rng)
                if len(path) - 1 < self.settings.scan_depth:
                    self._scan(node, evaluator, deadline)
                    if not node.children:  # out of time before the first look
                        break
                    continue
            if node.untried and (
                len(node.children) < self._width(node)
                or all(child.proven == 0.0 for child in node.children)
            ):
                move = node.untried.pop(0)
                child = _Node(node.state.play(move), move, node.state.to_move)
                node.children.append(child)
                path.append(child)
                node = child
                break
            if not node.children:
                break
            node = self._select(node)
            path.append(node)
        value_for = self._evaluate(node, rng, evaluator)
        for visited in path:
            visited.visits += 1
            if visited.colour_moved is not None:
                visited.total += value_for(visited.colour_moved)
        # Solver: a proof found below climbs as far as it settles the nodes above.
        for visited in reversed(path[:-1]):
            if not self._prove(visited):
                break

    @staticmethod
    def _prove(node: _Node) -> bool:
        """Settle ``node`` from its children when they prove it (MCTS-Solver, Winands et
        al. 2008): one child won by the side to move wins it; every move tried and each
        lost loses it. True when ``node`` became proven."""
        to_move = node.state.to_move
        if node.proven is not None or node.colour_moved is None or to_move is None:
            return False
        children = node.children
        if any(child.proven == 1.0 for child in children):
            node.proven = 1.0 if node.colour_moved == to_move else 0.0
            return True
        if (
            node.untried is not None
            and not node.untried
            and children
            and all(child.proven == 0.0 for child in children)
        ):
            node.proven = 0.0 if node.colour_moved == to_move else 1.0
            return True
        return False

    @staticmethod
    def _root_proven(root: _Node) -> bool:
        """True when a root move is proven to win, or every root move to lose."""
        children = root.children
        if any(child.proven == 1.0 for child in children):
            return True
        return bool(
            children and not root.untried and all(child.proven == 0.0 for child in children)
        )

    def _width(self, node: _Node) -> int:
        settings = self.settings
        growth: float = (node.visits + 1) ** settings.widening_exponent
        return max(1, math.ceil(settings.widening_base * growth))

    def _select(self, node: _Node) -> _Node:
        log_parent = math.log(node.visits + 1)
        c = self.settings.exploration
        best, best_score = node.children[0], -math.inf
        for child in node.children:
            if child.proven == 1.0:
                return child
            if child.proven == 0.0:  # proven lost: only if nothing else is left
                score = -1.0
            else:
                score = child.total / child.visits + c * math.sqrt(log_parent / child.visits)
            if score > best_score:
                best, best_score = child, score
        return best

    def _evaluate(
        self, node: _Node, rng: random.Random, evaluator: Evaluator
    ) -> Callable[[str], float]:
        """Roll out from ``node`` and return a function colour -> value of the result."""
        state = node.state
        proven = node.proven
        if proven is not None and state.outcome is None:
            moved = node.colour_moved
            return lambda colour: proven if colour == moved else 1.0 - proven
        for _ in range(self.settings.rollout_depth):
            if state.outcome is not None:
                break
            state = state.play(rng.choice(state.legal_moves()))
        if state.outcome is not None:
            final = state
            return lambda colour: self._terminal(final, colour)
        # The heuristic is asked once, for the colour to move, and mirrored for the other:
        # values are zero-sum by construction, and one evaluation is half the work.
        pivot = state.to_move
        assert pivot is not None  # the game runs: finished ones returned above
        pivot_value = evaluator(state, pivot)
        return lambda colour: pivot_value if colour == pivot else 1.0 - pivot_value

    def _terminal(self, state: BoardState, colour: str) -> float:
        return terminal_value(
            state, colour, draw_value=self.settings.draw_value, chooser=self._chooser
        )

    @staticmethod
    def _immediate_win(root: _Node) -> str | None:
        """The first scanned root move that ends the game as a win for the mover, if any."""
        mover = root.state.to_move
        for child in root.children:
            outcome = child.state.outcome
            if outcome is not None and outcome.winner == mover:
                return child.move
        return None

    @staticmethod
    def _decided(root: _Node, remaining: int) -> bool:
        """True when no child can catch the most visited one in ``remaining`` iterations.

        Each iteration adds one visit to one root child (a new child starts from none), so
        once the leader's visit lead exceeds the iterations left, the answer is fixed and
        searching on would change nothing but the clock: stopping early plays exactly the
        move the full search would have played.
        """
        if len(root.children) < 2:
            return False
        first = second = 0.0
        for child in root.children:
            if child.visits > first:
                first, second = child.visits, first
            elif child.visits > second:
                second = child.visits
        return first - second > remaining

    @staticmethod
    def _rank_key(child: _Node) -> tuple[bool, bool, float, float]:
        """Best first: a proven win, then anything not proven lost, then the most visited."""
        return (child.proven == 1.0, child.proven != 0.0, child.visits, child.total)

    @classmethod
    def _best_child(cls, root: _Node) -> _Node | None:
        if not root.children:
            return None
        return max(root.children, key=cls._rank_key)


def uniform_random_move(state: BoardState, rng: random.Random) -> str:
    """The baseline opponent: any legal move, each equally likely."""
    moves: Sequence[str] = state.legal_moves()
    if not moves:
        raise ValueError("the game is over: there is no move to choose")
    return rng.choice(moves)
