"""Speed and size of the pictures: board PNGs, Leiff table and hand, replay GIFs, offloading.

Board picture for a reply (issue 21: draw + encode at most 3 ms at n=9, PNG at most 30 KB):
for each board game at its largest size, 40 consecutive positions from a third of a seeded
random game on are each drawn at 480 px for the first time, straight to the PNG file, as
the bot does after every move (``render.board_png``): the static background, the palette
and the names were drawn for the match's first picture, but the header's move number,
score and status are new text in every picture, and laying out new text is a fair part of
the cost (an earlier version of this benchmark drew the positions once before timing them,
which left that out). Another game on the same board is drawn first, as a picture worker
that has run for a while has drawn other matches (the stones' palette indices per cell
are remembered per board). Beside it, the RGB picture (``render_board``) drawn and encoded apart
on the next 40 positions. The same for boards with move hints (on another game, so that
their headers are new too), and for the Leiff table and a hand over consecutive actions
(``render.table_png`` and ``render.hand_png``, as the bot sends them: the strips an
earlier action's picture had are pasted as palette indices; beside them, the RGB picture
drawn and encoded apart).

Replay GIF (issue 21: at most 0.65 ms per frame for a 200-frame game at 400 px, at most
300 KB; issue 31: on the path the bot takes): a seeded random game of each board game at
its largest size with at least 200 positions where the game allows it (Lefe's largest
board ends sooner), stored as it stands after its 200th position, then replayed as the
bot's picture worker does (``bot.common.pictures.replay_gif_from_json``: the stored JSON
read back, every position played again by the engine's ``history()``, the GIF drawn from
them), median of several runs. Nothing the engine remembers between positions is kept
from one run to the next (a worker replaying a match has not seen it). Beside it, the GIF
alone, drawn from positions already played (what this row timed before issue 31). Then the
worst event-loop lag while a burst of renders runs through ``render_async``. CPU time
(the process's own) is printed beside wall time: other programs sharing the machine
disturb it less.

``python -m bench.bench_render replays`` runs the replay rows alone (``boards``, ``hints``,
``leiff`` and ``lag`` the others).
"""

from __future__ import annotations

import asyncio
import functools
import itertools
import random
import statistics
import sys
import time
from collections.abc import Callable, Sequence
from typing import Any

from bot.common.pictures import replay_gif_from_json
from engine import BOARD_GAMES, get_board_game, loops
from engine.board import BoardState
from engine.leiff import Leiff
from render import (
    board_png,
    hand_png,
    png_bytes,
    render_async,
    render_board,
    render_hand,
    render_table,
    replay_gif,
    table_png,
)
from render.annotations import hint_cells, render_hint_cells
from render.offload import shutdown_renderer

WINDOW = 40
REPLAY_RUNS = 5
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


def _random_game(game_name: str, size: int, moves: int, seed: int = 1) -> BoardState:
    rng = random.Random(seed)
    state = get_board_game(game_name).new(size=size)
    for _ in range(moves):
        if state.is_over:
            break
        state = state.play(rng.choice(state.legal_moves()))
    return state


def _game_positions(game_name: str, size: int, seed: int) -> list[BoardState]:
    rng = random.Random(seed)
    state = get_board_game(game_name).new(size=size)
    positions = [state]
    while not state.is_over:
        state = state.play(rng.choice(state.legal_moves()))
        positions.append(state)
    return positions


def _drawn_and_encoded(draw: Callable[[Any], Any], state: Any) -> bytes:
    """The PNG of one state's picture, drawn and encoded."""
    return png_bytes(draw(state))


def _each(func: Callable[[Any], Any], items: list[Any]) -> tuple[list[float], list[float], Any]:
    """Wall and CPU milliseconds of ``func`` on each item once, and the last result."""
    walls, cpus = [], []
    result = None
    for item in items:
        w0, c0 = time.perf_counter(), time.process_time()
        result = func(item)
        walls.append((time.perf_counter() - w0) * 1000)
        cpus.append((time.process_time() - c0) * 1000)
    return walls, cpus, result


