"""What is particular to the SQLite back end: its file, pragmas and migration files.

The behaviour both back ends share is in the contract suite, ``tests/storage/``.
"""

from __future__ import annotations

import asyncio
import sqlite3
from pathlib import Path
from typing import Any

import pytest

from matchcore.storage import (
    MatchRecord,
    SeatRecord,
    migration_files,
    open_repository,
    sqlite_path,
)
from matchcore.storage.sqlite import SqliteRepository
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
        Path(__file__).parents[2]
        / "matchcore"
        / "storage"
        / "migrations"
        / "sqlite"
        / "0001_initial.sql"
    )
    (folder / "0001_initial.sql").write_text(good.read_text())
    (folder / "0002_broken.sql").write_text("CREATE TABLE extra (a INTEGER);\nTHIS IS NOT SQL;")
    monkeypatch.setattr("matchcore.storage.sql.MIGRATIONS_ROOT", folder.parent)
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
    shipped = Path(__file__).parents[2] / "matchcore" / "storage" / "migrations" / "sqlite"
    old = tmp_path / "old" / "sqlite"
    old.mkdir(parents=True)
    for name in ("0001_initial.sql", "0002_bots.sql"):
        (old / name).write_text((shipped / name).read_text())
    path = tmp_path / "leafbot.sqlite3"
    with monkeypatch.context() as patched:
        patched.setattr("matchcore.storage.sql.MIGRATIONS_ROOT", old.parent)
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


async def test_plain_reads_run_on_the_loop_through_a_read_only_connection(db_path: Path) -> None:
    """A read outside a transaction takes no trip to the writer's thread and sees every
    write committed before it; the read-only connection refuses a write."""
    repo = await open_repository(db_path)
    assert isinstance(repo, SqliteRepository) and repo._reader is not None
    trips = 0
    execute = repo._db._execute

    async def counted(*args: Any, **kwargs: Any) -> Any:
        nonlocal trips
        trips += 1
        return await execute(*args, **kwargs)

    repo._db._execute = counted  # type: ignore[method-assign]
    stored = await repo.create_match(_draft())
    written = trips
    assert written > 0
    assert await repo.get_match(stored.id) == stored  # read at once, after the commit
    await repo.set_messages(stored.id, {"board": 77})
    assert (await repo.get_match(stored.id)).messages["board"] == 77  # type: ignore[union-attr]
    assert trips == written + 1  # the write alone: both reads ran without a trip
    with pytest.raises(sqlite3.OperationalError, match="readonly"):
        repo._reader.execute("DELETE FROM matches")
    await repo.close()


async def test_one_statement_writes_waiting_together_commit_together(db_path: Path) -> None:
    """Group commit: writes queued together go in one trip and one transaction, each with
    its own result; one that fails fails alone."""
    repo = await open_repository(db_path)
    assert isinstance(repo, SqliteRepository)
    stored = await repo.create_match(_draft())
    statements: list[str] = []
    await repo._db.set_trace_callback(statements.append)
    results = await asyncio.gather(
        repo.set_messages(stored.id, {"board": 1}),
        repo.set_messages(stored.id, {"hand:1": 2}),
        repo.set_messages(999, {"board": 3}),  # no such match: nothing written, False
        repo._write("INSERT INTO match_messages(match_id, kind, message_id) VALUES (999, 'x', 5)"),
        repo.set_messages(stored.id, {"hand:2": 4}),
        return_exceptions=True,
    )
    await repo._db.set_trace_callback(None)
    assert results[:3] == [True, True, False]
    assert isinstance(results[3], sqlite3.IntegrityError)  # the foreign key, that write alone
    assert results[4] is True
    # the five queued together: one transaction
    assert [s.split()[0] for s in statements] == [
        "BEGIN", "INSERT", "INSERT", "INSERT", "INSERT", "INSERT", "COMMIT",
    ]  # fmt: skip
    found = await repo.get_match(stored.id)
    assert found is not None
    assert {k: found.messages[k] for k in ("board", "hand:1", "hand:2")} == {
        "board": 1,
        "hand:1": 2,
        "hand:2": 4,
    }
    assert "x" not in found.messages
    await repo.close()


