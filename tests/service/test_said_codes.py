"""What the service says after an action is events with codes, worded at the edge.

No module of ``matchcore/service`` builds a sentence: every line goes out as a said event
(``say(code, **params)``) or a :class:`Said` inside one, with a code of
``matchcore.service.texts.ENGLISH`` written out and plain parameters. Every code has its English
and German catalogue entries (``service.say.<code>``), and the Discord layer's wording
(``wording.service_words.texts_for``) gives in English exactly what the service's own
English says, and German words in German.
"""

from __future__ import annotations

import ast

import pytest

import matchcore.service.texts as texts
from engine import get_game
from i18n import colour_name, outcome_reason, translate
from i18n.typed import write_duration
from matchcore.service import MatchService, Update
from tests.service.helpers import (
    ALICE,
    BOB,
    CAROL,
    CHANNEL,
    GUILD,
    catalogue_entries,
    service_calls,
    start_board_match,
)
from wording.service_words import texts_for

SPEAKERS = {"say", "Said", "Message"}
SPECIAL = {texts.ENGINE_PHRASE, texts.ENGINE_TEXT, texts.RESULT}


def test_the_scan_sees_the_service_s_lines() -> None:
    assert len(service_calls({"say", "Said"})) > 30


def test_no_line_is_a_sentence_or_an_f_string() -> None:
    for name, line, call in service_calls(SPEAKERS):
        assert call.func.id != "Message" or name == "results.py", f"{name}:{line}: a Message"  # type: ignore[attr-defined]
        for value in [*call.args, *(keyword.value for keyword in call.keywords)]:
            assert not isinstance(value, ast.JoinedStr), f"{name}:{line}: an f-string"
            if isinstance(value, ast.Constant) and isinstance(value.value, str):
                assert " " not in value.value, f"{name}:{line}: a sentence {value.value!r}"


def test_every_code_written_at_a_line_is_in_the_table() -> None:
    for name, line, call in service_calls({"say", "Said"}):
        code = call.args[0]
        if isinstance(code, ast.Constant):
            assert code.value in texts.ENGLISH or code.value in SPECIAL, f"{name}:{line}"


@pytest.mark.parametrize("language", ["en", "de"])
def test_every_said_code_has_a_catalogue_entry(language: str) -> None:
    entries = catalogue_entries(language)
    for code, english in texts.ENGLISH.items():
        found = entries.get(f"service.say.{code}")
        assert found and all(text.strip() for text in found), (language, code)
        if language == "en":
            assert found == ((english,) if isinstance(english, str) else english), code


@pytest.mark.parametrize(
    "seconds", [0, 1, 2, 45, 59, 60, 61, 120, 3599, 3600, 3660, 7200, 86399, 86400, 90061, 195000]
)
def test_the_service_s_english_times_are_the_catalogue_s(seconds: int) -> None:
    """The core writes a time in English without the catalogues (it imports no i18n): the
    same words as the English catalogue's, which the Discord layer uses."""
    assert str(texts.Duration(seconds)) == write_duration("en", seconds)


def _same_in_english(update: Update) -> None:
    """The Discord layer's English is the service's English, line for line."""
    for user in {None, *(event.to for event in update.said)}:
        english = [texts.english(e.kind, e.data) for e in update.said if e.to == user]
        assert texts_for("en", update, user) == english


async def test_a_board_match_reads_the_same_in_english_and_in_german(
    service: MatchService,
) -> None:
    started = await start_board_match(service, first=ALICE, second=BOB)
    moved = await service.play(started.match_id, ALICE, "e5")
    offered = await service.offer_draw(started.match_id, BOB)
    declined = await service.decline_draw(started.match_id, ALICE)
    resigned = await service.resign(started.match_id, BOB)
    for update in (started, moved, offered, declined, resigned):
        assert update.said
        _same_in_english(update)
    swap = "You may play swap to take the first colour."
    assert texts_for("en", moved, None) == [
        "<@11> (dark) plays e5.",
        f"<@12> to move (light). {swap}",
    ]
    assert texts_for("de", moved, None) == [
        "<@11> (Dunkel) spielt e5.",
        f"<@12> ist am Zug (Hell). {translate('de', 'move.swap.hint')}",
    ]
    assert texts_for("de", offered, None) == [
        "<@12> bietet ein Remis an. <@11> kann annehmen oder ablehnen."
    ]
    assert texts_for("de", declined, None) == ["<@11> lehnt das Remis ab."]
    assert texts_for("en", resigned, None) == ["<@11> wins: <@12> resigned."]
    assert texts_for("de", resigned, None) == ["<@11> gewinnt: <@12> hat aufgegeben."]
    assert resigned.match is not None and resigned.match.result is not None
    assert resigned.match.result["reason"] == "<@12> resigned"  # stored as before


async def test_an_engine_ending_reads_in_german_with_the_engine_s_reason(
    service: MatchService,
) -> None:
    started = await start_board_match(service, first=ALICE, second=BOB)
    state = get_game("lefe").from_json((await service.repo.get_match(started.match_id)).state)
    update = started
    while update.match is not None and update.match.status == "running":
        user = ALICE if state.seat_to_move == 0 else BOB
        move = state.legal_moves()[0]
        update = await service.play(started.match_id, user, move)
        state = state.play(move)
    _same_in_english(update)
    german = texts_for("de", update, None)[-1]
    outcome = state.outcome
    assert outcome is not None
    data = outcome.to_dict()
    colour = data["params"].get("colour")
    if outcome.reason.startswith(f"{colour} wins"):
        # the engine's "Hell gewinnt 2–1: …" with the winner put in, named once
        winner = ALICE if state.seat_of(outcome.winner) == 0 else BOB
        named = f"<@{winner}> ({colour_name('de', colour)})"
        expected = outcome_reason("de", {**data, "params": {**data["params"], "colour": named}})
        assert german == expected + ".", german
        assert german.count("gewinnt") == 1, german
    else:
        assert german.endswith(outcome_reason("de", outcome) + "."), german
        assert "unentschieden" in german.lower(), german


async def test_a_leiff_lobby_and_the_clock_read_in_german(service: MatchService) -> None:
    opened = await service.open_lobby(GUILD, CHANNEL, ALICE)
    joined = await service.join_lobby(opened.match_id, BOB)
    started = await service.start_lobby(opened.match_id, ALICE)
    for update in (opened, joined, started):
        _same_in_english(update)
    assert texts_for("de", opened, None) == ["<@11> eröffnet einen Leiff-Tisch. Setz dich dazu!"]
    assert texts_for("de", joined, None) == ["<@12> setzt sich an den Tisch."]
    assert texts_for("de", started, None)[0] == (
        "Das Spiel beginnt mit 2 Spielern (bis 50 Punkte)."
    )


async def test_a_challenge_reads_in_german(service: MatchService) -> None:
    offer = await service.challenge(GUILD, CHANNEL, ALICE, "lefe", CAROL, size=7)
    _same_in_english(offer)
    assert texts_for("de", offer, None) == [
        "<@11> fordert <@13> heraus: Lefe, Größe 7, 1 Tag pro Zug."
    ]
