"""How many positions a second the search reads, on the engine's states and on a game's model.

    python -m bench.model_speed les [--plies 20,60,90,120] [--seeds 3] [--nodes 3000]

For each ply, positions of seeded random games on the default board are searched by
alpha-beta (three plies over the 24 best root moves, ``--nodes`` positions, no clock) twice:
on the engine's state and on the game's search model (``spec.ai.model``). The searches are
budget-bound, so both read the same positions and must answer the same move; the script
says so, and prints positions per CPU second (``time.process_time``) for each.
Run it niced on a shared machine: CPU seconds do not count the waiting.
"""

from __future__ import annotations

import argparse
import random
import time

from engine.ai.alphabeta import AlphaBetaSearcher
from engine.ai.model import search_root
from engine.ai.settings import DRAW_VALUE, AlphaBetaSettings
from engine.board import BoardState
from engine.registry import get_board_game


def _position(game_name: str, seed: int, plies: int) -> BoardState | None:
    game = get_board_game(game_name)
    state = game.new()
    rng = random.Random(seed)
    while state.ply < plies:
        if state.outcome is not None:
            return None
        state = state.play(rng.choice(state.legal_moves()))
    return state if state.outcome is None else None


def _read(root: BoardState, nodes: int) -> tuple[str, int, float]:
    settings = AlphaBetaSettings(
        max_depth=3, max_nodes=nodes, time_limit=1e9, root_width=24, draw_value=DRAW_VALUE
    )
    started = time.process_time()
    result = AlphaBetaSearcher(settings).search(root, random.Random(5))
    return result.move, result.iterations, time.process_time() - started


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("game")
    parser.add_argument("--plies", default="20,60,90,120")
    parser.add_argument("--seeds", type=int, default=3)
    parser.add_argument("--nodes", type=int, default=3000)
    args = parser.parse_args(argv)
    print(
        "| ply | positions read | engine: positions / CPU s | model: positions / CPU s | same moves |"
    )
    print("|---|---|---|---|---|")
    for plies in (int(p) for p in args.plies.split(",")):
        read_by = {"engine": 0, "model": 0}
        seconds_by = {"engine": 0.0, "model": 0.0}
        same = True
        for seed in range(args.seeds):
            state = _position(args.game, seed, plies)
            if state is None:
                continue
            answers = {}
            for kind, root in (("engine", state), ("model", search_root(state))):
                move, read, seconds = _read(root, args.nodes)
                answers[kind] = (move, read)
                read_by[kind] += read
                seconds_by[kind] += seconds
            same = same and answers["engine"] == answers["model"]
        read, engine_s, model_s = read_by["engine"], seconds_by["engine"], seconds_by["model"]
        if not read:
            continue
        print(
            f"| {plies} | {read} | {read / engine_s:,.0f} | {read / model_s:,.0f} | "
            f"{'yes' if same else 'NO'} |"
        )


if __name__ == "__main__":
    main()
