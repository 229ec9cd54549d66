"""Puzzles cut from games: a position where exactly one move forces a win.

A puzzle is a position of a board game, its side to move, and a *solution*: the only
legal move after which that side wins by force within the puzzle's *horizon* (a few
plies), whatever the opponent replies. Everything here is exact and reads the engine's
public surface only (``legal_moves``, ``play``, ``outcome``, ``to_move``):

* :func:`wins_within` answers "does ``colour`` win by force within ``plies`` plies?" by
  reading every reply of the opponent and any one move of ``colour`` (an AND/OR search,
  with a table of positions already answered);
* :func:`winning_moves` lists the moves of the side to move that win within the horizon,
  each with the fewest plies it needs;
* :func:`find_puzzle` keeps a position when exactly one move wins, and the position
  before it (the opponent's turn) had a move that did not hand the win over: the puzzle
  follows a mistake, as lichess's puzzles do;
* :func:`verify` re-checks a stored puzzle from scratch (the tests run it on the shipped
  set).

How games are won shapes the puzzles: a Lefe or Les move that leaves the opponent without
a placement ends the game on the points; a Dalen move whose flips take the opponent's last
stones wins at once; in Lublache the player to move without a placement wins, so a win
is a move after which every reply of the opponent leaves the mover without one (two
plies).
"""

from __future__ import annotations

import math
import time
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from engine.board import BoardState

# How far puzzles read: the solution wins within this many plies (its own move included).
DEFAULT_HORIZON = 3
# Lublache is won by having no placement at one's turn: a win needs the opponent's reply.
HORIZONS = {"lublache": 2}
# A position with fewer legal moves than this offers no choice worth a puzzle.
MIN_MOVES = 3
# A puzzle's rating before anyone has tried it (Glicko-2's scale, 1500 = average).
BASE_RATING = 1500.0


def horizon_for(game: str) -> int:
    """How many plies a puzzle of ``game`` reads (its solution's longest line)."""
    return HORIZONS.get(game, DEFAULT_HORIZON)


class OutOfTime(Exception):
    """A reading met its deadline before it could answer (the caller skips the position)."""


def _key(state: BoardState) -> tuple[bytes, int | None, int | None]:
    # the same stones, side to move and (for a finished game) the winner
    return (state.cells, state.mover, None if state.outcome is None else hash(state.outcome.winner))


@dataclass
class Reader:
    """An exact forced-win reader with a table of answered positions and a deadline."""

    deadline: float = math.inf
    budget: int | None = None  # most positions played (reproducible, unlike the clock)
    plays: int = 0
    _table: dict[tuple[tuple[bytes, int | None, int | None], str, int], bool] = field(
        default_factory=dict
    )

    def _children(self, state: BoardState) -> Iterable[tuple[str, BoardState]]:
        for move in state.legal_moves():
            self.plays += 1
            if self.budget is not None and self.plays > self.budget:
                raise OutOfTime
            if time.perf_counter() > self.deadline:
                raise OutOfTime
            yield move, state.play(move)

    def wins_within(self, state: BoardState, colour: str, plies: int) -> bool:
        """True when ``colour`` wins the game in ``state`` by force within ``plies`` plies."""
        if state.outcome is not None:
            return state.outcome.winner == colour
        if plies <= 0:
            return False
        key = (_key(state), colour, plies)
        known = self._table.get(key)
        if known is not None:
            return known
        if state.to_move == colour:
            answer = any(
                self.wins_within(child, colour, plies - 1) for _, child in self._children(state)
            )
        else:
            answer = all(
                self.wins_within(child, colour, plies - 1) for _, child in self._children(state)
            )
        self._table[key] = answer
        return answer

    def fewest_plies(self, state: BoardState, colour: str, horizon: int) -> int | None:
        """The fewest plies (at most ``horizon``) within which ``colour`` wins, or None."""
        for plies in range(0, horizon + 1):
            if self.wins_within(state, colour, plies):
                return plies
        return None

    def winning_moves(
        self, state: BoardState, horizon: int, enough: int | None = None
    ) -> dict[str, int]:
        """The moves of the side to move that win within ``horizon`` plies (their own move
        counted), each with the fewest plies it needs; the search stops once ``enough``
        are found (a puzzle wants exactly one: two settle that it is none)."""
        mover = state.to_move
        if mover is None:
            return {}
        found: dict[str, int] = {}
        children = list(self._children(state))
        # the wins in one first: two of them end the search before any deeper reading
        for move, child in children:
            if child.outcome is not None and child.outcome.winner == mover:
                found[move] = 1
                if enough is not None and len(found) >= enough:
                    return found
        for move, child in children:
            if move in found:
                continue
            plies = self.fewest_plies(child, mover, horizon - 1)
            if plies is not None:
                found[move] = plies + 1
                if enough is not None and len(found) >= enough:
                    return found
        return found

    def line(self, state: BoardState, colour: str, plies: int) -> list[str]:
        """A principal line of a forced win within ``plies``: our winning moves, and the
        opponent's reply that holds out longest (the first such in the move order)."""
        moves: list[str] = []
        while state.outcome is None and plies > 0:
            if state.to_move == colour:
                winning = next(
                    (
                        (move, child)
                        for move, child in self._children(state)
                        if self.wins_within(child, colour, plies - 1)
                    ),
                    None,
                )
                if winning is None:
                    raise ValueError("no forced win here")
                move, child = winning
            else:
                best: tuple[int, str, BoardState] | None = None
                for move, child in self._children(state):
                    need = self.fewest_plies(child, colour, plies - 1)
                    if need is None:
                        raise ValueError("no forced win here")
                    if best is None or need > best[0]:
                        best = (need, move, child)
                assert best is not None
                _, move, child = best
            moves.append(move)
            state, plies = child, plies - 1
        return moves


