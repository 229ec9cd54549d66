"""The strength ladder (``make bench-ai``): a round robin of the AI players, fitted to Elo.

For each board game: every offered level (``engine.ai.levels.LEVEL_NAMES``), the frozen
reference (today's hard, :mod:`bench.reference`) and the uniformly random player play each
other ``--games`` times (default 200) at the game's default size (``--size``), the
first-named player of a pairing taking seat A in even-numbered games and seat B in odd
ones, so both play both colours and both sides of the pie rule where the game has it.
The levels and the reference search at ``--scale`` times their budgets and time limits
(1.0, the default: the real players).

Every finished game is one JSON line in ``--record``; a rerun with the same record plays
only the games not in it (stop and resume at will, or raise ``--games`` to extend a run).
``--shard K/N`` plays only the games whose index is K modulo N, so N processes (on one
machine or several) share a run; their records, or one record they all append to, merge
in ``--report``. The report fits Elo ratings per game (:mod:`bench.elo`: Bradley–Terry by
maximum likelihood, the reference anchored at 1500, 95 % intervals from the Fisher
information) and prints, per game, each player's Elo with its interval, its score
against each other player and its milliseconds per move (p50, p95, max).

    python -m bench.ladder --record ladder.jsonl                  # the full run (days)
    python -m bench.ladder lefe --games 20 --scale 0.1 --size smallest --record l.jsonl
    python -m bench.ladder --record a.jsonl --shard 0/2 &  python -m bench.ladder --record b.jsonl --shard 1/2
    python -m bench.ladder dalen --pairings master-reference,hard-random --record d.jsonl
    python -m bench.ladder --report a.jsonl b.jsonl [--markdown] [--write-doc docs/benchmarks/ai.md]
    python -m bench.ladder --report full.jsonl --write-doc docs/benchmarks/ai.md --doc-section full

``--pairings`` plays only the pairings named, in turn (game 0 of each, then game 1, ...),
so that a run stopped early has measured first what decides the goals.
"""

from __future__ import annotations

import argparse
import itertools
import json
import math
import os
import random
import sys
import time
import zlib
from collections.abc import Iterable, Mapping, Sequence
from concurrent.futures import ProcessPoolExecutor, as_completed
from dataclasses import asdict, dataclass, field
from pathlib import Path

from bench.elo import Fit, Pairing, connected_to, fit_elo
from bench.reference import REFERENCE, reference_games, reference_search
from engine import BOARD_GAMES, get_board_game
from engine.ai.levels import LEVEL_NAMES, search_move
from engine.board import BoardState

RANDOM = "random"
ANCHOR = REFERENCE
ANCHOR_ELO = 1500.0
DEFAULT_GAMES = 200
# The Markdown the report writes into a page goes between these two lines (--write-doc).
DOC_BEGIN = "<!-- ladder table: written by python -m bench.ladder --write-doc; do not edit -->"
DOC_END = "<!-- end of ladder table -->"


def ladder_players(game: str) -> tuple[str, ...]:
    """Who plays in ``game``'s round robin: the levels, the reference, the random player."""
    reference = (REFERENCE,) if game in reference_games() else ()
    return (*LEVEL_NAMES, *reference, RANDOM)


def round_robin(players: Sequence[str]) -> list[tuple[str, str]]:
    """Every pairing of two players once, in the players' order."""
    return list(itertools.combinations(players, 2))


def board_size(game: str, size: str) -> int:
    """``"default"``, ``"smallest"`` or a number, as a size ``game`` offers."""
    spec = get_board_game(game).spec
    if size == "default":
        return get_board_game(game).default_size
    if size == "smallest":
        return min(spec.sizes)
    if not size.isdigit() or int(size) not in spec.sizes:
        raise ValueError(f"{game} is played on sizes {', '.join(map(str, spec.sizes))}, not {size}")
    return int(size)


def record_key(game: str, size: int, first: str, second: str, index: int, scale: float) -> str:
    return f"{game}:{size}:{first}-{second}:{index}:{scale:g}"


@dataclass
class LadderGame:
    """One finished game of the ladder, as recorded (one JSON line)."""

    key: str
    game: str
    size: int
    scale: float
    first: str
    second: str
    index: int  # the first-named player has seat A when even, seat B when odd
    outcome: str  # "win", "draw" or "loss" for the first-named player
    plies: int
    reason: str  # the engine's end sentence
    seconds: dict[str, list[float]] = field(default_factory=dict)  # per searching player
    wall: float = 0.0
    clock: str = "wall"  # what the searches' time limits and ``seconds`` counted (CLOCKS)


