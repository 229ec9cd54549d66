"""Discord's rate limits, enforced the way the real API answers them.

Two kinds of limit apply to every REST request a bot makes with its token:

- the **global** limit: 50 requests per second per token, whatever the route, except
  Discord's interaction endpoints: the callback (``POST /interactions/{id}/{token}/callback``)
  and everything an interaction's token opens (``/webhooks/{application_id}/{token}...``:
  follow-ups, reading, editing and deleting the original response and the follow-ups).
  Discord's rate-limit page says so ("Interaction endpoints are not bound to the bot's
  Global Rate Limit") and its page of the interaction endpoints lists them all; their
  per-token bucket below still applies (docs/discord-simulator.md, "Rate limits");
- **per-route buckets**, counted per major parameter (the channel, or the interaction's
  webhook token): 5 new messages per 5 s per channel, 5 edits per 5 s per channel, 5
  deletions per second per channel, 5 requests per 2 s per interaction token.

Every answer of a bucketed route carries the ``X-RateLimit-*`` headers
(``Limit``, ``Remaining``, ``Reset`` as epoch seconds, ``Reset-After``, ``Bucket``), which is
how discord.py slows down before it meets a 429. A request over a limit is answered 429 with
``retry_after`` (seconds, float) and ``global`` in the JSON body and the headers
``Retry-After``, ``X-RateLimit-Scope`` (``user`` for a bucket, ``global`` for the global
limit), ``X-RateLimit-Global: true`` for the global one, and ``Via`` (without it discord.py
takes the 429 for a Cloudflare ban and gives up at once). A refused request uses up nothing.

Windows are fixed, as Discord's are: a bucket's window opens with its first request and
resets ``per`` seconds later. ``time_scale`` shortens every window by that factor (the
counts stay): only for a test that plays through far more requests than its point needs
real seconds for (a whole game in one channel), never for one about the limits themselves.
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

#: Discord's global limit: requests per second per bot token.
GLOBAL_LIMIT = 50
GLOBAL_WINDOW = 1.0
#: The interaction callback: exempt from the global limit, like the routes below.
CALLBACK_ROUTE = "/interactions/{interaction_id}/{token}/callback"
#: The routes an interaction's token opens (follow-ups, its messages): exempt too.
INTERACTION_WEBHOOKS = "/webhooks/{application_id}/{token}"


def is_interaction_endpoint(template: str) -> bool:
    """Whether a route is one of Discord's interaction endpoints, which its global limit
    spares: the callback and the webhook routes of an interaction's token."""
    return template == CALLBACK_ROUTE or (
        template == INTERACTION_WEBHOOKS or template.startswith(INTERACTION_WEBHOOKS + "/")
    )


@dataclass(frozen=True)
class BucketRule:
    """``limit`` requests per ``per`` seconds, counted per value of the route's major
    parameter."""

    name: str
    limit: int
    per: float
    major: str  # the path parameter that keys the bucket ("channel_id", "token")


#: Which (method, route template) share which bucket. Routes not listed have only the
#: global limit. Each bucket has its own hash so discord.py keys them apart, as it would
#: with Discord's own hashes.
ROUTE_BUCKETS: dict[tuple[str, str], BucketRule] = {
    ("POST", "/channels/{channel_id}/messages"): BucketRule("messages", 5, 5.0, "channel_id"),
    ("PATCH", "/channels/{channel_id}/messages/{message_id}"): BucketRule(
        "edits", 5, 5.0, "channel_id"
    ),
    ("DELETE", "/channels/{channel_id}/messages/{message_id}"): BucketRule(
        "deletions", 5, 1.0, "channel_id"
    ),
    # Discord publishes no number for starting threads; the simulator holds a bot to the
    # messages' 5 per 5 s per channel (a thread is started from the channel it is under)
    ("POST", "/channels/{channel_id}/threads"): BucketRule("threads", 5, 5.0, "channel_id"),
    ("POST", "/channels/{channel_id}/messages/{message_id}/threads"): BucketRule(
        "threads", 5, 5.0, "channel_id"
    ),
    # changing a channel or thread (archive, lock), per channel; renaming has its own,
    # Discord's well-known 2 per 10 minutes (checked by the thread routes)
    ("PATCH", "/channels/{channel_id}"): BucketRule("channel edits", 5, 5.0, "channel_id"),
    ("PATCH", "/channels/{channel_id} (name)"): BucketRule("channel names", 2, 600.0, "channel_id"),
    ("POST", "/webhooks/{application_id}/{token}"): BucketRule("webhook", 5, 2.0, "token"),
    ("GET", "/webhooks/{application_id}/{token}/messages/{message_id}"): BucketRule(
        "webhook", 5, 2.0, "token"
    ),
    ("PATCH", "/webhooks/{application_id}/{token}/messages/{message_id}"): BucketRule(
        "webhook", 5, 2.0, "token"
    ),
    ("DELETE", "/webhooks/{application_id}/{token}/messages/{message_id}"): BucketRule(
        "webhook", 5, 2.0, "token"
    ),
}


@dataclass
class _Window:
    limit: int
    per: float
    used: int = 0
    resets_at: float = 0.0

    def open(self, now: float) -> None:
        if now >= self.resets_at:
            self.used = 0
            self.resets_at = now + self.per


