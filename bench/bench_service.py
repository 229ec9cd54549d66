"""Speed of the match service over a real SQLite file.

Prints: the latency of one accepted board move through ``MatchService.play`` (each one a
committed transaction with ``synchronous=FULL`` and ``NORMAL``), of one Leiff action, the
time a restart takes to open the database and serve a first lookup with many running
matches (``start()`` reads none of them; ``python -m bench.startup`` times the whole bot),
and the time of a leaderboard query over many rated players.

Then the service's throughput: moves committed per second by one process, with 1, 10 and
100 matches played at once as fast as they go (Dalen 9, moves recorded beforehand so that
only the service works), with both durability settings, and the process's CPU time beside
the wall time: a CPU share near one core with the same figure for FULL and NORMAL means the
event loop's CPU, not the disk, is the limit. A profile of the 100-match run names where
that CPU goes.
"""

from __future__ import annotations

import asyncio
import cProfile
import io
import pstats
import random
import statistics
import tempfile
import time
from pathlib import Path
from typing import TypeVar

from bot.common.choices import service_choices
from engine import get_board_game
from engine.leiff import Leiff, random_action
from matchcore.service import MatchService
from matchcore.storage import MatchRecord, RatingRecord, open_repository

GUILD, CHANNEL = 1, 2
MOVES = 200
RUNNING_MATCHES = 300
RATED_PLAYERS = 5000

T = TypeVar("T")


def present(value: T | None) -> T:
    """A value the service or the store just returned and the run cannot go on without (a
    new match's id, its stored record): the bench fails at once if it is missing."""
    if value is None:
        raise RuntimeError("the service returned nothing where the bench needs a value")
    return value


class _Clock:
    def __init__(self) -> None:
        self.now = 1_700_000_000.0

    def __call__(self) -> float:
        self.now += 1.0
        return self.now


async def _move_latency(folder: Path, synchronous: str) -> list[float]:
    repo = await open_repository(folder / f"moves-{synchronous}.sqlite3", synchronous=synchronous)
    service = MatchService(repo, choices=service_choices(), clock=_Clock())
    await service.update_settings(
        GUILD, 1, True, challenge_cooldown_seconds=0, max_matches_per_user=50
    )
    rng = random.Random(1)
    times: list[float] = []
    match_id = None
    while len(times) < MOVES:
        if match_id is None:
            offer = await service.challenge(GUILD, CHANNEL, 10, "lefe", 20)
            match_id = present(
                (await service.accept_challenge(present(offer.challenge_id), 20)).match_id
            )
        record = present(await repo.get_match(match_id))
        state = get_board_game("lefe").from_json(present(record.state))
        move = rng.choice(state.legal_moves())
        user = present(record.user_of(present(state.seat_to_move)))
        started = time.perf_counter()
        update = await service.play(match_id, user, move, version=record.version)
        times.append(time.perf_counter() - started)
        if present(update.match).status != "running":
            match_id = None
    await repo.close()
    return times


async def _leiff_latency(folder: Path) -> list[float]:
    repo = await open_repository(folder / "leiff.sqlite3")
    service = MatchService(repo, choices=service_choices(), clock=_Clock(), seed_source=lambda: 3)
    players = (10, 20, 30, 40)
    rng = random.Random(2)
    times: list[float] = []
    match_id = None
    while len(times) < MOVES:
        if match_id is None:
            opened = await service.open_lobby(GUILD, CHANNEL, players[0])
            for user in players[1:]:
                await service.join_lobby(present(opened.match_id), user)
            started_table = await service.start_lobby(present(opened.match_id), players[0])
            match_id = present(started_table.match_id)
        record = present(await repo.get_match(match_id))
        state = Leiff().from_json(present(record.state))
        seat, action = random_action(state, rng)
        started = time.perf_counter()
        update = await service.play(match_id, players[seat], action)
        times.append(time.perf_counter() - started)
        if present(update.match).status != "running":
            match_id = None
    await repo.close()
    return times


async def _restart_time(folder: Path) -> float:
    path = folder / "restart.sqlite3"
    repo = await open_repository(path, synchronous="NORMAL")
    service = MatchService(repo, choices=service_choices(), clock=_Clock())
    await service.update_settings(GUILD, 1, True, challenge_cooldown_seconds=0)
    for number in range(RUNNING_MATCHES):
        offer = await service.challenge(GUILD, CHANNEL, 1000 + number, "dalen", 5000 + number)
        accepted = await service.accept_challenge(present(offer.challenge_id), 5000 + number)
        await service.play(present(accepted.match_id), 1000 + number, "e5")
    await repo.close()
    started = time.perf_counter()
    repo = await open_repository(path)
    service = MatchService(repo, choices=service_choices())
    await service.start()
    # the first action's read of its match: the one match a restart must parse before it
    first = await service.user_matches(1000)
    elapsed = time.perf_counter() - started
    assert len(first) == 1
    await repo.close()
    return elapsed


