"""Migration 0012 (time controls, rating pools) on SQLite and PostgreSQL: matches played
before it get the server's time per move as their control, and the ratings and places they
made go to the pool that time falls in (a day or more a move: daily).

Matches are played through the service on two servers, one keeping the default board time
(a day a move) and one set to five minutes; then the rows are put back as they were kept
before the migration (no control, the pool 'human', places without a pool) and the
migration's own statements run again: they must give back what the service stored.
"""

from __future__ import annotations

from typing import Any

from bot.common.choices import service_choices
from matchcore.service import MatchService
from matchcore.storage import open_repository
from matchcore.storage.sql import migration_files, split_sql
from tests.service.helpers import ALICE, BOB, CAROL, CHANNEL, GUILD, ManualClock

OTHER_GUILD = GUILD + 1


async def _stored(repo: Any) -> tuple[list[tuple[Any, ...]], ...]:
    matches = await repo._fetch("SELECT id, time_control FROM matches ORDER BY id")
    ratings = await repo._fetch(
        "SELECT guild_id, game, user_id, pool, games FROM ratings ORDER BY guild_id, user_id"
    )
    places = await repo._fetch("SELECT match_id, user_id, pool FROM placements ORDER BY 1, 2")
    return tuple([tuple(row) for row in rows] for rows in (matches, ratings, places))


async def test_the_migration_puts_earlier_matches_in_the_pool_of_their_servers_time(
    repo_url: str,
) -> None:
    repo = await open_repository(repo_url)
    clock = ManualClock()
    service = MatchService(repo, choices=service_choices(), clock=clock, seed_source=lambda: 7)
    await service.start()
    try:
        await service.update_settings(OTHER_GUILD, ALICE, True, board_move_seconds=300)
        for guild in (GUILD, OTHER_GUILD):
            clock.advance(60)
            offer = await service.challenge(guild, CHANNEL, ALICE, "lefe", BOB)
            assert offer.challenge_id is not None
            started = await service.accept_challenge(offer.challenge_id, BOB)
            await service.resign(started.match_id, BOB)
        clock.advance(60)
        await service.challenge(GUILD, CHANNEL, CAROL, "dalen", BOB)  # an open challenge
        after = await _stored(repo)
        matches, ratings, places = after
        assert [code for _, code in matches] == ["move:86400", "move:300"]
        assert {(guild, pool) for guild, _, _, pool, _ in ratings} == {
            (GUILD, "daily"),
            (OTHER_GUILD, "live"),
        }
        assert sorted({pool for *_, pool in places}) == ["daily", "live"]

        async with repo._transaction() as tx:  # as kept before the migration
            await tx.execute("UPDATE matches SET time_control = NULL")
            await tx.execute("UPDATE challenges SET time_control = NULL")
            await tx.execute("UPDATE ratings SET pool = 'human'")
            await tx.execute("UPDATE placements SET pool = 'live'")
        (_, _, path), *_ = [m for m in migration_files(repo.dialect) if m[1] == "time_controls"]
        statements = split_sql(path.read_text(encoding="utf-8"))
        async with repo._transaction() as tx:
            for statement in statements:
                if statement.startswith("UPDATE"):
                    await tx.execute(statement)
        assert await _stored(repo) == after
        (challenge,) = await repo.open_challenges(GUILD)
        assert challenge.time_control == "move:86400"
    finally:
        await repo.close()
