"""Review time per ply and puzzles mined per hour (``python -m bench.review_time``).

Reviews: a seeded random game of each board game at its default size (random play makes
long games with many mistakes, the review's worst case), reviewed as the bot does it (the
scan in parts of 25 moves, then the check), timed in CPU seconds of this process (steady
on a loaded machine) and wall seconds. Mining: the records of ``bench.mine_puzzles``
(``--records DIR``: one ``<game>.jsonl`` each), puzzles per CPU hour of the miner.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from pathlib import Path

from engine import board_game_names, get_board_game
from engine.ai import review
from engine.board import BoardState

PART = 25


def random_game(game: str, seed: int) -> list[BoardState]:
    state = get_board_game(game).new()
    rng = random.Random(seed)
    positions = [state]
    while state.outcome is None:
        state = state.play(rng.choice(state.legal_moves()))
        positions.append(state)
    return positions


def time_review(game: str, seed: int) -> dict[str, float]:
    positions = random_game(game, seed)
    cpu, wall = time.process_time(), time.perf_counter()
    plies: list[review.PlyReview] = []
    for start in range(0, len(positions) - 1, PART):
        plies.extend(review.scan(positions, start=start, stop=start + PART))
    review.conclude(positions, plies)
    cpu, wall = time.process_time() - cpu, time.perf_counter() - wall
    count = len(positions) - 1
    return {
        "plies": count,
        "cpu_s": round(cpu, 2),
        "wall_s": round(wall, 2),
        "cpu_ms_per_ply": round(1000 * cpu / count, 1),
    }


def mining_rate(records: Path, game: str) -> dict[str, float] | None:
    path = records / f"{game}.jsonl"
    if not path.exists():
        return None
    rows = [json.loads(line) for line in path.read_text().splitlines() if line.strip()]
    cpu = sum(float(r["cpu"]) for r in rows)
    found = sum(len(r["puzzles"]) for r in rows)
    # one puzzle a position (a starter set keeps no position twice)
    positions = {
        (p["to_move"], tuple(sorted(p["stones"].items()))) for r in rows for p in r["puzzles"]
    }
    return {
        "games": len(rows),
        "puzzles": found,
        "positions": len(positions),
        "positions_per_cpu_hour": round(len(positions) * 3600 / cpu, 1) if cpu else 0.0,
        "cpu_s": round(cpu, 1),
        "per_cpu_hour": round(found * 3600 / cpu, 1) if cpu else 0.0,
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--records", type=Path, default=None)
    args = parser.parse_args(argv)
    for game in board_game_names():
        print(game, "review", json.dumps(time_review(game, args.seed)), flush=True)
        if args.records is not None:
            print(game, "mining", json.dumps(mining_rate(args.records, game)), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
