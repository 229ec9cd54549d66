"""/help's words: every registered game (a button for each with a tutorial), the three
first commands by their localised names, and where settings and leaderboards are."""

from __future__ import annotations

import pytest

from engine import game_names, get_spec
from i18n import LANGUAGES, phrase, translate
from tutorial import help_text, tutorial_games


@pytest.mark.parametrize("language", LANGUAGES)
def test_help_names_every_game_and_leads_to_its_tutorial(language: str) -> None:
    text = help_text(language)
    assert [game for game, _, _ in text.games] == list(game_names())
    assert [game for game, _ in text.buttons] == list(tutorial_games()) == list(game_names())
    for game, _, line in text.games:  # each game's line is its spec's tagline
        tagline = get_spec(game).tagline
        assert tagline is not None and line == phrase(language, tagline())
    body = text.markdown()
    for _, title, line in text.games:
        assert f"**{title}**: {line}" in body
    assert len(body) <= 4096 and len(text.title) <= 256  # an embed's limits
    assert all(len(label) <= 80 for _, label in text.buttons)  # a button's limit
    assert "{" not in body


@pytest.mark.parametrize("language", LANGUAGES)
def test_help_uses_the_commands_names_in_the_reader_s_language(language: str) -> None:
    body = help_text(language, bot_name="Leafbot").markdown()
    play, rules = (translate(language, f"command.{c}.name") for c in ("play", "rules"))
    opponent = translate(language, "command.option.opponent")
    assert f"`/{play} " in body and f"`/{rules} " in body
    assert f"{opponent}:@Leafbot`" in body
    for command in ("settings", "leaderboard"):
        assert f"`/{translate(language, f'command.{command}.name')}`" in body


def test_german_help_is_german() -> None:
    assert "/spielen" in help_text("de").markdown()
    assert help_text("de").markdown() != help_text("en").markdown()


@pytest.mark.parametrize("language", LANGUAGES)
def test_help_says_resigning_asks_and_aborting_is_unrated(language: str) -> None:
    body = help_text(language).markdown()
    assert f"`/{translate(language, 'command.resign.name')}`" in body
    assert translate(language, "bot.board.button.abort") in body
