"""The web table's socket, in process over a real SQLite file: who may connect, what each
socket is shown, what it may do, and what is refused (and logged) without harm."""

from __future__ import annotations

import asyncio
import json
import logging
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

import aiohttp
import pytest
from aiohttp.test_utils import TestClient, TestServer

from engine import get_board_game
from engine.ai.levels import LEVEL_NAMES
from matchcore.service import MatchService
from matchcore.storage import open_repository
from matchcore.strength import measured_strength
from tests.service.helpers import ManualClock
from web.limits import BURST, MAX_FRAME_BYTES, MAX_REFUSALS, RATE, TokenBucket
from web.local import LOCAL, check_host, prepare_local, service_choices
from web.server import LOCAL_BOT, LOCAL_PLAYER, WebTable
from web.sessions import Identity, Sessions

ANN, BOB, CAT = 11, 12, 13


class Table:
    """A web table over a fresh database, with a session for Ann, Bob and Cat."""

    def __init__(self, service: MatchService, table: WebTable, client: TestClient) -> None:
        self.service = service
        self.table = table
        self.client = client
        self.tokens: dict[int, str] = {}

    async def sign_in(self) -> None:
        for user, name in ((ANN, "Ann"), (BOB, "Bob"), (CAT, "Cat")):
            self.tokens[user] = await self.table.sessions.issue(Identity(user, name, "en"))

    async def socket(self, user: int) -> aiohttp.ClientWebSocketResponse:
        ws = await self.client.ws_connect(f"/ws?session={self.tokens[user]}")
        welcome = await frame(ws)
        assert welcome["type"] == "welcome" and welcome["user"]["id"] == user
        return ws

    async def board_match(self) -> int:
        """Ann (dark, to move) against Bob, a game of Lefe on the smallest board."""
        update = await self.service.challenge(
            LOCAL.guild_id, LOCAL.channel_id, ANN, "lefe", BOB, size=5
        )
        assert update.challenge is not None
        started = await self.service.accept_challenge(update.challenge.id, BOB)
        assert started.match is not None
        return started.match.id


async def frame(ws: aiohttp.ClientWebSocketResponse, kind: str | None = None) -> dict[str, Any]:
    """The next frame (of ``kind``, skipping others), within 5 s."""
    while True:
        message = await asyncio.wait_for(ws.receive(), 5)
        assert message.type == aiohttp.WSMsgType.TEXT, message
        data: dict[str, Any] = json.loads(message.data)
        if kind is None or data["type"] == kind:
            return data


@asynccontextmanager
async def local_table(tmp_path: Path) -> AsyncIterator[Table]:
    """The local web table over a real SQLite file, served in process, its members signed in."""
    repo = await open_repository(tmp_path / "web.sqlite3")
    service = MatchService(repo, bot_user_id=LOCAL_BOT, choices=service_choices())
    await prepare_local(service)
    web_table = WebTable(service, Sessions(service.sign_ins), local=LOCAL)
    client = TestClient(TestServer(web_table.app()))
    await client.start_server()
    try:
        signed = Table(service, web_table, client)
        await signed.sign_in()
        yield signed
    finally:
        await client.close()
        await repo.close()


@pytest.fixture
async def table(tmp_path: Path) -> AsyncIterator[Table]:
    async with local_table(tmp_path) as signed:
        yield signed


async def test_a_socket_without_a_valid_session_is_refused(
    table: Table, caplog: pytest.LogCaptureFixture
) -> None:
    for query in ("", "?session=", "?session=forged-token"):
        with pytest.raises(aiohttp.WSServerHandshakeError) as refused:
            await table.client.ws_connect(f"/ws{query}")
        assert refused.value.status == 401
    assert "no valid session" in caplog.text


