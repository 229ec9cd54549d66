"""Lublache speed: ``legal_moves()`` on crowded 9-boards and whole random 7-board games.

Targets (issue 3): median ``legal_moves()`` on a crowded n=9 position at most 50 ms, and a
whole random n=7 game at most 2 s. Crowded positions come from seeded random games (the
latest position with at least 70 % of the cells filled); each is rebuilt with
``position()`` before timing so that no cached analysis is reused.
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


def crowded_position(seed: int, fill: float = 0.7) -> BoardState:
    """A position from late in a seeded random n=9 game (timings rebuild it afresh)."""
    states = random_game(9, seed)
    cell_count = states[0].grid.cell_count
    chosen = states[0]
    for state in states:
        if state.outcome is None and len(state.stones) >= fill * cell_count:
            chosen = state
    return chosen


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


def time_games(size: int, seeds: range) -> tuple[list[float], list[int]]:
    seconds, plies = [], []
    for seed in seeds:
        started = time.perf_counter()
        states = random_game(size, seed)
        seconds.append(time.perf_counter() - started)
        plies.append(len(states) - 1)
    return seconds, plies


def main() -> None:
    positions = [crowded_position(seed) for seed in range(10)]
    filled = [len(p.stones) / p.grid.cell_count for p in positions]
    timings = time_legal_moves(positions) + time_legal_moves(positions)
    print(
        f"legal_moves() on {len(positions)} crowded n=9 positions "
        f"({min(filled):.0%}-{max(filled):.0%} filled), each timed twice: "
        f"median {statistics.median(timings) * 1000:.1f} ms, "
        f"max {max(timings) * 1000:.1f} ms (target: median <= 50 ms)"
    )
    for size, count in ((7, 10), (9, 3)):
        seconds, plies = time_games(size, range(100, 100 + count))
        print(
            f"whole random n={size} game, {count} games: median "
            f"{statistics.median(seconds):.2f} s, max {max(seconds):.2f} s, "
            f"plies {min(plies)}-{max(plies)}" + (" (target: <= 2 s)" if size == 7 else "")
        )


if __name__ == "__main__":
    main()
