"""Strength benchmark of the AI opponents (``make bench-ai``; not part of ``make bench``).

For each board game at its default size: each level against a uniformly random player,
and hard against normal, over ``--games`` games (default 50) with the seats alternated
(the AI starts the even-numbered games, so it plays both sides of the pie rule). For
Leiff: sensible bot seats against random-action seats over ``--rounds`` rounds (default
200) at four-player tables (bots in seats 0 and 2), comparing average round scores.

The bots play at their real strength (``--scale 1.0``, the default); a smaller scale
divides every level's iterations and time limit for quick looks. Games run in
``--workers`` processes (default 2). Every finished game can be appended to a JSON-lines
``--record`` file; a rerun with the same record skips the games already in it (so a long
run can be stopped and resumed, or split over several commands), and ``--report`` prints
the tables from a record without playing.

    python -m bench.ai                                   # everything, full strength
    python -m bench.ai lefe leiff                        # a subset
    python -m bench.ai dalen --games 10 --scale 0.1      # a quick look
    python -m bench.ai les --lines hard-normal --record ai.jsonl
    python -m bench.ai --report ai.jsonl
"""

from __future__ import annotations

import argparse
import json
import os
import random
import statistics
import sys
import time
import zlib
from collections.abc import Iterable
from concurrent.futures import ProcessPoolExecutor, as_completed
from dataclasses import asdict, dataclass
from typing import Any

from engine import BOARD_GAMES, get_board_game
from engine.ai.leiff_bot import run_table
from engine.ai.levels import LEVEL_NAMES, search_move
from engine.ai.mcts import uniform_random_move
from engine.leiff import Leiff

RANDOM = "random"
LEIFF_TABLE = ("bot", "random", "bot", "random")


@dataclass
class GameResult:
    outcome: str  # "win", "draw" or "loss" for the first-named player
    ai_move_seconds: list[float]
    plies: int
    reason: str = ""  # the engine's end sentence, e.g. "draw 2–2: dark has no legal placement"
    index: int = 0
    wall: float = 0.0  # seconds the whole game took


def record_key(game: str, first: str, second: str, index: int, scale: float) -> str:
    return f"{game}:{first}-{second}:{index}:{scale:g}"


def load_record(path: str | None) -> dict[str, dict[str, Any]]:
    """The games already in a JSON-lines record, by ``record_key`` (empty if no file)."""
    if not path or not os.path.exists(path):
        return {}
    games: dict[str, dict[str, Any]] = {}
    with open(path, encoding="utf-8") as handle:
        for line in handle:
            if line.strip():
                entry = json.loads(line)
                games[entry["key"]] = entry
    return games


def play_one(game_name: str, first: str, second: str, index: int, scale: float) -> GameResult:
    """One game of ``first`` against ``second`` (a level name or "random")."""
    game = get_board_game(game_name)
    rng = random.Random(1_000_003 * index + zlib.crc32(game_name.encode()))
    state = game.new()
    first_seat = index % 2
    times: list[float] = []
    game_started = time.perf_counter()
    while state.outcome is None:
        player = first if state.seat_to_move == first_seat else second
        if player == RANDOM:
            move = uniform_random_move(state, rng)
        else:
            started = time.perf_counter()
            move = search_move(state, player, seed=rng.randrange(2**32), scale=scale).move
            times.append(time.perf_counter() - started)
        state = state.play(move)
    winner = state.outcome.winner
    if winner is None:
        outcome = "draw"
    else:
        outcome = "win" if state.seat_of(winner) == first_seat else "loss"
    wall = time.perf_counter() - game_started
    return GameResult(outcome, times, state.ply, state.outcome.reason, index, wall)


def board_matchups() -> list[tuple[str, str]]:
    return [*((level, RANDOM) for level in LEVEL_NAMES), ("hard", "normal")]


def parse_lines(text: str | None) -> list[tuple[str, str]]:
    """``"normal-random,hard-normal"`` -> the matchups to play (all of them when None)."""
    if not text:
        return board_matchups()
    known = {f"{a}-{b}": (a, b) for a, b in board_matchups()}
    chosen = []
    for item in text.split(","):
        if item.strip() not in known:
            raise ValueError(f"unknown line {item!r}; the lines are: {', '.join(known)}")
        chosen.append(known[item.strip()])
    return chosen


