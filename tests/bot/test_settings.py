"""Process settings mean what README.md, .env.example and docs/bot.md say they mean."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from bot.app import LeafBot
from bot.settings import Settings

ROOT = Path(__file__).resolve().parents[2]


def load(**env: str) -> Settings:
    return Settings.load(env={"DISCORD_TOKEN": "x", **env}, dotenv=None)


def test_render_workers_zero_draws_in_threads_of_the_bot_process():
    settings = load(RENDER_WORKERS="0")
    assert settings.render_workers == 0
    bot = LeafBot(settings)
    assert bot.painter.workers == 0 and bot.painter._pool is None


def test_render_workers_are_processes_two_by_default():
    assert load().render_workers == 2
    assert load(RENDER_WORKERS="3").render_workers == 3
    with pytest.raises(SystemExit, match="RENDER_WORKERS"):
        load(RENDER_WORKERS="-1")


def test_the_three_descriptions_of_render_workers_agree():
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    example = (ROOT / ".env.example").read_text(encoding="utf-8")
    guide = (ROOT / "docs" / "bot.md").read_text(encoding="utf-8")
    row = next(line for line in readme.splitlines() if line.startswith("| `RENDER_WORKERS`"))
    comment = example.split("RENDER_WORKERS=")[0].rsplit("\n\n", 1)[-1]
    mention = re.search(r"`RENDER_WORKERS` \(([^)]*)\)", " ".join(guide.split())).group(1)
    for text in (row, comment, mention):
        words = " ".join(text.split()).lower()
        assert "process" in words and "0" in words and "thread" in words, text
        assert "threads that draw" not in words, text