# "wall": the searches' time limits count wall-clock seconds, as when serving players.
# "cpu": they count this process's CPU seconds, so that a machine loaded by others gives
# every player the same thinking as a quiet one ("one core"), and ``seconds`` are CPU too.
CLOCKS = ("wall", "cpu")
_SEARCH_MODULES = (
    "engine.ai.mcts",
    "engine.ai.alphabeta",
    "engine.ai.tactics",
    "engine.ai.levels",
    "engine.ai.endsolver",
    "bench.reference.mcts",
    "bench.reference.alphabeta",
)


def use_clock(clock: str) -> None:
    """Make every search in this process (the levels' and the reference's) read ``clock``.

    The searches read ``time.perf_counter()`` through their module's ``time``; for "cpu"
    each such module gets a stand-in whose ``perf_counter`` is ``time.process_time``.
    """
    import importlib
    import types

    if clock not in CLOCKS:
        raise ValueError(f"--clock is one of {', '.join(CLOCKS)}, not {clock!r}")
    counter = time.process_time if clock == "cpu" else time.perf_counter
    stand_in = types.SimpleNamespace(perf_counter=counter)
    for name in _SEARCH_MODULES:
        module = importlib.import_module(name)
        module.time = time if clock == "wall" else stand_in  # type: ignore[attr-defined]  # the module's own import of time, swapped
    global _CLOCK, _now
    _CLOCK, _now = clock, counter


_CLOCK = "wall"
_now = time.perf_counter


def move_for(player: str, state: BoardState, rng: random.Random, scale: float) -> str:
    """``player``'s move in ``state``: a level, the reference, or the random player."""
    if player == RANDOM:
        return rng.choice(state.legal_moves())
    seed = rng.randrange(2**32)
    if player == REFERENCE:
        return reference_search(state, seed=seed, scale=scale).move
    return search_move(state, player, seed=seed, scale=scale).move


def play_game(
    game: str, size: int, first: str, second: str, index: int, scale: float
) -> LadderGame:
    """Play game ``index`` of the pairing (seeded by game, size, pairing and index)."""
    rng = random.Random(1_000_003 * index + zlib.crc32(f"{game}:{size}:{first}-{second}".encode()))
    state = get_board_game(game).new(size)
    first_seat = index % 2
    seconds: dict[str, list[float]] = {p: [] for p in (first, second) if p != RANDOM}
    started = time.perf_counter()
    while state.outcome is None:
        player = first if state.seat_to_move == first_seat else second
        move_started = _now()
        move = move_for(player, state, rng, scale)
        if player != RANDOM:
            seconds[player].append(round(_now() - move_started, 4))
        state = state.play(move)
    winner = state.outcome.winner
    if winner is None:
        outcome = "draw"
    else:
        outcome = "win" if state.seat_of(winner) == first_seat else "loss"
    key = record_key(game, size, first, second, index, scale)
    wall = round(time.perf_counter() - started, 3)
    return LadderGame(
        key, game, size, scale, first, second, index, outcome, state.ply, state.outcome.reason,
        seconds, wall, _CLOCK,
    )  # fmt: skip


def load_records(paths: Iterable[str | Path]) -> dict[str, LadderGame]:
    """The games of one or more records, by key. Several processes' records merge here; a
    game found twice (one record copied into another) counts once."""
    games: dict[str, LadderGame] = {}
    for path in paths:
        if not os.path.exists(path):
            continue
        with open(path, encoding="utf-8") as handle:
            for line in handle:
                if line.strip():
                    entry = LadderGame(**json.loads(line))
                    games.setdefault(entry.key, entry)
    return games


def append_record(path: str | Path, game: LadderGame) -> None:
    """Add one game to a record: one ``write`` of one line to a file opened for appending,
    so processes sharing a record never interleave their lines."""
    line = (json.dumps(asdict(game), ensure_ascii=False) + "\n").encode()
    descriptor = os.open(path, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o644)
    try:
        os.write(descriptor, line)
    finally:
        os.close(descriptor)


def parse_shard(text: str) -> tuple[int, int]:
    """``"K/N"`` -> (K, N), 0 <= K < N."""
    try:
        part, parts = (int(x) for x in text.split("/"))
    except ValueError:
        raise ValueError(f"--shard takes K/N, e.g. 0/2, not {text!r}") from None
    if not 0 <= part < parts:
        raise ValueError(f"--shard K/N needs 0 <= K < N, not {text!r}")
    return part, parts


