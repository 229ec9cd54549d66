"""Who a socket speaks for: session tokens mapped to identities, kept in the database.

A browser gets a token when it signs in (Discord's sign-in in an Activity, or the local
player of ``make run`` without Discord) and opens its socket with it; the socket then acts
for that identity alone, and for the extra seats a local hot-seat session shares. A socket
without a known token is refused before it is upgraded.

Sessions live in the match core's database (``MatchService.sign_ins``; only a digest of
the token is stored), not in one process's memory: a session survives a restart of the web
table, and every web process on the database knows it. One from the Activity's sign-in
also holds the Activity instance and channel it was issued for, which are checked again
while it is used (``web/discord_auth.py``).
"""

from __future__ import annotations

import secrets
from dataclasses import dataclass, field
from typing import Protocol

from matchcore.records import SignInRecord


@dataclass(frozen=True)
class Identity:
    """A member as the web table knows them: their id, the name to show and their locale
    (a Discord locale such as ``de`` or ``en-US``; it picks the language)."""

    user_id: int
    name: str
    locale: str


@dataclass(frozen=True)
class Place:
    """Where an Activity runs: its channel, and its server (None in a DM)."""

    channel_id: int
    guild_id: int | None


@dataclass
class Session:
    """A signed-in browser: the member it speaks for, and at a shared local screen the
    other people who sit at it (hot-seat), each still checked by the core as themselves;
    for an Activity's, the instance and the place it was issued for."""

    identity: Identity
    seated: dict[int, Identity] = field(default_factory=dict)
    # When it stops being trusted (a Discord sign-in's: docs/activity.md); None: never.
    expires_at: float | None = None
    instance_id: str | None = None
    place: Place | None = None
    token: str = ""

    def acts_for(self) -> dict[int, Identity]:
        """Every user id this session may act as, with its identity."""
        return {self.identity.user_id: self.identity, **self.seated}


class SignInStore(Protocol):
    """Where sessions are kept: the match service's sign-ins."""

    async def store_sign_in(
        self, token: str, user_id: int, data: dict[str, object], lifetime: float | None
    ) -> None: ...

    async def find_sign_in(self, token: str) -> SignInRecord | None: ...

    async def drop_sign_in(self, token: str) -> None: ...


class Sessions:
    """Session tokens to sessions, in the database (see the module's docstring)."""

    def __init__(self, store: SignInStore) -> None:
        self.store = store

    async def issue(
        self,
        identity: Identity,
        seated: dict[int, Identity] | None = None,
        *,
        lifetime: float | None = None,
        instance_id: str | None = None,
        place: Place | None = None,
    ) -> str:
        token = secrets.token_urlsafe(24)
        data: dict[str, object] = {
            "name": identity.name,
            "locale": identity.locale,
            "seated": [[i.user_id, i.name, i.locale] for i in (seated or {}).values()],
            "instance": instance_id,
            "place": None if place is None else [place.channel_id, place.guild_id],
        }
        await self.store.store_sign_in(token, identity.user_id, data, lifetime)
        return token

    async def get(self, token: str | None) -> Session | None:
        """The live session of ``token``; None for an unknown or expired one."""
        if not token or len(token) > 200:
            return None
        found = await self.store.find_sign_in(token)
        if found is None:
            return None
        return session_of(token, found)

    async def revoke(self, token: str) -> None:
        await self.store.drop_sign_in(token)


def session_of(token: str, found: SignInRecord) -> Session:
    """A stored sign-in as a session (its data as :meth:`Sessions.issue` wrote it)."""
    data = found.data
    identity = Identity(found.user_id, str(data.get("name", "")), str(data.get("locale", "en")))
    seated: dict[int, Identity] = {}
    raw = data.get("seated")
    for item in raw if isinstance(raw, list) else []:
        user, name, locale = item
        seated[int(user)] = Identity(int(user), str(name), str(locale))
    instance = data.get("instance")
    place = data.get("place")
    return Session(
        identity,
        seated,
        found.expires_at,
        instance if isinstance(instance, str) else None,
        Place(int(place[0]), None if place[1] is None else int(place[1]))
        if isinstance(place, list)
        else None,
        token,
    )
