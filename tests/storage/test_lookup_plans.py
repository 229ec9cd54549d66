"""The server-wide lookups are answered from their indexes, on SQLite and PostgreSQL.

With 300,000 matches (30,000 running), ``/games`` took 43 ms and the channel lookup without
a user 34 ms on PostgreSQL (issue 31): ``/games`` read every running match of the server
and sorted them, and a thread had no index. Here the queries the repository runs
(:mod:`matchcore.storage.sql_lookups`, the very text and parameters) are explained over a
database of 24,000 matches of three servers, analysed so that each planner chooses from
real statistics, and the plans must name the indexes of migration 0007.
"""

from __future__ import annotations

import sqlite3
from typing import Any

import asyncpg
import pytest

from matchcore.storage import ACTIVE_STATUSES, open_repository, sqlite_path
from matchcore.storage.postgres import numbered
from matchcore.storage.sql import match_query
from matchcore.storage.sql_lookups import channel_lookup, guild_lookup
from tests.postgres import fresh_database

MATCHES = 24_000
GUILD, CHANNEL, THREAD, USER = 1, 5, 105, 42

# Three servers, twenty channels each; a third of the matches in a thread; one in twenty a
# lobby, one in ten running, the rest finished or aborted (numbers, not random: the same
# database, and so the same plans, every run).
FILL = f"""
INSERT INTO matches (guild_id, channel_id, thread_id, game, status, created_at, updated_at)
WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < {MATCHES})
SELECT i % 3, (i / 3) % 20,
       CASE WHEN i % 3 = 1 THEN 100 + (i / 3) % 300 END,
       'lefe',
       CASE WHEN i % 20 = 7 THEN 'lobby'
            WHEN i % 10 = 4 THEN 'running'
            WHEN i % 17 = 0 THEN 'aborted'
            ELSE 'finished' END,
       i, (i * 7919) % {MATCHES}
FROM n
"""
SEATS = "INSERT INTO match_seats (match_id, seat, user_id) SELECT id, 0, id % 500 FROM matches"


def lookups() -> dict[str, tuple[str, list[Any]]]:
    """The repository's lookups as ``/games``, the channel lookup and ``/move`` run them."""
    return {
        "games": guild_lookup(GUILD, ACTIVE_STATUSES, 50),
        "channel": channel_lookup(GUILD, CHANNEL, ACTIVE_STATUSES),
        "thread": channel_lookup(GUILD, THREAD, ACTIVE_STATUSES),
        "mine": channel_lookup(GUILD, THREAD, ("running",), USER),
    }


def sqlite_plans(url: str) -> dict[str, str]:
    path = sqlite_path(url)
    assert path is not None
    connection = sqlite3.connect(path)
    try:
        connection.execute(FILL)
        connection.execute(SEATS)
        connection.execute("ANALYZE")
        connection.commit()
        plans = {}
        for name, (where, params) in lookups().items():
            rows = connection.execute("EXPLAIN QUERY PLAN " + match_query(where), params)
            plans[name] = "\n".join(row[3] for row in rows)
        return plans
    finally:
        connection.close()


async def postgres_plans(url: str, plan_cache_mode: str) -> dict[str, str]:
    connection = await asyncpg.connect(url)
    try:
        await connection.execute(FILL)
        await connection.execute(SEATS)
        await connection.execute("ANALYZE")
        # asyncpg keeps its statements prepared: after five runs PostgreSQL may plan them
        # once for any parameters (a generic plan), so both kinds of plan are checked.
        await connection.execute(f"SET plan_cache_mode = {plan_cache_mode}")
        plans = {}
        for name, (where, params) in lookups().items():
            rows = await connection.fetch("EXPLAIN " + numbered(match_query(where)), *params)
            plans[name] = "\n".join(row[0] for row in rows)
        return plans
    finally:
        await connection.close()


async def plans_of(url: str, plan_cache_mode: str = "auto") -> dict[str, str]:
    repo = await open_repository(url)  # migrated to this release, then left to the test
    await repo.close()
    if sqlite_path(url) is not None:
        return sqlite_plans(url)
    return await postgres_plans(url, plan_cache_mode)


def reads_a_whole_table(plan: str) -> bool:
    """A full read of matches or match_seats (PostgreSQL's Seq Scan; SQLite's SCAN, with or
    without an index, where a SEARCH reads a range)."""
    return any(
        "Seq Scan" in line or line.startswith(("SCAN matches", "SCAN match_seats"))
        for line in plan.splitlines()
    )


async def test_games_reads_each_status_newest_first_from_the_guild_index(repo_url: str) -> None:
    plan = (await plans_of(repo_url))["games"]
    assert not reads_a_whole_table(plan), plan
    if repo_url.startswith("sqlite"):
        searches = [line for line in plan.splitlines() if "matches_by_guild" in line]
        # one range per status, read in index order: (guild_id, status) and no sort inside
        assert len(searches) == len(ACTIVE_STATUSES), plan
        assert all("(guild_id=? AND status=?)" in line for line in searches), plan
        assert plan.count("TEMP B-TREE") == 1, plan  # only the final 2 × 50 ids are sorted
    else:
        # each status's newest read backwards along the index, no sort of all its rows
        assert plan.count("Backward using matches_by_guild") == len(ACTIVE_STATUSES), plan
        assert "Bitmap Heap Scan" not in plan, plan


@pytest.mark.parametrize("lookup", ["channel", "thread"])
async def test_the_channel_lookup_reads_the_channel_and_thread_indexes(
    repo_url: str, lookup: str
) -> None:
    plan = (await plans_of(repo_url))[lookup]
    assert not reads_a_whole_table(plan), plan
    assert "matches_by_channel" in plan and "matches_by_thread" in plan, plan
    if not repo_url.startswith("sqlite"):
        assert "BitmapOr" in plan, plan


async def test_a_players_own_matches_are_found_by_an_index(repo_url: str) -> None:
    plan = (await plans_of(repo_url))["mine"]
    assert not reads_a_whole_table(plan), plan
    # from the player's seats or from the thread's matches, whichever the planner
    # reckons fewer
    assert "match_seats_by_user" in plan or "matches_by_thread" in plan, plan


async def test_generic_postgres_plans_use_the_indexes_too() -> None:
    # PostgreSQL alone: it may plan a prepared statement once for any parameters, where
    # SQLite plans each statement for the parameters it is given
    async with fresh_database() as url:
        plans = await plans_of(url, "force_generic_plan")
    assert not any(reads_a_whole_table(plan) for plan in plans.values()), plans
    assert "matches_by_guild" in plans["games"], plans["games"]
    assert "matches_by_thread" in plans["thread"], plans["thread"]
