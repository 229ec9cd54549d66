"""What Discord does for an Activity: OAuth2 sign-in and the Activity instances.

An Activity (the web table run inside Discord) learns who its player is through OAuth2: the
embedded app SDK's ``authorize`` asks the user's consent and hands the page a code; the
app's server exchanges it at ``POST /oauth2/token`` (``grant_type=authorization_code``, its
client id and secret, in a form body or HTTP Basic) for a Bearer token, with which it reads
``GET /users/@me``. A launch (interaction callback type 12, ``LAUNCH_ACTIVITY``) makes an
Activity instance, which the app's server reads with its bot token at ``GET
/applications/{app}/activity-instances/{instance_id}`` to check who is in it.

The published OpenAPI spec has no ``/oauth2/token`` (a form-encoded OAuth2 endpoint): its
rules are Discord's docs (the OAuth2 page, "Authorization Code Grant"): the client's
credentials checked (401 ``invalid_client``), a code single-use, bound to its client and
short-lived (400 ``invalid_grant``), the answer ``access_token``, ``token_type`` "Bearer",
``expires_in``, ``refresh_token``, ``scope``. The rest is checked against the spec as
every other route is.
"""

from __future__ import annotations

import base64
import secrets
import time
from dataclasses import dataclass, field
from typing import Any

#: How long a consent's code may be exchanged (Discord's are good for minutes, not hours).
CODE_LIFETIME = 10 * 60.0
#: How long a Bearer token lasts (Discord's ``expires_in``: 604800, a week).
TOKEN_LIFETIME = 7 * 24 * 3600.0


@dataclass
class OAuthGrant:
    """A code (from a consent) or an access token (from exchanging it)."""

    user_id: int
    client_id: int
    scopes: tuple[str, ...]
    expires_at: float


@dataclass
class ActivityInstance:
    """One running Activity: where it was launched and who is in it."""

    instance_id: str
    launch_id: str
    channel_id: int
    guild_id: int | None
    users: list[int] = field(default_factory=list)

    def to_payload(self, application_id: int) -> dict[str, Any]:
        location: dict[str, Any] = {
            "id": f"{'gc' if self.guild_id else 'pc'}-{self.channel_id}",
            "kind": "gc" if self.guild_id else "pc",
            "channel_id": str(self.channel_id),
        }
        if self.guild_id:
            location["guild_id"] = str(self.guild_id)
        return {
            "application_id": str(application_id),
            "instance_id": self.instance_id,
            "launch_id": self.launch_id,
            "location": location,
            "users": [str(u) for u in self.users],
        }


class OAuthError(Exception):
    """An OAuth2 refusal: its HTTP status and the body Discord sends (``error`` and
    ``error_description``)."""

    def __init__(self, status: int, error: str, description: str) -> None:
        super().__init__(f"{status} {error}: {description}")
        self.status = status
        self.body = {"error": error, "error_description": description}


class Activities:
    """The application's Activity switch, its client secret, the codes, tokens and instances."""

    def __init__(self, application_id: int) -> None:
        self.application_id = application_id
        #: Whether the application has Activities turned on (Developer Portal); a launch
        #: of an application without is refused as Discord refuses it.
        self.enabled = False
        self.client_secret = secrets.token_urlsafe(24)
        self.codes: dict[str, OAuthGrant] = {}
        self.tokens: dict[str, OAuthGrant] = {}
        self.instances: dict[str, ActivityInstance] = {}
        self.code_lifetime = CODE_LIFETIME
        self.clock = time.monotonic

    # ----------------------------------------------------------------- consent and tokens

    def consent(self, user_id: int, scopes: tuple[str, ...] = ("identify",)) -> str:
        """The code the SDK's ``authorize`` hands the page once the user agreed."""
        code = secrets.token_urlsafe(20)
        self.codes[code] = OAuthGrant(
            user_id, self.application_id, scopes, self.clock() + self.code_lifetime
        )
        return code

    def _client(self, form: dict[str, str], authorization: str | None) -> int:
        client_id, secret = form.get("client_id"), form.get("client_secret")
        if authorization and authorization.startswith("Basic "):
            try:
                decoded = base64.b64decode(authorization[6:]).decode()
            except ValueError:
                raise OAuthError(401, "invalid_client", "Unknown client.") from None
            client_id, _, secret = decoded.partition(":")
        if not client_id or not client_id.isdigit() or int(client_id) != self.application_id:
            raise OAuthError(401, "invalid_client", "Unknown client.")
        if not secret or not secrets.compare_digest(secret, self.client_secret):
            raise OAuthError(401, "invalid_client", "Invalid client secret.")
        return int(client_id)

    def exchange(self, form: dict[str, str], authorization: str | None) -> dict[str, Any]:
        """``POST /oauth2/token``: a code for an access token (raises ``OAuthError``)."""
        client_id = self._client(form, authorization)
        if form.get("grant_type") != "authorization_code":
            raise OAuthError(400, "unsupported_grant_type", "Unsupported grant type.")
        # single use: a code is gone once presented, whether it was good or not
        grant = self.codes.pop(form.get("code") or "", None)
        if grant is None or grant.client_id != client_id or grant.expires_at < self.clock():
            raise OAuthError(400, "invalid_grant", 'Invalid "code" in request.')
        token = secrets.token_urlsafe(30)
        self.tokens[token] = OAuthGrant(
            grant.user_id, client_id, grant.scopes, self.clock() + TOKEN_LIFETIME
        )
        return {
            "access_token": token,
            "token_type": "Bearer",
            "expires_in": int(TOKEN_LIFETIME),
            "refresh_token": secrets.token_urlsafe(30),
            "scope": " ".join(grant.scopes),
        }

    def bearer(self, authorization: str | None) -> OAuthGrant | None:
        """The grant of a live ``Authorization: Bearer`` token, or None."""
        if not authorization or not authorization.startswith("Bearer "):
            return None
        grant = self.tokens.get(authorization[7:])
        if grant is None or grant.expires_at < self.clock():
            return None
        return grant

    # ----------------------------------------------------------------- instances

    def launch(self, user_id: int, channel_id: int, guild_id: int | None) -> ActivityInstance:
        """A launch by ``user_id`` in a channel: the channel's running instance, joined, or a
        new one (Discord keeps one instance of an application per channel)."""
        for instance in self.instances.values():
            if instance.channel_id == channel_id:
                self.join(instance.instance_id, user_id)
                return instance
        kind = "gc" if guild_id else "pc"
        instance_id = f"i-{secrets.randbelow(10**18)}-{kind}-{guild_id or 0}-{channel_id}"
        instance = ActivityInstance(
            instance_id, str(secrets.randbelow(10**18)), channel_id, guild_id, [user_id]
        )
        self.instances[instance_id] = instance
        return instance

    def join(self, instance_id: str, user_id: int) -> None:
        instance = self.instances[instance_id]
        if user_id not in instance.users:
            instance.users.append(user_id)

    def leave(self, instance_id: str, user_id: int) -> None:
        """A user closes the Activity; the instance ends with its last user."""
        instance = self.instances[instance_id]
        if user_id in instance.users:
            instance.users.remove(user_id)
        if not instance.users:
            del self.instances[instance_id]
