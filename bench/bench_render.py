"""Speed and size of the pictures: board PNGs, Leiff table and hand, replay GIFs, offloading.

For each board game at its largest size, a position half-way through a seeded random game is
drawn many times at 480 px (the static background is cached after the first call, as in the
bot) and the median render time, the median PNG encoding time and the PNG size are printed.
Then a 60-move replay GIF per game (400 px), the Leiff table and hand, and the worst
event-loop lag while a burst of renders runs through ``render_async``. Also prints CPU time
(the process's own), which other programs sharing the machine disturb less than wall time.
"""

from __future__ import annotations

import asyncio
import itertools
import random
import statistics
import time
from collections.abc import Callable
from typing import Any

from engine import BOARD_GAMES, get_game
from render import png_bytes, render_async, render_board, render_hand, render_table, replay_gif
from render.offload import shutdown_renderer

RUNS = 60
REPLAY_RUNS = 7
NAMES = ("Anna Lindqvist", "Борис 🐉")


def _timed(func: Callable[[], Any], runs: int) -> tuple[float, float, Any]:
    """Median wall and CPU milliseconds of ``runs`` calls, and the last result."""
    walls, cpus = [], []
    result = None
    for _ in range(runs):
        w0, c0 = time.perf_counter(), time.process_time()
        result = func()
        walls.append(time.perf_counter() - w0)
        cpus.append(time.process_time() - c0)
    return statistics.median(walls) * 1000, statistics.median(cpus) * 1000, result


def _random_game(game_name: str, size: int, moves: int, seed: int = 1):
    rng = random.Random(seed)
    state = get_game(game_name).new(size=size)
    for _ in range(moves):
        if state.is_over:
            break
        state = state.play(rng.choice(state.legal_moves()))
    return state


def _boards() -> None:
    print(f"board PNG, largest size, 480 px, classic theme (median of {RUNS})")
    print(
        f"{'game':<10}{'size':>5}{'stones':>8}{'first ms':>10}{'render ms':>11}{'cpu ms':>8}"
        f"{'png ms':>8}{'png KB':>8}"
    )
    for name in BOARD_GAMES:
        game = get_game(name)
        size = max(game.sizes)
        cells = 3 * size * (size - 1) + 1
        state = _random_game(name, size, moves=cells // 3)
        if name == "lublache":
            state.loops()  # the engine caches its loop search; time the drawing, not the rules
        first, _, _ = _timed(lambda s=state: render_board(s, names=NAMES), 1)
        wall, cpu, image = _timed(lambda s=state: render_board(s, names=NAMES), RUNS)
        png_ms, _, data = _timed(lambda i=image: png_bytes(i), RUNS // 3)
        stones = len(state.stones)
        print(
            f"{name:<10}{size:>5}{stones:>8}{first:>10.1f}{wall:>11.2f}{cpu:>8.2f}"
            f"{png_ms:>8.1f}{len(data) / 1024:>8.1f}"
        )


def _replays() -> None:
    print(f"\nreplay GIF of 60 moves (61 frames), 400 px (median of {REPLAY_RUNS})")
    print(f"{'game':<10}{'size':>5}{'wall ms':>9}{'cpu ms':>8}{'KB':>8}")
    for name in BOARD_GAMES:
        size = max(get_game(name).sizes)
        state = _random_game(name, size, moves=60)
        positions = list(state.history())
        wall, cpu, data = _timed(lambda p=positions: replay_gif(p, names=NAMES), REPLAY_RUNS)
        print(
            f"{name:<10}{size:>5}{wall:>9.1f}{cpu:>8.1f}{len(data) / 1024:>8.1f}"
            f"   ({len(positions)} frames)"
        )


def _leiff() -> None:
    game = get_game("leiff")
    from engine.leiff import random_action

    state = game.new(players=6, seed=3, options={"specials": True, "drinking": True})
    rng = random.Random(3)
    for _ in range(40):
        if not state.actors():
            break
        seat, action = random_action(state, rng)
        state = state.play(seat, action)
    names = [f"Player {n}" for n in range(6)]
    print("\nLeiff, 6 players, 480 px")
    wall, cpu, table = _timed(lambda: render_table(state.view(None), names=names), RUNS)
    print(f"table: {wall:.2f} ms (cpu {cpu:.2f}), PNG {len(png_bytes(table)) / 1024:.1f} KB")
    wall, cpu, hand = _timed(lambda: render_hand(state.view(2), 2, names=names), RUNS)
    print(f"hand:  {wall:.2f} ms (cpu {cpu:.2f}), PNG {len(png_bytes(hand)) / 1024:.1f} KB")


async def _loop_lag() -> tuple[float, int, float]:
    """Worst gap of a 5 ms heartbeat while 40 board renders (with PNG) run in the pool."""
    states = [
        _random_game(name, max(get_game(name).sizes), 40, seed)
        for seed, name in enumerate(BOARD_GAMES * 10)
    ]
    ticks: list[float] = []
    done = asyncio.Event()

    async def heartbeat() -> None:
        while not done.is_set():
            ticks.append(time.perf_counter())
            await asyncio.sleep(0.005)

    async def one(state: Any) -> bytes:
        image = await render_async(render_board, state, names=NAMES)
        return await render_async(png_bytes, image)

    beat = asyncio.create_task(heartbeat())
    started = time.perf_counter()
    await asyncio.gather(*(one(s) for s in states))
    elapsed = time.perf_counter() - started
    done.set()
    await beat
    gaps = [b - a for a, b in itertools.pairwise(ticks)]
    return max(gaps) * 1000 - 5, len(states), elapsed * 1000


def main() -> None:
    _boards()
    _replays()
    _leiff()
    lag, count, elapsed = asyncio.run(_loop_lag())
    shutdown_renderer()
    print(
        f"\nevent loop: worst lag {lag:.1f} ms while {count} renders + PNGs ran through "
        f"render_async ({elapsed:.0f} ms in all)"
    )


if __name__ == "__main__":
    main()
