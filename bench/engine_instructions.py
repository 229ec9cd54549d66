"""Instructions of the Lublache engine's slow paths, counted by valgrind (issue 31).

    python -m bench.engine_instructions            # needs valgrind (callgrind)

On a shared machine the wall and CPU times of the same code vary by half from one run to
the next; the number of instructions does not. Three things are counted, each in its own
valgrind run minus a run that only sets up (imports, the records read, another game's
replay drawn so the renderer's caches are as in a picture worker that has run a while):

- ``replay``: a Lublache replay as the bot's picture worker makes it
  (``replay_gif_from_json``: the stored match read back, replayed by ``history()``, the
  GIF drawn), the first 200 positions of the seeded game ``bench.bench_render`` replays;
- ``history``: the same replay's engine part alone (``history()`` and every position's
  loops, as the GIF reads them);
- ``cold``: a cold ``legal_moves()`` of each position at 75 % of the 16 seeded 9-board
  games ``bench.bench_lublache`` times there (each rebuilt with ``position()``, nothing
  shared between positions); ``--positions 12`` counts only those positions.

The records are made natively before the valgrind runs (a game played under valgrind
would take minutes) and handed over in a file. Compare two versions of the engine by
running this in each checkout.
"""

from __future__ import annotations

import argparse
import gc
import json
import re
import subprocess
import sys
import tempfile
from pathlib import Path

MODES = ("replay", "history", "cold")


def _records() -> dict[str, object]:
    """The replayed games' JSON (Lublache and Les, 200 positions at most) and the cold
    positions' stones, as plain data."""
    from bench.bench_lublache import random_game
    from bench.bench_render import _game_positions
    from engine.board import BoardState

    records: dict[str, object] = {}
    for name in ("lublache", "les"):
        positions: list[BoardState] = []
        for seed in range(1, 40):  # as bench_render picks its game
            candidate = _game_positions(name, 9, seed)
            if len(candidate) > len(positions):
                positions = candidate
            if len(positions) >= 200:
                break
        records[name] = positions[:200][-1].to_json()
    cold = []
    for seed in range(16):  # as bench_lublache's 9-board row at 75 %
        states = [s for s in random_game(9, seed) if s.outcome is None]
        state = states[int(0.75 * (len(states) - 1))]
        cold.append({"stones": state.stones, "to_move": state.to_move})
    records["cold"] = cold
    return records


def work(mode: str, path: str, positions: list[int] | None) -> list[object]:
    """What one valgrind run does: set up, then the work of ``mode`` (none for ``setup``);
    what it made (the GIF, the positions, the move lists)."""
    from bench.bench_render import NAMES
    from bot.common.pictures import replay_gif_from_json
    from engine import get_board_game, loops

    records = json.loads(Path(path).read_text(encoding="utf-8"))
    game = get_board_game("lublache")
    replay_gif_from_json("les", records["les"], NAMES)  # the renderer warmed up
    gc.collect()
    gc.freeze()
    made: list[object] = []
    if mode == "replay":
        made.append(replay_gif_from_json("lublache", records["lublache"], NAMES))
    elif mode == "history":
        made += game.from_json(records["lublache"]).history()
        for state in made:
            state.loops()  # type: ignore[attr-defined]  # a Lublache position
    elif mode == "cold":
        for index, position in enumerate(records["cold"]):
            if positions is None or index in positions:
                loops._shared_answers.clear()
                state = game.position(9, position["stones"], position["to_move"])
                made.append(state.legal_moves())
    return made


def _count(mode: str, path: str, positions: list[int] | None) -> int:
    command = [
        "valgrind",
        "--tool=callgrind",
        "--callgrind-out-file=/dev/null",
        sys.executable,
        "-m",
        "bench.engine_instructions",
        "--work",
        mode,
        "--records",
        path,
    ]
    if positions is not None:
        command += ["--positions", ",".join(map(str, positions))]
    completed = subprocess.run(command, capture_output=True, text=True, check=True)
    found = re.search(r"Collected : (\d+)", completed.stderr)
    if found is None:
        raise SystemExit(f"valgrind printed no count:\n{completed.stderr[-2000:]}")
    return int(found.group(1))


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("modes", nargs="*", help=f"any of {', '.join(MODES)} (all by default)")
    parser.add_argument("--positions", help="cold: only these positions (e.g. 9,12)")
    parser.add_argument("--work", help=argparse.SUPPRESS)
    parser.add_argument("--records", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    positions = None if args.positions is None else [int(p) for p in args.positions.split(",")]
    unknown = set(args.modes) - set(MODES)
    if unknown:
        parser.error(f"unknown modes: {', '.join(sorted(unknown))}")
    if args.work:
        work(args.work, args.records, positions)
        return 0
    root = Path(__file__).resolve().parent.parent
    packages = [
        str(root / name) for name in ("bench", "bot", "engine", "i18n", "matchcore", "render")
    ]
    subprocess.run([sys.executable, "-m", "compileall", "-q", *packages], check=True)
    with tempfile.NamedTemporaryFile("w", suffix=".json", delete=False) as file:
        json.dump(_records(), file)
    setup = _count("setup", file.name, positions)
    for mode in args.modes or MODES:
        spent = _count(mode, file.name, positions) - setup
        frames = f" ({spent / 200 / 1e6:.2f} M a frame)" if mode != "cold" else ""
        print(f"{mode:<8} {spent / 1e6:8.0f} M instructions{frames}", flush=True)
    Path(file.name).unlink()
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