async def test_the_mover_alone_gets_the_engines_legal_moves(table: Table) -> None:
    match = await table.board_match()
    ann, bob, cat = [await table.socket(u) for u in (ANN, BOB, CAT)]
    for ws in (ann, bob, cat):
        await ws.send_json({"type": "watch", "match": match})
    shown = {user: await frame(ws, "state") for user, ws in ((ANN, ann), (BOB, bob), (CAT, cat))}
    expected = get_board_game("lefe").new(5).legal_moves()
    assert shown[ANN]["yourTurn"] and shown[ANN]["legal"] == expected
    assert shown[BOB]["legal"] == [] and not shown[BOB]["yourTurn"]
    assert shown[CAT]["legal"] == [] and not shown[CAT]["seated"]


async def test_a_move_reaches_every_open_table_within_one_loop_turn(table: Table) -> None:
    """A move made elsewhere (here straight through the service, as /move does) is queued
    on every socket watching the match before the call that committed it returns."""
    match = await table.board_match()
    sockets = [await table.socket(u) for u in (BOB, CAT)]
    for ws in sockets:
        await ws.send_json({"type": "watch", "match": match})
        await frame(ws, "state")
    await table.service.play(match, ANN, "c3", 0)
    queued = [client.outbox.qsize() for client in table.table.watchers[match]]
    assert queued == [1, 1]
    for ws in sockets:
        shown = await frame(ws, "state")
        assert shown["version"] == 1 and shown["stones"] == {"c3": "dark"}
        assert shown["last"]["placed"] == ["c3"]


async def test_the_clocks_step_reaches_every_open_table_within_one_loop_turn(
    table: Table,
) -> None:
    """The clock is a front end too: the timeout it commits (``service.tick`` past the
    deadline) is queued on every socket watching the match in the commit's own turn of
    the event loop (before any other listener of that commit is told)."""
    match = await table.board_match()
    sockets = [await table.socket(u) for u in (ANN, BOB)]
    for ws in sockets:
        await ws.send_json({"type": "watch", "match": match})
        await frame(ws, "state")
    info, _ = await table.service.match_state(match)
    assert info.deadline_at is not None
    # a listener after the table's, told of the same commit: the frames are queued by then
    queued: list[list[int]] = []
    table.service.on_commit(
        lambda record, state: queued.append(
            [client.outbox.qsize() for client in table.table.watchers.get(record.id, ())]
        )
    )
    await table.service.tick(now=info.deadline_at + 1)
    assert queued == [[1, 1]]
    for ws in sockets:
        shown = await frame(ws, "state")
        assert shown["version"] > info.version and shown["status"] != "running"


async def test_a_click_is_a_move_for_the_member_and_reaches_the_others(table: Table) -> None:
    match = await table.board_match()
    ann, bob = await table.socket(ANN), await table.socket(BOB)
    for ws in (ann, bob):
        await ws.send_json({"type": "watch", "match": match})
        await frame(ws, "state")
    await ann.send_json({"type": "move", "match": match, "move": "e5", "version": 0})
    for ws in (ann, bob):
        assert (await frame(ws, "state"))["stones"] == {"e5": "dark"}
    info, _ = await table.service.match_state(match)
    assert info.version == 1 and info.to_act == (BOB,)


