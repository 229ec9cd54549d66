"""The walk of one board move: the product's files and hops a ``/move`` crosses.

A ``/move`` between two members is played through the local Discord simulator against the
real bot (SQLite, pictures drawn in a thread), with Python's profiler hook on every thread:
each call of a function of the product (engine/, matchcore/, bot/, render/, i18n/,
wording/, tutorial/) is noted with the file it is defined in, and a call from a function of
one product file into another file is a hop (a coroutine handed to ``asyncio.gather`` or
a task starts from the event loop, not from the file that made it: the hops are a
floor). Reported, for the moves after the first (which
reads the server's settings once): the files entered, the hops (distinct pairs of files,
caller to callee) and the calls that crossed from one file to another, each the median
over the moves; then the files by package. docs/service.md records what it printed.

    python -m bench.move_walk [--moves N]
"""

from __future__ import annotations

import argparse
import asyncio
import random
import statistics
import sys
import tempfile
import threading
from collections import Counter
from dataclasses import dataclass
from pathlib import Path
from types import FrameType
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
PRODUCT = ("engine", "matchcore", "bot", "render", "i18n", "wording", "tutorial")


def _product_file(filename: str) -> str | None:
    """The file's path in the repository when it is a file of the product, else None."""
    try:
        relative = Path(filename).resolve().relative_to(ROOT)
    except ValueError:
        return None
    return str(relative) if relative.parts and relative.parts[0] in PRODUCT else None


class Walk:
    """The product files entered and the hops between them while it listens."""

    def __init__(self) -> None:
        self.files: set[str] = set()
        self.hops: set[tuple[str, str]] = set()
        self.crossings = 0
        self._known: dict[str, str | None] = {}
        self.listening = False

    def _file(self, filename: str) -> str | None:
        if filename not in self._known:
            self._known[filename] = _product_file(filename)
        return self._known[filename]

    def profile(self, frame: FrameType, event: str, arg: Any) -> None:
        if event != "call" or not self.listening:
            return
        callee = self._file(frame.f_code.co_filename)
        if callee is None:
            return
        self.files.add(callee)
        caller_frame = frame.f_back
        caller = self._file(caller_frame.f_code.co_filename) if caller_frame else None
        if caller is not None and caller != callee:
            self.hops.add((caller, callee))
            self.crossings += 1

    def reset(self) -> None:
        self.files.clear()
        self.hops.clear()
        self.crossings = 0


@dataclass
class MoveWalk:
    """What one move crossed: the product files entered and the hops between them."""

    files: frozenset[str]
    hops: frozenset[tuple[str, str]]
    crossings: int

    def packages(self) -> Counter[str]:
        return Counter(f.split("/")[0] for f in self.files)


async def walk_moves(moves: int) -> list[MoveWalk]:
    """Play ``moves`` + 1 moves; what each but the first crossed."""
    from bench.budget import Bench, _match_id, _pick
    from discord_sim import DiscordSimulator
    from render.offload import shutdown_renderer

    # threading.setprofile() reaches only threads started after it: the picture threads of
    # an earlier bot in this process (a test run) are stopped, so new ones carry the hook
    shutdown_renderer()
    walk = Walk()
    sys.setprofile(walk.profile)
    threading.setprofile(walk.profile)
    found: list[MoveWalk] = []
    try:
        async with DiscordSimulator(rate_limit_time_scale=0.05) as sim:
            with tempfile.TemporaryDirectory() as folder:
                bench = Bench(sim, Path(folder))
                await bench.start()
                alice, bob = bench.world.alice, bench.world.bob
                channel = await bench.channel("walk")
                challenge = await sim.slash(
                    alice, "play", channel=channel, game="dalen", opponent=bob
                )
                accepted = await sim.click(bob, challenge.last_message, "Accept")
                await bench.settled(accepted)
                match_id = _match_id(accepted.last_message)
                rng = random.Random(9)
                for number in range(moves + 1):
                    _, state = await bench.state(match_id)
                    if state.outcome is not None:
                        break
                    walk.reset()
                    walk.listening = True
                    player = (alice, bob)[state.seat_to_move]
                    moved = await sim.slash(player, "move", channel=channel, cell=_pick(state, rng))
                    await bench.settled(moved)
                    walk.listening = False
                    if number:
                        found.append(
                            MoveWalk(frozenset(walk.files), frozenset(walk.hops), walk.crossings)
                        )
                sim.assert_no_bot_errors()
    finally:
        sys.setprofile(None)
        threading.setprofile(None)  # None switches it off
    return found


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--moves", type=int, default=5)
    args = parser.parse_args(argv)
    found = asyncio.run(walk_moves(args.moves))
    files = statistics.median(len(w.files) for w in found)
    hops = statistics.median(len(w.hops) for w in found)
    crossings = statistics.median(w.crossings for w in found)
    print(f"moves walked: {len(found)}")
    print(f"product files entered: {files:g}")
    print(f"hops (distinct caller file -> callee file): {hops:g}")
    print(f"calls from one product file into another: {crossings:g}")
    packages = found[-1].packages()
    print(
        "files by package (last move): "
        + ", ".join(f"{p} {n}" for p, n in sorted(packages.items()))
    )


if __name__ == "__main__":
    main()
