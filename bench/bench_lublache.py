"""Lublache speed: the AI's step on the 7-board, cold ``legal_moves()`` by board size and fill,
and whole random games.

The AI step is what a search does at every node: ``play(move)`` of a move that came from
``legal_moves()`` on a mid-game position, then ``legal_moves()`` of the resulting one.

Targets: a whole random n=7 game at most 2 s (issue 3), and a *cold* ``legal_moves()`` at
most 50 ms median at n=9 on the positions at 50 %, 75 % and 90 % of random games (issue
21), with the p90 at 75 % under 50 ms too (issue 31). Cold means a position the process has not seen, as after a restart or in a fresh AI
worker: each position is rebuilt with ``position()`` from its stones and the answers the
loop finder shares between positions are forgotten first, so nothing computed for another
position helps. The same figures at n=5 and n=7 show the growth with size and fill.
"""

from __future__ import annotations

import random
import statistics
import sys
import time
from collections.abc import Sequence

from engine import get_board_game, loops
from engine.board import BoardState

COLD_GAMES = {5: 10, 7: 10, 9: 16}  # seeded random games per board size
FRACTIONS = (0.5, 0.75, 0.9)  # where in each game (by ply, among positions still playing)


def random_game(size: int, seed: int) -> list[BoardState]:
    """Every position of one seeded random game, from the empty board to the end."""
    rng = random.Random(seed)
    state = get_board_game("lublache").new(size)
    states = [state]
    while state.outcome is None:
        state = state.play(rng.choice(state.legal_moves()))
        states.append(state)
    return states


def filled(state: BoardState) -> float:
    return len(state.stones) / state.grid.cell_count


def time_legal_moves(positions: list[BoardState], cpu: list[float] | None = None) -> list[float]:
    """Seconds to answer ``legal_moves()`` from nothing: ``position()`` itself already
    works the moves out (to see whether the game is over), so it is inside the timing.
    The process's CPU seconds for each are added to ``cpu`` if given."""
    game = get_board_game("lublache")
    timings = []
    for position in positions:
        loops._shared_answers.clear()  # cold: nothing remembered from other positions
        started, started_cpu = time.perf_counter(), time.process_time()
        game.position(position.size, position.stones, position.to_move).legal_moves()
        timings.append(time.perf_counter() - started)
        if cpu is not None:
            cpu.append(time.process_time() - started_cpu)
    return timings


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
    game = get_board_game("lublache")
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


def main(parts: Sequence[str] = ()) -> None:
    """Every part (``ai``, ``cold``, ``games``), or those named: ``python -m
    bench.bench_lublache cold`` times the cold move lists alone."""
    if not parts or "ai" in parts:
        _ai_steps()
    if not parts or "cold" in parts:
        _cold()
    if not parts or "games" in parts:
        _games()


def _ai_steps() -> None:
    plays, lists = time_ai_steps(range(4))
    steps = [a + b for a, b in zip(plays, lists, strict=True)]
    print(
        f"AI step: play + legal_moves, mid-game n=7 ({len(steps)} steps of 4 seeded games): "
        f"median {statistics.median(steps) * 1000:.2f} ms (play {statistics.median(plays) * 1000:.2f} ms, "
        f"legal_moves {statistics.median(lists) * 1000:.2f} ms), mean {statistics.mean(steps) * 1000:.2f} ms"
    )


def _cold() -> None:
    print(
        "\ncold legal_moves() at 50 / 75 / 90 % of seeded random games, each position timed"
        " 3 times (targets at n=9: median <= 50 ms; at 75 %, p90 < 50 ms); then the CPU"
        " time's median and p90"
    )
    print(
        f"{'n':>3}{'games':>7}{'at':>6}{'filled':>8}{'median ms':>11}{'p90 ms':>9}"
        f"{'max ms':>9}{'cpu median':>12}{'cpu p90':>9}"
    )
    for size, count in COLD_GAMES.items():
        games = [[s for s in random_game(size, seed) if s.outcome is None] for seed in range(count)]
        for fraction in FRACTIONS:
            positions = [states[int(fraction * (len(states) - 1))] for states in games]
            cpu: list[float] = []
            timings = sorted(t for _ in range(3) for t in time_legal_moves(positions, cpu))
            cpu.sort()
            fill = statistics.median(filled(s) for s in positions) * 100
            print(
                f"{size:>3}{count:>7}{fraction * 100:>5.0f}%{fill:>7.0f}%"
                f"{statistics.median(timings) * 1000:>11.1f}{_p90(timings) * 1000:>9.1f}"
                f"{timings[-1] * 1000:>9.1f}{statistics.median(cpu) * 1000:>12.1f}"
                f"{_p90(cpu) * 1000:>9.1f}"
            )


def _p90(ordered: list[float]) -> float:
    return ordered[int(0.9 * (len(ordered) - 1))]


def _games() -> None:
    for size, count in ((7, 10), (9, 3)):
        seconds, plies = time_games(size, range(100, 100 + count))
        target = " (target: <= 2 s)" if size == 7 else ""
        print(
            f"whole random n={size} game, {count} games: median "
            f"{statistics.median(seconds):.2f} s, max {max(seconds):.2f} s, "
            f"plies {min(plies)}-{max(plies)}{target}"
        )


if __name__ == "__main__":
    main(sys.argv[1:])
