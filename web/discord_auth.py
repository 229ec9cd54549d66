"""Who a player is, from Discord: the Activity's sign-in on the server's side.

In an Activity the page asks Discord's SDK to ``authorize`` (the user's consent) and gets
an OAuth2 code; it posts the code and its Activity instance id to ``POST /api/token``. The
server then, with its own credentials (``DISCORD_CLIENT_ID``, ``DISCORD_CLIENT_SECRET``
and the bot token, from the environment):

1. exchanges the code for an access token (``POST /oauth2/token``): only Discord can
   have issued it, to this application, for one user, once;
2. reads that user (``GET /users/@me`` with the token): the identity;
3. reads the Activity instance with the bot token (``GET
   /applications/{app}/activity-instances/{id}``) and requires the user among its users:
   the player is really in that Activity, in that channel.

Only then does it issue a session (``web.sessions``) the socket is opened with, and hand the
access token back to the page (the SDK's ``authenticate`` needs it). Neither the token,
the code nor the client secret is ever logged. The matches the Activity offers
(``GET /api/activity/matches``) are the signed-in channel's (the instance's, as Discord
said, not as the page claims) and the player's own. Whatever a player then does goes
through the match core, which checks it as it checks a command.
"""

from __future__ import annotations

import logging
import os
import time
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, Protocol

import aiohttp
from aiohttp import web

from matchcore.service.results import MatchInfo
from web.sessions import Identity, Place, Session, Sessions

log = logging.getLogger(__name__)

DISCORD_API = "https://discord.com/api/v10"
# How long a sign-in's session is trusted before the page must sign in again.
SESSION_LIFETIME = 12 * 3600.0
# Discord answers within a second; a sign-in gives up well before the page does.
TIMEOUT = aiohttp.ClientTimeout(total=10)


@dataclass(frozen=True)
class DiscordApp:
    """The application's credentials (never shown: ``repr`` names none of them) and where
    Discord's API is (tests point it at the simulator)."""

    client_id: int
    client_secret: str = field(repr=False)
    bot_token: str = field(repr=False)
    api_base: str = DISCORD_API

    @classmethod
    def from_env(cls, env: Mapping[str, str] | None = None) -> DiscordApp | None:
        """From ``DISCORD_CLIENT_ID``, ``DISCORD_CLIENT_SECRET`` and ``DISCORD_TOKEN``;
        None when any is missing (no Discord sign-in: the table stays local)."""
        env = os.environ if env is None else env
        client_id = env.get("DISCORD_CLIENT_ID", "").strip()
        secret = env.get("DISCORD_CLIENT_SECRET", "").strip()
        token = env.get("DISCORD_TOKEN", "").strip()
        if not (client_id.isdigit() and secret and token):
            return None
        return cls(int(client_id), secret, token)


@dataclass(frozen=True)
class SignedIn:
    """A sign-in's result: who, the access token for the SDK's ``authenticate`` (never
    shown), and the Activity's place (None when no instance was given)."""

    identity: Identity
    access_token: str = field(repr=False)
    place: Place | None = None
    instance_id: str | None = None


