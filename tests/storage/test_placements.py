"""Placements ("2nd of 4") as the service stores them and as migration 0009 derives them
for matches finished before it, on SQLite and PostgreSQL.

Real games are played through the service to the end (Leiff tables of three and four,
with teams, with a bot seat, with players who left, and board games won and drawn); then
the placements are forgotten and the counters of Leiff ratings put back as they were kept
before (every non-winner a loss), and the migration's own statements run again: they must
give back exactly what the service stored.
"""

from __future__ import annotations

import random
from typing import Any

from bot.common.choices import service_choices
from bot.common.record_words import wins_record
from engine import get_game
from engine.leiff import random_action
from matchcore.service import MatchService
from matchcore.storage import open_repository
from matchcore.storage.sql import migration_files, split_sql
from tests.service.helpers import (
    ALICE,
    BOB,
    CAROL,
    CHANNEL,
    DAVE,
    GUILD,
    ManualClock,
    start_board_match,
)

PLAYERS = (ALICE, BOB, CAROL, DAVE)
BOT_ID = 999


async def _table(service: MatchService, players: int, bots: int = 0, **options: Any) -> int:
    opened = await service.open_lobby(GUILD, CHANNEL, ALICE, options=dict(options) or None)
    for user in PLAYERS[1:players]:
        await service.join_lobby(opened.match_id, user)
    for _ in range(bots):
        await service.add_bot_seat(opened.match_id, ALICE, "easy")
    await service.start_lobby(opened.match_id, ALICE)
    return int(opened.match_id)


async def _play_out(service: MatchService, match_id: int, rng: random.Random) -> None:
    """Random legal actions of the people still seated (bots play when due) to the end."""
    for _ in range(5000):
        match = await service.get_match(match_id)
        if match.status == "finished":
            return
        if match.bot_to_act:
            # the core plays the bots' turns after each commit: wait for them
            await service.turns.idle()
            continue
        record = await service.repo.get_match(match_id)
        state = get_game("leiff").from_json(record.state)
        people = {
            s.seat: s.user_id for s in record.seats if not s.is_bot and not s.removed and s.user_id
        }
        for _ in range(60):
            seat, action = random_action(state, rng)
            if seat in people:
                await service.play(match_id, people[seat], action)
                break
        else:
            await service.turns.idle()
    raise AssertionError(f"table {match_id} never finished")


async def _stored(repo: Any) -> tuple[list[tuple[Any, ...]], list[tuple[Any, ...]]]:
    placements = await repo._fetch(
        "SELECT match_id, user_id, guild_id, game, place, field, finished_at FROM placements "
        "ORDER BY match_id, user_id"
    )
    ratings = await repo._fetch(
        "SELECT game, user_id, games, wins, losses, draws, streak FROM ratings "
        "ORDER BY game, user_id"
    )
    return [tuple(row) for row in placements], [tuple(row) for row in ratings]