def parse_pairings(text: str) -> list[tuple[str, str]]:
    """``"master-reference,hard-random"`` -> [("master", "reference"), ("hard", "random")]."""
    pairings: list[tuple[str, str]] = []
    for item in text.split(","):
        names = item.strip().split("-")
        if len(names) != 2 or not all(names) or names[0] == names[1]:
            raise ValueError(f"--pairings takes A-B,C-D, e.g. master-reference, not {item!r}")
        pairings.append((names[0], names[1]))
    return pairings


def game_pairings(game: str, pairings: Sequence[tuple[str, str]]) -> list[tuple[str, str]]:
    """The ``pairings`` ``game``'s ladder has, in the given order, each named as the round
    robin names it (the player listed first in :func:`ladder_players` first), so that its
    games' seeds and record keys are the round robin's whichever way round it was asked."""
    players = ladder_players(game)
    chosen: list[tuple[str, str]] = []
    for first, second in pairings:
        if first in players and second in players:
            pairing = (
                (first, second) if players.index(first) < players.index(second) else (second, first)
            )
            if pairing not in chosen:
                chosen.append(pairing)
    return chosen


def planned_games(
    game: str,
    size: int,
    players: Sequence[str],
    games: int,
    scale: float,
    shard: tuple[int, int] = (0, 1),
    pairings: Sequence[tuple[str, str]] | None = None,
) -> list[tuple[str, str, int]]:
    """The (first, second, index) games of this run's share of the round robin.

    Without ``pairings``, pairing after pairing (all of one pairing's games, then the
    next's). With ``pairings``, only those, taken in turn (game 0 of each pairing, then
    game 1 of each, ...): a run stopped at any point has played them about equally, so the
    pairings that decide the goals grow together instead of waiting for each other.
    """
    part, parts = shard
    if pairings is None:
        return [
            (first, second, index)
            for first, second in round_robin(players)
            for index in range(games)
            if index % parts == part
        ]
    chosen = game_pairings(game, pairings)
    return [
        (first, second, index)
        for index in range(games)
        if index % parts == part
        for first, second in chosen
    ]


def run_ladder(
    game_names: Sequence[str],
    *,
    games: int = DEFAULT_GAMES,
    scale: float = 1.0,
    size: str = "default",
    players: Sequence[str] | None = None,
    workers: int = 2,
    record: str | Path | None = None,
    shard: tuple[int, int] = (0, 1),
    quiet: bool = False,
    clock: str = "wall",
    pairings: Sequence[tuple[str, str]] | None = None,
) -> list[LadderGame]:
    """Play the games of the round robin (or of ``pairings`` only, in turn: see
    :func:`planned_games`) not yet in ``record`` (in ``workers`` processes; 0: in this
    one), append each to it as it ends, and return the games played; the searches count
    ``clock`` seconds (see :func:`use_clock`)."""
    use_clock(clock)
    done = load_records([record]) if record else {}
    todo: list[tuple[str, int, str, str, int]] = []
    for game in game_names:
        chosen = [p for p in ladder_players(game) if players is None or p in players]
        game_size = board_size(game, size)
        planned = planned_games(game, game_size, chosen, games, scale, shard, pairings)
        for first, second, index in planned:
            if record_key(game, game_size, first, second, index, scale) not in done:
                todo.append((game, game_size, first, second, index))
    played: list[LadderGame] = []

    def finished(result: LadderGame) -> None:
        played.append(result)
        if record:
            append_record(record, result)
        if not quiet:
            print(
                f"  {result.game} {result.first} v {result.second} game {result.index}:"
                f" {result.outcome} in {result.plies} plies, {result.wall:.1f} s",
                flush=True,
            )

    if not quiet:
        print(f"{len(todo)} games to play, {len(done)} already in the record", flush=True)
    if workers <= 0:
        for item in todo:
            finished(play_game(*item, scale))
        return played
    with ProcessPoolExecutor(max_workers=workers, initializer=use_clock, initargs=(clock,)) as pool:
        futures = [pool.submit(play_game, *item, scale) for item in todo]
        for future in as_completed(futures):
            finished(future.result())
    return played


# ---- the report -----------------------------------------------------------------------


