"""Instructions per picture, counted by valgrind: a figure the machine does not move.

    python -m bench.picture_instructions            # needs valgrind (callgrind)

Wall and CPU times of a picture vary by half from one run to the next on a shared virtual
machine, and by a factor of two or more between days; the number of instructions a
picture takes does not. This draws 20 consecutive positions of a seeded Dalen, Lublache
and Les game at n=9 (from the 60th move on, about a third of such a game), each for the
first time as the bot does, four ways under ``valgrind --tool=callgrind``, and subtracts a
run that only sets up (imports, the games, another game's pictures on each board as a
worker that has run a while has drawn, each board's first picture):

- ``reply``: :func:`render.board_png`, what the bot's picture workers do after a move;
- ``hints``: the same with move hints (the cells to dot worked out beforehand, as the bot's
  service does), the picture of a member's first games;
- ``rgb``: ``png_bytes(render_board(...))``, the RGB picture and its encoding;
- ``draw``: ``render_board(...)`` alone.

Then the Leiff pictures of 40 consecutive actions of a seeded six-seat table (specials and
drinking rules on), from its 40th action on: ``table`` and ``hand`` are the files the bot
sends (:func:`render.table_png`, :func:`render.hand_png`: strips an earlier picture had are
pasted as palette indices), ``table-rgb`` and ``hand-rgb`` the RGB pictures drawn whole
and encoded.

Each run takes about a minute (valgrind is some fifty times slower than the machine).
Compare two versions of the renderer by running this in each checkout.
"""

from __future__ import annotations

import argparse
import gc
import random
import re
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

GAMES = ("dalen", "lublache", "les")
SIZE = 9
PICTURES_PER_GAME = 20
FIRST_PLY = 60  # about a third of these games at n=9
NAMES = ("Anna Lindqvist", "Борис 🐉")
MODES = ("reply", "hints", "rgb", "draw")
LEIFF_MODES = ("table", "table-rgb", "hand", "hand-rgb")
LEIFF_FIRST, LEIFF_PICTURES = 40, 40  # a six-seat table's actions: before, then drawn


def _positions(game_name: str, seed: int = 1) -> list[Any]:
    """The first position before the window (drawn while setting up), then the window."""
    from engine import get_board_game

    rng = random.Random(seed)
    state = get_board_game(game_name).new(size=SIZE)
    positions = [state]
    while len(positions) < FIRST_PLY + PICTURES_PER_GAME and not state.is_over:
        state = state.play(rng.choice(state.legal_moves()))
        positions.append(state)
    return positions[FIRST_PLY - 1 : FIRST_PLY + PICTURES_PER_GAME]


def _leiff_views() -> list[Any]:
    """The spectator's view and seat 2's after each action of a seeded six-seat game with
    the specials and the drinking rules, from its 40th action on (one before the window)."""
    from engine.leiff import Leiff, random_action

    state = Leiff().new(players=6, seed=3, options={"specials": True, "drinking": True})
    rng = random.Random(3)
    views: list[tuple[Any, Any]] = []
    while len(views) < LEIFF_FIRST + LEIFF_PICTURES and state.actors():
        views.append((state.view(None), state.view(2)))
        seat, action = random_action(state, rng)
        state = state.play(seat, action)
    return views[LEIFF_FIRST - 1 :]