@dataclass(frozen=True)
class Puzzle:
    """One puzzle: where it starts, what solves it and where it came from."""

    game: str
    size: int
    stones: Mapping[str, str]
    to_move: str
    solution: tuple[str, ...]  # the line: our move, the reply that holds out longest, ...
    horizon: int  # no other first move wins within this many plies
    moves: int  # legal moves in the position (more moves, harder to see)
    source: Mapping[str, Any]  # {"players": [...], "move": 23, ...}
    options: Mapping[str, Any] = field(default_factory=dict)

    @property
    def first_move(self) -> str:
        return self.solution[0]

    @property
    def rating(self) -> float:
        """A starting difficulty: longer solutions and wider positions are harder."""
        return round(
            BASE_RATING
            - 350
            + 220 * (len(self.solution) - 1)
            + 110 * math.log2(max(2, self.moves)),
            1,
        )

    def to_dict(self) -> dict[str, Any]:
        return {
            "game": self.game,
            "size": self.size,
            "stones": dict(sorted(self.stones.items())),
            "to_move": self.to_move,
            "solution": list(self.solution),
            "horizon": self.horizon,
            "moves": self.moves,
            "rating": self.rating,
            "source": dict(self.source),
            "options": dict(self.options),
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Puzzle:
        return cls(
            game=str(data["game"]),
            size=int(data["size"]),
            stones={str(k): str(v) for k, v in dict(data["stones"]).items()},
            to_move=str(data["to_move"]),
            solution=tuple(str(m) for m in data["solution"]),
            horizon=int(data["horizon"]),
            moves=int(data["moves"]),
            source=dict(data.get("source") or {}),
            options=dict(data.get("options") or {}),
        )

    def position(self) -> BoardState:
        """The puzzle's position, built afresh from its stones."""
        from engine.registry import get_board_game

        return get_board_game(self.game).position(
            self.size, dict(self.stones), self.to_move, **dict(self.options)
        )


def as_position(state: BoardState) -> BoardState:
    """``state`` rebuilt from its stones alone (what a stored puzzle starts from)."""
    assert state.to_move is not None
    return state.game.position(state.size, state.stones, state.to_move, **dict(state.options))


def find_puzzle(
    state: BoardState,
    before: BoardState | None,
    *,
    horizon: int = DEFAULT_HORIZON,
    source: Mapping[str, Any] | None = None,
    deadline: float = math.inf,
    budget: int | None = None,
) -> Puzzle | None:
    """The puzzle in ``state`` (reached from ``before`` by the opponent's move), or None.

    ``state`` is a puzzle when its side to move has at least ``MIN_MOVES`` moves, exactly
    one of which wins within ``horizon`` plies, and the opponent in ``before`` had a move after which it does not
    win within the horizon (the move played was a mistake). Raises :class:`OutOfTime`
    past ``deadline`` or after ``budget`` positions played by one of its readings.
    """
    if state.to_move is None or state.outcome is not None:
        return None
    position = as_position(state)
    if position.outcome is not None or position.to_move != state.to_move:
        return None
    if len(position.legal_moves()) < MIN_MOVES:
        return None
    reader = Reader(deadline=deadline, budget=budget)
    mover = state.to_move
    wins = reader.winning_moves(position, horizon, enough=2)
    if len(wins) != 1:
        return None
    if before is not None and before.to_move is not None and before.to_move != mover:
        # the mistake: some other move of the opponent kept the win away
        guard = Reader(deadline=deadline, budget=budget)
        if all(guard.wins_within(child, mover, horizon) for _, child in guard._children(before)):
            return None
    ((move, plies),) = wins.items()
    solution = [move, *reader.line(position.play(move), mover, plies - 1)]
    return Puzzle(
        game=state.game.name,
        size=state.size,
        stones=position.stones,
        to_move=mover,
        solution=tuple(solution),
        horizon=horizon,
        moves=len(position.legal_moves()),
        source=dict(source or {}),
        options=dict(state.options),
    )


@dataclass(frozen=True)
class Check:
    """What :func:`verify` found."""

    solution_wins: bool
    others_winning: tuple[str, ...]
    line_legal: bool

    @property
    def ok(self) -> bool:
        return self.solution_wins and not self.others_winning and self.line_legal


def verify(puzzle: Puzzle) -> Check:
    """Re-read a puzzle from scratch: its first move wins within the horizon, no other
    move does, and its stored line is legal and ends in the solver's win."""
    state = puzzle.position()
    reader = Reader()
    wins = reader.winning_moves(state, puzzle.horizon)
    line_legal = True
    walked = state
    try:
        for move in puzzle.solution:
            walked = walked.play(move)
    except ValueError:
        line_legal = False
    else:
        line_legal = walked.outcome is not None and walked.outcome.winner == puzzle.to_move
    return Check(
        solution_wins=puzzle.first_move in wins,
        others_winning=tuple(sorted(m for m in wins if m != puzzle.first_move)),
        line_legal=line_legal,
    )


def answer_is_right(puzzle: Puzzle, move: str) -> bool:
    """True when ``move`` (any spelling the engine accepts) is the puzzle's solution."""
    state = puzzle.position()
    try:
        played = state.play(move)
    except ValueError:
        return False
    solved = state.play(puzzle.first_move)
    return played.cells == solved.cells and played.mover == solved.mover


def mine_game(
    positions: Sequence[BoardState],
    *,
    horizon: int = DEFAULT_HORIZON,
    source: Mapping[str, Any] | None = None,
    last_plies: int | None = None,
    deadline_per_position: float = 30.0,
    budget_per_position: int | None = None,
) -> list[Puzzle]:
    """Every puzzle among ``positions`` (a game's positions in order, the first the start),
    looking only at the last ``last_plies`` of them when given. A position whose reading
    outlasts ``deadline_per_position`` seconds or ``budget_per_position`` positions played
    is skipped."""
    found: list[Puzzle] = []
    first = 1 if last_plies is None else max(1, len(positions) - last_plies)
    for index in range(first, len(positions)):
        where = dict(source or {})
        where["move"] = index + 1  # the puzzle's move is the game's move number index + 1
        try:
            puzzle = find_puzzle(
                positions[index],
                positions[index - 1],
                horizon=horizon,
                source=where,
                deadline=time.perf_counter() + deadline_per_position,
                budget=budget_per_position,
            )
        except OutOfTime:
            continue
        if puzzle is not None:
            found.append(puzzle)
    return found