def summary_row(first: str, second: str, results: list[GameResult], wall: float) -> str:
    games = len(results)
    wins = sum(r.outcome == "win" for r in results)
    draws = sum(r.outcome == "draw" for r in results)
    losses = games - wins - draws
    times = [t for r in results for t in r.ai_move_seconds]
    mean_ms = 1000 * statistics.mean(times) if times else 0.0
    max_ms = 1000 * max(times) if times else 0.0
    plies = statistics.mean(r.plies for r in results) if results else 0
    score = (wins + 0.5 * draws) / games if games else 0.0
    return (
        f"  {first:>6} v {second:<7} {games:5} {wins:5} {draws:5} {losses:6}  {score:6.1%}"
        f"   {mean_ms:8.1f} {max_ms:8.1f}      {plies:5.0f}  {wall:6.0f}"
    )


HEADER = "  match             games  wins draws losses  score   ms/move (mean, max)  plies  wall s"


def run_board_game(
    game_name: str,
    games: int,
    scale: float,
    pool: ProcessPoolExecutor,
    lines: list[tuple[str, str]] | None = None,
    show_games: bool = False,
    record: str | None = None,
    start: int = 0,
) -> None:
    print(
        f"\n{game_name} (size {get_board_game(game_name).default_size}, {games} games a line, scale {scale})"
    )
    print(HEADER, flush=True)
    done = load_record(record)
    for first, second in lines or board_matchups():
        started = time.perf_counter()
        results: list[GameResult] = []
        futures = {}
        for index in range(start, games):
            key = record_key(game_name, first, second, index, scale)
            if key in done:
                entry = dict(done[key])
                entry.pop("key")
                results.append(GameResult(**entry))
            else:
                future = pool.submit(play_one, game_name, first, second, index, scale)
                futures[future] = key
        for future in as_completed(futures):
            result = future.result()
            results.append(result)
            if record:
                with open(record, "a", encoding="utf-8") as handle:
                    handle.write(json.dumps({"key": futures[future], **asdict(result)}) + "\n")
            print(
                f"    {first} v {second} game {result.index}: {result.outcome}"
                f" in {result.plies} plies, {result.wall:.0f} s",
                flush=True,
            )
        results.sort(key=lambda r: r.index)
        print(summary_row(first, second, results, time.perf_counter() - started), flush=True)
        if show_games:  # the games not won, to look at what went wrong
            for r in results:
                if r.outcome != "win":
                    first_colour = "seat A" if r.index % 2 == 0 else "seat B"
                    print(
                        f"    game {r.index} ({first} as {first_colour}): {r.outcome}, {r.reason}"
                    )


def report(record: str, markdown: bool = False, show_games: bool = False) -> None:
    """Print the tables of a record file, one row per game type and line; with
    ``show_games``, then every game not won, with the engine's end sentence."""
    lines: dict[tuple[str, str, str, str], list[GameResult]] = {}
    for key, entry in load_record(record).items():
        game, line, _, scale = key.split(":")
        first, second = line.split("-")
        entry = dict(entry)
        entry.pop("key")
        lines.setdefault((game, first, second, scale), []).append(GameResult(**entry))
    if markdown:
        print(
            "| game (size) | line | scale | games | wins | draws | losses | wins % | score |"
            " ms/move mean (max) | plies |"
        )
        print("|---|---|---|---|---|---|---|---|---|---|---|")
    current = None
    order = {matchup: n for n, matchup in enumerate(board_matchups())}

    def line_order(
        item: tuple[tuple[str, str, str, str], list[GameResult]],
    ) -> tuple[str, str, int, str, str]:
        game, first, second, scale = item[0]  # games A-Z, then the lines as the run plays them
        return (game, scale, order.get((first, second), len(order)), first, second)

    ordered = sorted(lines.items(), key=line_order)
    for (game, first, second, scale), results in ordered:
        if markdown:
            print(markdown_row(game, first, second, scale, results))
            continue
        if (game, scale) != current:
            current = (game, scale)
            print(f"\n{game} (scale {scale})")
            print(HEADER)
        print(summary_row(first, second, results, sum(r.wall for r in results)))
    if show_games:
        print()
        for (game, first, second, scale), results in ordered:
            lost = [r for r in sorted(results, key=lambda r: r.index) if r.outcome != "win"]
            if lost:
                games_text = "; ".join(f"{r.index} ({r.outcome}, {r.reason})" for r in lost)
                at_scale = "" if float(scale) == 1.0 else f" (scale {scale})"
                print(f"- {game.capitalize()} {first} v {second}{at_scale}: {games_text}")


