"""The local web table answers this machine alone (``make run`` without Discord).

Without Discord's sign-in whoever reaches the table plays as the local player, so it
listens on a loopback address only (``web.local.check_host``). Listening there is not
enough on its own: a page of another site open in the same browser may reach it through
a name that resolves to 127.0.0.1 (DNS rebinding), and a reverse proxy on this machine
may forward other machines to it. So every request of the local table must come from a
loopback address, name a loopback host (``Host``), and, when a browser says which page
sent it (``Origin``: every socket and every POST), come from a page of a loopback
host too. Anything else is refused (403) and logged.
"""

from __future__ import annotations

import ipaddress
import logging
from collections.abc import Awaitable, Callable
from urllib.parse import urlsplit

from aiohttp import web

log = logging.getLogger(__name__)

Handler = Callable[[web.Request], Awaitable[web.StreamResponse]]


def is_loopback_host(host: str | None) -> bool:
    """Whether a host name or address (without its port) is this machine's loopback."""
    if not host:
        return False
    host = host.strip("[]").lower()
    if host == "localhost" or host.endswith(".localhost"):
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def _host_of(header: str) -> str | None:
    """The host part of a ``Host`` header (``name:port``, ``[::1]:port``)."""
    try:
        return urlsplit(f"//{header}").hostname
    except ValueError:
        return None


def _origin_host(origin: str) -> str | None:
    try:
        return urlsplit(origin).hostname
    except ValueError:
        return None


def refusal(request: web.Request) -> str | None:
    """Why a request may not reach the local table (None: it may)."""
    if request.remote is not None and not is_loopback_host(request.remote):
        return f"it comes from {request.remote}"
    if not is_loopback_host(_host_of(request.headers.get("Host", ""))):
        return "it names another host"
    origin = request.headers.get("Origin")
    if origin is not None and not is_loopback_host(_origin_host(origin)):
        return "a page of another site sent it"
    return None


@web.middleware
async def loopback_only(request: web.Request, handler: Handler) -> web.StreamResponse:
    """Serve a request of the local table only from and for this machine."""
    why = refusal(request)
    if why is not None:
        log.warning("local web table: %s %s refused: %s", request.method, request.path, why)
        raise web.HTTPForbidden(text="the local web table answers this machine only")
    return await handler(request)
