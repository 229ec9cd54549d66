"""Who a socket speaks for: session tokens mapped to identities.

A browser gets a token when it signs in (Discord's sign-in in an Activity, or the local
player of ``make run`` without Discord) and opens its socket with it; the socket then acts
for that identity alone, and for the extra seats a local hot-seat session shares. A socket
without a known token is refused before it is upgraded.
"""

from __future__ import annotations

import secrets
import time
from collections.abc import Callable
from dataclasses import dataclass, field


@dataclass(frozen=True)
class Identity:
    """A member as the web table knows them: their id, the name to show and their locale
    (a Discord locale such as ``de`` or ``en-US``; it picks the language)."""

    user_id: int
    name: str
    locale: str


@dataclass
class Session:
    """A signed-in browser: the member it speaks for, and at a shared local screen the
    other people who sit at it (hot-seat), each still checked by the core as themselves."""

    identity: Identity
    seated: dict[int, Identity] = field(default_factory=dict)
    # When it stops being trusted (a Discord sign-in's: docs/activity.md); None: never.
    expires_at: float | None = None

    def acts_for(self) -> dict[int, Identity]:
        """Every user id this session may act as, with its identity."""
        return {self.identity.user_id: self.identity, **self.seated}


class Sessions:
    """Session tokens to sessions, in this process's memory (a restart signs everyone out:
    the page signs in again)."""

    def __init__(self, clock: Callable[[], float] = time.monotonic) -> None:
        self._by_token: dict[str, Session] = {}
        self.clock = clock

    def issue(
        self,
        identity: Identity,
        seated: dict[int, Identity] | None = None,
        *,
        lifetime: float | None = None,
    ) -> str:
        token = secrets.token_urlsafe(24)
        expires_at = None if lifetime is None else self.clock() + lifetime
        self._by_token[token] = Session(identity, dict(seated or {}), expires_at)
        return token

    def get(self, token: str | None) -> Session | None:
        """The live session of ``token``; None for an unknown or expired one (forgotten)."""
        if not token:
            return None
        session = self._by_token.get(token)
        expires_at = session.expires_at if session is not None else None
        if expires_at is not None and expires_at < self.clock():
            del self._by_token[token]
            return None
        return session

    def revoke(self, token: str) -> None:
        self._by_token.pop(token, None)
