"""The PostgreSQL test helper: skip with a reason without a server, fail under CI's flag."""

from __future__ import annotations

import socket

import pytest

from tests import postgres


def closed_port_url() -> str:
    with socket.socket() as probe:  # a port nobody listens on
        probe.bind(("127.0.0.1", 0))
        return f"postgresql://postgres@127.0.0.1:{probe.getsockname()[1]}/postgres"


async def test_without_a_server_the_postgresql_tests_skip_and_say_why(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(postgres, "ADMIN_URL", closed_port_url())
    monkeypatch.setattr(postgres, "REQUIRED", False)
    with pytest.raises(pytest.skip.Exception, match="PostgreSQL tests skipped"):
        async with postgres.fresh_database():
            pass


async def test_under_leafbot_require_postgres_they_fail_instead(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(postgres, "ADMIN_URL", closed_port_url())
    monkeypatch.setattr(postgres, "REQUIRED", True)
    with pytest.raises(pytest.fail.Exception, match="LEAFBOT_REQUIRE_POSTGRES is set"):
        async with postgres.fresh_database():
            pass


async def test_each_database_is_new_and_dropped_afterwards() -> None:
    import asyncpg

    async with postgres.fresh_database() as first, postgres.fresh_database() as second:
        assert first != second
        connection = await asyncpg.connect(first)
        await connection.close()
    admin = await asyncpg.connect(postgres.ADMIN_URL)
    try:
        names = {r[0] for r in await admin.fetch("SELECT datname FROM pg_database")}
    finally:
        await admin.close()
    assert first.rsplit("/", 1)[1] not in names and second.rsplit("/", 1)[1] not in names
