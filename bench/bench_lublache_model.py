"""Lublache's search-side model: positions read per CPU second, engine against model.

The same seeded, budget-bound searches (the clock set far out of reach, so the budget
alone ends them) run on the engine's state and on the model of it
(engine/ai/models/lublache.py), on the positions of one recorded game of the reference
against itself (the one of tests/ai/test_lublache_end.py) every ten plies: alpha-beta
three plies over the ten best root moves, and the exact end reading where the side to
move has at most ``--narrow`` placements. Both read the same positions in the same order
(tests/ai/test_model_lublache.py), so the ratio of CPU seconds is the model's gain. The
loop finder's shared answers are forgotten before every search, so neither side starts
warm from the other's work.

    nice -n 15 python -m bench.bench_lublache_model [--nodes 1500] [--narrow 12]
"""

from __future__ import annotations

import argparse
import random
import time
from collections.abc import Callable
from typing import Any

from engine import get_board_game, loops
from engine.ai import endsolver
from engine.ai.alphabeta import AlphaBetaSearcher
from engine.ai.models.lublache import LublachePosition
from engine.ai.settings import AlphaBetaSettings
from engine.board import BoardState

# tests/ai/test_lublache_end.py: the reference against itself (scale 0.1, seed 2, size 7)
RECORD = [
    "d4",
    "j3",
    "h8",
    "f6",
    "g4",
    "e10",
    "k5",
    "g6",
    "a5",
    "e8",
    "d9",
    "l4",
    "e3",
    "i1",
    "k7",
    "i10",
    "e11",
    "a1",
    "l2",
    "f4",
    "i9",
    "b2",
    "g8",
    "g11",
    "g9",
    "l8",
    "g10",
    "j1",
    "d7",
    "e9",
    "b3",
    "e5",
    "m1",
    "c6",
    "b1",
    "h3",
    "j6",
    "m2",
    "k2",
    "l6",
    "c2",
    "g5",
    "e6",
    "d3",
    "g7",
    "g2",
    "d2",
    "a4",
    "h4",
    "a3",
    "h6",
    "b6",
    "c5",
    "d6",
    "e2",
    "f11",
    "f12",
    "e1",
    "a1",
    "m5",
    "a6",
    "g13",
    "a2",
    "g3",
    "c3",
    "f2",
    "e1",
    "b4",
    "d1",
    "c1",
    "g2",
    "h12",
    "h2",
    "i5",
    "h10",
    "i4",
    "j4",
    "i11",
    "i6",
    "i8",
    "j9",
    "k3",
    "b5",
    "l3",
    "m2",
    "j2",
    "m6",
    "b8",
    "g1",
]


def game_positions() -> list[BoardState]:
    state = get_board_game("lublache").new(7)
    positions = [state]
    for move in RECORD:
        state = state.play(move)
        positions.append(state)
    return positions


def _cpu(run: Callable[[Any], int], root: Any) -> tuple[float, int]:
    """CPU seconds and positions of ``run(root)``, nothing shared from earlier work."""
    loops._shared_answers.clear()
    started = time.process_time()
    nodes = run(root)
    return time.process_time() - started, nodes


def _fresh(state: BoardState) -> BoardState:
    return get_board_game("lublache").from_json(state.to_json())


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--nodes", type=int, default=1500, help="alpha-beta's budget")
    parser.add_argument("--narrow", type=int, default=12, help="end reading at this many moves")
    parser.add_argument("--solve-nodes", type=int, default=20_000)
    args = parser.parse_args()
    settings = AlphaBetaSettings(
        max_depth=3, max_nodes=args.nodes, time_limit=10_000.0, root_width=10, draw_value=0.4
    )
    positions = game_positions()

    def on(root: Any) -> int:  # an engine state, or the model standing in for one
        return AlphaBetaSearcher(settings).search(root, random.Random(1)).iterations

    def solve(root: Any) -> int:
        solved = endsolver.solve(root, max_nodes=args.solve_nodes, time_limit=10_000.0)
        return args.solve_nodes if solved is None else solved[1]

    print(f"alpha-beta, 3 plies, 10 root moves, {args.nodes} positions")
    print("ply  moves  positions  engine s  model s  engine pos/s  model pos/s  factor")
    totals = [0.0, 0.0, 0]
    for state in positions[10:-1:10]:
        moves = len(state.legal_moves())

        engine_s, nodes = _cpu(on, _fresh(state))
        model_s, model_nodes = _cpu(on, LublachePosition.of(state))
        assert nodes == model_nodes, "the model read other positions than the engine"
        totals[0] += engine_s
        totals[1] += model_s
        totals[2] += nodes
        print(
            f"{state.ply:3}  {moves:5}  {nodes:9}  {engine_s:8.2f}  {model_s:7.2f}  "
            f"{nodes / engine_s:12.0f}  {nodes / model_s:11.0f}  {engine_s / model_s:6.2f}"
        )
    print(
        f"all  {'':5}  {totals[2]:9}  {totals[0]:8.2f}  {totals[1]:7.2f}  "
        f"{totals[2] / totals[0]:12.0f}  {totals[2] / totals[1]:11.0f}  "
        f"{totals[0] / totals[1]:6.2f}"
    )
    print(f"\nexact end reading, <= {args.narrow} moves, {args.solve_nodes} positions at most")
    print("ply  moves  positions  engine s  model s  factor  solved")
    for state in positions:
        if state.outcome is not None:
            continue
        moves = len(state.legal_moves())
        if moves > args.narrow:
            continue

        engine_s, nodes = _cpu(solve, _fresh(state))
        model_s, model_nodes = _cpu(solve, LublachePosition.of(state))
        assert nodes == model_nodes, "the model read other positions than the engine"
        print(
            f"{state.ply:3}  {moves:5}  {nodes:9}  {engine_s:8.2f}  {model_s:7.2f}  "
            f"{engine_s / model_s:6.2f}  {nodes < args.solve_nodes}"
        )


if __name__ == "__main__":
    main()
