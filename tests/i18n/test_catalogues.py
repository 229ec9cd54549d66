"""The message catalogues: complete in both languages, current with the code, consistent."""

from __future__ import annotations

import ast
import dataclasses
import importlib
import re
from pathlib import Path

import pytest

from engine import BOARD_GAMES, get_game, get_spec
from engine.errors import ENGLISH
from engine.phrases import Text
from engine.reasons import REASONS
from i18n import LANGUAGES, colour_id, colour_name, translate_plural
from i18n.catalogues import po_path
from i18n.tools import engine_tables, extract, placeholders, problems, read_catalogue, texts

ROOT = Path(__file__).resolve().parents[2]
# the namespaces message ids live in (docs/i18n.md)
MESSAGE_ID = re.compile(
    r"(bot|card|colour|command|duration|illegal|list|ordinal|outcome|picture|tutorial|typed)\.[a-z0-9_.]+"
)
# entries whose German rightly reads the same as the English (formats, names, numbers)
SAME_IN_GERMAN = {
    "bot.leiff.legend_line",  # "-# **{card}**: {subtitle}", markup around words of its own
    "bot.profile.game",  # "**{game}**: {rating} · {record}{streak}": markup and fields only
    "bot.profile.levels_of_game",  # "{game} ({levels})"
    "picture.leiff.teams",
    "lefe.score",
    "score.plain",
    "move.plain",
    "list.comma",  # ", " between the parts of a score in both
    "web.bot_name",  # the bot's name on the web table
    # lines of the Discord layer made only of names, numbers and signs
    "bot.games.match",
    "bot.leaderboard.row",
    "bot.match.rating_change",
    "bot.match.place",  # "2nd bob" / "2. bob": the ordinal is the language's
    "bot.stats.places_record",
    "bot.stats.vs_bot_row",
    "bot.settings.line",  # a setting's name and its value
    "bot.history.line",  # a finished match: its number, game, opponents, outcome, date
    "bot.history.option",
    "bot.history.bot",  # "Leafbot (hard)": the level is the language's
    "bot.games.line",  # a match's game, number and players
    "bot.clock.choice",  # "Daily: 3 days per move": the kind and the control, each worded
    "bot.clock.kind.live",  # "Live" is German too
    "command.leaderboard.pool.live",
    "service.say.challenge_what_clock",  # "Lefe, size 6, 3 days per move": parts worded
    # parts of the Leiff engine's lines made only of a name and its cards, score or drinks
    "leiff.drinks_owed",
    "leiff.reveal_hand",
    "leiff.share",
    *(f"game.{name}.title" for name in (*BOARD_GAMES, "leiff")),  # the games' own names
    # tournaments: a title of the format's name, number and game; the standings' rank sign
    # and the tie-breaks named after their inventors; "Arena" is German too
    "bot.tournament.title",
    "bot.tournament.heading.rank",
    "bot.tournament.heading.buchholz",
    "bot.tournament.heading.sonneborn_berger",
    "bot.tournament.format.arena",
}


def _entries(language: str) -> dict[str, list[str]]:
    catalogue = read_catalogue(language)
    return {
        (m.id if isinstance(m.id, str) else m.id[0]): texts(m)
        for m in catalogue
        if m.id and not m.fuzzy
    }


def test_catalogues_are_current_with_the_code_and_complete() -> None:
    """An extraction run finds nothing new and nothing stale; nothing is empty or fuzzy."""
    assert problems() == []


def test_an_extraction_finds_exactly_the_catalogue_ids() -> None:
    extracted = {m.id if isinstance(m.id, str) else m.id[0] for m in extract() if m.id}
    assert len(extracted) > 100
    for language in LANGUAGES:
        assert set(_entries(language)) == extracted, language


def test_every_entry_exists_in_both_languages_with_the_same_placeholders() -> None:
    english, german = _entries("en"), _entries("de")
    assert english.keys() == german.keys()
    for key, english_forms in english.items():
        wanted = set().union(*(placeholders(text) for text in english_forms))
        found = set().union(*(placeholders(text) for text in german[key]))
        assert found == wanted, f"{key}: German has {sorted(found)}, English {sorted(wanted)}"
        for text in german[key]:
            assert placeholders(text) <= wanted, key


def test_no_german_entry_is_empty_or_fuzzy() -> None:
    catalogue = read_catalogue("de")
    for message in catalogue:
        if not message.id:
            continue
        assert not message.fuzzy, message.id
        assert all(text.strip() for text in texts(message)), message.id


def test_german_entries_are_translations_not_english_copies() -> None:
    english, german = _entries("en"), _entries("de")
    copied = sorted(key for key in english if english[key] == german[key])
    assert set(copied) <= SAME_IN_GERMAN, f"German equals English: {copied}"


def test_every_text_formats_with_its_placeholders() -> None:
    for language in LANGUAGES:
        for key, forms in _entries(language).items():
            for text in forms:
                values = dict.fromkeys(placeholders(text), "x")
                assert "{" not in text.format(**values), (language, key)


def test_plural_entries_have_every_form_of_the_language() -> None:
    header = po_path("de").read_text(encoding="utf-8")
    assert "Plural-Forms: nplurals=2; plural=(n != 1);" in header
    plural_ids = [m.id for m in read_catalogue("de") if isinstance(m.id, tuple)]
    assert len(plural_ids) >= 5
    for language in LANGUAGES:
        for message in read_catalogue(language):
            if isinstance(message.id, tuple):
                assert len(texts(message)) == 2 and all(texts(message)), message.id


