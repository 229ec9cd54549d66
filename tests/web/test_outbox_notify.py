"""Across processes on PostgreSQL: a commit's NOTIFY tells the other processes at once.

Every step's outbox rows are written with a ``pg_notify`` in the same statement
(``matchcore/storage/postgres.py``), which PostgreSQL sends every listening connection
when the transaction commits. A move played by another *process* (``tests.web.outbox_child``,
its own service on the same database) must reach:

- a repository that listens (``listen_outbox``): told the match and its version;
- the web table's open sockets, with the table's polling slowed to a minute, so only the
  notice can have brought it in time.

SQLite cannot tell another process anything: ``listen_outbox`` says so (False), and the
web table polls (tests/web/test_socket.py covers that path).
"""

from __future__ import annotations

import asyncio
import sys
from collections.abc import AsyncIterator
from pathlib import Path

import pytest
from aiohttp.test_utils import TestClient, TestServer

import web.server
from matchcore.service import MatchService
from matchcore.storage import open_repository
from tests.postgres import fresh_database
from tests.web.test_socket import ANN, BOB, Table, frame
from web.local import LOCAL, prepare_local, service_choices
from web.server import LOCAL_BOT, WEB_AUDIENCE, WebTable
from web.sessions import Sessions

ROOT = Path(__file__).resolve().parents[2]


async def move_in_another_process(url: str, match_id: int, user: int, move: str, version: int):
    child = await asyncio.create_subprocess_exec(
        sys.executable,
        "-m",
        "tests.web.outbox_child",
        url,
        str(match_id),
        str(user),
        move,
        str(version),
        cwd=ROOT,
    )
    assert await asyncio.wait_for(child.wait(), 60) == 0


@pytest.fixture
async def pg_table(monkeypatch: pytest.MonkeyPatch) -> AsyncIterator[tuple[Table, str]]:
    # the table would poll once a minute: only a NOTIFY brings another process's move
    monkeypatch.setattr(web.server, "OUTBOX_POLL_SECONDS", 60.0)
    monkeypatch.setattr(web.server, "OUTBOX_TOLD_SECONDS", 60.0)
    async with fresh_database() as url:
        repo = await open_repository(url)
        service = MatchService(
            repo, bot_user_id=LOCAL_BOT, choices=service_choices(), extra_audiences=(WEB_AUDIENCE,)
        )
        await prepare_local(service)
        web_table = WebTable(service, Sessions(service.sign_ins), local=LOCAL)
        client = TestClient(TestServer(web_table.app()))
        await client.start_server()
        try:
            signed = Table(service, web_table, client)
            await signed.sign_in()
            yield signed, url
        finally:
            await client.close()
            await service.close()
            await repo.close()


async def test_a_listening_repository_is_told_of_another_processes_commit() -> None:
    async with fresh_database() as url:
        repo = await open_repository(url)
        try:
            service = MatchService(repo, choices=service_choices())
            update = await service.challenge(LOCAL.guild_id, LOCAL.channel_id, ANN, "lefe", BOB)
            assert update.challenge is not None
            started = await service.accept_challenge(update.challenge.id, BOB)
            assert started.match is not None
            match_id = started.match.id
            told: list[tuple[int, int]] = []
            heard = asyncio.Event()

            def note(match: int, version: int) -> None:
                told.append((match, version))
                heard.set()

            assert await repo.listen_outbox(note)
            await move_in_another_process(url, match_id, ANN, "c3", 0)
            await asyncio.wait_for(heard.wait(), 10)
            assert told == [(match_id, 1)]
        finally:
            await repo.close()


async def test_sqlite_cannot_tell_and_says_so(tmp_path: Path) -> None:
    repo = await open_repository(tmp_path / "alone.sqlite3")
    try:
        assert await repo.listen_outbox(lambda match, version: None) is False
    finally:
        await repo.close()


async def test_a_move_of_another_process_reaches_the_open_table_without_polling(
    pg_table: tuple[Table, str],
) -> None:
    table, url = pg_table
    match = await table.board_match()
    bob = await table.socket(BOB)
    await bob.send_json({"type": "watch", "match": match})
    await frame(bob, "state")
    await move_in_another_process(url, match, ANN, "c3", 0)
    shown = await frame(bob, "state")  # within 5 s: the table's own poll is a minute away
    assert shown["version"] == 1 and shown["stones"] == {"c3": "dark"} and shown["yourTurn"]
