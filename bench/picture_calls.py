"""Replay the picture workers' calls of an end-to-end run, to see where their CPU goes.

    E2E_PICTURES=calls.pickle python -m bench.e2e --seconds 20   # records every call
    python -m bench.picture_calls calls.pickle [--profile out.prof]

``bench.e2e_bot`` with ``E2E_PICTURES`` set writes each call the bot made to its picture
workers (the function's name and its arguments, as pickled to the worker) to that file when
it stops. This replays them in this process, in the same order, and prints the CPU
milliseconds per picture of each kind and per move (a board picture is one move; a Leiff
action draws a table and some hands): the workers' share of ``bench.e2e``'s CPU per move,
without the machine's other work, the pipes and the scheduling around it. With
``--profile`` the last pass runs under cProfile and its statistics are written there.
"""

from __future__ import annotations

import argparse
import cProfile
import pickle
import sys
import time
from collections import Counter, defaultdict
from pathlib import Path
from typing import Any

from bot.common import pictures
from engine import origins, register_all

PASSES = 3  # the fastest pass counts: the machine is shared


def replay(calls: list[tuple[str, tuple[Any, ...]]]) -> dict[str, float]:
    """CPU seconds spent in each worker function over one pass of ``calls``."""
    spent: dict[str, float] = defaultdict(float)
    for name, args in calls:
        function = getattr(pictures, name)
        started = time.process_time()
        function(*args)
        spent[name] += time.process_time() - started
    return spent


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("calls", type=Path)
    parser.add_argument("--profile", type=Path)
    args = parser.parse_args(argv)
    calls = pickle.loads(args.calls.read_bytes())
    register_all(origins())
    pictures._warm_up()
    counts = Counter(name for name, _ in calls)
    best = min((replay(calls) for _ in range(PASSES)), key=lambda spent: sum(spent.values()))
    # a move is a board picture or a Leiff action; an action redraws the table once (and so
    # does a table's start: a few more "moves" than were played)
    moves = counts["board_png_from_json"] + counts["table_png"]
    print(f"{len(calls)} calls, about {moves} moves (board pictures and Leiff tables)")
    for name in sorted(counts):
        print(
            f"  {name:22s} {counts[name]:6d} calls  {best[name] / counts[name] * 1e3:6.3f} ms each"
        )
    print(f"  CPU per move: {sum(best.values()) / max(1, moves) * 1e3:.3f} ms")
    if args.profile is not None:
        profiler = cProfile.Profile()
        profiler.runcall(replay, calls)
        profiler.dump_stats(args.profile)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
