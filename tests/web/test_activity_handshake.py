"""The Activity without Discord: the real page and the real SDK in Debian's chromium, inside
a test page that plays Discord's part of the SDK's handshake (the frame's query parameters,
READY, AUTHORIZE and AUTHENTICATE answered by nonce), the OAuth2 exchange made against the
simulated Discord. The socket is refused without a session and accepted after the sign-in,
and the page opens on the match of the channel it was launched in."""

from __future__ import annotations

import asyncio
import time
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import aiohttp
import pytest
from aiohttp import web
from aiohttp.test_utils import TestServer

from discord_sim import DiscordSimulator, World
from discord_sim.models import SimUser
from matchcore.service import MatchService
from tests.service.helpers import ManualClock, open_service
from tests.web.browser import build_bundle, need_browser, start_chromium
from web.discord_auth import DiscordApp, add_routes
from web.server import WebTable
from web.sessions import Sessions

FRAME_PAGE = Path(__file__).with_name("discord_frame.html")


@pytest.fixture
async def discord_sim() -> AsyncIterator[DiscordSimulator]:
    async with DiscordSimulator() as simulator:
        yield simulator


@pytest.fixture
def sim_world(discord_sim: DiscordSimulator) -> World:
    return discord_sim.populate()


@pytest.fixture
async def service(tmp_path: Path) -> AsyncIterator[MatchService]:
    repo, started = await open_service(tmp_path / "bot.sqlite3", ManualClock())
    yield started
    await repo.close()


def discord_client_routes(
    sim: DiscordSimulator, user: SimUser, app: DiscordApp
) -> web.RouteTableDef:
    """What the Discord client asks Discord's servers while it answers the SDK (served only
    here, in the tests): who is signed in, the consent's code, the token's user."""
    routes = web.RouteTableDef()

    @routes.get("/test/discord.html")
    async def page(request: web.Request) -> web.FileResponse:
        return web.FileResponse(FRAME_PAGE)

    @routes.post("/test/user")
    async def me(request: web.Request) -> web.Response:
        return web.json_response({"id": str(user.id), "username": user.name})

    @routes.post("/test/authorize")
    async def authorize(request: web.Request) -> web.Response:
        scopes = tuple((await request.json())["scope"])
        return web.json_response({"code": sim.consent(user, scopes)})

    @routes.post("/test/authenticate")
    async def authenticate(request: web.Request) -> web.Response:
        token = (await request.json())["access_token"]
        async with (
            aiohttp.ClientSession() as http,
            http.get(
                f"{app.api_base}/users/@me", headers={"Authorization": f"Bearer {token}"}
            ) as answer,
        ):
            if answer.status != 200:
                raise web.HTTPUnauthorized()
            found = await answer.json()
        return web.json_response(
            {
                "access_token": token,
                "user": {
                    "username": found["username"],
                    "discriminator": "0",
                    "id": found["id"],
                    "avatar": None,
                    "public_flags": 0,
                    "global_name": found["global_name"],
                },
                "scopes": ["identify"],
                "expires": "2030-01-01T00:00:00.000Z",
                "application": {
                    "description": "",
                    "icon": None,
                    "id": str(app.client_id),
                    "name": "Leafbot",
                },
            }
        )

    return routes


async def _poll(driver: Any, script: str, what: str, timeout: float = 30.0) -> Any:
    deadline = time.monotonic() + timeout
    while True:
        value = await asyncio.to_thread(driver.execute_script, script)
        if value:
            return value
        if time.monotonic() > deadline:
            log = await asyncio.to_thread(
                driver.execute_script, "return [window.discordLog, window.discordErrors]"
            )
            raise AssertionError(f"timed out waiting for {what}; Discord's side saw {log}")
        await asyncio.sleep(0.1)


async def test_the_activity_signs_in_through_the_sdk_and_opens_the_channels_match(
    discord_sim: DiscordSimulator, sim_world: World, service: MatchService
) -> None:
    need_browser()
    await asyncio.to_thread(build_bundle)
    client_id, secret = discord_sim.enable_activity()
    discord_app = DiscordApp(
        client_id, secret, discord_sim.token, api_base=f"{discord_sim.base_url}/api/v10"
    )
    alice, bob = sim_world.alice, sim_world.bob
    guild, channel = sim_world.guild.id, sim_world.channel.id
    challenge = await service.challenge(guild, channel, alice.id, "dalen", bob.id, size=5)
    assert challenge.challenge_id is not None
    started = await service.accept_challenge(challenge.challenge_id, bob.id)
    assert started.match is not None
    match_id = started.match.id
    instance = discord_sim.state.activities.launch(alice.id, channel, guild)

    sessions = Sessions(service.sign_ins)
    table = WebTable(service, sessions)
    app = table.app()
    store = add_routes(app, sessions, service, discord_app)
    app.add_routes(discord_client_routes(discord_sim, alice, discord_app))
    async with TestServer(app, host="127.0.0.1") as server, aiohttp.ClientSession() as http:
        base = f"http://127.0.0.1:{server.port}"
        # without a session, and with a made-up one, the socket is refused
        for query in ("", "?session=made-up"):
            with pytest.raises(aiohttp.WSServerHandshakeError) as refused:
                await http.ws_connect(f"{base}/ws{query}")
            assert refused.value.status == 401

        driver = await asyncio.to_thread(start_chromium)
        try:
            frame = (
                f"{base}/test/discord.html?client_id={client_id}&instance_id={instance.instance_id}"
                f"&guild_id={guild}&channel_id={channel}&platform=desktop"
            )
            await asyncio.to_thread(driver.get, frame)
            # the page inside the frame signs in: the SDK's handshake, authorize, the
            # server's exchange, authenticate (each answer matched to its question by nonce)
            await _poll(
                driver,
                "return window.discordLog.some(([op, cmd]) => cmd === 'AUTHENTICATE')",
                "the SDK's AUTHENTICATE",
            )
            log = await asyncio.to_thread(driver.execute_script, "return window.discordLog")
            asked = [entry for entry in log if entry[1] != "CAPTURE_LOG"]
            assert asked == [[0, None], [1, "AUTHORIZE"], [1, "AUTHENTICATE"]]
            await asyncio.to_thread(driver.switch_to.frame, driver.find_element("id", "activity"))
            signed_in = await _poll(
                driver, "return document.body.dataset.discordUser", "the signed-in member"
            )
            assert signed_in == str(alice.id)
            # it opens on the channel's match, over a socket the server accepted
            shown = await _poll(
                driver,
                "const b = document.getElementById('board');"
                " return b && b.dataset.version ? location.hash : null",
                "the channel's match on the board",
            )
            assert shown == f"#match={match_id}"
            errors = await asyncio.to_thread(
                lambda: (
                    driver.switch_to.default_content(),
                    driver.execute_script("return window.discordErrors"),
                )[1]
            )
            assert errors == []
        finally:
            await asyncio.to_thread(driver.quit)
    # one session, Alice's, issued by Discord's sign-in; the exchange used the code once
    # (kept in the database, by a digest of the token only)
    rows = await service.repo._fetch("SELECT user_id, token_hash FROM sign_ins", ())
    assert [row["user_id"] for row in rows] == [alice.id]
    assert store.sessions is sessions
    assert not discord_sim.state.activities.codes
    assert discord_sim.take_spec_violations() == []
