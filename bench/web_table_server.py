"""A web table for the Leiff benchmark (``bench.web_latency --game leiff``), in a process
of its own: Leiff tables of members only, each member signed in as Discord's sign-in would
sign them in, so every open table is a different member's own seat.

The web table alone (``python -m bot`` without a token) seats one local player beside bot
seats at a Leiff table, and the bots' own steps would mix with the timed ones; here every
seat is a member, so each step is a click. The same ``WebTable`` over the same core and
SQLite file as ``make run``; what differs is only who signs in.

    python -m bench.web_table_server DATABASE TABLES PLAYERS

prints one JSON line (``address``, ``tables``: for each, its match and its members'
session tokens) once it listens, then serves until SIGTERM.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import signal
import sys

from matchcore.service import MatchService
from matchcore.storage import open_repository
from web.local import LOCAL, prepare_local, service_choices, start_site
from web.server import LOCAL_BOT, WebTable
from web.sessions import Identity, Sessions

# Members' ids: far from the local players' (1000-1002), as small as no Discord id is.
FIRST_MEMBER = 5000


async def serve(database: str, tables: int, players: int) -> None:
    repo = await open_repository(database)
    service = MatchService(repo, bot_user_id=LOCAL_BOT, choices=service_choices())
    await service.start()
    await prepare_local(service)
    sessions = Sessions(service.sign_ins)
    table = WebTable(service, sessions)
    seated = []
    for n in range(tables):
        members = [FIRST_MEMBER + n * players + seat for seat in range(players)]
        opened = await service.open_lobby(
            LOCAL.guild_id, 100 + n, members[0], options={"target": 100}
        )
        assert opened.match is not None
        match_id = opened.match.id
        for member in members[1:]:
            await service.join_lobby(match_id, member)
        await service.start_lobby(match_id, members[0])
        tokens = {
            str(member): await sessions.issue(Identity(member, f"P{member}", "en"))
            for member in members
        }
        seated.append({"match": match_id, "tokens": tokens})
    runner, port = await start_site(table.app(), "127.0.0.1", 0)
    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    for signum in (signal.SIGINT, signal.SIGTERM):
        loop.add_signal_handler(signum, stop.set)
    print(json.dumps({"address": f"http://127.0.0.1:{port}", "tables": seated}), flush=True)
    try:
        await stop.wait()
    finally:
        await runner.cleanup()
        await service.close()
        with contextlib.suppress(Exception):
            await repo.close()


if __name__ == "__main__":
    database, count, players = sys.argv[1:]
    asyncio.run(serve(database, int(count), int(players)))
