"""The web table refuses in the Discord layer's words: the same sentence, in English and in
German, for every kind of refusal a page can meet (one module, ``wording.service_words``,
words them for both front ends; the web keeps no simpler wording of its own)."""

from __future__ import annotations

import re
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

import pytest

from bot.common.errors import player_message
from engine import IllegalMove
from matchcore.service import ServiceError
from tests.web.test_socket import ANN, BOB, CAT, Table, frame
from tests.web.test_socket import table as table
from web.sessions import Identity

ROOT = Path(__file__).resolve().parents[2]
MENTION = re.compile(r"<@(\d+)>")
NAMES = {ANN: "Ann", BOB: "Bob", CAT: "Cat"}


@pytest.mark.parametrize("language", ["en", "de"])
async def test_every_refusal_reads_as_the_bot_says_it(table: Table, language: str) -> None:
    match = await table.board_match()
    tokens = {
        user: await table.table.sessions.issue(Identity(user, name, language))
        for user, name in ((ANN, "Ann"), (BOB, "Bob"), (CAT, "Cat"))
    }
    sockets = {
        user: await table.client.ws_connect(f"/ws?session={tokens[user]}") for user in tokens
    }
    for ws in sockets.values():
        assert (await frame(ws))["language"] == language
    service = table.service
    attempts: list[tuple[int, dict[str, Any], Callable[[], Awaitable[object]]]] = [
        (
            BOB,
            {"type": "move", "match": match, "move": "e5", "version": 0},
            lambda: service.play(match, BOB, "e5", 0),
        ),
        (
            CAT,
            {"type": "move", "match": match, "move": "e5", "version": 0},
            lambda: service.play(match, CAT, "e5", 0),
        ),
        (
            ANN,
            {"type": "move", "match": match, "move": "z99", "version": 0},
            lambda: service.play(match, ANN, "z99", 0),
        ),
        (
            ANN,
            {"type": "move", "match": match, "move": "e5", "version": 7},
            lambda: service.play(match, ANN, "e5", 7),
        ),
        (
            ANN,
            {"type": "move", "match": 999, "move": "e5", "version": 0},
            lambda: service.play(999, ANN, "e5", 0),
        ),
        (
            CAT,
            {"type": "accept_draw", "match": match, "version": 0},
            lambda: service.accept_draw(match, CAT, 0),
        ),
    ]
    seen = set()
    for user, message, same_call in attempts:
        with pytest.raises((ServiceError, IllegalMove)) as refused:
            await same_call()
        # as Discord shows it: a mention reads as the member's name
        expected = MENTION.sub(
            lambda m: NAMES[int(m.group(1))], player_message(refused.value, language) or ""
        )
        assert expected and "<@" not in expected
        await sockets[user].send_json(message)
        assert (await frame(sockets[user], "error"))["text"] == expected, message
        seen.add(expected)
    assert len(seen) == 5  # five kinds of refusal, each worded as the bot words it
    for ws in sockets.values():
        await ws.close()


def test_the_web_keeps_no_wording_of_its_own_for_the_cores_refusals() -> None:
    assert not (ROOT / "web" / "words.py").exists()
    assert not (ROOT / "bot" / "common" / "service_words.py").exists()
    for path in (ROOT / "web").glob("*.py"):
        text = path.read_text(encoding="utf-8")
        assert "service.error." not in text and "illegal_move" not in text, path.name