def _windows(items: list[Any]) -> tuple[list[Any], list[Any]]:
    """Two windows of ``WINDOW`` consecutive items from a third of the way on (earlier if
    the list is short): one for the target figure, one for the split into drawing and
    encoding. Every item is drawn for the first time in its window, as in the bot, where
    each position's header (move number, score, status) is new text; only what a match
    repeats (names, colours, the board) was drawn before."""
    start = max(1, min(len(items) // 3, len(items) - 2 * WINDOW))
    return items[start : start + WINDOW], items[start + WINDOW : start + 2 * WINDOW]


def _row(
    draw: Callable[[Any], Any],
    items: list[Any],
    reply: Callable[[Any], bytes] | None = None,
    earlier: Sequence[Any] = (),
) -> str:
    """Medians over fresh items: the reply's file (``reply``, else drawing and encoding)
    in wall and CPU time and its size, then drawing and encoding the RGB picture apart.
    ``earlier`` items (of other games) are drawn first, as a picture worker that has been
    running for a while has drawn other matches on the same board."""
    for_both, for_split = _windows(items)
    make = reply or functools.partial(_drawn_and_encoded, draw)
    for item in earlier:
        make(item)
    make(items[0])  # what a match draws once: the background, the palette, the names
    both, cpu, _ = _each(make, for_both)
    sizes = [len(make(item)) / 1024 for item in for_both]
    drawn, _, _ = _each(draw, for_split)
    encoded, _, _ = _each(png_bytes, [draw(item) for item in for_split])
    return (
        f"{statistics.median(both):>9.2f}{statistics.median(cpu):>8.2f}"
        f"{statistics.median(sizes):>8.1f}"
        f"{statistics.median(drawn):>11.2f}{statistics.median(encoded):>12.2f}"
    )


COLUMNS = f"{'both ms':>9}{'cpu ms':>8}{'PNG KB':>8}{'RGB draw':>11}{'RGB encode':>12}"


def _boards() -> None:
    print(
        f"board picture for a reply, 480 px, classic theme: {WINDOW} consecutive positions "
        "from a third of a game on, each drawn for the first time straight to its PNG file as "
        "the bot does (render.board_png: 'both', its CPU time and the size); then the RGB "
        f"picture drawn and encoded apart on the next {WINDOW} (render_board, png_bytes); "
        "medians; target draw + encode <= 3 ms, PNG <= 30 KB at n=9"
    )
    print(f"{'game':<10}{'size':>5}{'stones':>8}{COLUMNS}")
    for name in BOARD_GAMES:
        game = get_board_game(name)
        size = max(game.sizes)
        positions = _game_positions(name, size, seed=1)
        if name == "lublache":
            for state in positions:
                state.loops()  # worked out by the engine when the move was played
        stones = len(_windows(positions)[0][-1].stones)
        row = _row(
            lambda s: render_board(s, names=NAMES),
            positions,
            lambda s: board_png(s, names=NAMES),
            _game_positions(name, size, seed=3),
        )
        print(f"{name:<10}{size:>5}{stones:>8}{row}")


def _hint_boards() -> None:
    print(
        "\nthe same with move hints (a member's first games; every board of bench.e2e), on "
        "another game (seed 2) so that its headers are new too: the cells to dot worked out "
        "beforehand, as the bot does (its service knows the legal moves)"
    )
    print(f"{'game':<10}{'size':>5}{'dots':>8}{COLUMNS}")
    for name in BOARD_GAMES:
        size = max(get_board_game(name).sizes)
        positions = _game_positions(name, size, seed=2)
        items = [(s, hint_cells(s, s.legal_moves())) for s in positions]

        def draw(item: tuple[Any, tuple[str, ...]]) -> Any:
            return render_hint_cells(item[0], item[1], names=NAMES)

        def reply(item: tuple[Any, tuple[str, ...]]) -> bytes:
            return board_png(item[0], names=NAMES, hints=item[1])

        dots = statistics.median(len(cells) for _, cells in _windows(items)[0])
        earlier = [(s, hint_cells(s, s.legal_moves())) for s in _game_positions(name, size, 4)]
        print(f"{name:<10}{size:>5}{dots:>8.0f}{_row(draw, items, reply, earlier)}")


def _replay_from_record(name: str, record: str) -> bytes:
    """A replay as the bot's picture worker makes it, from the stored match, with nothing
    remembered from an earlier replay (the loop finder's shared answers)."""
    loops._shared_answers.clear()
    return replay_gif_from_json(name, record, NAMES)


def _replays() -> None:
    print(
        f"\nreplay GIF, 400 px, a game's first 200 positions, as the bot makes it: from the "
        f"stored match through the engine's history() to the GIF (median of {REPLAY_RUNS}; "
        "target <= 0.65 ms per frame and <= 300 KB for 200 frames); then the GIF alone, "
        "from positions already played"
    )
    print(
        f"{'game':<10}{'size':>5}{'frames':>8}{'ms/frame':>10}{'cpu ms/frame':>14}"
        f"{'GIF alone':>11}{'KB':>8}"
    )
    for name in BOARD_GAMES:
        size = max(get_board_game(name).sizes)
        positions: list[Any] = []
        for seed in range(1, 40):  # the first seeded game long enough, else the longest
            candidate = _game_positions(name, size, seed)
            if len(candidate) > len(positions):
                positions = candidate
            if len(positions) >= 200:
                break
        record = positions[:200][-1].to_json()
        frames = len(positions[:200])
        wall, cpu, data = _timed(functools.partial(_replay_from_record, name, record), REPLAY_RUNS)
        played = list(get_board_game(name).from_json(record).history())
        for state in played:
            state.loops()  # worked out by the engine, not the GIF's to time
        alone, _, _ = _timed(functools.partial(replay_gif, played, names=NAMES), REPLAY_RUNS)
        print(
            f"{name:<10}{size:>5}{frames:>8}{wall / frames:>10.3f}{cpu / frames:>14.3f}"
            f"{alone / frames:>11.3f}{len(data) / 1024:>8.1f}"
        )


def _leiff() -> None:
    from engine.leiff import random_action

    state = Leiff().new(players=6, seed=3, options={"specials": True, "drinking": True})
    rng = random.Random(3)
    states = [state]
    while len(states) < 3 * WINDOW + 1 and state.actors():
        seat, action = random_action(state, rng)
        state = state.play(seat, action)
        states.append(state)
    names = [f"Player {n}" for n in range(6)]
    print(
        f"\nLeiff, 6 players, 480 px: {WINDOW} consecutive actions, each picture's file made "
        "for the first time as the bot does (render.table_png, render.hand_png: the strips "
        "an earlier picture had are kept as indices); then the RGB picture drawn and encoded "
        f"apart on the next {WINDOW}; medians; target draw + encode <= 3 ms"
    )
    print(f"{'picture':<8}{COLUMNS}")
    pictures = {
        "table": (
            lambda s: render_table(s.view(None), names=names),
            lambda s: table_png(s.view(None), names=names),
        ),
        "hand": (
            lambda s: render_hand(s.view(2), 2, names=names),
            lambda s: hand_png(s.view(2), 2, names=names),
        ),
    }
    for label, (draw, reply) in pictures.items():
        print(f"{label:<8}{_row(draw, states, reply)}")


async def _loop_lag() -> tuple[float, int, float]:
    """Worst gap of a 5 ms heartbeat while 40 board renders (with PNG) run in the pool."""
    states = [
        _random_game(name, max(get_board_game(name).sizes), 40, seed)
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


def _lag() -> None:
    lag, count, elapsed = asyncio.run(_loop_lag())
    shutdown_renderer()
    print(
        f"\nevent loop: worst lag {lag:.1f} ms while {count} renders + PNGs ran through "
        f"render_async ({elapsed:.0f} ms in all)"
    )


PARTS: dict[str, Callable[[], None]] = {
    "boards": _boards,
    "hints": _hint_boards,
    "replays": _replays,
    "leiff": _leiff,
    "lag": _lag,
}


def main(parts: Sequence[str] = ()) -> None:
    for part in parts or PARTS:
        PARTS[part]()


if __name__ == "__main__":
    main(sys.argv[1:])