async def test_a_move_for_another_member_or_a_forged_one_is_refused(
    table: Table, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.INFO, logger="web.server")
    match = await table.board_match()
    ann, bob, cat = [await table.socket(u) for u in (ANN, BOB, CAT)]
    attempts = [
        (bob, {"type": "move", "match": match, "move": "e5", "version": 0}),  # not Bob's turn
        (cat, {"type": "move", "match": match, "move": "e5", "version": 0}),  # not seated
        (cat, {"type": "resign", "match": match, "version": 0}),
        (ann, {"type": "move", "match": match, "move": "z99", "version": 0}),  # no such cell
        (ann, {"type": "move", "match": match, "move": "e5", "version": 7}),  # stale
        (ann, {"type": "move", "match": 999, "move": "e5", "version": 0}),  # no such match
        (ann, {"type": "new_game", "game": "lefe", "opponent": "hotseat"}),  # no second seat
    ]
    for ws, message in attempts:
        await ws.send_json(message)
        refused = await frame(ws, "error")
        assert refused["text"], message
    for ws, text in (
        (ann, "not json"),
        (ann, json.dumps({"type": "move", "match": match, "move": 5, "version": 0})),
        (ann, json.dumps({"type": "move", "match": True, "move": "e5", "version": 0})),
        (ann, json.dumps({"type": "drop_table"})),
        (ann, json.dumps([1, 2])),
    ):
        await ws.send_str(text)
        assert (await frame(ws, "error"))["text"]
    info, _ = await table.service.match_state(match)
    assert info.version == 0  # nothing was played
    assert "malformed message refused" in caplog.text
    assert "refused: NotYourTurn" in caplog.text or "refused: NotInMatch" in caplog.text
    # and the socket still works: Ann's real move goes through
    await ann.send_json({"type": "watch", "match": match})
    await frame(ann, "state")
    await ann.send_json({"type": "move", "match": match, "move": "e5", "version": 0})
    assert (await frame(ann, "state"))["version"] == 1


async def test_a_flood_is_refused_then_closed_and_other_sockets_go_on(
    table: Table, caplog: pytest.LogCaptureFixture
) -> None:
    match = await table.board_match()
    flood, calm = await table.socket(CAT), await table.socket(BOB)
    await flood.send_json({"type": "watch", "match": match})
    await frame(flood, "state")
    # The flood's bucket on a clock that stands still: the burst is all it gets, however
    # slowly this machine handles each message (on a loaded one the real clock refilled
    # the bucket between messages, and the flood was never refused often enough to close)
    (server_side,) = table.table.watchers[match]
    server_side.bucket = TokenBucket(clock=ManualClock())
    for _ in range(int(BURST) + 10):
        await flood.send_json({"type": "history", "match": match, "ply": 0})
    answers = [(await frame(flood))["type"] for _ in range(int(BURST) + 10)]
    # the burst is answered, what comes faster than the rate is refused
    assert answers.count("position") == BURST and answers.count("error") == 10
    for _ in range(MAX_REFUSALS + 10):
        await flood.send_json({"type": "history", "match": match, "ply": 0})
    while (await asyncio.wait_for(flood.receive(), 5)).type == aiohttp.WSMsgType.TEXT:
        pass
    assert flood.close_code == 1008
    assert "too many messages" in caplog.text
    await calm.send_json({"type": "watch", "match": match})
    assert (await frame(calm, "state"))["match"] == match


def test_a_sockets_bucket_refills_at_its_rate() -> None:
    clock = ManualClock(0.0)
    bucket = TokenBucket(clock=clock)
    assert all(bucket.take() for _ in range(int(BURST))) and not bucket.take()
    clock.advance(2.5 / RATE)  # two messages and a half
    assert [bucket.take() for _ in range(3)] == [True, True, False]
    clock.advance(3600)  # a quiet hour: a burst again, no more
    assert sum(bucket.take() for _ in range(int(BURST) + 5)) == BURST


async def test_an_oversized_frame_closes_that_socket_only(
    table: Table, caplog: pytest.LogCaptureFixture
) -> None:
    match = await table.board_match()
    big, calm = await table.socket(CAT), await table.socket(BOB)
    await big.send_str(json.dumps({"type": "watch", "match": match, "pad": "x" * MAX_FRAME_BYTES}))
    message = await asyncio.wait_for(big.receive(), 5)
    assert message.type in (aiohttp.WSMsgType.CLOSE, aiohttp.WSMsgType.CLOSED)
    assert big.close_code == 1009
    await asyncio.sleep(0.05)
    assert "oversized frame" in caplog.text
    await calm.send_json({"type": "watch", "match": match})
    assert (await frame(calm, "state"))["match"] == match


