"""The small API the edges use: languages from Discord locales, messages, engine refusals."""

from __future__ import annotations

import discord
import pytest

from engine import IllegalMove
from i18n import (
    DEFAULT_LANGUAGE,
    LANGUAGES,
    colour_name,
    illegal_move,
    language_for,
    ordinal,
    outcome_reason,
    translate,
    translate_plural,
)
from i18n.catalogues import translations
from tests.engine.test_illegal_codes import (
    _refusals_in_random_board_games,
    _refusals_in_random_leiff_games,
)


@pytest.mark.parametrize(
    ("locale", "language"),
    [
        (discord.Locale.german, "de"),
        (discord.Locale.american_english, "en"),
        (discord.Locale.british_english, "en"),
        (discord.Locale.french, "en"),
        (discord.Locale.brazil_portuguese, "en"),
        ("de", "de"),
        ("de-AT", "de"),
        ("de_CH", "de"),
        ("DE", "de"),
        ("en-US", "en"),
        ("", "en"),
        (None, "en"),
        (42, "en"),
    ],
)
def test_a_discord_locale_maps_to_a_supported_language(locale: object, language: str) -> None:
    assert language_for(locale) == language


def test_languages_are_english_first() -> None:
    assert LANGUAGES[0] == DEFAULT_LANGUAGE == "en"
    assert "de" in LANGUAGES


def test_translate_fills_parameters_and_translates_colour_names() -> None:
    assert translate("en", "picture.board.to_move", name="Ann", colour="dark") == (
        "Ann (dark) to move."
    )
    assert translate("de", "picture.board.to_move", name="Ann", colour="dark") == (
        "Ann (Dunkel) ist am Zug."
    )
    assert colour_name("de", "white") == "Weiß"
    assert colour_name("de", "mauve") == "mauve"


def test_an_unsupported_language_reads_english() -> None:
    assert translate("fr", "picture.leiff.round", number=2) == "Round 2"
    assert translate("de", "picture.leiff.round", number=2) == "Runde 2"


def test_translate_plural_offers_count_as_a_parameter() -> None:
    ids = ("picture.leiff.sips", "picture.leiff.sips.plural")
    assert translate_plural("de", *ids, 1) == "1 Schluck"
    assert translate_plural("de", *ids, 4) == "4 Schlücke"


def test_catalogues_are_compiled_once_per_process() -> None:
    assert translations("de") is translations("de")
    assert translations("xx") is translations("en")


def test_an_engine_refusal_reads_in_german() -> None:
    error = IllegalMove("lublache_enemy_loop", cell="h8", colour="white")
    assert illegal_move("de", error) == "h8 würde auf einer Schleife enden, die Weiß kontrolliert"
    choices = IllegalMove("lefe_capture_due", cell="c3", choices=("c3xd4", "c3xe5"))
    assert illegal_move("de", choices).endswith("spiele c3xd4 oder c3xe5")
    slot = IllegalMove("leiff_no_own_slot", slot=6, count=1)
    assert illegal_move("de", slot) == "du hast keine Handkarte Nummer 6 (nur 1 Karte)"


def test_english_through_the_catalogue_equals_the_engine_s_own_sentence() -> None:
    refusals = _refusals_in_random_board_games() + _refusals_in_random_leiff_games()
    assert refusals
    for error in refusals:
        assert illegal_move("en", error) == str(error)
        german = illegal_move("de", error)
        assert german != str(error) and "{" not in german.replace("{p", ""), error.code


def test_why_a_game_ended_reads_in_german() -> None:
    from engine.board import Outcome

    outcome = Outcome.because(
        "dark", "lefe_win_stuck", colour="dark", high=5, low=3, stuck_colour="light"
    )
    assert outcome_reason("en", outcome) == outcome.reason
    assert outcome_reason("de", outcome) == (
        "Dunkel gewinnt 5–3: Hell kann nicht mehr regelgerecht setzen"
    )
    # a Leiff view carries the outcome as a dict
    view_outcome = {
        "winner": [0],
        "reason": "x",
        "code": "leiff_target_reached",
        "params": {"target": 50, "best": 23},
    }
    assert outcome_reason("de", view_outcome) == (
        "jemand hat 50 Punkte erreicht, und 23 ist der niedrigste Stand"
    )
    # stored before codes existed: the English sentence is all there is
    assert outcome_reason("de", {"winner": None, "reason": "drawn long ago"}) == "drawn long ago"


def test_ordinals_follow_each_language_s_rule() -> None:
    english = [ordinal("en", n) for n in (1, 2, 3, 4, 11, 12, 13, 21, 22, 23, 101, 111)]
    assert english == [
        "1st", "2nd", "3rd", "4th", "11th", "12th", "13th", "21st", "22nd", "23rd", "101st",
        "111th",
    ]  # fmt: skip
    assert [ordinal("de", n) for n in (1, 2, 3, 11)] == ["1.", "2.", "3.", "11."]
    assert ordinal("xx", 2) == "2nd"  # an unsupported language reads English
