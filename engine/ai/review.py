"""A finished game's review: who was ahead, the biggest mistakes and the better moves.

Two passes over a game's positions, both over the engine's public surface and the game's
own evaluator (``spec.ai.evaluator``, the win chance the searches steer by):

1. **The scan.** In every position before a move, every legal move is played once and
   valued (a finished game is 1 or 0, a draw ½, otherwise the evaluator's chance for the
   mover). The best of them is the position's value for the side to move; the move
   played has its own value among them; the difference is what the move cost (its
   *loss*). The first colour's chance after every move is the evaluation graph.
2. **The check.** Each player's worst moves by the scan (a few more than are shown) are
   read again with alpha-beta (:class:`engine.ai.alphabeta.AlphaBetaSearcher`, two
   plies below the move: the opponent's best reply and our answer), the better move and
   the move played alike. A mistake is kept only when the reading confirms the better
   move is better, by its reading's margin; the three largest of each player are shown.

A mistake gets a *reason* where the engine can name one (codes, worded by the front end):
``win_missed`` (a move won at once), ``loss_allowed`` (the move played let the opponent
win at once), ``capture_missed`` (Lefe: the better move captures a tree),
``tree_left_capturable`` (Lefe: the move played lets the opponent capture a tree the
better move kept safe), ``flip_missed`` (Dalen: the better move turns enemy stones),
``loop_not_closed`` (Lublache: the better move closes a loop of one's own) and
``hole_given_away`` (Les: after the move played the opponent owns more holes, or we own
fewer, than after the better move).

Pure: no I/O, no clock but the optional ``deadline``; the match core runs
:func:`review_game` in its AI worker processes.
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from engine.ai.alphabeta import AlphaBetaSearcher
from engine.ai.heuristics import evaluator_for
from engine.ai.mcts import terminal_value
from engine.ai.settings import AlphaBetaSettings
from engine.ai.tactics import loses_at_once, winning_move
from engine.board import BoardState
from engine.spec import Evaluator

SHOWN = 3  # mistakes shown per player
CANDIDATES = 8  # worst moves per player read again
MIN_LOSS = 0.04  # a move costing less than this (in win chance) is no mistake
TURN_SWING = 0.2
TURNS = 6  # turning points marked at most (the biggest swings)
WIDE = 120  # a position with more two-placement moves than this is scanned by its firsts
WIDE_FIRSTS = 2  # a move that moves the graph this much, or changes the leader, is a turn
CHECK_SETTINGS = AlphaBetaSettings(max_depth=2, max_nodes=1_500, time_limit=2.0, root_width=12)

Progress = Callable[[int, int], None]


@dataclass(frozen=True)
class PlyReview:
    """One move of the game as the scan saw it (values are chances of winning, 0 to 1)."""

    ply: int  # the move's index in the game's record (0 = the first move)
    mover: str
    played: str
    best: str  # the scan's best move (the checked better move for a mistake)
    best_value: float  # the mover's chance after ``best``
    played_value: float  # the mover's chance after the move played
    first_chance: float  # the first colour's chance after the move played (the graph)
    reason: str | None = None

    @property
    def loss(self) -> float:
        return max(0.0, self.best_value - self.played_value)


@dataclass(frozen=True)
class Review:
    """The whole review: the graph's points, the turning points and the mistakes."""

    game: str
    colours: tuple[str, str]
    plies: tuple[PlyReview, ...]
    mistakes: dict[str, tuple[PlyReview, ...]] = field(default_factory=dict)
    turning_points: tuple[int, ...] = ()

    @property
    def graph(self) -> list[float]:
        """The first colour's chance of winning after each move."""
        return [p.first_chance for p in self.plies]

    def to_dict(self) -> dict[str, object]:
        return {
            "game": self.game,
            "colours": list(self.colours),
            "plies": [ply_dict(p) for p in self.plies],
            "mistakes": {c: [m.ply for m in ms] for c, ms in self.mistakes.items()},
            "checked": {c: [ply_dict(m) for m in ms] for c, ms in self.mistakes.items()},
            "turning_points": list(self.turning_points),
        }

    @classmethod
    def from_dict(cls, data: dict[str, object]) -> Review:
        plies = tuple(ply_from(p) for p in _list(data["plies"]))
        checked = data.get("checked") or {}
        assert isinstance(checked, dict)
        mistakes = {str(c): tuple(ply_from(m) for m in _list(ms)) for c, ms in checked.items()}
        colours = _list(data["colours"])
        return cls(
            game=str(data["game"]),
            colours=(str(colours[0]), str(colours[1])),
            plies=plies,
            mistakes=mistakes,
            turning_points=tuple(int(str(t)) for t in _list(data["turning_points"])),
        )


