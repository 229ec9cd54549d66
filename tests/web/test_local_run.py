"""``make run`` without a token, as a person starts it: ``python -m bot`` serves the web table
on this machine, prints its address, and says how to connect the bot to Discord; asked to
serve other machines without Discord's sign-in it refuses to start. Its console lines are the
catalogues', in the console's language (English; German with ``LANG=de_DE.UTF-8``)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import aiohttp
import pytest

from bot.__main__ import WEB_OPEN
from bot.settings import TOKEN_HELP
from i18n import translate
from i18n.console import console_language
from tests.web.browser import ROOT, LocalServer
from web.local import HOST_REFUSED

# The console's language as a shell's locale sets it (nothing else of the machine's leaks in).
LOCALES = {
    "en": {"LANGUAGE": "", "LC_ALL": "", "LC_MESSAGES": "", "LANG": "C.UTF-8"},
    "de": {"LANGUAGE": "", "LC_ALL": "", "LC_MESSAGES": "", "LANG": "de_DE.UTF-8"},
}


@pytest.mark.parametrize("language", ["en", "de"])
async def test_without_a_token_the_table_is_served_here_with_the_steps_to_discord(
    tmp_path: Path, language: str
) -> None:
    server = LocalServer(tmp_path / "run.sqlite3", environ=LOCALES[language])
    try:
        assert server.address.startswith("http://127.0.0.1:")
        async with aiohttp.ClientSession() as http, http.get(server.address) as page:
            assert page.status == 200 and "app.js" in await page.text()
        steps = translate(language, TOKEN_HELP)
        assert "DISCORD_TOKEN" in steps and "applications.commands" in steps
        assert steps.strip() in server.log.read_text()
        assert server.said == translate(language, WEB_OPEN, address=server.address)
    finally:
        server.stop()


def test_the_console_lines_differ_by_language() -> None:
    for msgid in (TOKEN_HELP, WEB_OPEN, HOST_REFUSED):
        english, german = (
            translate(language, msgid, address="A", host="H") for language in LOCALES
        )
        assert english and german and english != german and msgid not in (english, german)


@pytest.mark.parametrize(
    ("environ", "language"),
    [
        ({}, "en"),
        ({"LANG": "C"}, "en"),
        ({"LANG": "de_DE.UTF-8"}, "de"),
        ({"LANG": "de_AT@euro"}, "de"),
        ({"LANG": "fr_FR.UTF-8"}, "en"),
        ({"LC_ALL": "en_GB.UTF-8", "LANG": "de_DE.UTF-8"}, "en"),  # LC_ALL wins over LANG
        ({"LC_MESSAGES": "de_DE", "LANG": "en_US"}, "de"),
        ({"LANGUAGE": "fr:de", "LANG": "en_US"}, "de"),  # the first known of LANGUAGE's list
        ({"LANGUAGE": "fr", "LANG": "de_DE"}, "de"),  # none known: the locale decides
    ],
)
def test_the_console_language_is_read_as_gettext_reads_it(
    environ: dict[str, str], language: str
) -> None:
    assert console_language(environ) == language


@pytest.mark.parametrize("language", ["en", "de"])
def test_without_a_token_it_will_not_serve_other_machines(tmp_path: Path, language: str) -> None:
    env = {
        **os.environ,
        **LOCALES[language],
        "DISCORD_TOKEN": "",
        "DATABASE_URL": f"sqlite:///{tmp_path / 'refused.sqlite3'}",
        "WEB_HOST": "0.0.0.0",
        "WEB_PORT": "0",
    }
    done = subprocess.run(
        [sys.executable, "-m", "bot"], cwd=ROOT, env=env, capture_output=True, text=True, timeout=60
    )
    assert done.returncode != 0
    assert translate(language, HOST_REFUSED, host="0.0.0.0") in done.stderr
    assert "WEB_HOST=0.0.0.0" in done.stderr and "127.0.0.1" in done.stderr
    assert "http://" not in done.stdout  # nothing was served