@dataclass(frozen=True)
class Score:
    """One player's games against one other: wins, draws, losses."""

    wins: int = 0
    draws: int = 0
    losses: int = 0

    @property
    def games(self) -> int:
        return self.wins + self.draws + self.losses

    @property
    def points(self) -> float:
        return self.wins + self.draws / 2

    def text(self) -> str:
        share = self.points / self.games if self.games else 0.0
        return f"{share:.0%} ({self.wins}–{self.draws}–{self.losses})"


@dataclass(frozen=True)
class LadderTable:
    """The fitted ladder of one game at one size and scale."""

    game: str
    size: int
    scale: float
    players: tuple[str, ...]
    fit: Fit
    scores: dict[tuple[str, str], Score]  # (player, opponent) from the player's side
    seconds: dict[str, list[float]]  # every move time of each searching player
    games: int
    clock: str = "wall"  # what the times count: "wall", "cpu", or "mixed"
    # Players whose games never tie them to the anchor, even through others (a partial
    # run, e.g. only `--pairings easy-random`): shown with their scores, not rated.
    unrated: tuple[str, ...] = ()


def percentile(values: Sequence[float], share: float) -> float:
    """The nearest-rank percentile: the smallest value with ``share`` of them at or below."""
    ordered = sorted(values)
    return ordered[max(0, math.ceil(share * len(ordered)) - 1)]


def ladder_tables(records: Iterable[LadderGame]) -> list[LadderTable]:
    """One fitted table per (game, size, scale) in the records, games A–Z."""
    groups: dict[tuple[str, int, float], list[LadderGame]] = {}
    for entry in records:
        groups.setdefault((entry.game, entry.size, entry.scale), []).append(entry)
    tables = []
    for (game, size, scale), entries in sorted(groups.items()):
        known = ladder_players(game)
        seen = {p for e in entries for p in (e.first, e.second)}
        players = tuple(p for p in known if p in seen) + tuple(sorted(seen - set(known)))
        tally: dict[tuple[str, str], list[int]] = {}
        seconds: dict[str, list[float]] = {}
        for e in entries:
            a, b = (
                tally.setdefault((e.first, e.second), [0, 0, 0]),
                tally.setdefault((e.second, e.first), [0, 0, 0]),
            )
            column = {"win": 0, "draw": 1, "loss": 2}[e.outcome]
            a[column] += 1
            b[2 - column] += 1
            for player, times in e.seconds.items():
                seconds.setdefault(player, []).extend(times)
        scores = {pair: Score(*counts) for pair, counts in tally.items()}
        pairings = [
            Pairing(a, b, scores[(a, b)].games, scores[(a, b)].points)
            for a, b in itertools.combinations(players, 2)
            if (a, b) in scores
        ]
        anchor = ANCHOR if ANCHOR in players else players[0]
        tied = connected_to(anchor, pairings)
        rated = tuple(p for p in players if p in tied)
        fit = fit_elo(
            rated,
            [p for p in pairings if p.first in tied],
            anchor=anchor,
            anchor_elo=ANCHOR_ELO,
        )
        clocks = {e.clock for e in entries}
        clock = clocks.pop() if len(clocks) == 1 else "mixed"
        unrated = tuple(p for p in players if p not in tied)
        tables.append(
            LadderTable(
                game, size, scale, players, fit, scores, seconds, len(entries), clock, unrated
            )
        )
    return tables


def _ms(values: Sequence[float], share: float) -> str:
    return f"{1000 * percentile(values, share):.0f}" if values else "–"


