"""Lublache master's alpha-beta on recorded positions, bound by its positions alone.

Master reads to its clock (1.6 s), so what it plays follows the machine's speed; this
runs its search with the clock out of reach (the level's 30,000 positions and 4 plies
end it) on the recorded game of ``bench.bench_lublache_model`` every ten plies, on the
search's model, and prints per position the move, value, positions read, deepest ply and
CPU seconds. Two versions of the code that read the same tree print the same lines but
the seconds: compare them with ``--json`` files.

    nice -n 15 python -m bench.lublache_master_speed [--plies 10,20,...] [--json out.json]
"""

from __future__ import annotations

import argparse
import json
import random
import time
from pathlib import Path

from bench.bench_lublache_model import game_positions
from engine import loops
from engine.ai.alphabeta import AlphaBetaSearcher
from engine.ai.model import search_root
from engine.ai.settings import AlphaBetaSettings
from engine.lublache import SPEC

DEFAULT_PLIES = (10, 20, 30, 40, 50, 60, 70, 80)


def master_settings(
    max_nodes: int | None = None, lazy: bool | None = None, time_limit: float = 10_000.0
) -> AlphaBetaSettings:
    """Master's alpha-beta with its clock out of reach (its budget alone ends it);
    ``lazy`` in place of its ``lazy_legality``, ``time_limit`` to put the clock back."""
    tuning = SPEC.ai.levels["master"]
    settings = tuning.settings
    assert isinstance(settings, AlphaBetaSettings)
    return AlphaBetaSettings(
        max_depth=settings.max_depth,
        max_nodes=max_nodes or settings.max_nodes,
        time_limit=time_limit,
        root_width=settings.root_width,
        draw_value=settings.draw_value,
        lazy_legality=settings.lazy_legality if lazy is None else lazy,
    )


def run(
    plies: list[int],
    max_nodes: int | None = None,
    lazy: bool | None = None,
    time_limit: float = 10_000.0,
    seed: int = 0,
) -> list[dict[str, object]]:
    """One master search per ply of the recorded game: what it answered and its cost
    (the search's seed is the ply plus ``seed``)."""
    positions = game_positions()
    settings = master_settings(max_nodes, lazy, time_limit)
    rows: list[dict[str, object]] = []
    for ply in plies:
        root = search_root(positions[ply])  # the search's model
        loops._shared_answers.clear()  # nothing carried over from the search before
        started = time.process_time()
        result = AlphaBetaSearcher(settings).search(root, random.Random(ply + seed))
        seconds = time.process_time() - started
        rows.append(
            {
                "ply": ply,
                "move": result.move,
                "value": round(result.value, 9),
                "positions": result.iterations,
                "depth": result.depth,
                "ranking": result.ranking,
                "cpu": round(seconds, 3),
            }
        )
    return rows


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--plies", default=",".join(map(str, DEFAULT_PLIES)))
    parser.add_argument("--nodes", type=int, default=None, help="in place of master's 30,000")
    parser.add_argument("--lazy", choices=("on", "off"), default=None, help="legality")
    parser.add_argument("--json", type=Path, default=None, help="write the rows here")
    args = parser.parse_args()
    lazy = None if args.lazy is None else args.lazy == "on"
    rows = run([int(p) for p in args.plies.split(",") if p], args.nodes, lazy)  # none: setup only
    total_positions = sum(int(str(r["positions"])) for r in rows)
    total_cpu = sum(float(str(r["cpu"])) for r in rows)
    print("ply  move  value        positions  depth  cpu s  pos/cpu s")
    for r in rows:
        print(
            f"{r['ply']:3}  {r['move']:4}  {r['value']:.9f}  {r['positions']:9}  "
            f"{r['depth']:5}  {r['cpu']:5.2f}  {int(str(r['positions'])) / float(str(r['cpu'])):9.0f}"
        )
    if rows:
        print(
            f"all  {total_positions} positions in {total_cpu:.2f} CPU s: "
            f"{total_positions / total_cpu:.0f} a CPU second"
        )
    if args.json:
        args.json.write_text(json.dumps(rows, indent=1), encoding="utf-8")


if __name__ == "__main__":
    main()