async def test_the_migration_derives_the_places_the_service_stores(repo_url: str) -> None:
    repo = await open_repository(repo_url)
    clock = ManualClock()
    service = MatchService(
        repo, choices=service_choices(), clock=clock, seed_source=lambda: 7, bot_user_id=BOT_ID
    )
    await service.start()
    try:
        rng = random.Random(5)
        tables = [
            await _table(service, 3),
            await _table(service, 4, teams=True),
            await _table(service, 2, bots=2),
            await _table(service, 4),
            await _table(service, 3),
        ]
        # At the fourth table Dave leaves at once (a bot plays his hand, he is last); at
        # the fifth everyone but Bob leaves.
        await service.resign(tables[3], DAVE)
        await service.resign(tables[4], CAROL)
        await service.resign(tables[4], ALICE)
        for match_id in tables:
            clock.advance(10)
            await _play_out(service, match_id, rng)
        clock.advance(60)
        won = await start_board_match(service, "lefe", ALICE, BOB)
        await service.resign(won.match_id, BOB)
        clock.advance(60)
        drawn = await start_board_match(service, "dalen", CAROL, DAVE)
        await service.offer_draw(drawn.match_id, CAROL)
        await service.accept_draw(drawn.match_id, DAVE)

        placements, ratings = await _stored(repo)
        by_match: dict[int, dict[int, tuple[int, int]]] = {}
        for match_id, user, *_, place, field, _at in placements:
            by_match.setdefault(match_id, {})[user] = (place, field)
        assert by_match[tables[2]].keys() == {ALICE, BOB}  # bots have no placement
        assert {field for _, field in by_match[tables[2]].values()} == {4}
        assert {field for _, field in by_match[tables[1]].values()} == {2}  # two teams
        assert by_match[tables[3]][DAVE] == (4, 4)
        assert by_match[tables[4]] == {BOB: (1, 3), ALICE: (2, 3), CAROL: (2, 3)}
        assert by_match[won.match_id] == {ALICE: (1, 2), BOB: (2, 2)}
        assert by_match[drawn.match_id] == {CAROL: (1, 2), DAVE: (1, 2)}
        assert any(place == 2 and field > 2 for *_, place, field, _at in placements)

        # As before the migration: no placements, every Leiff non-winner a loss, and a run
        # of such "losses" for whoever did not win their last table (and wins, draws and
        # runs of wins off by one, which the migration counts again too).
        async with repo._transaction() as tx:
            await tx.execute("DELETE FROM placements")
            await tx.execute(
                "UPDATE ratings SET losses = games - wins - draws, wins = wins + 1, "
                "draws = draws + 1, "
                "streak = CASE WHEN streak = 0 THEN -1 ELSE streak + 1 END WHERE game = 'leiff'"
            )
            # and one pool for every rating, as kept before migration 0012 split them
            await tx.execute("UPDATE ratings SET pool = 'human'")
        _, before = await _stored(repo)
        assert before != ratings
        (_, _, path), *_ = [m for m in migration_files(repo.dialect) if m[1] == "placements"]
        statements = split_sql(path.read_text(encoding="utf-8"))
        async with repo._transaction() as tx:
            for statement in statements:
                if not statement.startswith("CREATE"):
                    await tx.execute(statement)
        # then 0012's, which puts each rating and place in its pool again
        (_, _, path), *_ = [m for m in migration_files(repo.dialect) if m[1] == "time_controls"]
        async with repo._transaction() as tx:
            for statement in split_sql(path.read_text(encoding="utf-8")):
                if statement.startswith("UPDATE ratings") or statement.startswith(
                    "UPDATE placements"
                ):
                    await tx.execute(statement)
        assert await _stored(repo) == (placements, ratings)
    finally:
        await repo.close()


async def test_a_place_behind_the_bots_is_no_loss_in_the_record_against_them(
    repo_url: str,
) -> None:
    repo = await open_repository(repo_url)
    service = MatchService(
        repo,
        choices=service_choices(),
        clock=ManualClock(),
        seed_source=lambda: 7,
        bot_user_id=BOT_ID,
    )
    await service.start()
    try:
        match_id = await _table(service, 1, bots=2)
        await _play_out(service, match_id, random.Random(5))
        match = await service.get_match(match_id)
        assert match.vs_bot and match.result["field"] == 3
        place = match.result["places"][0]
        assert place > 1  # the bots finished ahead of Alice in this game
        (record,) = await service.vs_bot_stats(GUILD, ALICE, "leiff")
        assert (record.games, record.wins, record.losses, record.draws) == (1, 0, 0, 0)
        assert await repo.place_counts(GUILD, [ALICE]) == {}  # not rated: no placement
        # /stats says games and wins of such a game against the bot, never "0W 1L"
        assert wins_record("en", record) == "1 game, 0 won"
        assert wins_record("de", record) == "1 Partie, davon 0 gewonnen"
    finally:
        await repo.close()
