"""How long the bot is offline after a start, by the number of running matches (issue 31).

A database is filled with running matches (copies of real matches of the five games, each
part-way through, every one in a server and channel of its own, delivered and not due),
then the real bot is started on it against the local Discord simulator, and the time from
the start to discord.py's ``on_ready`` is measured: until then every interaction a player
sends fails. Also reported: the bot process's resident memory once ready, and how many
stored matches the start read. With ``--touch``, every running match is then used once
(``service.get_match``, as players coming back would): how many parsed states the process
keeps (``STATE_CACHE_SIZE``) and how much its memory grew in all.

    python -m bench.startup [--matches 100 10000] [--database sqlite|postgresql] [--url URL]
                            [--touch]

``--database postgresql`` creates a database of its own on the local server
(``LEAFBOT_BENCH_POSTGRES``, as ``bench.scale``) and drops it afterwards. :func:`fill` is what the
start-up tests use to store many matches quickly.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import random
import resource
import tempfile
import time
from collections.abc import AsyncIterator, Sequence
from pathlib import Path
from typing import Any

from bot.common.choices import service_choices
from engine import get_game
from engine.leiff import random_action
from matchcore.service import MatchService
from matchcore.storage import MatchRecord, Repository, mapping, open_repository
from matchcore.storage.sql_access import SqlAccess

# The servers, channels and users of the copies: far from the simulator's own ids.
FIRST_GUILD = 9_000_000_000
FIRST_USER = 8_000_000_000
TEMPLATE_GUILD, TEMPLATE_CHANNEL = 7_000_000_000, 7_000_000_001
# How far each board game of the templates (on its default board) is played, in moves: a
# position late in a game costs the most to parse (Lublache's loops, Les's holes, Lefe's
# forests).
BOARD_MOVES = {"lefe": 20, "dalen": 30, "lublache": 30, "les": 30}
LEIFF_ACTIONS = 30
BATCH = 500


async def templates(repo: Repository, now: float) -> list[MatchRecord]:
    """One running match of each game, played part-way through the service (so each is a
    match exactly as the bot stores it), read back from the repository."""
    clock = _Clock(now)
    service = MatchService(repo, choices=service_choices(), clock=clock, seed_source=lambda: 5)
    await service.update_settings(
        TEMPLATE_GUILD, 1, True, challenge_cooldown_seconds=0, max_matches_per_user=50
    )
    rng = random.Random(11)
    found: list[MatchRecord] = []
    for game, moves in BOARD_MOVES.items():
        offer = await service.challenge(
            TEMPLATE_GUILD, TEMPLATE_CHANNEL, FIRST_USER - 2, game, FIRST_USER - 1
        )
        assert offer.challenge_id is not None
        started = await service.accept_challenge(offer.challenge_id, FIRST_USER - 1)
        assert started.match_id is not None
        for _ in range(moves):
            record = await _stored(repo, started.match_id)
            state: Any = get_game(game).from_json(record.state or "")
            legal = state.legal_moves()
            if not legal or state.outcome is not None:
                break
            user = record.user_of(state.seat_to_move)
            assert user is not None
            update = await service.play(record.id, user, rng.choice(legal), record.version)
            if update.match is None or update.match.status != "running":
                raise RuntimeError(f"the {game} template ended early; play fewer moves")
        found.append(await _stored(repo, started.match_id))
    players = (FIRST_USER - 3, FIRST_USER - 4, FIRST_USER - 5)
    lobby = await service.open_lobby(TEMPLATE_GUILD, TEMPLATE_CHANNEL, players[0])
    assert lobby.match_id is not None
    for user in players[1:]:
        await service.join_lobby(lobby.match_id, user)
    await service.start_lobby(lobby.match_id, players[0])
    for _ in range(LEIFF_ACTIONS):
        record = await _stored(repo, lobby.match_id)
        table: Any = get_game("leiff").from_json(record.state or "")
        seat, action = random_action(table, rng)
        await service.play(record.id, players[seat], action)
    found.append(await _stored(repo, lobby.match_id))
    for record in found:  # as if a bot had sent them: nothing to send again at a start
        await repo.set_messages(record.id, {"delivered": record.version})
    return found


async def _stored(repo: Repository, match_id: int) -> MatchRecord:
    record = await repo.get_match(match_id)
    if record is None:
        raise RuntimeError(f"match {match_id} was not stored")
    return record


def copy_of(template: MatchRecord, number: int, now: float) -> MatchRecord:
    """The template as the ``number``-th running match: a server, a channel and players of
    its own, its deadline a day away."""
    users = FIRST_USER + 8 * number
    seats = tuple(
        seat.evolve(user_id=None if seat.user_id is None else users + seat.seat)
        for seat in template.seats
    )
    return template.evolve(
        id=0,
        guild_id=FIRST_GUILD + number,
        channel_id=FIRST_GUILD + number,
        host_id=None if template.host_id is None else users,
        seats=seats,
        created_at=now - 3600,
        updated_at=now - 60,
        deadline_at=now + 86_400,
        warn_at=now + 80_000,
        warned=False,
        messages={},
    )


async def fill(repo: Repository, count: int, now: float) -> None:
    """Store ``count`` running matches (copies of :func:`templates`, taking turns) quickly:
    many rows per statement, in transactions of :data:`BATCH` matches, each recorded as
    delivered at its version and due a day after ``now``."""
    patterns = await templates(repo, now)
    await store_all(repo, [copy_of(patterns[n % len(patterns)], n, now) for n in range(count)])


async def store_all(repo: Repository, records: Sequence[MatchRecord]) -> list[int]:
    """Insert match records (and their seats) with ids of their own, each recorded as
    delivered at its version (the record the match row keeps), :data:`BATCH` matches to a
    transaction and many rows to a statement. Returns their ids, in order."""
    if not isinstance(repo, SqlAccess):
        raise TypeError(f"rows are written by SQL: {type(repo).__name__} is no SQL repository")
    rows = await repo._fetch("SELECT COALESCE(MAX(id), 0) FROM matches")
    first = int(rows[0][0]) + 1
    names = ("id", *mapping.MATCH_COLUMNS, mapping.DELIVERED_COLUMN)
    marks = ",".join("?" * len(names))
    seat_columns = ", ".join(mapping.SEAT_COLUMNS)
    seat_marks = ",".join("?" * len(mapping.SEAT_COLUMNS))
    ids = list(range(first, first + len(records)))
    for start in range(0, len(records), BATCH):
        chunk = list(zip(ids[start : start + BATCH], records[start : start + BATCH], strict=True))
        async with repo._transaction() as tx:
            await tx.executemany(
                f"INSERT INTO matches({', '.join(names)}) VALUES ({marks})",
                [
                    (match_id, *mapping.match_values(record), record.version)
                    for match_id, record in chunk
                ],
            )
            await tx.executemany(
                f"INSERT INTO match_seats({seat_columns}) VALUES ({seat_marks})",
                [
                    mapping.seat_values(match_id, seat)
                    for match_id, record in chunk
                    for seat in record.seats
                ],
            )
    if repo.dialect == "postgresql":
        await repo._fetch(
            "SELECT setval(pg_get_serial_sequence('matches', 'id'), MAX(id)) FROM matches"
        )
    return ids


class _Clock:
    def __init__(self, now: float) -> None:
        self.now = now

    def __call__(self) -> float:
        self.now += 1.0
        return self.now


@contextlib.asynccontextmanager
async def _database(kind: str, folder: Path, url: str | None) -> AsyncIterator[str]:
    if url is not None:
        yield url
    elif kind == "sqlite":
        yield f"sqlite:///{folder / 'startup.sqlite3'}"
    else:
        # a throw-away database as make bench-scale makes one (the benchmarks import
        # nothing from the tests)
        from bench.scale import database

        async with database("postgresql") as fresh:
            yield fresh


def _rss_mb() -> float:
    """The process's resident memory now (Linux: /proc), in MB."""
    with open("/proc/self/statm") as statm:
        pages = int(statm.read().split()[1])
    return pages * resource.getpagesize() / 1e6


