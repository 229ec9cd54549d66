"""Leiff bot seats measured against each other: placement and score per round.

Issue 36 asks the searching seats (:mod:`engine.ai.leiff_search`, the strongest level)
to be measured over 2,000 rounds at tables of 3 and 6 players, with and without special
cards and drinking rules, against today's sensible seats (:func:`leiff_bot.decide`, kept
as the reference) and against random seats; and each searching decision to take at most
1 s at p95. A *line* is one table size, one option set and one pairing; it is played as
games (target 100, at most ``ROUNDS_PER_GAME`` rounds each) in which the two kinds of seat
alternate round the table, the first kind taking the even seats in even games and the odd
seats in odd ones, so neither kind keeps the first turn.

Every finished game is one JSON line in ``--record`` (its round scores and the search's
CPU seconds per searched decision); a rerun skips the games already recorded, so a run can
stop and resume, and ``--shard K/N`` plays only the games whose index is K modulo N, so
several processes share a line. The lines are played side by side, one game of each in
turn, so a run stopped early has figures for all of them. ``--report`` prints the table.

    python -m bench.leiff_seats --record docs/benchmarks/leiff-seats.jsonl --shard 0/2
    python -m bench.leiff_seats --report docs/benchmarks/leiff-seats.jsonl

Placement is a seat's rank in its round by round score (1 = lowest score = best; seats
with equal scores share the mean of their ranks); score is the round score (the caller's
±5 included). Times are CPU seconds of the process (``time.process_time``), so a loaded
machine does not inflate them.
"""

from __future__ import annotations

import argparse
import json
import math
import random
import time
from collections.abc import Iterable, Sequence
from dataclasses import asdict, dataclass, field
from pathlib import Path

from engine.ai.leiff_bot import decide, random_decide
from engine.ai.leiff_search import LEIFF_WORLDS, STRONGEST_LEIFF_LEVEL, plan, search_decide
from engine.leiff import Leiff
from engine.leiff.state import LeiffState

ROUNDS_PER_GAME = 10
# A round longer than this is a bug (bots are patient: from a round's fifth refill every
# bot calls at its turn, engine.ai.leiff_bot): the line stops with the game named rather
# than spin for ever, as seats:6:specials+drinking:search-sensible:158 once did.
MAX_ROUND_ACTIONS = 5_000
TARGET = 100
OPTION_SETS: dict[str, dict[str, bool]] = {
    "base": {},
    "specials+drinking": {"specials": True, "drinking": True},
}
# (first kind, second kind); "search" is the strongest level, "sensible" today's seats
PAIRINGS: dict[str, tuple[str, str]] = {
    "search-sensible": ("search", "sensible"),
    "search-random": ("search", "random"),
    "sensible-random": ("sensible", "random"),
}


@dataclass
class SeatGame:
    """One recorded game of a line."""

    players: int
    options: str
    pairing: str
    index: int
    kinds: list[str]
    rounds: list[list[int]]
    search_seconds: list[float] = field(default_factory=list)

    @property
    def key(self) -> str:
        return record_key(self.players, self.options, self.pairing, self.index)


def record_key(players: int, options: str, pairing: str, index: int) -> str:
    return f"{players}:{options}:{pairing}:{index}"


def seat_kinds(players: int, pairing: str, index: int) -> list[str]:
    first, second = PAIRINGS[pairing]
    return [first if (seat + index) % 2 == 0 else second for seat in range(players)]


def play_game(
    players: int,
    options: str,
    pairing: str,
    index: int,
    worlds: int = LEIFF_WORLDS[STRONGEST_LEIFF_LEVEL],
) -> SeatGame:
    """Play one game of a line to its end or ``ROUNDS_PER_GAME`` rounds (the searching
    seats read ``worlds`` worlds a decision: the strongest level's unless told)."""
    kinds = seat_kinds(players, pairing, index)
    seed = f"seats:{players}:{options}:{pairing}:{index}"
    state: LeiffState = Leiff().new(
        players=players, seed=seed, options={**OPTION_SETS[options], "target": TARGET}
    )
    rng = random.Random(seed)
    game = SeatGame(players, options, pairing, index, kinds, [])
    actions = 0  # in this round
    while state.outcome is None and len(game.rounds) < ROUNDS_PER_GAME:
        actions += 1
        if actions > MAX_ROUND_ACTIONS:
            raise RuntimeError(f"{seed}: round {len(game.rounds) + 1} did not end")
        for seat in state.actors():
            view = state.view(seat)
            kind = kinds[seat]
            if kind == "search":
                started = time.process_time()
                _, options_searched = plan(view, None, worlds)
                action = search_decide(view, worlds=worlds)
                if len(options_searched) >= 2:
                    game.search_seconds.append(round(time.process_time() - started, 4))
            elif kind == "sensible":
                action = decide(view)
            else:
                action = random_decide(view, rng)
            if action is None:
                continue
            was_over = view["round_over"]
            state = state.play(seat, action)
            after = state.view(None)
            if after["round_over"] and not was_over and after["round_scores"] is not None:
                game.rounds.append(list(after["round_scores"]))
                actions = 0
            break
        else:
            raise RuntimeError("nobody at the table acts")
    return game