def _list(value: object) -> list[object]:
    assert isinstance(value, list)
    return value


def ply_dict(p: PlyReview) -> dict[str, object]:
    return {
        "ply": p.ply,
        "mover": p.mover,
        "played": p.played,
        "best": p.best,
        "best_value": round(p.best_value, 4),
        "played_value": round(p.played_value, 4),
        "first_chance": round(p.first_chance, 4),
        "reason": p.reason,
    }


def ply_from(data: object) -> PlyReview:
    assert isinstance(data, dict)
    reason = data.get("reason")
    return PlyReview(
        ply=int(data["ply"]),
        mover=str(data["mover"]),
        played=str(data["played"]),
        best=str(data["best"]),
        best_value=float(data["best_value"]),
        played_value=float(data["played_value"]),
        first_chance=float(data["first_chance"]),
        reason=None if reason is None else str(reason),
    )


def _value(state: BoardState, colour: str, evaluator: Evaluator | None) -> float:
    """The chance ``colour`` wins from ``state`` as the evaluator sees it (exact when over)."""
    if state.outcome is not None:
        return terminal_value(state, colour)
    if evaluator is None:
        return 0.5
    return float(evaluator(state, colour))


def _candidates(state: BoardState, mover: str, evaluator: Evaluator | None) -> list[str]:
    """The moves the scan values in ``state``: all of them, except where a move is two
    placements (Les ``e5+b2``) and there are more than ``WIDE`` moves. There each first
    placement is valued once (with its first second placement), and the ``WIDE_FIRSTS``
    best first placements with every second placement: a Les position offers hundreds of
    moves, most of them one first placement with each isolated point."""
    moves = state.legal_moves()
    if len(moves) <= WIDE or not any("+" in m for m in moves):
        return moves
    groups: dict[str, list[str]] = {}
    for move in moves:
        groups.setdefault(move.split("+")[0], []).append(move)
    firsts = sorted(
        groups,
        key=lambda f: -_value(state.play(groups[f][0]), mover, evaluator),
    )
    chosen = [groups[f][0] for f in firsts]
    for first in firsts[:WIDE_FIRSTS]:
        chosen.extend(groups[first][1:])
    return chosen


def scan(
    positions: Sequence[BoardState],
    *,
    progress: Progress | None = None,
    deadline: float = math.inf,
    start: int = 0,
    stop: int | None = None,
) -> list[PlyReview]:
    """The first pass: every move of every position valued once (see the module); only
    the moves ``start`` to ``stop`` (excluded) when given, so that a long game can be
    scanned in parts and its progress shown."""
    if not positions:
        return []
    game = positions[0].game
    evaluator = evaluator_for(positions[0])
    first = game.colors[0]
    plies: list[PlyReview] = []
    total = len(positions) - 1
    for index in range(start, total if stop is None else min(stop, total)):
        before, after = positions[index], positions[index + 1]
        mover = before.to_move
        played = after.moves[-1] if after.moves else ""
        if mover is None:
            break
        played_value = _value(after, mover, evaluator)
        best, best_value = played, played_value
        if time.perf_counter() < deadline and before.colours_assigned:
            for move in _candidates(before, mover, evaluator):
                value = _value(before.play(move), mover, evaluator)
                if value > best_value + 1e-9:
                    best, best_value = move, value
        chance = played_value if mover == first else 1.0 - played_value
        plies.append(PlyReview(index, mover, played, best, best_value, played_value, chance))
        if progress is not None:
            progress(index + 1, total)
    return plies


def _checked_value(state: BoardState, move: str, mover: str) -> float:
    """The mover's chance after ``move`` by a short alpha-beta reading of the reply."""
    child = state.play(move)
    if child.outcome is not None or child.to_move is None:
        return terminal_value(child, mover) if child.outcome is not None else 0.5
    result = AlphaBetaSearcher(CHECK_SETTINGS).search(child, random.Random(0))
    return result.value if child.to_move == mover else 1.0 - result.value


