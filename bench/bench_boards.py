"""Speed of the Lefe, Dalen and Les engines: legal_moves(), play() and whole random games.

For each game at its default and largest board size, plays a batch of seeded random games
through the public surface only (``legal_moves()`` then ``play()`` of a random choice, as
outside checks do) and prints the median time of a ``legal_moves()`` call on a fresh state,
of a ``play()`` call, and of a whole game (wall clock, and the process's CPU time, which
other programs sharing the machine disturb less), with games per second.
"""

from __future__ import annotations

import random
import statistics
import time

from engine import get_board_game

GAMES = ("lefe", "dalen", "les")
GAMES_PER_SIZE = 30


def _one_game(
    game_name: str, size: int, seed: int
) -> tuple[list[float], list[float], float, float]:
    """Play one random game: legal_moves() times, play() times, wall and CPU time in all."""
    game = get_board_game(game_name)
    rng = random.Random(seed)
    legal_times: list[float] = []
    play_times: list[float] = []
    started = time.perf_counter()
    cpu_started = time.process_time()
    state = game.new(size)
    while state.outcome is None:
        # the first call on a state does the work; later calls are served from its cache
        t0 = time.perf_counter()
        moves = state.legal_moves()
        t1 = time.perf_counter()
        state = state.play(rng.choice(moves))
        t2 = time.perf_counter()
        legal_times.append(t1 - t0)
        play_times.append(t2 - t1)
    total = time.perf_counter() - started
    return legal_times, play_times, total, time.process_time() - cpu_started


def measure(game_name: str, size: int, games: int = GAMES_PER_SIZE) -> dict[str, float]:
    legal: list[float] = []
    play: list[float] = []
    totals: list[float] = []
    cpu_totals: list[float] = []
    for seed in range(games):
        legal_times, play_times, total, cpu_total = _one_game(game_name, size, seed)
        legal.extend(legal_times)
        play.extend(play_times)
        totals.append(total)
        cpu_totals.append(cpu_total)
    return {
        "legal_ms": statistics.median(legal) * 1000,
        "play_ms": statistics.median(play) * 1000,
        "game_ms": statistics.median(totals) * 1000,
        "game_cpu_ms": statistics.median(cpu_totals) * 1000,
        "games_per_s": games / sum(totals),
    }


def main() -> None:
    print(
        f"{'game':<6} {'n':>2}  {'legal_moves ms':>14}  {'play ms':>8}  "
        f"{'game ms':>8}  {'game cpu ms':>11}  {'games/s':>8}"
    )
    for game_name in GAMES:
        game = get_board_game(game_name)
        for size in sorted({game.default_size, max(game.sizes)}):
            figures = measure(game_name, size)
            print(
                f"{game_name:<6} {size:>2}  {figures['legal_ms']:>14.3f}  "
                f"{figures['play_ms']:>8.3f}  {figures['game_ms']:>8.1f}  "
                f"{figures['game_cpu_ms']:>11.1f}  {figures['games_per_s']:>8.1f}",
                flush=True,
            )


if __name__ == "__main__":
    main()
