"""The Activity's sign-in against the simulated Discord: the code exchanged, the user read,
the instance checked; the routes it adds to the table; nothing secret in the log."""

from __future__ import annotations

import logging
from collections.abc import AsyncIterator
from pathlib import Path

import aiohttp
import pytest
from aiohttp import web
from aiohttp.test_utils import TestServer

from discord_sim import DiscordSimulator, World
from matchcore.service import MatchService
from tests.service.helpers import ManualClock, open_service
from web.discord_auth import (
    ActivitySessions,
    DiscordApp,
    Place,
    SignInRefused,
    add_routes,
    sign_in,
)
from web.sessions import Identity, Sessions


@pytest.fixture
async def discord_sim() -> AsyncIterator[DiscordSimulator]:
    async with DiscordSimulator() as simulator:
        yield simulator


@pytest.fixture
def sim_world(discord_sim: DiscordSimulator) -> World:
    return discord_sim.populate()


def _app(sim: DiscordSimulator) -> DiscordApp:
    client_id, secret = sim.enable_activity()
    return DiscordApp(client_id, secret, sim.token, api_base=f"{sim.base_url}/api/v10")


async def test_a_sign_in_names_the_player_and_the_activitys_channel(
    discord_sim: DiscordSimulator, sim_world: World
) -> None:
    app = _app(discord_sim)
    sim_world.alice.locale = "de"
    instance = discord_sim.state.activities.launch(
        sim_world.alice.id, sim_world.channel.id, sim_world.guild.id
    )
    signed = await sign_in(discord_sim.consent(sim_world.alice), instance.instance_id, app=app)
    assert signed.identity == Identity(sim_world.alice.id, "alice", "de")
    assert signed.place == Place(sim_world.channel.id, sim_world.guild.id)
    assert signed.access_token in discord_sim.state.activities.tokens
    assert signed.access_token not in repr(signed) and app.client_secret not in repr(app)


async def test_a_sign_in_for_an_activity_the_user_is_not_in_is_refused(
    discord_sim: DiscordSimulator, sim_world: World
) -> None:
    app = _app(discord_sim)
    instance = discord_sim.state.activities.launch(
        sim_world.alice.id, sim_world.channel.id, sim_world.guild.id
    )
    with pytest.raises(SignInRefused) as refused:
        await sign_in(discord_sim.consent(sim_world.bob), instance.instance_id, app=app)
    assert refused.value.reason == "not_in_activity"
    with pytest.raises(SignInRefused) as refused:
        await sign_in(discord_sim.consent(sim_world.alice), "i-1-gc-2-3", app=app)
    assert refused.value.reason == "not_in_activity"
    # once bob joins the Activity, his sign-in is good
    discord_sim.state.activities.join(instance.instance_id, sim_world.bob.id)
    signed = await sign_in(discord_sim.consent(sim_world.bob), instance.instance_id, app=app)
    assert signed.identity.user_id == sim_world.bob.id


async def test_a_code_signs_in_once_and_only_with_the_right_secret(
    discord_sim: DiscordSimulator, sim_world: World
) -> None:
    app = _app(discord_sim)
    code = discord_sim.consent(sim_world.alice)
    await sign_in(code, None, app=app)
    with pytest.raises(SignInRefused, match="bad_code"):
        await sign_in(code, None, app=app)
    wrong = DiscordApp(app.client_id, app.client_secret + "x", app.bot_token, app.api_base)
    with pytest.raises(SignInRefused, match="bad_code"):
        await sign_in(discord_sim.consent(sim_world.alice), None, app=wrong)
    with pytest.raises(SignInRefused, match="bad_code"):
        await sign_in("made-up", None, app=app)


async def test_the_log_of_a_sign_in_holds_no_token_code_or_secret(
    discord_sim: DiscordSimulator, sim_world: World, caplog: pytest.LogCaptureFixture
) -> None:
    app = _app(discord_sim)
    instance = discord_sim.state.activities.launch(
        sim_world.alice.id, sim_world.channel.id, sim_world.guild.id
    )
    caplog.set_level(logging.DEBUG)
    code = discord_sim.consent(sim_world.alice)
    signed = await sign_in(code, instance.instance_id, app=app)
    refused_code = discord_sim.consent(sim_world.bob)
    with pytest.raises(SignInRefused):
        await sign_in(refused_code, instance.instance_id, app=app)
    text = "\n".join(f"{r.getMessage()} {r.args!r} {r.exc_text or ''}" for r in caplog.records)
    assert str(sim_world.alice.id) in text  # the sign-in was logged...
    for secret in (signed.access_token, app.client_secret, app.bot_token, code, refused_code):
        assert secret not in text  # ...and nothing that would let a reader act as anyone


def test_the_credentials_come_from_the_environment() -> None:
    env = {"DISCORD_CLIENT_ID": "123", "DISCORD_CLIENT_SECRET": "s3", "DISCORD_TOKEN": "t"}
    app = DiscordApp.from_env(env)
    assert app is not None and (app.client_id, app.client_secret, app.bot_token) == (123, "s3", "t")
    assert "s3" not in repr(app) and "'t'" not in repr(app)
    assert DiscordApp.from_env({**env, "DISCORD_CLIENT_SECRET": ""}) is None
    assert DiscordApp.from_env({**env, "DISCORD_CLIENT_ID": "abc"}) is None


