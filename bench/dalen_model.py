"""Dalen's search-side model against the engine's states: what a position costs.

Two measures, both in CPU seconds of this process (``time.process_time``), so that other
load on the machine does not change them:

* positions per CPU second: every position of seeded random games at size 7, each child
  of it played and valued by the evaluator (what a scanning search does), once on the
  engine's states and once on the model (:mod:`engine.ai.models.dalen`);
* the same seeded master search (its time limit on the CPU clock and far above what the
  budget needs: the same move and iterations on both, which is checked) at several plies
  of one random game, engine against model.

    nice -n 15 python -m bench.dalen_model [--games 3] [--scale 0.05]
"""

from __future__ import annotations

import argparse
import dataclasses
import random
import time
from collections.abc import Iterator
from contextlib import contextmanager

from bench.ladder import use_clock
from engine.ai.heuristics import dalen_evaluator
from engine.ai.levels import search_move
from engine.ai.models.dalen import DalenPosition
from engine.board import BoardState
from engine.registry import get_board_game


def random_positions(games: int, seed: int = 36) -> list[BoardState]:
    """Every unfinished position of ``games`` seeded random games at size 7."""
    game = get_board_game("dalen")
    rng = random.Random(seed)
    found = []
    for _ in range(games):
        state = game.new(7)
        while state.outcome is None:
            found.append(state)
            state = state.play(rng.choice(state.legal_moves()))
    return found


def children_per_second(positions: list[BoardState], model: bool) -> tuple[int, float]:
    """(children played and valued, CPU seconds) over ``positions``' moves."""
    roots: list[BoardState | DalenPosition] = [
        DalenPosition.from_state(s) if model else s for s in positions
    ]
    count = 0
    started = time.process_time()
    for root in roots:
        mover = root.to_move
        assert mover is not None
        for move in root.legal_moves():
            child = root.play(move)
            if child.outcome is None:
                dalen_evaluator(child, mover)  # type: ignore[arg-type]  # the model stands in for an engine Position (the evaluator reads either)
            count += 1
    return count, time.process_time() - started


@contextmanager
def engine_only() -> Iterator[None]:
    """Dalen's spec without its model, for as long as the block runs."""
    game_class = type(get_board_game("dalen"))
    with_model = game_class.spec
    ai = dataclasses.replace(with_model.ai, model=None)
    game_class.spec = dataclasses.replace(with_model, ai=ai)
    try:
        yield
    finally:
        game_class.spec = with_model


def timed_search(state: BoardState, scale: float) -> tuple[str, int, float]:
    started = time.process_time()
    result = search_move(state, "master", seed=1, scale=scale, time_limit=5.0)
    return result.move, result.iterations, time.process_time() - started


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=3, help="random games for the positions")
    parser.add_argument("--scale", type=float, default=0.05, help="master's budget share")
    args = parser.parse_args()
    use_clock("cpu")
    positions = random_positions(args.games)
    print(f"positions: {len(positions)} of {args.games} random games (size 7)")
    for name, model in (("engine", False), ("model", True)):
        count, seconds = children_per_second(positions, model)
        print(
            f"{name:7} {count} children played and valued in {seconds:.2f} CPU s: "
            f"{count / seconds:,.0f} a second"
        )
    print(f"master (scale {args.scale}, seed 1) at plies of the first game:")
    first = random_positions(1)
    for ply in (2, 10, 30, 60, 90):
        if ply >= len(first):
            break
        state = first[ply]
        with engine_only():
            engine = timed_search(state, args.scale)
        read = timed_search(state, args.scale)
        assert engine[:2] == read[:2], (ply, engine, read)
        print(
            f"  ply {ply:3} ({len(state.legal_moves())} moves): {engine[1]} iterations, "
            f"{engine[0]}; engine {engine[2]:.2f} s, model {read[2]:.2f} s "
            f"({engine[2] / read[2]:.1f} times)"
        )


if __name__ == "__main__":
    main()