class SignInRefused(Exception):
    """Discord did not vouch for this sign-in; ``reason`` says which step refused (a code
    never to be shown with any secret in it)."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


async def sign_in(
    code: str,
    instance_id: str | None,
    *,
    app: DiscordApp | None = None,
    http: aiohttp.ClientSession | None = None,
) -> SignedIn:
    """Exchange ``code``, read its user and check they are in the Activity ``instance_id``
    (raises :class:`SignInRefused`)."""
    app = app or DiscordApp.from_env()
    if app is None:
        raise SignInRefused("not_configured")
    if not code or len(code) > 200:
        raise SignInRefused("bad_code")
    own = http is None
    http = http or aiohttp.ClientSession(timeout=TIMEOUT)
    try:
        token = await _exchange(http, app, code)
        identity = await _user(http, app, token)
        place = await _place(http, app, instance_id, identity.user_id) if instance_id else None
    except (aiohttp.ClientError, TimeoutError, ValueError, KeyError, TypeError):
        # what went wrong in a word: the exception's text may quote a URL or a body
        log.warning("Discord sign-in failed: Discord could not be read")
        raise SignInRefused("discord_unreachable") from None
    finally:
        if own:
            await http.close()
    log.info("signed in Discord user %s through the Activity", identity.user_id)
    return SignedIn(identity, token, place, instance_id)


async def _exchange(http: aiohttp.ClientSession, app: DiscordApp, code: str) -> str:
    form = {
        "grant_type": "authorization_code",
        "code": code,
        "client_id": str(app.client_id),
        "client_secret": app.client_secret,
    }
    async with http.post(f"{app.api_base}/oauth2/token", data=form) as answer:
        if answer.status != 200:
            log.warning("Discord refused a sign-in's code (HTTP %s)", answer.status)
            raise SignInRefused("bad_code")
        body = await answer.json()
    token = body["access_token"]
    if not isinstance(token, str) or "identify" not in str(body.get("scope", "")).split():
        raise SignInRefused("bad_code")
    return token


async def _user(http: aiohttp.ClientSession, app: DiscordApp, token: str) -> Identity:
    headers = {"Authorization": f"Bearer {token}"}
    async with http.get(f"{app.api_base}/users/@me", headers=headers) as answer:
        if answer.status != 200:
            log.warning("Discord would not say whose sign-in this is (HTTP %s)", answer.status)
            raise SignInRefused("bad_code")
        user: dict[str, Any] = await answer.json()
    name = user.get("global_name") or user["username"]
    return Identity(int(user["id"]), str(name), str(user.get("locale") or "en-US"))


async def _place(
    http: aiohttp.ClientSession, app: DiscordApp, instance_id: str, user_id: int
) -> Place:
    if len(instance_id) > 200 or not instance_id.isprintable() or "/" in instance_id:
        raise SignInRefused("not_in_activity")
    url = f"{app.api_base}/applications/{app.client_id}/activity-instances/{instance_id}"
    headers = {"Authorization": f"Bot {app.bot_token}"}
    async with http.get(url, headers=headers) as answer:
        if answer.status != 200:
            log.warning("Discord knows no such Activity instance (HTTP %s)", answer.status)
            raise SignInRefused("not_in_activity")
        instance: dict[str, Any] = await answer.json()
    if str(user_id) not in instance["users"]:
        log.warning("user %s signed in for an Activity they are not in", user_id)
        raise SignInRefused("not_in_activity")
    location = instance["location"]
    guild = location.get("guild_id")
    return Place(int(location["channel_id"]), int(guild) if guild else None)


# --------------------------------------------------------------------- the routes


class MatchLister(Protocol):
    """What the Activity's routes ask of the match core."""

    async def user_matches(self, user_id: int, guild_id: int | None = None) -> list[MatchInfo]: ...

    async def guild_matches(self, guild_id: int, limit: int | None = 50) -> list[MatchInfo]: ...


# How long Discord's word that a member is still in their Activity holds before it is
# asked again: every request and socket message of an Activity's session checks it, and a
# member who left the Activity (or whose Activity moved to another channel) loses access.
RECHECK_SECONDS = 5.0


