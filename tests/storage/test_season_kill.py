"""Closing seasons across processes killed with SIGKILL at random moments, on SQLite and
PostgreSQL: two child processes close the same ended seasons at once while the test kills
one or the other again and again. At any moment, and at the end, every season is either
open with no final standings or closed with all of them (each player once, ranked 1 to n
in the board's order); in the end every season is closed."""

from __future__ import annotations

import asyncio
import os
import random
import signal
import sys
from pathlib import Path

from matchcore.storage import Repository, open_repository
from matchcore.storage.records import MatchRecord, RatingRecord, SeatRecord
from matchcore.storage.season_records import SeasonRating

ROOT = Path(__file__).resolve().parents[2]
NOW = 1_700_000_000.0
ENDED = NOW - 86400.0
SEASONS = 24  # servers, each with one ended season
PLAYERS = 120  # each season's rated players


async def stored_seasons(repo: Repository) -> None:
    """Each server's ended season with its players' season ratings, written as results write
    them (commit_match with season ratings)."""
    rng = random.Random(35)
    match = await repo.create_match(
        MatchRecord(
            id=0,
            guild_id=1,
            channel_id=2,
            game="lefe",
            status="running",
            created_at=NOW,
            updated_at=NOW,
            state="{}",
            seats=(SeatRecord(0, 11, colour="dark"), SeatRecord(1, 12, colour="light")),
        )
    )
    for version, guild in enumerate(range(1000, 1000 + SEASONS)):
        ratings = [
            SeasonRating(
                "2023-10",
                ENDED,
                RatingRecord(
                    guild_id=guild,
                    game="lefe",
                    user_id=user,
                    pool="live",
                    mu=rng.uniform(15, 35),
                    sigma=6.0,
                    updated_at=ENDED - 60,
                    games=1,
                    wins=1,
                ),
            )
            for user in range(1, PLAYERS + 1)
        ]
        await repo.commit_match(
            match.evolve(version=version + 1), version, [], season_ratings=ratings
        )


async def check(repo: Repository) -> int:
    """Every season all or nothing; the number closed."""
    closed = 0
    for guild in range(1000, 1000 + SEASONS):
        while True:
            (season,) = await repo.seasons(guild)
            standings = await repo.season_standings(guild, "2023-10", "lefe", 1000, "live")
            # the children run meanwhile: a close committed between the two reads shows
            # an open season beside its standings; the season read again tells (a closed
            # season stays closed, so two equal reads frame a consistent view)
            (again,) = await repo.seasons(guild)
            if again.closed_at == season.closed_at:
                break
        if season.closed_at is None:
            assert standings == [], (guild, len(standings))
            continue
        closed += 1
        assert [s.rank for s in standings] == list(range(1, PLAYERS + 1)), guild
        assert sorted(s.user_id for s in standings) == list(range(1, PLAYERS + 1))
        assert [s.mu for s in standings] == sorted((s.mu for s in standings), reverse=True)
    return closed


async def spawn(url: str, seed: int) -> asyncio.subprocess.Process:
    child = await asyncio.create_subprocess_exec(
        sys.executable,
        "-m",
        "tests.storage.season_kill_child",
        url,
        str(NOW),
        str(seed),
        cwd=ROOT,
        stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.DEVNULL,
    )
    assert child.stdout is not None
    line = await asyncio.wait_for(child.stdout.readline(), 180)
    assert line.strip() == b"READY", line
    return child


async def test_killed_processes_close_every_season_once_and_wholly(
    repo_url: str, repo: Repository
) -> None:
    await stored_seasons(repo)
    rng = random.Random(36)
    kills = 0
    closed_lines: list[bytes] = []

    async def slot(number: int) -> None:
        nonlocal kills
        while await check(repo) < SEASONS:
            child = await spawn(repo_url, number * 1000 + kills)
            assert child.stdout is not None

            async def read(out: asyncio.StreamReader = child.stdout) -> None:
                while line := await out.readline():
                    closed_lines.append(line)

            reading = asyncio.create_task(read())
            try:
                await asyncio.sleep(rng.uniform(0.02, 0.4))
            finally:
                if child.returncode is None:
                    os.kill(child.pid, signal.SIGKILL)
                    kills += 1
                await child.wait()
                await reading

    await asyncio.wait_for(asyncio.gather(slot(1), slot(2)), 600)
    assert await check(repo) == SEASONS
    assert kills >= 4  # the work spanned several children, each killed in the middle
    # no season was closed twice (each close that reported itself is a different season)
    reported = [line for line in closed_lines if line.startswith(b"CLOSED")]
    assert len(reported) == len(set(reported)) <= SEASONS
    # a fresh look after the children: nothing left to close, and closing again does nothing
    again = await open_repository(repo_url)
    try:
        assert await again.seasons_to_close(NOW) == []
        assert not await again.close_season(1000, "2023-10", NOW)
    finally:
        await again.close()
