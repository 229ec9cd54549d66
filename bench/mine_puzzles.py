"""Mine the shipped starter puzzles from self-play (``python -m bench.mine_puzzles``).

Games are played between a careless side (uniformly random, or the beginner level) and a
careful one (easy: it never misses a win in one), each game seeded by its number, and
from each game a few *variations* branch off near its end, played on at random (a seeded
random player is a careless opponent: every move may be a mistake). With ``--random`` both
sides play at random (no search: a game costs milliseconds), and many more variations
branch off closer to the end, where the puzzles are: the fastest way to many positions. The last plies of
every game and variation are read by :func:`engine.ai.puzzles.mine_game` for positions where
exactly one move forces a win after the opponent's mistake. Every reading is bounded by a
count of positions played, not by the clock, so a run gives the same puzzles on any
machine, however loaded (the levels' searches end on their budgets: their time limit is
raised out of the way).

    nice -n 19 python -m bench.mine_puzzles --game lefe --games 400 --record /tmp/lefe.jsonl
    nice -n 19 python -m bench.mine_puzzles --game lublache --random --size 5 --first 1000 --games 1400 --record /tmp/lub.jsonl
    python -m bench.mine_puzzles --game lefe --record /tmp/lefe.jsonl --write data/puzzles/lefe.json

The record (JSON lines, one per game) makes a run resumable: games already in it are not
played again. ``--write`` picks the starter set from the record and the puzzles the file
already holds: at most one puzzle per position, spread over the difficulty (ratings), at
most ``--keep`` of them, each verified again before it is written.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from engine import get_board_game
from engine.ai.levels import search_move
from engine.ai.puzzles import DEFAULT_HORIZON, MIN_MOVES, Puzzle, mine_game, verify
from engine.board import BoardState

# careless side, careful side: the pairings a game number cycles through
PAIRINGS: tuple[tuple[str, str], ...] = (
    ("random", "easy"),
    ("beginner", "easy"),
    ("random", "beginner"),
    ("beginner", "beginner"),
)
MAX_PLIES = 400
LAST_PLIES = 16  # read the end of each line, where readings are short and wins are near
VARIATIONS = 6  # random lines branched off each game near its end
BRANCH_BACK = 30  # a variation branches off at most this many plies before the game's end
BUDGET = 6_000  # positions one position's reading may play before it is skipped (a re-check in the tests costs as much)
HORIZONS = {"lublache": 2}  # a Lublache win needs the opponent's reply: two plies
SIZES = {"lefe": 6, "dalen": 7, "les": 7, "lublache": 7}
# --random: both sides random, more variations branched off nearer the end, fewer plies read
RANDOM_VARIATIONS = 20
RANDOM_BRANCH_BACK = 20
RANDOM_LAST_PLIES = 10


def _move(state: BoardState, player: str, rng: random.Random) -> str:
    if player == "random":
        return rng.choice(state.legal_moves())
    return search_move(state, player, seed=rng.randrange(2**31), time_limit=5.0).move


def play_game(
    game: str, number: int, size: int, at_random: bool = False
) -> tuple[list[BoardState], list[str]]:
    """Self-play game ``number``: its positions and the two players (dark/black first)."""
    careless, careful = PAIRINGS[number % len(PAIRINGS)]
    players = [careless, careful] if number % 2 == 0 else [careful, careless]
    if at_random:
        players = ["random", "random"]
    rng = random.Random(f"{game}:{number}")
    state = get_board_game(game).new(size=size)
    positions = [state]
    while state.outcome is None and len(positions) <= MAX_PLIES:
        seat = state.seat_to_move
        assert seat is not None
        state = state.play(_move(state, players[seat], rng))
        positions.append(state)
    return positions, players


def variation(
    positions: list[BoardState], number: int, index: int, back: int = BRANCH_BACK
) -> tuple[list[BoardState], int]:
    """Variation ``index`` of a game: from a position some plies (at most ``back``) before
    its end, random moves to the end (a careless pair of players: every move may be a
    mistake). Returns the variation's positions from the game's start and the ply it
    branched at."""
    rng = random.Random(f"{positions[0].game.name}:{number}:{index}")
    branch = max(1, len(positions) - 1 - rng.randint(min(4, back), back))
    line = positions[: branch + 1]
    state = line[-1]
    while state.outcome is None and len(line) <= MAX_PLIES:
        state = state.play(rng.choice(state.legal_moves()))
        line.append(state)
    return line, branch


def mine(
    game: str,
    number: int,
    size: int,
    variations: int = VARIATIONS,
    at_random: bool = False,
    horizon: int | None = None,
) -> dict[str, Any]:
    """Game ``number`` and its ``variations`` variations, mined (``at_random``: both sides
    random, the variations nearer the end)."""
    started = time.process_time()
    positions, players = play_game(game, number, size, at_random)
    back = RANDOM_BRANCH_BACK if at_random else BRANCH_BACK
    last_plies = RANDOM_LAST_PLIES if at_random else LAST_PLIES
    lines: list[tuple[list[BoardState], dict[str, Any]]] = [
        (positions, {"players": players, "self_play": number})
    ]
    for index in range(variations):
        line, branch = variation(positions, number, index, back)
        lines.append(
            (line, {"players": players, "self_play": number, "variation": index, "branch": branch})
        )
    puzzles = []
    for line, source in lines:
        puzzles.extend(
            mine_game(
                line,
                horizon=horizon or HORIZONS.get(game, DEFAULT_HORIZON),
                source=source,
                last_plies=last_plies,
                deadline_per_position=float("inf"),
                budget_per_position=BUDGET,
            )
        )
    return {
        "game": game,
        "number": number,
        "plies": len(positions) - 1,
        "cpu": round(time.process_time() - started, 2),
        "variations": variations,
        "puzzles": [p.to_dict() for p in puzzles],
    }


def _records(path: Path) -> Iterator[dict[str, Any]]:
    if path.exists():
        for line in path.read_text().splitlines():
            if line.strip():
                yield json.loads(line)


def select(
    records: list[dict[str, Any]], keep: int, shipped: list[dict[str, Any]] | None = None
) -> list[Puzzle]:
    """At most ``keep`` verified puzzles, one per position, spread over the ratings: the
    ``shipped`` ones (the file's own) first, then the records' puzzles."""
    seen: set[tuple[Any, ...]] = set()
    candidates: list[Puzzle] = []
    ordered = sorted(records, key=lambda r: int(r["number"]))
    for data in [*(shipped or []), *(data for r in ordered for data in r["puzzles"])]:
        puzzle = Puzzle.from_dict(data)
        if puzzle.moves < MIN_MOVES:
            continue  # a record from before the rule: no choice, no puzzle
        key = (puzzle.to_move, tuple(sorted(puzzle.stones.items())))
        if key in seen:
            continue
        seen.add(key)
        candidates.append(puzzle)
    candidates.sort(key=lambda p: (p.rating, json.dumps(p.to_dict(), sort_keys=True)))
    if len(candidates) > keep:
        step = len(candidates) / keep
        candidates = [candidates[int(i * step)] for i in range(keep)]
    return [p for p in candidates if verify(p).ok]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--game", required=True)
    parser.add_argument("--games", type=int, default=0, help="play games FIRST .. N-1")
    parser.add_argument("--first", type=int, default=0, help="the first game's number")
    parser.add_argument("--size", type=int, default=None)
    parser.add_argument("--record", type=Path, required=True)
    parser.add_argument("--write", type=Path, default=None)
    parser.add_argument("--keep", type=int, default=80)
    parser.add_argument(
        "--variations", type=int, default=None, help="random lines branched off each game"
    )
    parser.add_argument("--random", action="store_true", help="both sides random")
    parser.add_argument("--horizon", type=int, default=None, help="plies a solution may take")
    args = parser.parse_args(argv)
    size = args.size or SIZES[args.game]
    variations = args.variations
    if variations is None:
        variations = RANDOM_VARIATIONS if args.random else VARIATIONS
    done = {int(r["number"]) for r in _records(args.record)}
    for number in range(args.first, args.games):
        if number in done:
            continue
        record = mine(args.game, number, size, variations, args.random, args.horizon)
        with args.record.open("a") as out:
            out.write(json.dumps(record, sort_keys=True) + "\n")
        print(
            f"{args.game} game {number}: {record['plies']} plies, "
            f"{len(record['puzzles'])} puzzles, {record['cpu']} s CPU",
            flush=True,
        )
    if args.write is not None:
        shipped = []
        if args.write.exists():
            shipped = list(json.loads(args.write.read_text())["puzzles"])
        chosen = select(list(_records(args.record)), args.keep, shipped)
        args.write.parent.mkdir(parents=True, exist_ok=True)
        body = {"game": args.game, "size": size, "puzzles": [p.to_dict() for p in chosen]}
        args.write.write_text(json.dumps(body, indent=1, sort_keys=True) + "\n")
        print(f"wrote {len(chosen)} puzzles to {args.write}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
