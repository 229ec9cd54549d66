"""The knobs of the board-game searches, and how one game tunes a level's knobs.

Plain data, imported by the searchers (:mod:`engine.ai.mcts`, :mod:`engine.ai.alphabeta`),
by the level table (:mod:`engine.ai.levels`) and by each game's spec, which carries its
own :class:`LevelTuning` per level (see :class:`engine.spec.BoardAI`).
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

# normal and hard count a drawn end as 0.4 of a win for themselves: against most opponents
# the bot is the stronger side, and playing on wins more than settling (Lefe above all).
DRAW_VALUE = 0.4


@dataclass(frozen=True)
class SearchSettings:
    """How hard and how long one search thinks."""

    max_iterations: int = 1000
    time_limit: float = 1.0  # seconds of wall clock, a ceiling checked between iterations
    exploration: float = 0.7  # UCB1 constant; values are in [0, 1]
    rollout_depth: int = 0  # random plies played out from a new leaf before evaluating
    widening_base: float = 2.0  # a node may hold ceil(base * visits ** exponent) children
    widening_exponent: float = 0.5
    # Nodes shallower than this get every child evaluated once, on first expansion, and
    # seeded with that value (0: none, 1: the root's moves, 2: also the replies to them).
    scan_depth: int = 1
    # At most this many moves of a node are scanned (Les offers over a thousand moves per
    # turn mid-game); the rest stay for progressive widening, in the game's move order.
    scan_limit: int = 250
    prior_weight: float = 1.0  # visits' worth of trust given to a scanned prior value (> 0)
    # What a finished draw is worth to the player the search chooses for (the opponent
    # gets the rest). Below ½ ("contempt") it prefers playing on to a drawn end; a bot is
    # mostly the stronger side, and Lefe in particular offers many ways to end level.
    draw_value: float = 0.5
    # Stop as soon as the most visited root move can no longer be overtaken within the
    # iterations left: the same answer, sooner (off only to test exactly that).
    stop_when_decided: bool = True


@dataclass(frozen=True)
class AlphaBetaSettings:
    """How deep and how long one alpha-beta search reads."""

    max_depth: int = 3  # plies, counting the root move
    max_nodes: int = 20_000  # positions played out, the deterministic budget
    time_limit: float = 2.0  # seconds of wall clock, a ceiling
    root_width: int = 0  # 0: every root move goes deeper; otherwise only this many
    width: int = 0  # 0: inner nodes try every move; otherwise at most this many
    draw_value: float = 0.5
    # Remember each position's value and best move within one search (positions reached
    # by the same stones in another order are read once, and deeper passes try the best
    # move of the shallower one first).
    transpositions: bool = True
    # The move ordering of this search, in place of the game's (None: the game's, see
    # engine.spec.BoardAI). It may return fewer moves than it is given: only those are
    # read, at the root and inside the tree (Les master: engine.ai.heuristics.LesPairs).
    orderer: Callable[[Any, list[str], random.Random], list[str]] | None = None
    # The evaluator of this search, in place of the game's (None: the game's; Les master:
    # engine.ai.heuristics.les_master_evaluator, which reads the game's tie-breaks).
    evaluator: Callable[[Any, str], float] | None = None
    # Inner positions that offer ``candidate_moves()`` (a cheap superset of their legal
    # moves: Lublache's model) are read from those, each move's legality worked out only
    # when the search reaches it (``play_if_legal``), so a cut-off skips the rest. The
    # game's order then shuffles the candidates rather than the legal moves: the same
    # kind of order, but another tree than with this off.
    lazy_legality: bool = False


AnySettings = SearchSettings | AlphaBetaSettings


@dataclass(frozen=True)
class LevelTuning:
    """How one game changes one level (each choice is explained in docs/ai.md).

    ``changes`` replaces some fields of the level's settings (``{"max_iterations": 300}``);
    ``settings`` replaces them altogether. ``narrow`` reads positions where the side to move
    has at most ``narrow_below`` moves with other settings again, after ``solve_nodes``
    positions of exact reading to the end when that is set; ``screen_below`` and
    ``screen_nodes`` read the search's chosen moves to the end one at a time (below).
    """

    changes: Mapping[str, int | float] = field(default_factory=dict)
    settings: AnySettings | None = None
    narrow_below: int = 0
    narrow: AnySettings | None = None
    # In those narrow positions, first read the rest of the game exactly within this many
    # positions (engine.ai.endsolver; 0: never); a proven win is played at once.
    solve_nodes: int = 0
    # The share of the narrow settings' time the exact reading may take (the search then
    # reads on with what is left, at least a quarter of the time).
    solve_share: float = 0.5
    # The whole reading begins at this many moves when that is more than ``narrow_below``
    # (0: at ``narrow_below``). Between the two it reads within the share of the level's
    # own time, and where it does not finish the level's own search and screen read on: a
    # won end can need more positions than the screen gives a move (docs/ai.md, Dalen,
    # fifteenth round).
    solve_below: int = 0
    # Above what can be read whole: in positions of at most ``screen_below`` moves where the
    # whole reading did not finish, the search's choices are read to the end one at a time,
    # its best ranked first, each within ``screen_nodes`` positions (``solve_nodes`` in all,
    # and the time the level has left): a move proven lost gives way to the next, a move
    # proven won is played, the first move not proven lost stands.
    screen_below: int = 0
    screen_nodes: int = 0
    # In the positions it screens (above the whole reading), the share of the level's time
    # kept for the screen: the search stops at the rest (0: the search may take it all, and
    # the screen reads in what it leaves). A level whose search reads to its clock keeps
    # time for the reading this way.
    screen_keep: float = 0.0
    # In narrow positions whose whole reading is cut short, the share of the level's time
    # kept for the screen: the alpha-beta after the reading stops that much earlier (at
    # least a quarter of the time, as always). 0: the screen reads in what the reading and
    # the search leave, which in a narrow position is usually nothing.
    narrow_keep: float = 0.0
    # In a position proven lost, the moves are told apart by how many of the opponent's
    # replies keep its win, each read to the end within this many positions in all
    # (engine.ai.levels._swindled; 0: never, the level's search picks among the lost moves).
    swindle_nodes: int = 0
    # The moves within this much of the swindle's best share (0: those tied on it) are read
    # one reply deeper where the positions and time allow: a move whose replies mostly leave
    # a win may leave the one that keeps the opponent's win easy to find again.
    swindle_margin: float = 0.0
    # The swindle reads until this multiple of the level's time from the search's start (1:
    # the level's clock; the tactical guard's allowance, GUARD_SHARE, is the most it may be).
    # The random playouts (``playouts``) keep the same safety net: their count bounds them.
    swindle_time: float = 1.0
    # In a position proven lost, the move with the best chance against an opponent who
    # plays uniformly at random (engine.ai.levels._chanced; both 0: never). The chance is
    # read exactly first (the level's best move, the opponent's replies averaged, a won
    # position cut short) within ``chance_nodes`` positions; where that does not finish,
    # each move is played out ``chance_playouts`` times, the opponent at random and the
    # level playing the win a small exact reading (``chance_read`` positions, with at most
    # ``chance_read_below`` moves) finds, at random otherwise. Both read until ``swindle_time`` (docs/ai.md, Dalen, twelfth round).
    # Without playouts, the moves whose chance was read whole before the positions or the
    # time ran out are compared; with ``swindle_nodes`` too, the swindle reads first and
    # the chance is read in its order (docs/ai.md, Lublache, thirteenth round).
    chance_nodes: int = 0
    chance_playouts: int = 0
    chance_read: int = 300
    chance_read_below: int = 8
    # Above the end reading, in positions of at most ``playout_below`` moves: each move is
    # played out to the end ``playouts`` times by uniformly random moves of both sides, and
    # a move whose share of won playouts falls more than ``playout_margin`` below the best
    # move's gives way to the search's next (0: never). A big army in one tree with few
    # leaves next to small enemy trees is turned over in most such playouts, which no
    # evaluator tried tells apart (docs/ai.md, Dalen, ninth round).
    playout_below: int = 0
    playouts: int = 0
    playout_margin: float = 0.2
    # The playouts also in narrow positions whose exact reading did not finish (below
    # ``narrow_below``; a finished reading decides alone): Lefe's cramped leader, facing an
    # opponent with twice its placements, is lost or saved by which of its own trees its
    # last placements join, beyond what its reading finishes (docs/ai.md, Lefe, tenth round).
    playout_narrow: bool = False
    # What a drawn playout counts (a win 1, a loss 0): 1 makes the playouts' share the
    # chance of not losing, for a level whose aim is never to lose to a careless opponent
    # (docs/ai.md, Lefe, tenth round).
    playout_draw: float = 0.5
    # In a position proven lost, the averaging search that picks among the lost moves (and
    # then the swindle, with ``swindle_nodes``) for a level whose own search is alpha-beta,
    # which tells lost moves apart no better than at random (None: the level's own search;
    # an alpha-beta level then plays its search's choice). Lublache's normal reads by
    # alpha-beta but keeps the Monte Carlo search of before for lost ends (docs/ai.md,
    # Lublache's twelfth round).
    lost_settings: SearchSettings | None = None
