"""Across processes on PostgreSQL: a commit's NOTIFY tells the other processes at once.

Every step's outbox rows are written with a ``pg_notify`` in the same statement
(``matchcore/storage/postgres.py``), which PostgreSQL sends every listening connection
when the transaction commits. A move played by another *process* (``tests.web.outbox_child``,
its own service on the same database) must reach:

- a repository that listens (``listen_outbox``): told the match and its version;
- the web table's open sockets, with the table's polling slowed to a minute, so only the
  notice can have brought it in time.

Every web process reads for itself (nothing it reads is marked for the others): two web
tables, each with its own repository (its own pool and listening connection, as two
processes have), are each shown every step, whether another process or the other table
committed it, and a socket dropped meanwhile resumes with every move.

SQLite cannot tell another process anything: ``listen_outbox`` says so (False), and the
web table polls (tests/web/test_socket.py and tests/web/test_two_processes.py cover that
path).
"""

from __future__ import annotations

import asyncio
import contextlib
import sys
from collections.abc import AsyncIterator
from pathlib import Path

import aiohttp
import pytest
from aiohttp.test_utils import TestClient, TestServer

import web.server
from engine.board import BoardState
from matchcore.service import MatchService
from matchcore.storage import open_repository
from tests.postgres import fresh_database
from tests.web.test_socket import ANN, BOB, CAT, Table, frame
from web.local import LOCAL, prepare_local, service_choices
from web.server import LOCAL_BOT, WebTable
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
        service = MatchService(repo, bot_user_id=LOCAL_BOT, choices=service_choices())
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


@pytest.fixture
async def two_readers(monkeypatch: pytest.MonkeyPatch) -> AsyncIterator[tuple[list[Table], str]]:
    """Two web tables on one PostgreSQL database, each over its own repository and service
    (its own pool, cache, locks and listening connection: what two processes have); their
    polling slowed to a minute, so only a commit's notice can bring a step in time."""
    monkeypatch.setattr(web.server, "OUTBOX_POLL_SECONDS", 60.0)
    monkeypatch.setattr(web.server, "OUTBOX_TOLD_SECONDS", 60.0)
    async with fresh_database() as url, contextlib.AsyncExitStack() as stack:
        tables = []
        for _ in range(2):
            repo = await open_repository(url)
            stack.push_async_callback(repo.close)
            service = MatchService(repo, bot_user_id=LOCAL_BOT, choices=service_choices())
            stack.push_async_callback(service.close)
            await prepare_local(service)
            web_table = WebTable(service, Sessions(service.sign_ins), local=LOCAL)
            client = TestClient(TestServer(web_table.app()))
            await client.start_server()
            stack.push_async_callback(client.close)
            signed = Table(service, web_table, client)
            await signed.sign_in()
            tables.append(signed)
        yield tables, url


async def next_move(table: Table, match: int) -> tuple[int, str, int]:
    """Who is to move, the engine's first legal move, and the match's version."""
    info, state = await table.service.match_state(match)
    assert isinstance(state, BoardState) and state.seat_to_move is not None
    user = info.seats[state.seat_to_move].user_id
    assert user is not None
    return user, state.legal_moves()[0], info.version


async def versions_seen(ws: aiohttp.ClientWebSocketResponse, upto: int) -> list[int]:
    """The versions of the state frames a socket receives, up to ``upto`` (5 s each)."""
    seen: list[int] = []
    while not seen or seen[-1] < upto:
        seen.append((await frame(ws, "state"))["version"])
    return seen


async def test_every_web_process_is_shown_every_step_wherever_it_was_committed(
    two_readers: tuple[list[Table], str],
) -> None:
    (first, second), url = two_readers
    match = await first.board_match()
    watching = {}
    for at, table in enumerate((first, second)):
        for user in (ANN, BOB, CAT):
            ws = await table.socket(user)
            await ws.send_json({"type": "watch", "match": match})
            assert (await frame(ws, "state"))["version"] == 0
            watching[at, user] = ws
    for step in range(1, 7):
        user, move, version = await next_move(first, match)
        if step % 3 == 0:  # another process (its own service, then gone)
            await move_in_another_process(url, match, user, move, version)
        else:  # a click at one table or the other
            clicked = watching[step % 3 - 1, user]
            await clicked.send_json(
                {"type": "move", "match": match, "move": move, "version": version}
            )
        # every socket at both tables is shown exactly this step, none skipped
        for ws in watching.values():
            assert await versions_seen(ws, step) == [step]
    for ws in watching.values():
        await ws.close()


async def test_a_socket_dropped_at_one_process_resumes_with_every_move_made_elsewhere(
    two_readers: tuple[list[Table], str],
) -> None:
    (first, second), url = two_readers
    match = await first.board_match()
    bob = await second.socket(BOB)
    await bob.send_json({"type": "watch", "match": match})
    assert (await frame(bob, "state"))["version"] == 0
    ann = await first.socket(ANN)
    await ann.send_json({"type": "watch", "match": match})
    await frame(ann, "state")
    await bob.close()  # the connection drops
    played = []
    for step in range(1, 5):
        user, move, version = await next_move(first, match)
        played.append(move)
        if user == ANN:
            await ann.send_json({"type": "move", "match": match, "move": move, "version": version})
            assert await versions_seen(ann, step) == [step]
        else:
            await move_in_another_process(url, match, user, move, version)
            assert await versions_seen(ann, step) == [step]
    bob = await second.socket(BOB)  # back: the page watches its match again
    await bob.send_json({"type": "watch", "match": match})
    shown = await frame(bob, "state")
    assert shown["version"] == 4
    assert shown["moves"] == played
    # and it goes on live: Ann's next move reaches it through the notice
    user, move, version = await next_move(first, match)
    assert user == ANN
    await ann.send_json({"type": "move", "match": match, "move": move, "version": version})
    assert await versions_seen(bob, 5) == [5]
    await ann.close()
    await bob.close()