@dataclass(frozen=True)
class Verdict:
    """What the limiter says of one request: allowed (with headers) or refused (429)."""

    allowed: bool
    headers: dict[str, str]
    retry_after: float = 0.0
    is_global: bool = False
    bucket: str | None = None

    def body(self) -> dict[str, object]:
        return {
            "message": "You are being rate limited.",
            "retry_after": self.retry_after,
            "global": self.is_global,
            "code": 0,
        }


@dataclass
class RateLimiter:
    """The global and per-route limits of one bot token."""

    enabled: bool = True
    global_limit: int = GLOBAL_LIMIT
    time_scale: float = 1.0
    clock: Callable[[], float] = time.monotonic
    _global: _Window = field(init=False)
    _buckets: dict[tuple[str, str], _Window] = field(default_factory=dict, init=False)
    #: Requests refused with a 429 so far, by scope ("global" or a bucket name).
    refused: dict[str, int] = field(default_factory=dict, init=False)

    def __post_init__(self) -> None:
        self._global = _Window(self.global_limit, GLOBAL_WINDOW * self.time_scale)

    def _now(self) -> float:
        return self.clock()

    def remaining(self, method: str, template: str, major: str) -> int | None:
        """The requests the bucket of ``template`` keyed by ``major`` (a channel's id, say)
        still allows in its current window; None for a route without a bucket."""
        rule = ROUTE_BUCKETS.get((method, template))
        if rule is None:
            return None
        window = self._buckets.get((rule.name, major))
        if window is None or self._now() >= window.resets_at:
            return rule.limit
        return max(window.limit - window.used, 0)

    def check(
        self, method: str, template: str, params: dict[str, str], *, count_global: bool = True
    ) -> Verdict:
        """Count one request (when allowed) and say whether it may go through
        (``count_global=False``: a second bucket of a request already counted globally)."""
        if not self.enabled:
            return Verdict(True, {})
        now = self._now()
        rule = ROUTE_BUCKETS.get((method, template))
        window = None
        if rule is not None:
            key = (rule.name, params.get(rule.major, ""))
            window = self._buckets.get(key)
            if window is None:
                window = self._buckets[key] = _Window(rule.limit, rule.per * self.time_scale)
            window.open(now)
        counted = count_global and not is_interaction_endpoint(template)
        if counted:
            self._global.open(now)
            if self._global.used >= self._global.limit:
                retry = self._global.resets_at - now
                self.refused["global"] = self.refused.get("global", 0) + 1
                return Verdict(
                    False,
                    {
                        "Retry-After": str(max(1, math.ceil(retry))),
                        "X-RateLimit-Global": "true",
                        "X-RateLimit-Scope": "global",
                        "Via": "1.1 google",
                    },
                    retry_after=round(retry, 3),
                    is_global=True,
                )
        if rule is None or window is None:
            if counted:
                self._global.used += 1
            return Verdict(True, {})
        retry = window.resets_at - now
        if window.used >= window.limit:
            self.refused[rule.name] = self.refused.get(rule.name, 0) + 1
            return Verdict(
                False,
                _bucket_headers(rule, window, retry)
                | {
                    "Retry-After": str(max(1, math.ceil(retry))),
                    "X-RateLimit-Scope": "user",
                    "Via": "1.1 google",
                },
                retry_after=round(retry, 3),
                bucket=rule.name,
            )
        window.used += 1
        if counted:
            self._global.used += 1
        return Verdict(True, _bucket_headers(rule, window, retry), bucket=rule.name)


def bucket_hash(rule: BucketRule) -> str:
    """The bucket's ``X-RateLimit-Bucket`` (Discord's are opaque; one per bucket here)."""
    return f"sim-{rule.name}"


def _bucket_headers(rule: BucketRule, window: _Window, reset_after: float) -> dict[str, str]:
    return {
        "X-RateLimit-Limit": str(rule.limit),
        "X-RateLimit-Remaining": str(max(window.limit - window.used, 0)),
        "X-RateLimit-Reset": f"{time.time() + reset_after:.3f}",
        "X-RateLimit-Reset-After": f"{reset_after:.3f}",
        "X-RateLimit-Bucket": bucket_hash(rule),
    }


@dataclass
class RouteFault:
    """A planned failure: the next ``remaining`` requests matching the route get ``status``
    (status 0: they are carried out as usual, and their answer comes back only after
    ``answer_after`` seconds, as when Discord is slow to answer what it has done)."""

    method: str
    route: str
    remaining: int
    status: int
    body: dict[str, Any]
    headers: dict[str, str] = field(default_factory=dict)
    hits: int = 0
    answer_after: float = 0.0

    def matches(self, method: str, template: str, path: str) -> bool:
        return self.remaining > 0 and self.method == method and self.route in (template, path)


def injected_limit_headers(method: str, template: str, fault: RouteFault) -> dict[str, str]:
    """The headers of a 429 a test injected (``DiscordSimulator.rate_limit``): what Discord
    sends with one, for the route's bucket or the global limit."""
    retry = float(fault.body.get("retry_after", 0.0))
    headers = {"Retry-After": str(max(1, math.ceil(retry))), "Via": "1.1 google"}
    if fault.body.get("global"):
        return headers | {"X-RateLimit-Global": "true", "X-RateLimit-Scope": "global"}
    rule = ROUTE_BUCKETS.get((method, template))
    if rule is not None:
        headers |= _bucket_headers(rule, _Window(rule.limit, rule.per, used=rule.limit), retry)
    return headers | {"X-RateLimit-Scope": "user"}