def markdown_row(game: str, first: str, second: str, scale: str, results: list[GameResult]) -> str:
    games = len(results)
    wins = sum(r.outcome == "win" for r in results)
    draws = sum(r.outcome == "draw" for r in results)
    times = [t for r in results for t in r.ai_move_seconds]
    mean_ms = 1000 * statistics.mean(times) if times else 0.0
    max_ms = 1000 * max(times) if times else 0.0
    plies = statistics.mean(r.plies for r in results)
    title = f"{game.capitalize()} ({get_board_game(game).default_size})"
    return (
        f"| {title} | {first} v {second} | {scale} | {games} | {wins} | {draws} |"
        f" {games - wins - draws} | {wins / games:.0%} | {(wins + draws / 2) / games:.1%} |"
        f" {mean_ms:.0f} ({max_ms:.0f}) | {plies:.0f} |"
    )


def leiff_table(seed: int, rounds: int, options: dict[str, bool]) -> list[list[int]]:
    state = Leiff().new(players=len(LEIFF_TABLE), seed=seed, options=options)
    _, scores = run_table(state, LEIFF_TABLE, rounds=rounds, rng=random.Random(seed))
    return scores


def run_leiff(rounds: int, pool: ProcessPoolExecutor) -> None:
    print(f"\nleiff ({rounds} rounds a line, 4 players: bots in seats 0 and 2, random in 1 and 3)")
    print("  options            bot avg  random avg  rounds best bot < best random  wall s")
    for label, options in (("base game", {}), ("special cards", {"specials": True})):
        started = time.perf_counter()
        scores: list[list[int]] = []
        seed = 0
        while len(scores) < rounds:  # one match per task; a match lasts a few rounds
            batch = [pool.submit(leiff_table, seed + i, rounds, options) for i in range(8)]
            seed += len(batch)
            for future in batch:
                scores.extend(future.result())
        scores = scores[:rounds]
        bot = [row[s] for row in scores for s, who in enumerate(LEIFF_TABLE) if who == "bot"]
        rand = [row[s] for row in scores for s, who in enumerate(LEIFF_TABLE) if who == RANDOM]
        lower = sum(min(row[0], row[2]) < min(row[1], row[3]) for row in scores)
        print(
            f"  {label:<16} {statistics.mean(bot):9.2f} {statistics.mean(rand):11.2f}"
            f"   {lower:5}/{len(scores):<5}                  {time.perf_counter() - started:6.0f}",
            flush=True,
        )


def main(argv: Iterable[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m bench.ai", description=__doc__.split("\n\n")[0]
    )
    parser.add_argument("games_to_run", nargs="*", help="subset: lefe dalen les lublache leiff")
    parser.add_argument("--games", type=int, default=50, help="games per line (board games)")
    parser.add_argument("--rounds", type=int, default=200, help="Leiff rounds")
    parser.add_argument(
        "--scale", type=float, default=1.0, help="share of the levels' budgets (1.0: real)"
    )
    parser.add_argument("--workers", type=int, default=2, help="processes playing games")
    parser.add_argument(
        "--lines",
        default=None,
        help="board-game matchups to play, e.g. normal-random,hard-normal (default: all)",
    )
    parser.add_argument(
        "--show-games", action="store_true", help="list every board game not won, with its end"
    )
    parser.add_argument("--record", default=None, help="JSON-lines file of finished games")
    parser.add_argument(
        "--start", type=int, default=0, help="first game index (to split a line over processes)"
    )
    parser.add_argument("--report", default=None, help="print the tables of a record and stop")
    parser.add_argument("--markdown", action="store_true", help="--report as a Markdown table")
    args = parser.parse_args(list(sys.argv[1:] if argv is None else argv))
    if args.report:
        report(args.report, args.markdown, args.show_games)
        return 0
    chosen = args.games_to_run or [*BOARD_GAMES, "leiff"]
    unknown = [name for name in chosen if name not in (*BOARD_GAMES, "leiff")]
    if unknown:
        parser.error(f"unknown game(s): {', '.join(unknown)}")
    try:
        lines = parse_lines(args.lines)
    except ValueError as error:
        parser.error(str(error))

    from bench.__main__ import machine_line

    print(f"machine: {machine_line()}")
    started = time.perf_counter()
    with ProcessPoolExecutor(max_workers=args.workers) as pool:
        for name in chosen:
            if name == "leiff":
                run_leiff(args.rounds, pool)
            else:
                run_board_game(
                    name,
                    args.games,
                    args.scale,
                    pool,
                    lines,
                    args.show_games,
                    args.record,
                    args.start,
                )
    print(f"\ntotal wall time {time.perf_counter() - started:.0f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
