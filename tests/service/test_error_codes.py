"""The service refuses with codes, never with English sentences it builds itself.

Every ``ServiceError`` raised in ``matchcore/service`` names a code of
``matchcore.service.errors.ENGLISH`` (written out, so it can be checked here) with plain
parameters; no f-string or sentence is passed to an error. Every code has its entry in the
English and the German catalogue, the English one equal to the service's own English, and
the Discord layer's :func:`bot.common.text.service_error` reads a refusal in either language.
"""

from __future__ import annotations

import ast

import pytest

import matchcore.service.errors as errors
from matchcore.service import (
    Cooldown,
    IllegalAction,
    MatchService,
    NotYourTurn,
    ServiceError,
    TooManyMatches,
)
from tests.service.helpers import (
    ALICE,
    BOB,
    CHANNEL,
    GUILD,
    catalogue_entries,
    service_calls,
    start_board_match,
)
from wording.service_words import service_error

ERROR_CLASSES = {
    name
    for name, value in vars(errors).items()
    if isinstance(value, type) and issubclass(value, ServiceError)
}


def raised_errors() -> list[tuple[str, int, ast.Call]]:
    """Every call of a service error class in matchcore/service: (file, line, call)."""
    return service_calls(ERROR_CLASSES)


def test_the_scan_sees_the_service_s_refusals() -> None:
    assert len(raised_errors()) > 60


def test_no_error_is_given_a_sentence_or_an_f_string() -> None:
    for name, line, call in raised_errors():
        values = list(call.args) + [keyword.value for keyword in call.keywords]
        for value in values:
            assert not isinstance(value, ast.JoinedStr), f"{name}:{line}: an f-string"
            if isinstance(value, ast.Constant) and isinstance(value.value, str):
                assert " " not in value.value, f"{name}:{line}: a sentence {value.value!r}"


def test_every_code_written_at_a_refusal_is_in_the_table() -> None:
    for name, line, call in raised_errors():
        if call.args and isinstance(call.args[0], ast.Constant):
            code = call.args[0].value
            if isinstance(code, str):
                assert code in errors.ENGLISH, f"{name}:{line}: unknown code {code!r}"


def test_codes_are_identifiers_and_english_lives_only_in_the_table() -> None:
    for code in errors.ENGLISH:
        assert code.isidentifier(), code
    for cls in ERROR_CLASSES:
        default = getattr(errors, cls).default_code
        assert default in errors.ENGLISH, cls


@pytest.mark.parametrize("language", ["en", "de"])
def test_every_service_code_has_a_catalogue_entry(language: str) -> None:
    entries = catalogue_entries(language)
    for code, english in errors.ENGLISH.items():
        texts = entries.get(f"service.error.{code}")
        assert texts and all(text.strip() for text in texts), (language, code)
        if language == "en":
            assert texts == ((english,) if isinstance(english, str) else english), code


def test_a_refusal_reads_in_english_as_the_service_says_it() -> None:
    for error in (
        NotYourTurn("turn_of", user="<@1>"),
        Cooldown(12.4),
        IllegalAction("not_a_move", game="Lefe"),
        ServiceError(),
    ):
        assert service_error("en", error) == str(error)
    assert service_error("en", NotYourTurn("turn_of", user="<@1>")) == "it is <@1>'s turn"


def test_a_refusal_reads_in_german() -> None:
    assert service_error("de", NotYourTurn("turn_of", user="<@1>")) == "<@1> ist am Zug"
    assert service_error("de", Cooldown(3)) == "bitte warte 3 s, bevor du wieder herausforderst"


async def test_an_engine_refusal_keeps_the_engine_s_code(service: MatchService) -> None:
    match = await start_board_match(service, first=ALICE, second=BOB)
    await service.play(match.match_id, ALICE, "c3")
    with pytest.raises(IllegalAction) as refused:
        await service.play(match.match_id, BOB, "c3")
    assert refused.value.code == errors.ENGINE
    assert refused.value.params["engine_code"] == "cell_taken"
    assert service_error("en", refused.value) == str(refused.value) == "c3 is taken"
    german = service_error("de", refused.value)
    assert "c3" in german and german != str(refused.value)


async def test_too_many_matches_lists_the_places_in_either_language(
    service: MatchService,
) -> None:
    await service.update_settings(
        GUILD, ALICE, True, max_matches_per_user=1, challenge_cooldown_seconds=0
    )
    await start_board_match(service, first=ALICE, second=BOB)
    with pytest.raises(TooManyMatches) as refused:
        await service.challenge(GUILD, CHANNEL, ALICE, "dalen")
    assert refused.value.code == "too_many_you"
    english = service_error("en", refused.value)
    assert english == str(refused.value)
    assert english.startswith("you already have 1 game running (the limit here is 1): Lefe vs <@")
    german = service_error("de", refused.value)
    assert german.startswith(
        "du hast schon 1 laufende Partie (hier ist die Grenze 1): Lefe gegen <@"
    )
