"""Process settings mean what README.md, .env.example and docs/bot.md say they mean: the
picture workers, where the data lives, and which shards this process runs."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from bot.app import LeafBot, retention
from bot.settings import (
    AT_LEAST_ONE,
    AT_LEAST_ZERO,
    NOT_A_NUMBER,
    NOT_A_PORT,
    SHARD_IDS_ALONE,
    SHARD_IDS_FORMAT,
    SHARD_IDS_OUTSIDE,
    SHARD_IDS_TWICE,
    Settings,
    default_render_workers,
    parse_shard_ids,
    usable_cores,
)
from i18n import translate
from i18n.console import LOCALE_VARIABLES
from matchcore.service.housekeeping import Retention

ROOT = Path(__file__).resolve().parents[2]


def load(**env: str) -> Settings:
    return Settings.load(env={"DISCORD_TOKEN": "x", **env}, dotenv=None)


def test_render_workers_zero_draws_in_threads_of_the_bot_process():
    settings = load(RENDER_WORKERS="0")
    assert settings.render_workers == 0
    bot = LeafBot(settings)
    assert bot.painter.workers == 0 and bot.painter._pool is None


def test_render_workers_are_one_per_core_but_one_by_default():
    assert load().render_workers == default_render_workers() == max(1, usable_cores() - 1)
    assert [default_render_workers(cores) for cores in (1, 2, 4, 8)] == [1, 1, 3, 7]
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
        assert "one per core but one" in words, text  # the default, said the same way
        assert "threads that draw" not in words, text


def test_the_state_cache_size_is_a_setting_the_service_keeps_to() -> None:
    assert load().state_cache_size == 2000
    settings = load(STATE_CACHE_SIZE="3")
    assert settings.state_cache_size == 3
    assert LeafBot(settings)._service_options["state_cache_size"] == 3
    with pytest.raises(SystemExit, match="STATE_CACHE_SIZE"):
        load(STATE_CACHE_SIZE="-1")
    example = (ROOT / ".env.example").read_text(encoding="utf-8")
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    assert "# STATE_CACHE_SIZE=2000" in example
    assert "| `STATE_CACHE_SIZE` |" in readme


def test_without_database_settings_make_run_uses_the_embedded_sqlite_file() -> None:
    settings = load()
    assert settings.database == "data/leafbot.sqlite3"
    assert settings.database_kind == "sqlite" and settings.notes == ()


def test_database_url_chooses_the_back_end_and_its_password_is_never_shown() -> None:
    settings = load(DATABASE_URL="postgresql://leafbot:s3cret@db.internal:5432/leafbot")
    assert settings.database_kind == "postgresql"
    assert settings.database == "postgresql://leafbot:s3cret@db.internal:5432/leafbot"
    assert "s3cret" not in repr(settings)
    assert load(DATABASE_URL="sqlite:///x/y.sqlite3").database_kind == "sqlite"


def test_database_path_still_works_and_says_it_is_deprecated() -> None:
    settings = load(DATABASE_PATH="elsewhere/bot.sqlite3")
    assert settings.database == "elsewhere/bot.sqlite3"
    assert settings.database_path == Path("elsewhere/bot.sqlite3")
    assert settings.notes == (
        "DATABASE_PATH is deprecated: write DATABASE_URL=sqlite:///elsewhere/bot.sqlite3 instead",
    )
    both = load(DATABASE_PATH="a.sqlite3", DATABASE_URL="sqlite:///b.sqlite3")
    assert both.database == "sqlite:///b.sqlite3"
    assert both.notes == ("DATABASE_PATH is ignored: DATABASE_URL is set and wins",)


def test_shards_are_a_count_and_this_process_s_share() -> None:
    settings = load(SHARD_COUNT="16", SHARD_IDS="0-3, 8")
    assert (settings.shard_count, settings.shard_ids) == (16, (0, 1, 2, 3, 8))
    assert load(SHARD_COUNT="4").shard_ids is None  # all four in this process
    assert load().shard_count is None  # one process, one shard
    assert parse_shard_ids("2,0") == (2, 0)


# A wrong setting, and the catalogue's sentence that stops the process (with its values).
WRONG_SETTINGS: list[tuple[dict[str, str], str, dict[str, object]]] = [
    ({"SHARD_IDS": "0"}, SHARD_IDS_ALONE, {}),
    (
        {"SHARD_COUNT": "2", "SHARD_IDS": "2,0"},
        SHARD_IDS_OUTSIDE,
        {"last": 1, "shards": 2, "value": "2,0"},
    ),
    ({"SHARD_COUNT": "2", "SHARD_IDS": "one"}, SHARD_IDS_FORMAT, {"value": "one"}),
    ({"SHARD_COUNT": "4", "SHARD_IDS": "1,1"}, SHARD_IDS_TWICE, {"value": "1,1"}),
    ({"SHARD_COUNT": "0"}, AT_LEAST_ONE, {"name": "SHARD_COUNT"}),
    ({"SHARD_COUNT": "two"}, NOT_A_NUMBER, {"name": "SHARD_COUNT", "value": "two"}),
    ({"PRUNE_EVERY_HOURS": "0"}, AT_LEAST_ONE, {"name": "PRUNE_EVERY_HOURS"}),
    ({"RENDER_WORKERS": "-1"}, AT_LEAST_ZERO, {"name": "RENDER_WORKERS"}),
    ({"STATE_CACHE_SIZE": "-1"}, AT_LEAST_ZERO, {"name": "STATE_CACHE_SIZE"}),
    ({"WEB_PORT": "65536"}, NOT_A_PORT, {"name": "WEB_PORT", "value": 65536}),
    ({"WEB_PORT": "http"}, NOT_A_NUMBER, {"name": "WEB_PORT", "value": "http"}),
]


@pytest.mark.parametrize("language", ["en", "de"])
@pytest.mark.parametrize(("env", "msgid", "params"), WRONG_SETTINGS)
def test_wrong_settings_stop_with_a_sentence_in_the_consoles_language(
    monkeypatch: pytest.MonkeyPatch,
    env: dict[str, str],
    msgid: str,
    params: dict[str, object],
    language: str,
) -> None:
    for name in LOCALE_VARIABLES:
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("LANG", {"en": "C.UTF-8", "de": "de_DE.UTF-8"}[language])
    with pytest.raises(SystemExit) as stopped:
        load(**env)
    said = str(stopped.value)
    assert said == translate(language, msgid, **params)
    # the catalogue has the sentence, in this language, with every value filled in
    assert said != translate("de" if language == "en" else "en", msgid, **params)
    assert msgid not in said and "{" not in said
    for value in params.values():
        assert str(value) in said


def test_retention_is_read_from_the_environment_and_reaches_the_service() -> None:
    assert retention(load()) == Retention()  # the documented defaults
    settings = load(
        KEEP_CLOSED_CHALLENGES_DAYS="10",
        KEEP_ENDED_MATCH_MESSAGES_DAYS="2",
        KEEP_MEMBER_LANGUAGES_DAYS="90",
        PRUNE_EVERY_HOURS="6",
    )
    assert retention(settings) == Retention(
        closed_challenges_days=10,
        ended_match_messages_days=2,
        member_languages_days=90,
        every_hours=6,
    )
    for name in ("KEEP_CLOSED_CHALLENGES_DAYS", "KEEP_MEMBER_LANGUAGES_DAYS", "PRUNE_EVERY_HOURS"):
        with pytest.raises(SystemExit, match=name):
            load(**{name: "0"})
    example = (ROOT / ".env.example").read_text(encoding="utf-8")
    for name in (
        "KEEP_CLOSED_CHALLENGES_DAYS",
        "KEEP_ENDED_MATCH_MESSAGES_DAYS",
        "PRUNE_EVERY_HOURS",
    ):
        assert f"# {name}=" in example


def test_the_activity_is_on_with_its_client_id_and_secret_never_shown() -> None:
    assert not load().activity_enabled
    assert not load(DISCORD_CLIENT_ID="42").activity_enabled
    settings = load(DISCORD_CLIENT_ID="42", DISCORD_CLIENT_SECRET="hush-hush")
    assert settings.activity_enabled and settings.discord_client_id == 42
    assert "hush-hush" not in repr(settings)
    with pytest.raises(SystemExit, match="DISCORD_CLIENT_ID"):
        load(DISCORD_CLIENT_ID="forty-two")