async def test_a_dropped_socket_resumes_with_what_it_missed(table: Table) -> None:
    match = await table.board_match()
    bob = await table.socket(BOB)
    await bob.send_json({"type": "watch", "match": match})
    seen = await frame(bob, "state")
    await bob.close()
    await table.service.play(match, ANN, "c3", seen["version"])
    await table.service.play(match, BOB, "g5", seen["version"] + 1)
    await table.service.play(match, ANN, "e5", seen["version"] + 2)
    again = await table.socket(BOB)
    await again.send_json({"type": "watch", "match": match, "since": seen["version"]})
    shown = await frame(again, "state")
    assert shown["version"] == seen["version"] + 3
    assert shown["moves"] == ["c3", "g5", "e5"]
    assert shown["stones"] == {"c3": "dark", "g5": "light", "e5": "dark"}
    assert shown["yourTurn"] and shown["legal"]


async def test_the_move_list_steps_back_through_the_game(table: Table) -> None:
    match = await table.board_match()
    for ply, (user, move) in enumerate(((ANN, "c3"), (BOB, "g5"), (ANN, "e5"))):
        await table.service.play(match, user, move, ply)
    ann = await table.socket(ANN)
    await ann.send_json({"type": "history", "match": match, "ply": 1})
    past = await frame(ann, "position")
    assert past["ply"] == 1 and past["stones"] == {"c3": "dark"}
    assert past["last"]["placed"] == ["c3"]
    # the score line of that position, not the live one (dark 2 : light 1 after e5)
    assert past["score"] == ["dark 2 (1)", "light 0 (no trees)"]
    await ann.send_json({"type": "history", "match": match, "ply": 0})
    start = await frame(ann, "position")
    assert start["stones"] == {} and start["score"] == ["dark 0 (no trees)", "light 0 (no trees)"]
    await ann.send_json({"type": "history", "match": match, "ply": 3})
    assert (await frame(ann, "position"))["score"] == ["dark 2 (1, 1)", "light 1 (1)"]


async def test_the_table_speaks_the_members_language(table: Table) -> None:
    token = await table.table.sessions.issue(Identity(21, "Dora", "de"))
    ws = await table.client.ws_connect(f"/ws?session={token}")
    welcome = await frame(ws, "welcome")
    assert welcome["language"] == "de"
    assert welcome["texts"]["resign"] == "Aufgeben"
    assert welcome["texts"]["game.lefe"] == "Lefe"


async def test_the_geometry_is_the_pictures(table: Table) -> None:
    from render.geometry import board_geometry

    answer = await table.client.get("/api/geometry/lefe/5")
    data = await answer.json()
    geometry = board_geometry(5, 480, False)
    first = data["cells"][0]
    assert first["name"] == "a1"
    assert (first["x"], first["y"] + geometry.header_height) == geometry.centres[0]
    assert (await table.client.get("/api/geometry/lefe/4")).status == 404
    assert (await table.client.get("/api/geometry/chess/8")).status == 404


async def test_a_draw_is_offered_to_the_other_member_and_accepted(table: Table) -> None:
    match = await table.board_match()
    ann, bob = await table.socket(ANN), await table.socket(BOB)
    for ws in (ann, bob):
        await ws.send_json({"type": "watch", "match": match})
        await frame(ws, "state")
    await ann.send_json({"type": "offer_draw", "match": match, "version": 0})
    offered = await frame(bob, "state")
    assert offered["drawOffer"] == {"by": ANN, "name": "Ann", "toYou": True}
    assert (await frame(ann, "state"))["drawOffer"]["toYou"] is False
    await bob.send_json({"type": "accept_draw", "match": match, "version": offered["version"]})
    ended = await frame(ann, "state")
    assert ended["status"] == "finished" and ended["legal"] == []