async def test_a_session_expires(tmp_path: Path) -> None:
    clock = ManualClock()
    repo, service = await open_service(tmp_path / "expiry.sqlite3", clock)
    try:
        sessions = Sessions(service.sign_ins)
        store = ActivitySessions(sessions, lifetime=60)
        from web.discord_auth import SignedIn

        token = await store.issue(SignedIn(Identity(5, "e", "en"), "at", None))
        found = await store.live(token)
        assert found is not None and found.identity == Identity(5, "e", "en")
        clock.advance(61)
        assert await store.live(token) is None
        assert await sessions.get(token) is None  # the socket refuses it too
        assert await service.sign_ins.prune_sign_ins() == 1
    finally:
        await repo.close()


# --------------------------------------------------------------------- the routes


@pytest.fixture
async def service(tmp_path: Path) -> AsyncIterator[MatchService]:
    repo, started = await open_service(tmp_path / "bot.sqlite3", ManualClock())
    yield started
    await repo.close()


async def test_the_routes_sign_in_and_list_the_channels_matches_and_mine(
    discord_sim: DiscordSimulator, sim_world: World, service: MatchService
) -> None:
    discord_app = _app(discord_sim)
    guild, channel, other = sim_world.guild.id, sim_world.channel.id, sim_world.other_channel.id
    alice, bob, carol = sim_world.alice.id, sim_world.bob.id, sim_world.carol.id
    # bob and carol play in the Activity's channel, alice and bob elsewhere
    here = await service.challenge(guild, channel, bob, "lefe", carol)
    assert here.challenge_id is not None
    played_here = await service.accept_challenge(here.challenge_id, carol)
    there = await service.challenge(guild, other, alice, "dalen", bob)
    assert there.challenge_id is not None
    played_there = await service.accept_challenge(there.challenge_id, bob)
    assert played_here.match is not None and played_there.match is not None
    instance = discord_sim.state.activities.launch(alice, channel, guild)

    sessions = Sessions(service.sign_ins)
    app = web.Application()
    add_routes(app, sessions, service, discord_app)
    async with TestServer(app) as server, aiohttp.ClientSession() as http:
        base = f"http://{server.host}:{server.port}"
        async with http.get(f"{base}/api/activity/matches") as answer:
            assert answer.status == 401
        async with http.get(
            f"{base}/api/activity/matches", headers={"X-Session": "made-up"}
        ) as answer:
            assert answer.status == 401
        body = {"code": "made-up", "instance_id": instance.instance_id}
        async with http.post(f"{base}/api/token", json=body) as answer:
            assert answer.status == 401
            assert await answer.json() == {"error": "bad_code"}
        body["code"] = discord_sim.consent(sim_world.alice)
        async with http.post(f"{base}/api/token", json=body) as answer:
            assert answer.status == 200
            signed = await answer.json()
        assert signed["user"] == {"id": str(alice), "name": "alice", "locale": "en-US"}
        assert signed["channel"] == str(channel)
        assert signed["access_token"] in discord_sim.state.activities.tokens
        session = await sessions.get(signed["session"])
        assert session is not None and session.identity.user_id == alice
        async with http.get(
            f"{base}/api/activity/matches", headers={"X-Session": signed["session"]}
        ) as answer:
            assert answer.status == 200
            listed = await answer.json()
    assert [m["match"] for m in listed["here"]] == [played_here.match.id]
    assert [m["match"] for m in listed["mine"]] == [played_there.match.id]
    assert listed["here"][0]["players"] == [str(bob), str(carol)]


async def test_a_member_who_leaves_the_activity_loses_the_table(
    discord_sim: DiscordSimulator, sim_world: World, service: MatchService
) -> None:
    """The instance is checked at every request and socket message, not only at sign-in:
    once the member has left the Activity, the next message closes their socket, the
    session is revoked, and neither the socket nor the matches' route lets them in again.
    A member still in it goes on."""
    from web.server import WebTable

    discord_app = _app(discord_sim)
    alice, bob = sim_world.alice, sim_world.bob
    guild, channel = sim_world.guild.id, sim_world.channel.id
    instance = discord_sim.state.activities.launch(alice.id, channel, guild)
    discord_sim.state.activities.join(instance.instance_id, bob.id)
    sessions = Sessions(service.sign_ins)
    table = WebTable(service, sessions)
    app = table.app()
    store = add_routes(app, sessions, service, discord_app)
    store.recheck = 0.0  # ask Discord at every message
    table.access = store.still_in
    async with TestServer(app, host="127.0.0.1") as server, aiohttp.ClientSession() as http:
        base = f"http://127.0.0.1:{server.port}"
        tokens = {}
        for member in (alice, bob):
            body = {"code": discord_sim.consent(member), "instance_id": instance.instance_id}
            async with http.post(f"{base}/api/token", json=body) as answer:
                assert answer.status == 200
                tokens[member.id] = (await answer.json())["session"]
        sockets = {}
        for member in (alice, bob):
            ws = await http.ws_connect(f"{base}/ws?session={tokens[member.id]}")
            assert (await ws.receive_json())["type"] == "welcome"
            sockets[member.id] = ws
        discord_sim.state.activities.leave(instance.instance_id, bob.id)
        for member in (alice, bob):
            await sockets[member.id].send_json({"type": "matches"})
        assert (await sockets[alice.id].receive_json())["type"] == "matches"
        closed = await sockets[bob.id].receive()
        assert closed.type == aiohttp.WSMsgType.CLOSE and closed.data == 4001
        assert await sessions.get(tokens[bob.id]) is None  # revoked in the database
        with pytest.raises(aiohttp.WSServerHandshakeError) as refused:
            await http.ws_connect(f"{base}/ws?session={tokens[bob.id]}")
        assert refused.value.status == 401
        for member, status in ((alice, 200), (bob, 401)):
            async with http.get(
                f"{base}/api/activity/matches", headers={"X-Session": tokens[member.id]}
            ) as answer:
                assert answer.status == status
        await sockets[alice.id].close()