async def measure(count: int, kind: str, url: str | None, touch: bool) -> dict[str, float]:
    from bot.app import LeafBot
    from bot.settings import Settings
    from discord_sim import DiscordSimulator

    with tempfile.TemporaryDirectory() as folder:
        async with _database(kind, Path(folder), url) as where:
            repo = await open_repository(where)
            try:
                started = time.perf_counter()
                await fill(repo, count, time.time())
                filled = time.perf_counter() - started
            finally:
                await repo.close()
            read = [0]
            original = mapping.match_from_row

            def counted(*args: Any, **kwargs: Any) -> MatchRecord:
                read[0] += 1
                return original(*args, **kwargs)

            mapping.match_from_row = counted
            try:
                async with DiscordSimulator() as sim:
                    world = sim.populate()
                    settings = Settings(
                        token="simulated",
                        database_url=where,
                        dev_guild_id=world.guild.id,
                        render_workers=0,
                    )
                    rss_before = _rss_mb()
                    handle = await sim.start_bot(
                        lambda: LeafBot(settings, tick_seconds=None), ready_timeout=600
                    )
                    rss_after = _rss_mb()
                    ready = handle.ready_seconds or 0.0
                    read_at_start = read[0]
                    kept = touched_mb = 0.0
                    if touch:
                        # every running match used once, as players coming back would
                        service: Any = handle.client.service  # type: ignore[attr-defined]
                        rows = await service.repo._fetch(
                            "SELECT id FROM matches WHERE status = 'running' ORDER BY id"
                        )
                        for row in rows:
                            await service.get_match(int(row[0]))
                        kept = len(service.store.states)
                        touched_mb = _rss_mb() - rss_before
                    await handle.stop()
            finally:
                mapping.match_from_row = original
    return {
        "matches": count,
        "fill_seconds": filled,
        "ready_seconds": ready,
        "matches_read": read_at_start,
        "rss_growth_mb": rss_after - rss_before,
        "states_kept": kept,
        "rss_touched_mb": touched_mb,
    }


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--matches", type=int, nargs="+", default=[100, 10_000])
    parser.add_argument("--database", choices=("sqlite", "postgresql"), default="sqlite")
    parser.add_argument("--url", help="an existing database to fill (default: a fresh one)")
    parser.add_argument(
        "--touch",
        action="store_true",
        help="then use every running match once: how many parsed states stay, and the memory",
    )
    args = parser.parse_args(argv)
    print(f"start-up with running matches ({args.database})")
    header = f"{'matches':>8} {'fill s':>8} {'ready s':>8} {'read':>8} {'RSS +MB':>8}"
    print(header + (f" {'kept':>6} {'all used +MB':>12}" if args.touch else ""))
    for count in args.matches:
        row = asyncio.run(measure(count, args.database, args.url, args.touch))
        line = (
            f"{row['matches']:>8} {row['fill_seconds']:>8.1f} {row['ready_seconds']:>8.2f} "
            f"{row['matches_read']:>8} {row['rss_growth_mb']:>8.1f}"
        )
        if args.touch:
            line += f" {row['states_kept']:>6} {row['rss_touched_mb']:>12.1f}"
        print(line)


if __name__ == "__main__":
    main()
