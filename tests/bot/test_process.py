"""``bot.app.run`` as ``make run`` starts it: a real process that connects, syncs its
commands, logs without the token and shuts down cleanly on SIGTERM."""

from __future__ import annotations

import asyncio
import signal
import sys
import time
from pathlib import Path

LAUNCHER = """
import sys, yarl, discord.http, discord.gateway
discord.http.Route.BASE = sys.argv[1] + "/api/v10"
discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(sys.argv[2])
from bot.app import run
from bot.settings import Settings
sys.exit(run(Settings.load(dotenv=None)))
"""


async def test_run_connects_syncs_and_stops_cleanly_on_sigterm(sim, world, tmp_path: Path):
    env = {
        "DISCORD_TOKEN": sim.token,
        "DATABASE_PATH": str(tmp_path / "run.sqlite3"),
        "DEV_GUILD_ID": str(world.guild.id),
        "RENDER_WORKERS": "0",
        "LOG_LEVEL": "INFO",
        "PYTHONPATH": str(Path(__file__).resolve().parents[2]),
    }
    process = await asyncio.create_subprocess_exec(
        sys.executable,
        "-c",
        LAUNCHER,
        sim.base_url,
        sim.gateway.url,
        env=env,
        stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.PIPE,
    )
    try:
        deadline = time.monotonic() + 20
        while not (sim.gateway.live_sessions and sim.commands(world.guild)):
            assert process.returncode is None, (await process.stderr.read()).decode()
            assert time.monotonic() < deadline, "the bot did not connect and sync in time"
            await asyncio.sleep(0.05)
        names = {command["name"] for command in sim.commands(world.guild)}
        assert {
            "play",
            "move",
            "board",
            "resign",
            "games",
            "replay",
            "rules",
            "help",
            "leaderboard",
            "stats",
            "settings",
        } <= names
        process.send_signal(signal.SIGTERM)
        code = await asyncio.wait_for(process.wait(), 15)
    finally:
        if process.returncode is None:
            process.kill()
            await process.wait()
    logs = (await process.stderr.read()).decode()
    assert code == 0, logs
    assert f"synced {len(names)} commands to development server" in logs
    assert "stop requested" in logs and "bot closed" in logs
    assert sim.token not in logs


async def test_run_without_a_reachable_discord_says_so_in_one_line(tmp_path: Path):
    # A closed loopback port stands in for a machine without network: the bot must stop
    # with exit code 1 and one readable line, not a traceback.
    import socket

    with socket.socket() as probe:  # a port nobody listens on
        probe.bind(("127.0.0.1", 0))
        closed = f"http://127.0.0.1:{probe.getsockname()[1]}"
    env = {
        "DISCORD_TOKEN": "not-a-real-token",
        "DATABASE_PATH": str(tmp_path / "run.sqlite3"),
        "RENDER_WORKERS": "0",
        "LOG_LEVEL": "INFO",
        "PYTHONPATH": str(Path(__file__).resolve().parents[2]),
    }
    process = await asyncio.create_subprocess_exec(
        sys.executable,
        "-c",
        LAUNCHER,
        closed,
        closed.replace("http", "ws"),
        env=env,
        stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.PIPE,
    )
    code = await asyncio.wait_for(process.wait(), 30)
    logs = (await process.stderr.read()).decode()
    assert code == 1, logs
    assert "could not reach Discord" in logs
    assert "Traceback" not in logs
    assert "not-a-real-token" not in logs


async def test_run_refuses_a_database_migrated_by_a_newer_release(sim, world, tmp_path: Path):
    import sqlite3

    from matchcore.storage import open_repository

    path = tmp_path / "newer.sqlite3"
    repo = await open_repository(path)
    await repo.close()
    with sqlite3.connect(path) as raw:
        raw.execute("INSERT INTO schema_migrations VALUES (99, 'from_the_future', 0)")
    env = {
        "DISCORD_TOKEN": sim.token,
        "DATABASE_URL": f"sqlite:///{path}",
        "DEV_GUILD_ID": str(world.guild.id),
        "RENDER_WORKERS": "0",
        "PYTHONPATH": str(Path(__file__).resolve().parents[2]),
    }
    process = await asyncio.create_subprocess_exec(
        sys.executable,
        "-c",
        LAUNCHER,
        sim.base_url,
        sim.gateway.url,
        env=env,
        stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.PIPE,
    )
    code = await asyncio.wait_for(process.wait(), 30)
    logs = (await process.stderr.read()).decode()
    assert code == 1, logs
    assert "cannot start: the database schema is at version 99, newer than this Leafbot" in logs
    assert "Traceback" not in logs