def test_without_discord_the_table_listens_on_loopback_only() -> None:
    for host in ("127.0.0.1", "::1", "localhost"):
        check_host(host, signed_in=False)
    for host in ("0.0.0.0", "192.168.1.20", "example.org"):
        with pytest.raises(SystemExit):
            check_host(host, signed_in=False)
    check_host("0.0.0.0", signed_in=True)


async def test_the_local_sign_in_exists_only_without_discord(table: Table) -> None:
    answer = await table.client.post("/api/local-session", json={"locale": "de"})
    token = (await answer.json())["token"]
    ws = await table.client.ws_connect(f"/ws?session={token}")
    welcome = await frame(ws, "welcome")
    assert welcome["local"] and welcome["language"] == "de" and welcome["user"]["name"] == "Du"
    discord_only = WebTable(table.service, Sessions(table.service.sign_ins))
    assert "/api/local-session" not in {
        resource.canonical for resource in discord_only.app().router.resources()
    }


async def test_a_move_committed_by_another_process_reaches_the_open_tables(
    table: Table, tmp_path: Path
) -> None:
    """A second service on the same database file (another process: its own locks, its own
    cache, no listener of this table) commits a move; the table's poll of the versions of
    the matches it shows brings it here."""
    match = await table.board_match()
    bob = await table.socket(BOB)
    await bob.send_json({"type": "watch", "match": match})
    await frame(bob, "state")
    other_repo = await open_repository(tmp_path / "web.sqlite3")
    try:
        other = MatchService(other_repo, choices=service_choices())
        await other.play(match, ANN, "c3", 0)
        shown = await frame(bob, "state")
        assert shown["version"] == 1 and shown["stones"] == {"c3": "dark"} and shown["yourTurn"]
        # the table reads for itself: it marks nothing another reader could depend on
        assert await table.service.repo.pending_deliveries("web") == []
    finally:
        await other_repo.close()


async def test_the_start_page_lists_the_members_games_theirs_to_move_first(table: Table) -> None:
    """The start page: the member's games, the ones waiting for them first, each saying
    against whom and whose turn it is, in the member's language."""
    waiting = await table.board_match()  # Ann to move against Bob
    update = await table.service.challenge(
        LOCAL.guild_id, LOCAL.channel_id, BOB, "dalen", ANN, size=5
    )
    assert update.challenge is not None
    started = await table.service.accept_challenge(update.challenge.id, ANN)
    assert started.match is not None
    token = await table.table.sessions.issue(Identity(BOB, "Bob", "de"))
    ws = await table.client.ws_connect(f"/ws?session={token}")
    await frame(ws, "welcome")
    table.table.names[ANN] = Identity(ANN, "Ann", "en")
    await ws.send_json({"type": "matches"})
    listed = (await frame(ws, "matches"))["matches"]
    assert [m["match"] for m in listed] == [started.match.id, waiting]
    assert listed[0]["yourTurn"] and listed[0]["text"] == "Du bist dran"
    assert listed[0]["against"] == "gegen Ann"
    assert not listed[1]["yourTurn"] and listed[1]["text"] == "Wartet auf Ann"


@pytest.mark.parametrize(
    "headers",
    [
        {"Host": "rebound.example:8080"},  # a name of another site that resolves here
        {"Host": "192.168.1.20:8080"},  # reached through another address (a proxy)
        {"Origin": "https://evil.example"},  # a page of another site in the same browser
        {"Origin": "null"},
    ],
)
async def test_the_local_table_answers_this_machine_only(
    table: Table, headers: dict[str, str], caplog: pytest.LogCaptureFixture
) -> None:
    """Without Discord's sign-in whoever reaches the table is the local player: a request
    naming another host, or sent by another site's page, gets nothing, not the page, not
    a session, not a socket (DNS rebinding, a proxy)."""
    for method, path in (("GET", "/"), ("GET", "/static/app.css"), ("POST", "/api/local-session")):
        answer = await table.client.request(method, path, headers=headers, json={})
        assert answer.status == 403, (method, path)
    with pytest.raises(aiohttp.WSServerHandshakeError) as refused:
        await table.client.ws_connect(f"/ws?session={table.tokens[ANN]}", headers=headers)
    assert refused.value.status == 403
    assert "local web table" in caplog.text and "refused" in caplog.text


