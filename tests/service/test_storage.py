"""What is particular to the SQLite back end: its file, pragmas and migration files.

The behaviour both back ends share is in the contract suite, ``tests/storage/``.
"""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from bot.storage import (
    MatchRecord,
    SeatRecord,
    migration_files,
    open_repository,
    sqlite_path,
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
    rows = await repo._fetch("PRAGMA journal_mode")
    assert rows[0][0] == "wal"
    rows = await repo._fetch("PRAGMA foreign_keys")
    assert rows[0][0] == 1
    with pytest.raises(sqlite3.IntegrityError):  # no match 999: the foreign key refuses it
        await repo._write(
            "INSERT INTO match_messages(match_id, kind, message_id) VALUES (999, 'board', 5)"
        )
    await repo.close()


async def test_a_broken_migration_leaves_the_previous_schema(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    folder = tmp_path / "migrations" / "sqlite"
    folder.mkdir(parents=True)
    good = (
        Path(__file__).parents[2] / "bot" / "storage" / "migrations" / "sqlite" / "0001_initial.sql"
    )
    (folder / "0001_initial.sql").write_text(good.read_text())
    (folder / "0002_broken.sql").write_text("CREATE TABLE extra (a INTEGER);\nTHIS IS NOT SQL;")
    monkeypatch.setattr("bot.storage.sql.MIGRATIONS_ROOT", folder.parent)
    with pytest.raises(sqlite3.OperationalError):
        await open_repository(tmp_path / "db.sqlite3")
    with sqlite3.connect(tmp_path / "db.sqlite3") as raw:
        tables = {r[0] for r in raw.execute("SELECT name FROM sqlite_master WHERE type='table'")}
        versions = [r[0] for r in raw.execute("SELECT version FROM schema_migrations")]
    assert "extra" not in tables
    assert versions == [1]


def test_database_urls_name_sqlite_files_or_postgresql() -> None:
    assert sqlite_path("sqlite:///data/x.sqlite3") == Path("data/x.sqlite3")
    assert sqlite_path("sqlite:////srv/leafbot/x.sqlite3") == Path("/srv/leafbot/x.sqlite3")
    assert sqlite_path("data/plain.sqlite3") == Path("data/plain.sqlite3")
    assert sqlite_path("postgresql://leafbot@db.internal/leafbot") is None
    assert sqlite_path("postgres://leafbot@db.internal/leafbot") is None
    with pytest.raises(ValueError, match="unknown database URL scheme 'mysql'"):
        sqlite_path("mysql://x/y")


async def test_a_file_of_the_previous_release_is_upgraded_and_its_bot_turns_found(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # The file as the release before shards left it: migrations 1 and 2 only.
    shipped = Path(__file__).parents[2] / "bot" / "storage" / "migrations" / "sqlite"
    old = tmp_path / "old" / "sqlite"
    old.mkdir(parents=True)
    for name in ("0001_initial.sql", "0002_bots.sql"):
        (old / name).write_text((shipped / name).read_text())
    path = tmp_path / "leafbot.sqlite3"
    with monkeypatch.context() as patched:
        patched.setattr("bot.storage.sql.MIGRATIONS_ROOT", old.parent)
        repo = await open_repository(path)
        await repo.close()
    with sqlite3.connect(path) as raw:
        raw.execute(
            "INSERT INTO matches(id, guild_id, channel_id, game, status, state, created_at, "
            "updated_at) VALUES (1, 5, 6, 'lefe', 'running', '{}', 1.0, 1.0)"
        )
        raw.execute("INSERT INTO match_seats(match_id, seat, user_id) VALUES (1, 0, 11)")
        raw.execute(
            "INSERT INTO match_seats(match_id, seat, user_id, is_bot, bot_level) "
            "VALUES (1, 1, 99, 1, 'easy')"
        )
    upgraded = await open_repository(f"sqlite:///{path}")
    try:
        assert await upgraded.applied_migrations() == [n for n, _, _ in migration_files()]
        record = await upgraded.get_match(1)
        assert record is not None and record.bot_due and record.seats[1].bot_level == "easy"
        claimed = await upgraded.claim_bot_matches("a", 10.0, 40.0)
        assert [m.id for m in claimed] == [1]
    finally:
        await upgraded.close()