def markdown_table(table: LadderTable) -> list[str]:
    """The table of one game as Markdown lines (rows best first)."""
    per_pairing = sorted({s.games for (a, b), s in table.scores.items() if a < b})
    games_text = "–".join(str(n) for n in (per_pairing[0], per_pairing[-1]) if per_pairing)
    if per_pairing and per_pairing[0] == per_pairing[-1]:
        games_text = str(per_pairing[0])
    title = get_board_game(table.game).spec.name.capitalize()
    fit = table.fit
    lines = [
        f"#### {title}, size {table.size}, scale {table.scale:g}: {table.games} games,"
        f" {games_text} a pairing" + ("" if table.clock == "wall" else f", {table.clock} clock"),
        "",
        "| player | Elo | 95 % interval | "
        + " | ".join(f"v {p}" for p in table.players)
        + " | ms/move p50 | p95 | max |",
        "|---|---|---|" + "---|" * len(table.players) + "---|---|---|",
    ]
    ranked = sorted(fit.ratings, key=lambda r: (-r.elo, table.players.index(r.player)))
    rows = [
        (
            r.player,
            f"{r.elo:.0f}",
            "anchor" if r.player == fit.anchor else f"{r.low:.0f} to {r.high:.0f}",
        )
        for r in ranked
    ]
    # shown with their scores but no rating: nothing ties them to the anchor
    rows += [(player, "–", f"not tied to {fit.anchor}") for player in table.unrated]
    for player, elo, interval in rows:
        scores = [table.scores.get((player, other), Score()) for other in table.players]
        cells = [
            "—" if other == player else score.text() if score.games else "–"
            for other, score in zip(table.players, scores, strict=True)
        ]
        times = table.seconds.get(player, [])
        lines.append(
            f"| {player} | {elo} | {interval} | "
            + " | ".join(cells)
            + f" | {_ms(times, 0.5)} | {_ms(times, 0.95)} | {_ms(times, 1.0)} |"
        )
    state = f"converged in {fit.steps} steps" if fit.converged else "NOT converged"
    lines += [
        "",
        f"Fit: {fit.anchor} anchored at {ANCHOR_ELO:.0f}, one virtual draw per pairing,"
        f" {state}. Cells: the row player's score against the column player"
        " (wins–draws–losses; – where they have not met).",
    ]
    return lines


# A level's strength is shown to members only once it rests on this many games.
MIN_STRENGTH_GAMES = 100
# ... and only once its 95 % interval is at most this wide (Elo, low to high): the levels
# are meant to stand about 200 apart, so a wider interval cannot tell a level from its
# neighbours (Dalen's easy, 184 games against random joined to the reference by a handful
# of master's games, read 1443 with 823-2063: a number, not a measurement).
MAX_STRENGTH_SPREAD = 400


def strength_data(
    records: Iterable[LadderGame],
    *,
    scale: float = 1.0,
    size: str = "default",
    min_games: int = MIN_STRENGTH_GAMES,
    max_spread: float = MAX_STRENGTH_SPREAD,
) -> dict[str, dict[str, dict[str, int]]]:
    """Each offered level's fitted strength per game, for the bot to show with its levels:
    ``{game: {level: {"elo", "low", "high", "games"}}}``, from the tables at ``scale`` (1:
    the real players) and ``size`` that include the reference (the anchor, 1500), for the
    levels that played at least ``min_games`` games there and whose interval is at most
    ``max_spread`` Elo wide."""
    found: dict[str, dict[str, dict[str, int]]] = {}
    for table in ladder_tables(records):
        if table.scale != scale or table.size != board_size(table.game, size):
            continue
        if ANCHOR not in table.players or not table.fit.converged:
            continue
        for player in table.players:
            if player not in LEVEL_NAMES or player in table.unrated:
                continue
            rating = table.fit.rating(player)
            games = sum(score.games for (who, _), score in table.scores.items() if who == player)
            if games < min_games or rating.high - rating.low > max_spread:
                continue
            found.setdefault(table.game, {})[player] = {
                "elo": round(rating.elo),
                "low": round(rating.low),
                "high": round(rating.high),
                "games": games,
            }
    return found


def write_strength(path: str | Path, data: Mapping[str, object]) -> None:
    """The strength file the bot reads (``data/ai-strength.json``)."""
    text = json.dumps(data, indent=2, sort_keys=True, ensure_ascii=False) + "\n"
    Path(path).write_text(text, encoding="utf-8")


def markdown_report(records: Iterable[LadderGame]) -> str:
    """Every game's table, as the page quotes it (what ``--write-doc`` writes)."""
    lines: list[str] = []
    for table in ladder_tables(records):
        if lines:
            lines.append("")
        lines += markdown_table(table)
    return "\n".join(lines) + "\n"


def doc_markers(section: str | None = None) -> tuple[str, str]:
    """The two lines a page's ladder tables stand between: the page's one table by
    default, or a named section's (a page may quote several records, each in its own)."""
    if section is None:
        return DOC_BEGIN, DOC_END
    begin = (
        f"<!-- ladder table {section}: written by python -m bench.ladder --write-doc"
        f" --doc-section {section}; do not edit -->"
    )
    return begin, f"<!-- end of ladder table {section} -->"