def work(mode: str) -> list[Any]:
    """What one valgrind run does: set up, then draw the pictures of ``mode`` (none for
    ``setup``); what it drew (PNG bytes, or images for ``draw``)."""
    from render import (
        board_png,
        hand_png,
        png_bytes,
        render_board,
        render_hand,
        render_table,
        table_png,
    )

    windows = [_positions(name) for name in GAMES]
    # as a worker that has run a while: other matches on the same boards were drawn before
    earlier = [state for name in GAMES for state in _positions(name, seed=2)]
    for state in earlier:
        board_png(state, names=NAMES)
    for window in windows:
        for state in window:
            if state.game.spec.drawing.owned_loops:
                state.loops()  # the engine works the loops out when a move is played
        board_png(window[0], names=NAMES)
        png_bytes(render_board(window[0], names=NAMES))
    from render.annotations import hint_cells

    hinted = [[hint_cells(state, state.legal_moves()) for state in window] for window in windows]
    for window, cells in zip(windows, hinted, strict=True):
        board_png(window[0], names=NAMES, hints=cells[0])
    views = _leiff_views()
    names = [f"Player {n}" for n in range(6)]
    table, hand = views[0]
    table_png(table, names=names)
    png_bytes(render_table(table, names=names))
    hand_png(hand, 2, names=names)
    png_bytes(render_hand(hand, 2, names=names))
    # as the bot's picture workers do after warming up: what is alive now is left out of
    # later collections (a full collection of it would cost more than a picture, and one
    # falls into one run and not into another: the counts would differ by that much)
    gc.collect()
    gc.freeze()
    drawn: list[Any] = []
    for table, hand in views[1:]:
        if mode == "table":
            drawn.append(table_png(table, names=names))
        elif mode == "table-rgb":
            drawn.append(png_bytes(render_table(table, names=names)))
        elif mode == "hand":
            drawn.append(hand_png(hand, 2, names=names))
        elif mode == "hand-rgb":
            drawn.append(png_bytes(render_hand(hand, 2, names=names)))
    for window, cells in zip(windows, hinted, strict=True):
        for state, dots in zip(window[1:], cells[1:], strict=True):
            if mode == "reply":
                drawn.append(board_png(state, names=NAMES))
            elif mode == "hints":
                drawn.append(board_png(state, names=NAMES, hints=dots))
            elif mode == "rgb":
                drawn.append(png_bytes(render_board(state, names=NAMES)))
            elif mode == "draw":
                drawn.append(render_board(state, names=NAMES))
    return drawn


def _count(mode: str) -> int:
    """Instructions of one run of :func:`work` under callgrind."""
    completed = subprocess.run(
        [
            "valgrind",
            "--tool=callgrind",
            "--callgrind-out-file=/dev/null",
            sys.executable,
            "-m",
            "bench.picture_instructions",
            "--work",
            mode,
        ],
        capture_output=True,
        text=True,
        check=True,
    )
    found = re.search(r"Collected : (\d+)", completed.stderr)
    if found is None:
        raise SystemExit(f"valgrind printed no count:\n{completed.stderr[-2000:]}")
    return int(found.group(1))


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--work", choices=(*MODES, *LEIFF_MODES, "setup"), help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.work:
        work(args.work)
        return 0
    if shutil.which("valgrind") is None:
        print("valgrind is not installed (Debian: apt install valgrind)", file=sys.stderr)
        return 2
    # Every run must find the same compiled modules: one that compiles a changed module
    # (PYTHONDONTWRITEBYTECODE keeps a run from saving it) and one that finds it compiled
    # differ by a hundred million instructions. So they are all compiled first.
    root = Path(__file__).resolve().parent.parent
    packages = [str(root / name) for name in ("bench", "engine", "i18n", "render")]
    subprocess.run([sys.executable, "-m", "compileall", "-q", *packages], check=True)
    pictures = len(GAMES) * PICTURES_PER_GAME
    setup = _count("setup")
    print(
        f"{pictures} board pictures (n={SIZE}: {', '.join(GAMES)}), each drawn for the first time"
    )
    for mode in MODES:
        spent = _count(mode) - setup
        print(f"  {mode:<9} {spent / pictures / 1e6:6.2f} M instructions per picture")
    print(
        f"{LEIFF_PICTURES} Leiff pictures of each kind (six seats, specials and drinking "
        f"rules, from the {LEIFF_FIRST}th action on), each made for the first time"
    )
    for mode in LEIFF_MODES:
        spent = _count(mode) - setup
        print(f"  {mode:<9} {spent / LEIFF_PICTURES / 1e6:6.2f} M instructions per picture")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
