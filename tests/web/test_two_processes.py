"""Several web tables on one database: two ``python -m bot`` processes without a token (the
web table alone) on one SQLite file. A session signed in at one is good at the other and
after a restart (sessions live in the database); a move made on either reaches the
sockets of the other (each polls the versions of the matches it shows)."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path
from typing import Any

import aiohttp

from tests.web.browser import LocalServer


async def frame(ws: aiohttp.ClientWebSocketResponse, kind: str, timeout: float = 10) -> Any:
    while True:
        message = await asyncio.wait_for(ws.receive(), timeout)
        assert message.type == aiohttp.WSMsgType.TEXT, message
        data = json.loads(message.data)
        if data["type"] == kind:
            return data


async def test_two_web_processes_share_sessions_and_moves(tmp_path: Path) -> None:
    database = tmp_path / "shared.sqlite3"
    first = await asyncio.to_thread(LocalServer, database)
    second = await asyncio.to_thread(LocalServer, database.with_name("shared.sqlite3"))
    try:
        async with aiohttp.ClientSession() as http:
            async with http.post(f"{first.address}/api/local-session", json={"locale": "en"}) as a:
                token = (await a.json())["token"]
            at_first = await http.ws_connect(
                f"{first.address.replace('http', 'ws')}/ws?session={token}"
            )
            at_second = await http.ws_connect(
                f"{second.address.replace('http', 'ws')}/ws?session={token}"
            )
            for ws in (at_first, at_second):
                assert (await frame(ws, "welcome"))["user"]["id"] == 1001  # the same member
            await at_first.send_json(
                {"type": "new_game", "game": "lefe", "opponent": "hotseat", "size": 5}
            )
            match = (await frame(at_first, "started"))["match"]
            for ws in (at_first, at_second):
                await ws.send_json({"type": "watch", "match": match})
                assert (await frame(ws, "state"))["version"] == 0
            # a move on the first process shows on the second, and the other way round
            moves = ["e5", "c3"]
            for version, (mover, other) in enumerate(
                ((at_first, at_second), (at_second, at_first)), start=1
            ):
                await mover.send_json(
                    {
                        "type": "move",
                        "match": match,
                        "move": moves[version - 1],
                        "version": version - 1,
                    }
                )
                shown = await frame(other, "state")
                while shown["version"] < version:  # its own earlier move's frame first
                    shown = await frame(other, "state")
                assert shown["version"] == version
                assert shown["stones"][moves[version - 1]]
            await at_first.close()
            await at_second.close()
        # the first process restarts: the session signed in before is still good
        await asyncio.to_thread(first.stop)
        first = await asyncio.to_thread(LocalServer, database)
        async with aiohttp.ClientSession() as http:
            ws = await http.ws_connect(f"{first.address.replace('http', 'ws')}/ws?session={token}")
            assert (await frame(ws, "welcome"))["user"]["id"] == 1001
            await ws.send_json({"type": "watch", "match": match})
            assert (await frame(ws, "state"))["version"] == 2
            await ws.close()
            # a made-up token is still refused
            try:
                await http.ws_connect(f"{first.address.replace('http', 'ws')}/ws?session=made-up")
                raise AssertionError("a made-up session was let in")
            except aiohttp.WSServerHandshakeError as refused:
                assert refused.status == 401
    finally:
        await asyncio.to_thread(first.stop)
        await asyncio.to_thread(second.stop)