@dataclass
class ActivitySessions:
    """The sessions the sign-in issues (in the database, with the Activity instance and
    place each was issued for; they expire after ``lifetime`` seconds), and the check
    that the member is still in that Activity, in that channel."""

    sessions: Sessions
    app: DiscordApp | None = None
    lifetime: float = SESSION_LIFETIME
    recheck: float = RECHECK_SECONDS
    http: aiohttp.ClientSession | None = None
    clock: Any = None
    # (instance, user) -> when Discord last said they are in it
    confirmed: dict[tuple[str, int], float] = field(default_factory=dict)

    async def issue(self, signed: SignedIn) -> str:
        return await self.sessions.issue(
            signed.identity,
            lifetime=self.lifetime,
            instance_id=signed.instance_id,
            place=signed.place,
        )

    async def live(self, token: str | None) -> Session | None:
        """The session of ``token`` if it is live and its member still in its Activity."""
        session = await self.sessions.get(token)
        if session is None or not await self.still_in(session):
            return None
        return session

    async def still_in(self, session: Session) -> bool:
        """Whether the session's member is still in the Activity it was issued for, in the
        same channel (sessions of no Activity: always). A member who left loses the
        session (it is revoked)."""
        instance = session.instance_id
        if instance is None or self.app is None:
            return True
        user = session.identity.user_id
        now = (self.clock or time.monotonic)()
        seen = self.confirmed.get((instance, user))
        if seen is not None and now - seen < self.recheck:
            return True
        own = self.http is None
        http = self.http or aiohttp.ClientSession(timeout=TIMEOUT)
        try:
            place = await _place(http, self.app, instance, user)
        except SignInRefused:
            place = None
        except (aiohttp.ClientError, TimeoutError, ValueError, KeyError, TypeError):
            log.warning("Discord could not be asked about an Activity; its session waits")
            return seen is not None  # trusted as long as it was, while Discord is away
        finally:
            if own:
                await http.close()
        if place is None or (session.place is not None and place != session.place):
            log.warning("user %s is no longer in their Activity: signed out", user)
            self.confirmed.pop((instance, user), None)
            await self.sessions.revoke(session.token)
            return False
        self.confirmed[(instance, user)] = now
        return True


def _match_json(info: MatchInfo) -> dict[str, Any]:
    return {
        "match": info.id,
        "game": info.game,
        "status": info.status,
        "channel": str(info.channel_id),
        "players": [str(u) for u in info.user_ids],
    }


def add_routes(
    app: web.Application,
    sessions: Sessions,
    service: MatchLister,
    discord: DiscordApp,
    *,
    http: aiohttp.ClientSession | None = None,
) -> ActivitySessions:
    """Add ``GET /api/activity/client`` (the client id the page's SDK needs), ``POST
    /api/token`` (the sign-in) and ``GET /api/activity/matches`` (the channel's matches
    and the player's own) to the table's ``app``; returns the store of the sessions it
    issues."""
    store = ActivitySessions(sessions, discord, http=http)

    async def token(request: web.Request) -> web.Response:
        try:
            body = await request.json()
        except ValueError:
            body = None
        if not isinstance(body, dict) or not isinstance(body.get("code"), str):
            raise web.HTTPBadRequest(text="a code is needed")
        instance = body.get("instance_id")
        if not isinstance(instance, str) or not instance:
            raise web.HTTPBadRequest(text="an Activity instance is needed")
        try:
            signed = await sign_in(body["code"], instance, app=discord, http=http)
        except SignInRefused as refusal:
            return web.json_response({"error": refusal.reason}, status=401)
        session = await store.issue(signed)
        place = signed.place
        return web.json_response(
            {
                "access_token": signed.access_token,
                "session": session,
                "user": {
                    "id": str(signed.identity.user_id),
                    "name": signed.identity.name,
                    "locale": signed.identity.locale,
                },
                "channel": str(place.channel_id) if place else None,
            },
            headers={"Cache-Control": "no-store"},
        )

    async def matches(request: web.Request) -> web.Response:
        found = await store.live(request.headers.get("X-Session"))
        if found is None:
            raise web.HTTPUnauthorized(text="no valid session")
        identity, place = found.identity, found.place
        here: list[MatchInfo] = []
        if place is not None and place.guild_id is not None:
            here = [
                m
                for m in await service.guild_matches(place.guild_id, limit=None)
                if (m.thread_id or m.channel_id) == place.channel_id
            ]
        mine = await service.user_matches(identity.user_id)
        return web.json_response(
            {
                "channel": str(place.channel_id) if place else None,
                "here": [_match_json(m) for m in here],
                "mine": [_match_json(m) for m in mine],
            }
        )

    async def client(request: web.Request) -> web.Response:
        # public: the SDK is made with it in the page (the secret never leaves the server)
        return web.json_response({"client_id": str(discord.client_id)})

    app.router.add_get("/api/activity/client", client)
    app.router.add_post("/api/token", token)
    app.router.add_get("/api/activity/matches", matches)
    return store