def write_doc(page: str | Path, report: str, section: str | None = None) -> None:
    """Put ``report`` between the page's ladder markers (of ``section``), in place of what
    was there."""
    begin, end = doc_markers(section)
    text = Path(page).read_text(encoding="utf-8")
    if begin not in text or end not in text:
        raise ValueError(f"{page} has no ladder markers ({begin} ... {end})")
    head, rest = text.split(begin, 1)
    _, tail = rest.split(end, 1)
    Path(page).write_text(f"{head}{begin}\n{report}{end}{tail}", encoding="utf-8")


def doc_report(page: str | Path, section: str | None = None) -> str:
    """What the page holds between its ladder markers (of ``section``; the tests compare it)."""
    begin, end = doc_markers(section)
    text = Path(page).read_text(encoding="utf-8")
    return text.split(begin, 1)[1].split(end, 1)[0].removeprefix("\n")


def main(argv: Iterable[str] | None = None) -> int:
    doc = __doc__ or ""
    parser = argparse.ArgumentParser(
        prog="python -m bench.ladder", description=doc.split("\n\n")[0]
    )
    parser.add_argument("games_to_run", nargs="*", help="subset: " + " ".join(BOARD_GAMES))
    parser.add_argument("--games", type=int, default=DEFAULT_GAMES, help="games per pairing")
    parser.add_argument("--scale", type=float, default=1.0, help="share of the budgets (1: real)")
    parser.add_argument("--size", default="default", help="default, smallest or a board size")
    parser.add_argument("--players", default=None, help="a subset, e.g. normal,hard,reference")
    parser.add_argument(
        "--pairings",
        default=None,
        help="only these pairings, taken in turn, e.g. master-reference,hard-random",
    )
    parser.add_argument("--workers", type=int, default=2, help="processes playing (0: this one)")
    parser.add_argument("--record", default=None, help="JSON-lines file of finished games")
    parser.add_argument("--shard", default="0/1", help="K/N: play only games K, K+N, K+2N, ...")
    parser.add_argument("--report", nargs="+", default=None, help="fit and print these records")
    parser.add_argument("--write-doc", default=None, help="with --report: write into this page")
    parser.add_argument(
        "--doc-section",
        default=None,
        help="with --write-doc: between this section's markers (e.g. full) instead of the page's",
    )
    parser.add_argument(
        "--write-strength",
        default=None,
        help="with --report: write the levels' fitted Elo at scale 1 here (data/ai-strength.json)",
    )
    parser.add_argument(
        "--clock", default="cpu", choices=CLOCKS, help="what time limits count (cpu: one core)"
    )
    args = parser.parse_args(list(sys.argv[1:] if argv is None else argv))
    if args.report:
        report = markdown_report(load_records(args.report).values())
        if args.write_doc:
            write_doc(args.write_doc, report, args.doc_section)
        if args.write_strength:
            write_strength(args.write_strength, strength_data(load_records(args.report).values()))
        print(report, end="")
        return 0
    chosen = args.games_to_run or list(BOARD_GAMES)
    unknown = [name for name in chosen if name not in BOARD_GAMES]
    if unknown:
        parser.error(f"unknown game(s): {', '.join(unknown)}")
    try:
        shard = parse_shard(args.shard)
        for name in chosen:
            board_size(name, args.size)
    except ValueError as error:
        parser.error(str(error))
    players = args.players.split(",") if args.players else None
    everyone = {p for name in chosen for p in ladder_players(name)}
    if players and not set(players) <= everyone:
        parser.error(f"unknown player(s); the players are: {', '.join(sorted(everyone))}")
    pairings = None
    if args.pairings:
        if players:
            parser.error("--pairings and --players: one or the other")
        try:
            pairings = parse_pairings(args.pairings)
        except ValueError as error:
            parser.error(str(error))
        named = {p for pairing in pairings for p in pairing}
        if not named <= everyone:
            parser.error(f"unknown player(s); the players are: {', '.join(sorted(everyone))}")
    from bench.__main__ import machine_line

    print(f"machine: {machine_line()}")
    started = time.perf_counter()
    played = run_ladder(
        chosen,
        games=args.games,
        scale=args.scale,
        size=args.size,
        players=players,
        workers=args.workers,
        record=args.record,
        shard=shard,
        clock=args.clock,
        pairings=pairings,
    )
    print(f"\nplayed in {time.perf_counter() - started:.0f} s\n")
    records = load_records([args.record]).values() if args.record else played
    print(markdown_report(records), end="")
    return 0


if __name__ == "__main__":
    sys.exit(main())
