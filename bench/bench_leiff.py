"""Leiff engine figures: random games per second, median play(), view() and to_json() times.

Games are played by ``random_action`` over a fixed mix of option sets, so the figures are
comparable between runs on the same machine.
"""

from __future__ import annotations

import random
import statistics
import time

from engine.leiff import Leiff, random_action

OPTION_SETS: list[tuple[int, dict[str, object]]] = [
    (2, {}),
    (4, {"specials": True, "drinking": True}),
    (6, {"specials": True, "drinking": True, "water": True, "teams": True}),
    (3, {"target": 100, "specials": True}),
]
GAMES_PER_SET = 12


def main() -> None:
    game = Leiff()
    play_times: list[float] = []
    view_times: list[float] = []
    json_times: list[float] = []
    actions = 0
    games = 0
    started = time.perf_counter()
    for players, options in OPTION_SETS:
        for seed in range(GAMES_PER_SET):
            rng = random.Random(seed)
            state = game.new(players=players, seed=seed, options=options)
            while state.outcome is None:
                seat, action = random_action(state, rng)
                t0 = time.perf_counter()
                state = state.play(seat, action)
                play_times.append(time.perf_counter() - t0)
                actions += 1
                if actions % 10 == 0:
                    t0 = time.perf_counter()
                    state.view(seat)
                    view_times.append(time.perf_counter() - t0)
                    t0 = time.perf_counter()
                    state.to_json()
                    json_times.append(time.perf_counter() - t0)
            games += 1
    elapsed = time.perf_counter() - started
    print(f"random games: {games} in {elapsed:.2f} s = {games / elapsed:.1f} games/s")
    print(f"actions: {actions} ({actions / games:.0f} per game), {actions / elapsed:.0f} actions/s")
    print(f"median play(): {statistics.median(play_times) * 1e6:.0f} µs")
    print(f"median view(): {statistics.median(view_times) * 1e6:.0f} µs")
    print(f"median to_json(): {statistics.median(json_times) * 1e6:.0f} µs")


if __name__ == "__main__":
    main()
