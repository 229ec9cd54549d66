"""A bot in another process, pointed at the simulator by URL, as ``make run`` would start it."""

from __future__ import annotations

import asyncio
import sys
import time
from pathlib import Path

from discord_sim import DiscordSimulator, World

LAUNCHER = """
import asyncio, sys, yarl, discord.http, discord.gateway
discord.http.Route.BASE = sys.argv[1] + "/api/v10"
discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(sys.argv[2])
from tests.sim.toy_bot import Recorder, make_toy_bot
bot = make_toy_bot(Recorder())
bot._connection.guild_ready_timeout = 0.05
asyncio.run(bot.start(sys.argv[3]))
"""


async def test_bot_in_another_process_answers_interactions(
    discord_sim: DiscordSimulator, sim_world: World
) -> None:
    root = Path(__file__).resolve().parents[2]
    process = await asyncio.create_subprocess_exec(
        sys.executable,
        "-c",
        LAUNCHER,
        discord_sim.base_url,
        discord_sim.gateway.url,
        discord_sim.token,
        cwd=root,
        stdout=asyncio.subprocess.DEVNULL,
        stderr=asyncio.subprocess.PIPE,
    )
    try:
        deadline = time.monotonic() + 20
        while not (discord_sim.gateway.live_sessions and discord_sim.commands(sim_world.guild)):
            assert process.returncode is None, (await process.stderr.read()).decode()
            assert time.monotonic() < deadline, "the bot process did not connect in time"
            await asyncio.sleep(0.02)
        result = await discord_sim.slash(sim_world.alice, "move", cell="b1")
        assert result.ephemeral and result.message.content == "Played b1"
        challenge = await discord_sim.slash(
            sim_world.alice, "play", game="dalen", opponent=sim_world.bob
        )
        accepted = await discord_sim.click(sim_world.bob, challenge.message, "Accept")
        assert accepted.response_type == 7 and challenge.message.button("Accept").disabled
    finally:
        process.terminate()
        await process.wait()
