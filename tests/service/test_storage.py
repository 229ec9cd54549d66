"""The SQLite repository: migrations, pragmas, the version check, atomic commits."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from bot.storage import (
    ActionRecord,
    MatchRecord,
    RatingRecord,
    SeatRecord,
    VersionConflict,
    migration_files,
    open_repository,
)
from tests.service.helpers import CHANNEL, GUILD


def _draft(now: float = 1.0) -> MatchRecord:
    return MatchRecord(
        id=0,
        guild_id=GUILD,
        channel_id=CHANNEL,
        game="lefe",
        status="running",
        created_at=now,
        updated_at=now,
        options={"size": 6},
        state='{"x":1}',
        seats=(SeatRecord(0, 1, colour="dark"), SeatRecord(1, 2, colour="light")),
    )


async def test_migrations_build_every_table_from_an_empty_file(db_path: Path) -> None:
    repo = await open_repository(db_path)
    assert await repo.applied_migrations() == [n for n, _, _ in migration_files()]
    await repo.close()
    tables = {
        row[0]
        for row in sqlite3.connect(db_path).execute(
            "SELECT name FROM sqlite_master WHERE type='table'"
        )
    }
    expected = {"matches", "match_seats", "match_messages", "actions", "challenges", "ratings"}
    assert expected | {"guild_settings", "schema_migrations"} <= tables


async def test_restarting_on_an_up_to_date_file_applies_nothing_and_keeps_data(
    db_path: Path,
) -> None:
    repo = await open_repository(db_path)
    stored = await repo.create_match(_draft())
    await repo.close()
    again = await open_repository(db_path)
    shipped = [number for number, _, _ in migration_files()]
    assert shipped[:2] == [1, 2]
    assert await again.applied_migrations() == shipped
    assert await again.get_match(stored.id) == stored
    await again.close()
    with sqlite3.connect(db_path) as raw:
        count = raw.execute("SELECT COUNT(*) FROM schema_migrations").fetchone()[0]
        assert count == len(shipped)


async def test_database_uses_wal_and_foreign_keys(db_path: Path) -> None:
    repo = await open_repository(db_path)
    rows = await repo._fetchall("PRAGMA journal_mode")
    assert rows[0][0] == "wal"
    rows = await repo._fetchall("PRAGMA foreign_keys")
    assert rows[0][0] == 1
    with pytest.raises(sqlite3.IntegrityError):
        await repo.set_message(999, "board", 5)  # no match 999: the foreign key refuses it
    await repo.close()


async def test_commit_at_a_stale_version_stores_nothing(db_path: Path) -> None:
    repo = await open_repository(db_path)
    match = await repo.create_match(_draft())
    moved = match.evolve(version=1, state='{"x":2}')
    action = ActionRecord(match.id, 1, 1, 0, "e5", 2.0)
    await repo.commit_match(moved, 0, [action])
    rating = RatingRecord(GUILD, "lefe", 1, 30.0, 7.0, 2.0, games=1, wins=1)
    with pytest.raises(VersionConflict):
        await repo.commit_match(match.evolve(version=1, state='{"x":3}'), 0, [action], [rating])
    assert (await repo.get_match(match.id)).state == '{"x":2}'
    assert await repo.actions(match.id) == [action]
    assert await repo.get_ratings(GUILD, "lefe", [1]) == {}
    await repo.close()


async def test_commit_stores_seats_actions_and_ratings_together(db_path: Path) -> None:
    repo = await open_repository(db_path)
    match = await repo.create_match(_draft())
    seats = (SeatRecord(0, 1, colour="light"), SeatRecord(1, 2, colour="dark", timeouts=2))
    finished = match.evolve(version=2, status="finished", seats=seats, result={"winners": [1]})
    actions = [
        ActionRecord(match.id, 1, 1, 0, "e5", 2.0),
        ActionRecord(match.id, 2, None, 1, "!timeout", 3.0),
    ]
    rating = RatingRecord(
        GUILD, "lefe", 1, 30.0, 7.0, 3.0, games=1, wins=1, streak=1, best_streak=1
    )
    await repo.commit_match(finished, 0, actions, [rating])
    assert await repo.get_match(match.id) == finished
    assert await repo.actions(match.id) == actions
    assert await repo.get_ratings(GUILD, "lefe", [1, 2]) == {1: rating}
    await repo.close()


async def test_message_ids_and_thread_are_kept(db_path: Path) -> None:
    repo = await open_repository(db_path)
    match = await repo.create_match(_draft())
    await repo.set_message(match.id, "board", 555)
    await repo.set_message(match.id, "board", 556)
    await repo.set_thread(match.id, 777)
    stored = await repo.get_match(match.id)
    assert stored.messages == {"board": 556}
    assert stored.thread_id == 777
    assert [m.id for m in await repo.matches_in_channel(GUILD, 777, ["running"])] == [match.id]
    await repo.close()


async def test_a_broken_migration_leaves_the_previous_schema(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    folder = tmp_path / "migrations"
    folder.mkdir()
    good = Path(__file__).parents[2] / "bot" / "storage" / "migrations" / "0001_initial.sql"
    (folder / "0001_initial.sql").write_text(good.read_text())
    (folder / "0002_broken.sql").write_text("CREATE TABLE extra (a INTEGER);\nTHIS IS NOT SQL;")
    monkeypatch.setattr("bot.storage.sqlite.MIGRATIONS_DIR", folder)
    with pytest.raises(sqlite3.OperationalError):
        await open_repository(tmp_path / "db.sqlite3")
    with sqlite3.connect(tmp_path / "db.sqlite3") as raw:
        tables = {r[0] for r in raw.execute("SELECT name FROM sqlite_master WHERE type='table'")}
        versions = [r[0] for r in raw.execute("SELECT version FROM schema_migrations")]
    assert "extra" not in tables
    assert versions == [1]
