"""The web table on its own (``make run`` without a Discord token): local games against the
bot at every level, or two people at one screen, on the embedded database.

The local player and the second player of a shared screen are made-up members of a made-up
server (ids no Discord snowflake can be); the match core treats them as any others.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import signal
from collections.abc import Awaitable, Callable

from aiohttp import web

from i18n import LANGUAGES, N_, translate
from i18n.console import console_language
from matchcore import ai_pool
from matchcore.service import Choices, MatchService
from matchcore.storage import open_repository
from render.themes import list_themes
from web.loopback import is_loopback_host
from web.server import LOCAL_BOT, LOCAL_PLAYER, LocalTable, WebTable
from web.sessions import Sessions

log = logging.getLogger(__name__)

LOCAL = LocalTable(guild_id=1, channel_id=1, bot_user_id=LOCAL_BOT)
TICK_SECONDS = 1.0
# Why the table without Discord's sign-in will not listen on another address (the console's
# language, i18n.console).
HOST_REFUSED = N_("console.web_host_refused")


def check_host(host: str, signed_in: bool) -> None:
    """Without Discord's sign-in the table may only listen on a loopback address: anybody
    who reaches it plays as the local player."""
    if signed_in:
        return
    if not is_loopback_host(host):
        raise SystemExit(translate(console_language(), HOST_REFUSED, host=host))


def service_choices() -> Choices:
    return Choices(themes=tuple(list_themes()), languages=tuple(LANGUAGES))


async def start_site(app: web.Application, host: str, port: int) -> tuple[web.AppRunner, int]:
    """Serve ``app``; returns its runner and the port it got (``port=0``: a free one)."""
    runner = web.AppRunner(app, access_log=None)
    await runner.setup()
    site = web.TCPSite(runner, host, port)
    await site.start()
    server = site._server
    sockets = getattr(server, "sockets", None) or ()
    bound = sockets[0].getsockname()[1] if sockets else port
    return runner, int(bound)


async def prepare_local(service: MatchService) -> None:
    """The local server's settings: no cooldown between games, many games at once."""
    await service.update_settings(
        LOCAL.guild_id,
        LOCAL_PLAYER,
        True,
        challenge_cooldown_seconds=0,
        max_matches_per_user=50,
    )


async def tick_forever(service: MatchService, table: WebTable) -> None:
    """The clock: deadlines, and bot turns left over (after a restart)."""
    while True:
        await asyncio.sleep(TICK_SECONDS)
        try:
            # (a bot due after a timeout or a warning: the core plays it, as after any step)
            await service.tick()
        except Exception:
            log.exception("the local clock failed; it tries again")


async def serve_local(
    database: str,
    host: str,
    port: int,
    *,
    ai_workers: int = 1,
    ready: Callable[[str], Awaitable[None] | None] | None = None,
) -> int:
    """Run the local web table until SIGINT/SIGTERM; ``ready(address)`` once it listens."""
    check_host(host, signed_in=False)
    repository = await open_repository(database)
    service = MatchService(
        repository,
        bot_user_id=LOCAL_BOT,
        choices=service_choices(),
    )
    await service.start()
    await prepare_local(service)
    ai_pool.configure(ai_workers)
    table = WebTable(service, Sessions(service.sign_ins), local=LOCAL)
    runner, bound = await start_site(table.app(), host, port)
    address = f"http://{host}:{bound}"
    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    for signum in (signal.SIGINT, signal.SIGTERM):
        with contextlib.suppress(NotImplementedError):
            loop.add_signal_handler(signum, stop.set)
    ticker = asyncio.create_task(tick_forever(service, table), name="web-tick")
    try:
        if ready is not None:
            result = ready(address)
            if result is not None:
                await result
        await stop.wait()
    finally:
        ticker.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await ticker
        await runner.cleanup()
        await service.close()  # the bot's turns under way (the next start plays them)
        await ai_pool.shutdown()
        await repository.close()
    return 0