async def _leaderboard_time(folder: Path) -> float:
    repo = await open_repository(folder / "ratings.sqlite3", synchronous="NORMAL")
    rng = random.Random(4)
    ratings = [
        RatingRecord(
            GUILD,
            "lefe",
            user,
            rng.uniform(10, 40),
            rng.uniform(1, 8),
            0.0,
            games=rng.randint(1, 50),
        )
        for user in range(RATED_PLAYERS)
    ]
    # Stored through the same commit path the service uses at the end of a match.
    match = await repo.create_match(
        MatchRecord(
            id=0,
            guild_id=GUILD,
            channel_id=CHANNEL,
            game="lefe",
            status="running",
            created_at=0.0,
            updated_at=0.0,
        )
    )
    await repo.commit_match(match.evolve(version=1), 0, [], ratings)
    service = MatchService(repo, choices=service_choices())
    runs = []
    for _ in range(20):
        started = time.perf_counter()
        await service.leaderboard(GUILD, "lefe", limit=10)
        runs.append(time.perf_counter() - started)
    await repo.close()
    return statistics.median(runs)


def _recorded_game(seed: int, size: int = 9) -> list[tuple[int, str]]:
    """(seat, move) of up to 150 moves of a seeded random game."""
    rng = random.Random(seed)
    state = get_board_game("dalen").new(size=size)
    moves: list[tuple[int, str]] = []
    while state.outcome is None and len(moves) < 150:
        move = rng.choice(sorted(m for m in state.legal_moves() if m != "swap"))
        moves.append((present(state.seat_to_move), move))
        state = state.play(move)
    return moves


async def _throughput(
    folder: Path, matches: int, seconds: float, synchronous: str, profile: bool = False
) -> tuple[float, float, str]:
    """(moves committed per second, CPU seconds per wall second, profile summary)."""
    repo = await open_repository(
        folder / f"throughput-{matches}-{synchronous}.sqlite3", synchronous=synchronous
    )
    service = MatchService(repo, choices=service_choices(), clock=_Clock())
    await service.update_settings(
        GUILD, 1, True, challenge_cooldown_seconds=0, max_matches_per_user=50
    )
    games = []
    for number in range(matches):
        offer = await service.challenge(
            GUILD, CHANNEL, 10_000 + number, "dalen", 20_000 + number, size=9
        )
        started = await service.accept_challenge(present(offer.challenge_id), 20_000 + number)
        games.append(
            (present(started.match_id), (10_000 + number, 20_000 + number), _recorded_game(number))
        )
    committed = 0
    deadline = time.perf_counter() + seconds

    async def play(match_id: int, users: tuple[int, int], moves: list[tuple[int, str]]) -> None:
        nonlocal committed
        for seat, move in moves:
            if time.perf_counter() > deadline:
                return
            await service.play(match_id, users[seat], move)
            committed += 1

    profiler = cProfile.Profile() if profile else None
    wall, cpu = time.perf_counter(), time.process_time()
    if profiler:
        profiler.enable()
    await asyncio.gather(*(play(*game) for game in games))
    if profiler:
        profiler.disable()
    wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
    await repo.close()
    summary = ""
    if profiler:
        text = io.StringIO()
        stats = pstats.Stats(profiler, stream=text)
        own = {f"{path}:{name}": row for (path, _, name), row in stats.stats.items()}  # type: ignore[attr-defined]  # pstats keeps its table untyped
        # each statement is handed to aiosqlite's thread through its queue: one put each
        trips = sum(
            row[1]
            for key, row in own.items()
            if key.endswith(":<method 'put_nowait' of '_queue.SimpleQueue' objects>")
        )
        idle = sum(
            row[2]
            for key, row in own.items()
            if key.endswith(":<method 'poll' of 'select.epoll' objects>")
        )
        text.write(
            f"database round trips (statements handed to aiosqlite's thread) per committed move: {trips / committed:.1f}; "
            f"the event loop's thread waited in epoll {idle / wall:.0%} of the time\n"
        )
        stats.sort_stats("tottime").print_stats(12)
        summary = text.getvalue()
    return committed / wall, cpu / wall, summary


def _ms(values: list[float]) -> str:
    ordered = sorted(values)
    p90 = ordered[int(len(ordered) * 0.9) - 1]
    return f"median {statistics.median(values) * 1000:.2f} ms, p90 {p90 * 1000:.2f} ms"


async def _main() -> None:
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        full = await _move_latency(folder, "FULL")
        print(f"board move via play(), synchronous=FULL:   {_ms(full)} ({len(full)} moves)")
        normal = await _move_latency(folder, "NORMAL")
        print(f"board move via play(), synchronous=NORMAL: {_ms(normal)} ({len(normal)} moves)")
        leiff = await _leiff_latency(folder)
        print(f"Leiff action via play(), 4 players, FULL:  {_ms(leiff)} ({len(leiff)} actions)")
        restart = await _restart_time(folder)
        print(
            f"open + start() + a first lookup with {RUNNING_MATCHES} running matches: "
            f"{restart * 1000:.0f} ms"
        )
        board = await _leaderboard_time(folder)
        print(f"leaderboard(limit=10) over {RATED_PLAYERS} rated players: {board * 1000:.2f} ms")
        print("\nthroughput, moves committed per second by one process (Dalen 9, 5 s each):")
        for synchronous in ("FULL", "NORMAL"):
            for matches in (1, 10, 100):
                rate, cpu, _ = await _throughput(folder, matches, 5.0, synchronous)
                print(
                    f"  {matches:>3} matches at once, synchronous={synchronous:<6}: "
                    f"{rate:6.0f} moves/s, process CPU {cpu:.2f} s per s"
                )
        _, _, summary = await _throughput(folder, 100, 5.0, "NORMAL", profile=True)
        print("\nwhere the time of the 100-match run goes (own time, top 12):")
        print("\n".join(line for line in summary.splitlines() if line.strip()))


def main() -> None:
    asyncio.run(_main())


if __name__ == "__main__":
    main()