def load_record(paths: Iterable[str | Path]) -> dict[str, SeatGame]:
    games: dict[str, SeatGame] = {}
    for path in paths:
        if not Path(path).exists():
            continue
        for line in Path(path).read_text(encoding="utf-8").splitlines():
            if line.strip():
                game = SeatGame(**json.loads(line))
                games[game.key] = game
    return games


def placements(scores: Sequence[int]) -> list[float]:
    """Each seat's rank by score, 1 the lowest, ties sharing the mean of their ranks."""
    return [
        1 + sum(other < mine for other in scores) + (sum(other == mine for other in scores) - 1) / 2
        for mine in scores
    ]


@dataclass
class LineFigures:
    players: int
    options: str
    pairing: str
    rounds: int
    games: int
    # per kind: (mean placement, mean round score)
    kinds: dict[str, tuple[float, float]]
    search_ms: tuple[float, float, float] | None  # p50, p95, max


def _nearest_rank(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[max(0, math.ceil(share * len(ordered)) - 1)]


def line_figures(games: Iterable[SeatGame]) -> list[LineFigures]:
    by_line: dict[tuple[int, str, str], list[SeatGame]] = {}
    for game in games:
        by_line.setdefault((game.players, game.options, game.pairing), []).append(game)
    out = []
    for (players, options, pairing), line in sorted(by_line.items()):
        sums: dict[str, list[float]] = {}
        rounds = 0
        seconds: list[float] = []
        for game in line:
            seconds += game.search_seconds
            for scores in game.rounds:
                rounds += 1
                for seat, place in enumerate(placements(scores)):
                    row = sums.setdefault(game.kinds[seat], [0.0, 0.0, 0.0])
                    row[0] += place
                    row[1] += scores[seat]
                    row[2] += 1
        kinds = {kind: (row[0] / row[2], row[1] / row[2]) for kind, row in sums.items()}
        ms = None
        if seconds:
            ms = (
                1000 * _nearest_rank(seconds, 0.5),
                1000 * _nearest_rank(seconds, 0.95),
                1000 * max(seconds),
            )
        out.append(LineFigures(players, options, pairing, rounds, len(line), kinds, ms))
    return out


def markdown(figures: Sequence[LineFigures]) -> str:
    lines = [
        "| table | options | first v second | rounds (games) | first: placement, score "
        "| second: placement, score | search ms p50 / p95 / max |",
        "|---|---|---|---|---|---|---|",
    ]
    for f in figures:
        first, second = PAIRINGS[f.pairing]
        a = f.kinds.get(first, (math.nan, math.nan))
        b = f.kinds.get(second, (math.nan, math.nan))
        ms = "—" if f.search_ms is None else " / ".join(f"{x:.0f}" for x in f.search_ms)
        lines.append(
            f"| {f.players} | {f.options} | {first} v {second} | {f.rounds} ({f.games}) "
            f"| {a[0]:.3f}, {a[1]:.2f} | {b[0]:.3f}, {b[1]:.2f} | {ms} |"
        )
    return "\n".join(lines)


def run(
    lines: Sequence[tuple[int, str, str]],
    rounds: int,
    record: str,
    shard: tuple[int, int],
) -> None:
    part, parts = shard
    done = load_record([record])
    wanted = math.ceil(rounds / parts)
    open_lines = list(lines)
    while open_lines:
        for line in list(open_lines):
            mine = [g for g in done.values() if (g.players, g.options, g.pairing) == line]
            mine = [g for g in mine if g.index % parts == part]
            if sum(len(g.rounds) for g in mine) >= wanted:
                open_lines.remove(line)
                continue
            index = part
            while record_key(*line, index) in done:
                index += parts
            game = play_game(*line, index)
            done[game.key] = game
            with open(record, "a", encoding="utf-8") as handle:
                handle.write(json.dumps(asdict(game), separators=(",", ":")) + "\n")
            print(f"{game.key}: {len(game.rounds)} rounds", flush=True)


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--players", type=int, nargs="+", default=[3, 6])
    parser.add_argument("--options", nargs="+", default=list(OPTION_SETS), choices=OPTION_SETS)
    parser.add_argument("--pairings", nargs="+", default=list(PAIRINGS), choices=PAIRINGS)
    parser.add_argument("--rounds", type=int, default=2000, help="rounds a line (all shards)")
    parser.add_argument("--record", default="leiff-seats.jsonl")
    parser.add_argument("--shard", default="0/1", help="K/N: play only games K modulo N")
    parser.add_argument("--report", nargs="*", help="print the table of these records")
    args = parser.parse_args(argv)
    if args.report is not None:
        print(markdown(line_figures(load_record(args.report or [args.record]).values())))
        return
    part, parts = (int(x) for x in args.shard.split("/"))
    lines = [(p, o, q) for p in args.players for o in args.options for q in args.pairings]
    run(lines, args.rounds, args.record, (part, parts))


if __name__ == "__main__":
    main()
