"""``make run`` without a token, as a person starts it: ``python -m bot`` serves the web table
on this machine, prints its address, and says how to connect the bot to Discord; asked to
serve other machines without Discord's sign-in it refuses to start."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import aiohttp

from bot.settings import TOKEN_HELP
from tests.web.browser import ROOT, LocalServer


async def test_without_a_token_the_table_is_served_here_with_the_steps_to_discord(
    tmp_path: Path,
) -> None:
    server = LocalServer(tmp_path / "run.sqlite3")
    try:
        assert server.address.startswith("http://127.0.0.1:")
        async with aiohttp.ClientSession() as http, http.get(server.address) as page:
            assert page.status == 200 and "app.js" in await page.text()
        assert TOKEN_HELP.strip() in server.log.read_text()
    finally:
        server.stop()


def test_without_a_token_it_will_not_serve_other_machines(tmp_path: Path) -> None:
    env = {
        **os.environ,
        "DISCORD_TOKEN": "",
        "DATABASE_URL": f"sqlite:///{tmp_path / 'refused.sqlite3'}",
        "WEB_HOST": "0.0.0.0",
        "WEB_PORT": "0",
    }
    done = subprocess.run(
        [sys.executable, "-m", "bot"], cwd=ROOT, env=env, capture_output=True, text=True, timeout=60
    )
    assert done.returncode != 0
    assert "WEB_HOST=0.0.0.0" in done.stderr and "127.0.0.1" in done.stderr
    assert "http://" not in done.stdout  # nothing was served