def reason_for(state: BoardState, better: str, played: str) -> str | None:
    """Why ``better`` beats ``played`` in ``state``, where the engine can name it."""
    mover = state.to_move
    assert mover is not None
    after_better, after_played = state.play(better), state.play(played)
    if winning_move(state, [better]) == better:
        return "win_missed"
    if loses_at_once(after_played, mover) and not loses_at_once(after_better, mover):
        return "loss_allowed"
    name = state.game.name
    if name == "lefe":
        if "x" in better and "x" not in played:
            return "capture_missed"
        if _captures(after_played) and not _captures(after_better):
            return "tree_left_capturable"
    elif name == "dalen":
        flipped = _stones(after_better, mover) - _stones(state, mover) - 1
        if flipped > 0 and _stones(after_played, mover) < _stones(after_better, mover):
            return "flip_missed"
    elif name == "lublache":
        if _score(after_better, mover) > _score(after_played, mover):
            return "loop_not_closed"
    elif name == "les":
        opponent = _other(state, mover)
        worse_for_us = _score(after_played, mover) < _score(after_better, mover)
        better_for_them = _score(after_played, opponent) > _score(after_better, opponent)
        if worse_for_us or better_for_them:
            return "hole_given_away"
    return None


def _other(state: BoardState, colour: str) -> str:
    first, second = state.game.colors
    return second if colour == first else first


def _captures(state: BoardState) -> bool:
    return state.outcome is None and any("x" in m for m in state.legal_moves())


def _stones(state: BoardState, colour: str) -> int:
    return sum(1 for owner in state.stones.values() if owner == colour)


def _score(state: BoardState, colour: str) -> int:
    return int(state.score.get(colour, 0))


def _turning_points(plies: Sequence[PlyReview]) -> tuple[int, ...]:
    """The moves that turned the game: the leader changed by a clear swing, or the graph
    moved by ``TURN_SWING`` at once; the ``TURNS`` biggest, in the game's order."""
    swings: list[tuple[float, int]] = []
    previous = 0.5
    for p in plies:
        swing = abs(p.first_chance - previous)
        crossed = (previous - 0.5) * (p.first_chance - 0.5) < 0 and swing >= TURN_SWING / 2
        if crossed or swing >= TURN_SWING:
            swings.append((swing, p.ply))
        previous = p.first_chance
    biggest = sorted(swings, key=lambda s: (-s[0], s[1]))[:TURNS]
    return tuple(sorted(ply for _, ply in biggest))


def review_game(
    positions: Sequence[BoardState],
    *,
    progress: Progress | None = None,
    deadline: float = math.inf,
) -> Review:
    """Review a game from its positions in order (the first the start, the last the end)."""
    plies = scan(positions, progress=progress, deadline=deadline)
    return conclude(positions, plies, deadline=deadline)


def conclude(
    positions: Sequence[BoardState], plies: Sequence[PlyReview], *, deadline: float = math.inf
) -> Review:
    """The second pass over a scanned game: the mistakes checked, the turning points."""
    game = positions[0].game
    mistakes: dict[str, tuple[PlyReview, ...]] = {}
    for colour in game.colors:
        own = sorted(
            (p for p in plies if p.mover == colour and p.loss >= MIN_LOSS and p.best != p.played),
            key=lambda p: (-p.loss, p.ply),
        )[:CANDIDATES]
        confirmed: list[PlyReview] = []
        better_moves: set[str] = set()
        for p in own:
            if p.best in better_moves:
                continue  # the same chance missed again a move later: shown once
            before = positions[p.ply]
            if time.perf_counter() < deadline:
                best_value = _checked_value(before, p.best, colour)
                played_value = _checked_value(before, p.played, colour)
                if best_value - played_value < MIN_LOSS / 2:
                    continue
            else:
                best_value, played_value = p.best_value, p.played_value
            better_moves.add(p.best)
            confirmed.append(
                PlyReview(
                    p.ply,
                    colour,
                    p.played,
                    p.best,
                    best_value,
                    played_value,
                    p.first_chance,
                    reason_for(before, p.best, p.played),
                )
            )
        confirmed.sort(key=lambda p: (-p.loss, p.ply))
        mistakes[colour] = tuple(sorted(confirmed[:SHOWN], key=lambda p: p.ply))
    return Review(
        game=game.name,
        colours=(game.colors[0], game.colors[1]),
        plies=tuple(plies),
        mistakes=mistakes,
        turning_points=_turning_points(plies),
    )


def review_moves(
    state: BoardState, *, progress: Progress | None = None, deadline: float = math.inf
) -> Review:
    """Review the game that led to ``state`` (its record from its start)."""
    return review_game(list(state.history()), progress=progress, deadline=deadline)
