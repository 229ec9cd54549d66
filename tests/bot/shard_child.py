"""One bot process of a sharded deployment, pointed at a simulator in another process.

Usage: ``python -m tests.bot.shard_child SIM_URL GATEWAY_URL TOKEN DATABASE_URL SHARD_ID
SHARD_COUNT CLOCK_FILE``. It runs the real ``LeafBot`` for shard ``SHARD_ID`` of
``SHARD_COUNT`` on the shared database, exactly as ``make run`` would with ``SHARD_COUNT``
and ``SHARD_IDS`` set, except for three test settings: the match clock is the real time
plus an offset read from ``CLOCK_FILE`` (so the test can let deadlines pass), the clock
ticks every 0.25 s, and a claim's lease is 3 s (so work left by a killed process is taken
over quickly). Logs go to stderr at INFO, where the test reads the "clock work" and
"bot turn" lines of every process.
"""

from __future__ import annotations

import asyncio
import contextlib
import signal
import sys
import time
from pathlib import Path

import discord.gateway
import discord.http
import yarl


class FileClock:
    """Unix time plus the offset (seconds) written in a file by the test."""

    def __init__(self, path: Path) -> None:
        self.path = path

    def __call__(self) -> float:
        try:
            offset = float(self.path.read_text() or 0)
        except (OSError, ValueError):
            offset = 0.0
        return time.time() + offset


async def main(argv: list[str]) -> int:
    sim_url, gateway_url, token, database_url, shard_id, shard_count, clock_file = argv
    discord.http.Route.BASE = sim_url + "/api/v10"
    discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(gateway_url)
    from bot.app import LeafBot, configure_logging
    from bot.settings import Settings

    configure_logging("INFO")
    settings = Settings(
        token=token,
        database_url=database_url,
        database_pool_size=4,
        render_workers=0,
        shard_count=int(shard_count),
        shard_ids=(int(shard_id),),
    )
    bot = LeafBot(
        settings,
        service_options={"clock": FileClock(Path(clock_file)), "claim_seconds": 3.0},
        tick_seconds=0.25,
    )
    bot._connection.guild_ready_timeout = 0.05

    async def no_wait(shard: int | None, *, initial: bool = False) -> None:
        return None

    bot.before_identify_hook = no_wait  # type: ignore[method-assign]
    stop = asyncio.Event()
    asyncio.get_running_loop().add_signal_handler(signal.SIGTERM, stop.set)
    runner = asyncio.create_task(bot.start(token))
    stopper = asyncio.create_task(stop.wait())
    await asyncio.wait({runner, stopper}, return_when=asyncio.FIRST_COMPLETED)
    await bot.close()
    with contextlib.suppress(BaseException):
        await runner
    return 0


if __name__ == "__main__":
    sys.exit(asyncio.run(main(sys.argv[1:])))