@pytest.mark.parametrize("host", ["127.0.0.1", "localhost", "[::1]", "127.0.0.2"])
async def test_the_local_table_answers_its_own_loopback_names(table: Table, host: str) -> None:
    headers = {"Host": f"{host}:8080", "Origin": f"http://{host}:8080"}
    assert (await table.client.get("/", headers=headers)).status == 200
    answer = await table.client.post("/api/local-session", headers=headers, json={})
    token = (await answer.json())["token"]
    ws = await table.client.ws_connect(f"/ws?session={token}", headers=headers)
    assert (await frame(ws, "welcome"))["local"]
    await ws.close()


async def test_a_table_with_the_discord_sign_in_serves_other_machines(table: Table) -> None:
    """With the sign-in (no local player) the page and its bundle are public (they hold no
    member's data and must load before the sign-in); a socket still needs a session, and
    there is no local sign-in to get one from."""
    signed_in = WebTable(table.service, Sessions(table.service.sign_ins))
    client = TestClient(TestServer(signed_in.app()))
    await client.start_server()
    try:
        public = {"Host": "leafbot.example.org", "Origin": "https://123.discordsays.com"}
        assert (await client.get("/", headers=public)).status == 200
        assert (await client.get("/static/app.css", headers=public)).status == 200
        assert (await client.post("/api/local-session", headers=public, json={})).status in (
            404,
            405,
        )
        with pytest.raises(aiohttp.WSServerHandshakeError) as refused:
            await client.ws_connect("/ws?session=made-up", headers=public)
        assert refused.value.status == 401
        token = await signed_in.sessions.issue(Identity(ANN, "Ann", "en"))
        ws = await client.ws_connect(f"/ws?session={token}", headers=public)
        assert not (await frame(ws, "welcome"))["local"]
        await ws.close()
    finally:
        await client.close()


@pytest.mark.parametrize("game", ["dalen", "leiff"])
async def test_a_local_game_against_the_bot_at_every_level(table: Table, game: str) -> None:
    """Without Discord the local player starts a game against Leafbot at each level the
    page offers (a Leiff table's bot seats at that level): the core seats Leafbot at it."""
    answer = await table.client.post("/api/local-session", json={"locale": "en"})
    token = (await answer.json())["token"]
    ws = await table.client.ws_connect(f"/ws?session={token}")
    welcome = await frame(ws, "welcome")
    levels = welcome["levels"]
    assert levels == list(LEVEL_NAMES)  # all five, as /play offers them
    # each board game carries its measured levels' Elo (data/ai-strength.json), no others
    for entry in welcome["games"]:
        if entry.get("cards"):
            assert "strength" not in entry
            continue
        measured = {level: measured_strength(entry["name"], level) for level in LEVEL_NAMES}
        assert entry["strength"] == {
            level: found.elo for level, found in measured.items() if found is not None
        }
    assert welcome["texts"]["level_elo"] == "about {elo} Elo"
    size = 3 if game == "leiff" else get_board_game(game).sizes[0]  # Leiff: players
    for level in levels:
        await ws.send_json(
            {"type": "new_game", "game": game, "opponent": "bot", "size": size, "level": level}
        )
        started = await frame(ws)
        while started["type"] not in ("started", "error"):
            started = await frame(ws)
        assert started["type"] == "started", started
        match = started["match"]
        info, _ = await table.service.match_state(match)
        bots = [seat for seat in info.seats if seat.is_bot]
        assert bots and all(seat.bot_level == level for seat in bots), (level, info.seats)
        assert any(seat.user_id == LOCAL_PLAYER for seat in info.seats)
    await ws.close()
