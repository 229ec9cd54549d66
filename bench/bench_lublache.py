"""Lublache speed: the AI's step on the 7-board, ``legal_moves()`` on crowded 9-boards and
whole random 7-board games.

The AI step is what a search does at every node: ``play(move)`` of a move that came from
``legal_moves()`` on a mid-game position, then ``legal_moves()`` of the resulting one.

Targets (issue 3): median ``legal_moves()`` on a crowded n=9 position at most 50 ms, and a
whole random n=7 game at most 2 s. Positions come from seeded random games and are rebuilt
with ``position()`` before timing, so that no cached analysis is reused. Two samples of
"crowded": the latest position of each game with at least 70 % of the cells filled, and
every position of a few games with at least 60 % filled (which includes the slow tail:
boards with large enclosed empty areas, where the loop construction runs longest).
"""

from __future__ import annotations

import random
import statistics
import time

from engine import get_game
from engine.board import BoardState


def random_game(size: int, seed: int) -> list[BoardState]:
    """Every position of one seeded random game, from the empty board to the end."""
    rng = random.Random(seed)
    state = get_game("lublache").new(size)
    states = [state]
    while state.outcome is None:
        state = state.play(rng.choice(state.legal_moves()))
        states.append(state)
    return states


def filled(state: BoardState) -> float:
    return len(state.stones) / state.grid.cell_count


def time_legal_moves(positions: list[BoardState]) -> list[float]:
    """Seconds to answer ``legal_moves()`` from nothing: ``position()`` itself already
    works the moves out (to see whether the game is over), so it is inside the timing."""
    game = get_game("lublache")
    timings = []
    for position in positions:
        started = time.perf_counter()
        game.position(position.size, position.stones, position.to_move).legal_moves()
        timings.append(time.perf_counter() - started)
    return timings


def describe(timings: list[float]) -> str:
    ordered = sorted(timings)
    p90 = ordered[int(0.9 * (len(ordered) - 1))]
    return (
        f"median {statistics.median(ordered) * 1000:.1f} ms, p90 {p90 * 1000:.1f} ms, "
        f"max {ordered[-1] * 1000:.1f} ms"
    )


def time_games(size: int, seeds: range) -> tuple[list[float], list[int]]:
    seconds, plies = [], []
    for seed in seeds:
        started = time.perf_counter()
        states = random_game(size, seed)
        seconds.append(time.perf_counter() - started)
        plies.append(len(states) - 1)
    return seconds, plies


def time_ai_steps(seeds: range, moves_per_position: int = 3) -> tuple[list[float], list[float]]:
    """Seconds for ``play(move)`` and for the successor's ``legal_moves()``, on the middle
    half of seeded random n=7 games: each position is rebuilt and its move list worked
    out first (as a search has it), then a few of its moves are timed."""
    game = get_game("lublache")
    plays, lists = [], []
    for seed in seeds:
        states = random_game(7, seed)
        rng = random.Random(seed)
        middle = states[len(states) // 4 : 3 * len(states) // 4 : 3]
        for state in middle:
            if state.outcome is not None:
                continue
            position = game.position(state.size, state.stones, state.to_move)
            moves = position.legal_moves()
            for move in rng.sample(moves, min(moves_per_position, len(moves))):
                started = time.perf_counter()
                successor = position.play(move)
                played = time.perf_counter()
                successor.legal_moves()
                plays.append(played - started)
                lists.append(time.perf_counter() - played)
    return plays, lists


def main() -> None:
    plays, lists = time_ai_steps(range(4))
    steps = [a + b for a, b in zip(plays, lists, strict=True)]
    print(
        f"AI step: play + legal_moves, mid-game n=7 ({len(steps)} steps of 4 seeded games): "
        f"median {statistics.median(steps) * 1000:.2f} ms (play {statistics.median(plays) * 1000:.2f} ms, "
        f"legal_moves {statistics.median(lists) * 1000:.2f} ms), mean {statistics.mean(steps) * 1000:.2f} ms"
    )
    games = [random_game(9, seed) for seed in range(8)]
    playing = [[s for s in states if s.outcome is None] for states in games]
    latest = [[s for s in states if filled(s) >= 0.7][-1] for states in playing]
    print(
        f"legal_moves(), latest n=9 position >= 70 % filled of {len(latest)} games, "
        f"each timed twice: {describe(time_legal_moves(latest) + time_legal_moves(latest))} "
        "(target: median <= 50 ms)"
    )
    every = [s for states in playing[:3] for s in states if filled(s) >= 0.6]
    print(
        f"legal_moves(), all {len(every)} n=9 positions >= 60 % filled of 3 games: "
        f"{describe(time_legal_moves(every))}"
    )
    for size, count in ((7, 10), (9, 3)):
        seconds, plies = time_games(size, range(100, 100 + count))
        target = " (target: <= 2 s)" if size == 7 else ""
        print(
            f"whole random n={size} game, {count} games: median "
            f"{statistics.median(seconds):.2f} s, max {max(seconds):.2f} s, "
            f"plies {min(plies)}-{max(plies)}{target}"
        )


if __name__ == "__main__":
    main()