@pytest.mark.parametrize(
    ("count", "english", "german"),
    [(0, "0 cards", "0 Karten"), (1, "1 card", "1 Karte"), (2, "2 cards", "2 Karten")],
)
def test_plural_forms_follow_each_language_s_rule(count: int, english: str, german: str) -> None:
    ids = ("picture.leiff.cards", "picture.leiff.cards.plural")
    assert translate_plural("en", *ids, count) == english
    assert translate_plural("de", *ids, count) == german


def test_the_english_of_engine_codes_is_the_engine_s_own() -> None:
    english = _entries("en")
    tables = engine_tables()
    assert tables["illegal."] == ENGLISH and tables["outcome."] == REASONS
    for prefix, table in tables.items():
        for code, text in table.items():
            forms = list(text) if isinstance(text, tuple) else [text]
            assert english[f"{prefix}{code}"] == forms, code


@pytest.mark.parametrize("prefix", ["illegal.", "outcome.", ""])
def test_every_code_the_engine_can_use_has_an_entry_in_both_languages(prefix: str) -> None:
    for language in LANGUAGES:
        entries = _entries(language)
        for code, text in engine_tables()[prefix].items():
            forms = entries.get(f"{prefix}{code}")
            assert forms and all(forms), (language, code)
            assert len(forms) == (2 if isinstance(text, tuple) else 1), (language, code)


def test_every_colour_of_every_board_game_has_a_name() -> None:
    for language in LANGUAGES:
        entries = _entries(language)
        for name in BOARD_GAMES:
            for colour in get_game(name).colors:
                assert entries.get(colour_id(colour)), (language, name, colour)
    assert colour_name("de", "dark") == "Dunkel" and colour_name("en", "white") == "white"


def test_a_colour_no_catalogue_knows_reads_as_it_is() -> None:
    # a game registered at run time (the toy sixth game's red and blue)
    assert colour_name("de", "red") == "red"


def _module(name: str) -> bool:
    """A dotted name of a package or module of ours ("matchcore.storage"), not a message id."""
    path = ROOT.joinpath(*name.split("."))
    return path.is_dir() or path.with_suffix(".py").is_file()


def _id_literals() -> set[tuple[str, str]]:
    """Every string in the edge code that looks like a message id, with its file."""
    found = set()
    for folder in ("i18n", "render", "tutorial", "matchcore", "wording", "bot"):
        for path in (ROOT / folder).rglob("*.py"):
            for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
                value = node.value if isinstance(node, ast.Constant) else None
                if isinstance(value, str) and MESSAGE_ID.fullmatch(value) and not _module(value):
                    found.add((str(path.relative_to(ROOT)), value))
    return found


def test_no_message_id_in_the_code_escapes_extraction() -> None:
    """An id written in code but not where extraction reads it (say, in a conditional
    expression) would be missing from the catalogues; mark such ids with ``N_``."""
    extracted = {m.id if isinstance(m.id, str) else m.id[0] for m in extract() if m.id}
    plurals = {m.id[1] for m in extract() if isinstance(m.id, tuple)}
    literals = _id_literals()
    assert len(literals) > 50
    missing = sorted(
        (where, key) for where, key in literals if key not in extracted and key not in plurals
    )
    assert not missing, missing


def _texts_of(value: object, seen: set[int]) -> list[Text]:
    """Every Text reachable from a spec (its fields, options, notation, special moves)."""
    if id(value) in seen:
        return []
    seen.add(id(value))
    if isinstance(value, Text):
        return [value]
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return [
            t for f in dataclasses.fields(value) for t in _texts_of(getattr(value, f.name), seen)
        ]
    if isinstance(value, list | tuple | set | frozenset):
        return [t for item in value for t in _texts_of(item, seen)]
    if isinstance(value, dict):
        return [t for item in value.values() for t in _texts_of(item, seen)]
    return []


def _engine_texts() -> list[Text]:
    """The engine's Texts, found at run time: every spec's, and every module's constants."""
    found: list[Text] = []
    seen: set[int] = set()
    for name in (*BOARD_GAMES, "leiff"):
        found += _texts_of(get_spec(name), seen)
    for path in sorted((ROOT / "engine").rglob("*.py")):
        module = importlib.import_module(".".join(path.relative_to(ROOT).with_suffix("").parts))
        for value in vars(module).values():
            found += _texts_of(value, seen)
    return found


def test_every_text_of_the_engine_is_in_the_catalogues_with_its_english() -> None:
    texts = _engine_texts()
    assert len(texts) >= 30
    english, german = _entries("en"), _entries("de")
    for text in texts:
        wanted = [text.english] if text.plural is None else [text.english, text.plural]
        assert english.get(text.code) == wanted, text.code
        assert german.get(text.code) and all(german[text.code]), text.code


def test_every_text_in_the_engine_writes_its_code_out() -> None:
    """Extraction reads codes from the source: ``Text(f"...")`` would escape it."""
    for path in sorted((ROOT / "engine").rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Call) and getattr(node.func, "id", None) == "Text":
                assert node.args and isinstance(node.args[0], ast.Constant), (
                    f"{path.relative_to(ROOT)}:{node.lineno}"
                )
