"""A table whose connection drops mid-game comes back where it left off: what happened
meanwhile is shown, and the game goes on by clicks."""

from __future__ import annotations

import asyncio
import json
from collections.abc import Iterator

import aiohttp
import pytest
from selenium.webdriver.remote.webdriver import WebDriver

from tests.web.browser import LocalServer, Proxy, board_state, click_cell, wait_for
from tests.web.test_browser_games import start_game


@pytest.fixture
def proxy(local_server: LocalServer) -> Iterator[Proxy]:
    through = Proxy(int(local_server.address.rsplit(":", 1)[1]))
    yield through
    through.close()


async def move_elsewhere(address: str, match: int, version: int, move: str) -> None:
    """The same two people play a move from another screen (a socket of its own)."""
    async with aiohttp.ClientSession() as http:
        answer = await http.post(f"{address}/api/local-session", json={"locale": "en"})
        token = (await answer.json())["token"]
        async with http.ws_connect(f"{address.replace('http', 'ws')}/ws?session={token}") as ws:
            await ws.send_json({"type": "move", "match": match, "move": move, "version": version})
            await ws.send_json({"type": "watch", "match": match})
            while True:
                data = json.loads((await ws.receive()).data)
                assert data["type"] != "error", data
                if data["type"] == "state" and data["version"] > version:
                    return


def test_a_dropped_table_reconnects_and_shows_what_it_missed(
    chromium: WebDriver, local_server: LocalServer, proxy: Proxy
) -> None:
    match = start_game(chromium, f"http://127.0.0.1:{proxy.port}", "dalen", opponent="hotseat")
    for cell in ("a1", "i5"):
        version = board_state(chromium)["version"]
        click_cell(chromium, cell)
        wait_for(lambda v=version: board_state(chromium)["version"] > v, what="a click's move")
    before = board_state(chromium)

    proxy.cut()
    wait_for(lambda: chromium.find_element("id", "conn").text, what="the page to see the drop")
    asyncio.run(move_elsewhere(local_server.address, match, before["version"], "e5"))
    proxy.resume()

    after = wait_for(
        lambda: (s := board_state(chromium))["version"] == before["version"] + 1 and s,
        timeout=30,
        what="the table to come back",
    )
    assert after["stones"] == {**before["stones"], "e5": after["stones"]["e5"]}
    assert after["moves"] == before["moves"] + 1
    assert chromium.find_element("id", "conn").text == ""
    # and the game goes on by clicks
    cell = sorted(after["legal"])[0]
    click_cell(chromium, cell)
    wait_for(lambda: board_state(chromium)["version"] == after["version"] + 1, what="a move after")
    assert cell in board_state(chromium)["stones"]
