"""The Leiff engine's event texts are codes with parameters, worded in both languages.

Every code of ``engine.leiff.events.ENGLISH`` is a catalogue message (``leiff.<code>``) in
English and German with the engine's placeholders; no event of ``engine/leiff`` is made
from a sentence written where it is used; and whole random games word every event in
both languages, naming exactly the cards the English names (so a German line tells no
more than the English one, whose cards the Leiff property tests check against what its
reader may know).
"""

from __future__ import annotations

import ast
import random
import re
from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import Any

import pytest

from engine import get_game
from engine.leiff.events import ENGLISH, english
from engine.leiff.randomplayer import random_action
from i18n.tools import placeholders, read_catalogue, texts
from wording.service_words import leiff_event

LEIFF_DIR = Path(__file__).resolve().parents[2] / "engine" / "leiff"
BRACKETED = re.compile(r"\[([^\]]+)\]")
NAMES = ["Ann", "Ben", "Cem", "Dora", "Emil", "Fay"]
# the engine's functions that make an event: the argument saying what happened
MAKERS = {"event": 2, "_effect_event": 1}


def _forms(language: str) -> dict[str, list[str]]:
    return {
        (m.id if isinstance(m.id, str) else m.id[0]): texts(m)
        for m in read_catalogue(language)
        if m.id
    }


@pytest.mark.parametrize("language", ["en", "de"])
def test_every_code_is_in_the_catalogue_with_the_engines_placeholders(language: str) -> None:
    forms = _forms(language)
    for code, english_text in ENGLISH.items():
        msgid = f"leiff.{code}"
        assert msgid in forms, f"{language}: {msgid} missing"
        english_forms = list(english_text) if isinstance(english_text, tuple) else [english_text]
        wanted = set().union(*(placeholders(text) for text in english_forms))
        found = forms[msgid]
        assert all(text.strip() for text in found), msgid
        assert set().union(*(placeholders(text) for text in found)) == wanted, msgid
        assert (len(found) > 1) == isinstance(english_text, tuple), msgid
        if language == "en":
            assert found == english_forms, f"{msgid}: the English catalogue is not the engine's"


def _calls(tree: ast.AST) -> list[ast.Call]:
    return [
        node
        for node in ast.walk(tree)
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name)
    ]


def test_no_event_is_made_from_a_written_sentence() -> None:
    """Every event says a code: the argument saying what happened is a ``said(...)`` (or a
    name holding one), never a string; each code written out is in the table."""
    makers = said_codes = 0
    for path in sorted(LEIFF_DIR.glob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for call in _calls(tree):
            assert isinstance(call.func, ast.Name)
            name = call.func.id
            if name in MAKERS and path.name != "events.py":
                makers += 1
                says = call.args[MAKERS[name]]
                where = f"{path.name}:{call.lineno}"
                assert isinstance(says, ast.Call | ast.Name), where
                if isinstance(says, ast.Call):
                    assert isinstance(says.func, ast.Name) and says.func.id == "said", where
                assert not any(
                    isinstance(node, ast.JoinedStr)
                    or (
                        isinstance(node, ast.Constant)
                        and isinstance(node.value, str)
                        and " " in node.value
                    )
                    for node in ast.walk(says)
                ), f"{where}: a sentence written into an event"
            if name == "said":
                said_codes += 1
                code = call.args[0]
                if isinstance(code, ast.Constant):
                    assert code.value in ENGLISH, f"{path.name}:{call.lineno}: {code.value}"
    assert makers >= 50 and said_codes >= 50, (makers, said_codes)


def _games() -> list[Any]:
    """The states of a few whole random games with every option, each after one action."""
    game = get_game("leiff")
    states = []
    for seed, players, teams in ((1, 3, False), (2, 4, True), (3, 6, True), (4, 2, False)):
        options = {"target": 50, "specials": True, "drinking": True, "teams": teams}
        state = game.new(players=players, seed=seed, options=options)
        rng = random.Random(seed)
        states.append(state)
        while state.outcome is None and len(states) < 3000 * seed:
            seat, action = random_action(state, rng)
            state = state.play(seat, action)
            states.append(state)
    return states


def test_random_games_word_every_event_in_both_languages() -> None:
    seen: set[str] = set()
    for state in _games():
        names = NAMES[: state.players]
        for item in state.events:
            says = {"code": item["code"], "params": item["params"]}
            assert item["code"] in ENGLISH, item
            assert item["text"] == english(says), item
            seen.add(item["code"])
            line = {"text": item["text"], "said": says, "names": names}
            english_line = leiff_event("en", line)
            german_line = leiff_event("de", line)
            assert german_line != english_line or item["code"] in {"reveal_hand"}, german_line
            for words in (english_line, german_line):
                assert "{" not in words and "}" not in words, words
            # the German names exactly the cards the English does
            assert sorted(BRACKETED.findall(german_line)) == sorted(
                BRACKETED.findall(item["text"])
            ), (item["text"], german_line)
    # the games reach most of what the engine can say, the special cards' lines included
    assert len(seen) >= 40, sorted(set(ENGLISH) - seen)
    assert {"deal", "draw_private", "scores", "drinks", "reveal", "game_over"} <= seen


def _parts(says: Mapping[str, Any]) -> Iterator[Mapping[str, Any]]:
    """Every sentence or phrase of something said, one by one: the ones made of other parts
    (a round's scores, its drinks, the reveal) are not a sentence of their own."""
    nested = [
        value
        for value in says["params"].values()
        if isinstance(value, Mapping)
        or (isinstance(value, list) and value and isinstance(value[0], Mapping))
    ]
    if not nested:
        yield says
    for value in nested:
        for part in value if isinstance(value, list) else [value]:
            yield from _parts(part)


@pytest.mark.parametrize("language", ["en", "de"])
def test_every_line_names_each_player_once(language: str) -> None:
    """A line says each player's name once: "<@Ann> swaps their slot 1 with <@Ben>'s slot
    3", not "<@Ann> swaps <@Ann>'s slot 1"; "<@Cem> gives their best card to <@Ann>, who
    gives back their worst", not each name twice. Water rules too (the Magier's look)."""
    states = _games()
    for seed in range(5, 11):  # more games, with and without water rules
        options = {"specials": True, "drinking": True, "water": seed % 2 == 1}
        state = get_game("leiff").new(players=3 + seed % 3, seed=seed, options=options)
        rng = random.Random(seed)
        while state.outcome is None:
            states.append(state)
            state = state.play(*random_action(state, rng))
    checked: set[str] = set()
    for state in states:
        names = [f"<@{name}>" for name in NAMES[: state.players]]
        for item in state.events:
            for part in _parts({"code": item["code"], "params": item["params"]}):
                line = leiff_event(language, {"text": "", "said": part, "names": names})
                repeated = [name for name in names if line.count(name) > 1]
                assert not repeated, (part["code"], line)
                checked.add(str(part["code"]))
    # the lines the players read twice a name in before
    wanted = {"blind_swap", "blind_swap_own", "exchange", "enchant_double", "enchant_look"}
    assert wanted <= checked, sorted(wanted - checked)