async def test_a_write_that_ends_the_group_transaction_fails_every_write_of_it(
    db_path: Path,
) -> None:
    """When an error ends the whole transaction (here a conflict resolved by rolling it
    back), the writes before it in the group are undone too, and each of them is told so."""
    repo = await open_repository(db_path)
    try:
        assert isinstance(repo, SqliteRepository)
        stored = await repo.create_match(_draft())
        assert await repo.set_messages(stored.id, {"board": 1})
        results = await asyncio.gather(
            repo.set_messages(stored.id, {"hand:1": 2}),
            repo._write(
                "INSERT OR ROLLBACK INTO match_messages(match_id, kind, message_id) "
                "VALUES (?, 'board', 5)",
                (stored.id,),
            ),
            repo.set_messages(stored.id, {"hand:2": 3}),
            return_exceptions=True,
        )
        assert all(isinstance(r, sqlite3.IntegrityError) for r in results), results
        found = await repo.get_match(stored.id)
        assert found is not None and found.messages["board"] == 1
        assert "hand:1" not in found.messages and "hand:2" not in found.messages
    finally:
        await repo.close()


async def test_a_writer_that_gives_up_before_its_turn_writes_nothing(db_path: Path) -> None:
    """A write cancelled while it waits (the connection busy with a transaction) is left
    out of the next group; the others of the group are written; a close commits what is
    queued before it."""
    repo = await open_repository(db_path)
    try:
        assert isinstance(repo, SqliteRepository)
        stored = await repo.create_match(_draft())
        async with repo._transaction() as tx:  # holds the connection meanwhile
            await tx.fetch("SELECT 1")
            given_up = asyncio.ensure_future(repo.set_messages(stored.id, {"hand:1": 1}))
            kept = asyncio.ensure_future(repo.set_messages(stored.id, {"hand:2": 2}))
            await asyncio.sleep(0)
            given_up.cancel()
        assert await kept is True
        assert given_up.cancelled()
        found = await repo.get_match(stored.id)
        assert found is not None and "hand:1" not in found.messages
        assert found.messages["hand:2"] == 2
        last = asyncio.ensure_future(repo.set_messages(stored.id, {"hand:3": 3}))
        await asyncio.sleep(0)
    finally:
        await repo.close()
    assert await last is True
    again = await open_repository(db_path)
    try:
        found = await again.get_match(stored.id)
        assert found is not None and found.messages["hand:3"] == 3
    finally:
        await again.close()


async def test_a_read_refused_by_a_lock_waits_in_the_database_thread(
    db_path: Path, tmp_path: Path
) -> None:
    """The loop never waits on a file lock: a plain read that SQLite refuses as locked
    (here: the read-only connection's file held exclusively by another connection) is run
    through the writer's thread instead, with the same answer."""
    repo = await open_repository(db_path)
    assert isinstance(repo, SqliteRepository) and repo._reader is not None
    stored = await repo.create_match(_draft())
    locked_file = tmp_path / "locked.sqlite3"
    holder = sqlite3.connect(locked_file, isolation_level=None)
    refused = sqlite3.connect(locked_file, isolation_level=None, check_same_thread=False)
    own_reader = repo._reader
    try:
        holder.execute("PRAGMA locking_mode = EXCLUSIVE")
        holder.execute("CREATE TABLE matches(id INTEGER)")  # holds the file from now on
        refused.execute("PRAGMA busy_timeout = 0")
        with pytest.raises(sqlite3.OperationalError, match="locked"):
            refused.execute("SELECT 1 FROM matches")
        repo._reader = refused
        assert await repo.get_match(stored.id) == stored
        rows = await repo._fetch("SELECT id FROM matches")
        assert [row["id"] for row in rows] == [stored.id]
    finally:
        repo._reader = own_reader
        refused.close()
        holder.close()
        await repo.close()
