"""Finding English where a German reader should see German.

:func:`visible_texts` collects every word the bot showed through the simulator: each
message's content and every earlier revision of it (edits), its embeds, its buttons'
labels, its menus' placeholders and options, and every form (modal) it opened.
:func:`english_in` says which English a text still holds, by two independent tests:

- a fragment of an English catalogue entry (the words between its placeholders) that the
  German catalogue never uses (a short one, such as "a bot", as whole words), and
- English function words and game words no German sentence uses (``the``, ``your``,
  ``plays``, ``wins``, …),

after removing what is the same in every language: mentions, channel links and
timestamps, code spans (commands and canonical moves are typed as they are), card tokens
(``[7]``), numbers and cells, the players' names and the games' names.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Iterable
from typing import Any

import pytest
from babel.messages.catalog import Message

import bot.common.errors
import bot.common.match_lines
import bot.features.board_games.feature
import wording.service_words
from discord_sim.models import all_components, walk_components
from i18n.tools import read_catalogue, texts
from matchcore.service.results import Event
from matchcore.service.texts import ENGINE_TEXT

# Words of English that no German sentence of ours uses (German ones like "in", "an",
# "was", "will", "also", "am", "Hand", "Start", "Bot" are left out on purpose, and so are
# "swap" and "pass": canonical moves, typed as they are in every language; "Shot" is a
# term of the German Leiff rules, docs/i18n.md).
ENGLISH_WORDS = frozenset(
    [
        "the",
        "you",
        "your",
        "yours",
        "is",
        "are",
        "be",
        "been",
        "with",
        "and",
        "or",
        "of",
        "to",
        "by",
        "for",
        "on",
        "it",
        "its",
        "this",
        "that",
        "these",
        "those",
        "has",
        "have",
        "had",
        "not",
        "no",
        "can",
        "cannot",
        "may",
        "must",
        "who",
        "which",
        "what",
        "when",
        "where",
        "there",
        "here",
        "now",
        "all",
        "any",
        "anyone",
        "nobody",
        "someone",
        "one",
        "each",
        "every",
        "only",
        "more",
        "again",
        "from",
        "at",
        "as",
        "if",
        "into",
        "out",
        "up",
        "after",
        "before",
        "their",
        "them",
        "they",
        "he",
        "she",
        "his",
        "her",
        "plays",
        "play",
        "played",
        "moves",
        "move",
        "wins",
        "win",
        "won",
        "draw",
        "draws",
        "drawn",
        "turn",
        "round",
        "card",
        "cards",
        "table",
        "match",
        "matches",
        "board",
        "game",
        "games",
        "player",
        "players",
        "looks",
        "look",
        "takes",
        "take",
        "discards",
        "discard",
        "calls",
        "call",
        "deals",
        "deal",
        "score",
        "scores",
        "points",
        "point",
        "swaps",
        "passes",
        "resign",
        "resigns",
        "resigned",
        "abort",
        "aborts",
        "aborted",
        "unrated",
        "places",
        "offers",
        "offer",
        "accept",
        "decline",
        "declined",
        "expires",
        "challenge",
        "challenges",
        "captured",
        "capture",
        "stone",
        "stones",
        "tree",
        "trees",
        "tempo",
        "ran",
        "time",
        "left",
        "right",
        "next",
        "first",
        "last",
        "new",
        "rule",
        "rules",
        "drinks",
        "sip",
        "sips",
    ]
)
SAME_IN_EVERY_LANGUAGE = (
    "Lefe",
    "Dalen",
    "Les",
    "Lublache",
    "Leiff",
    "Kneipenphilosoph",
    "Kellner",
    "Klatschtante",
    "Dorfschönheit",
    "Hinterhältiger Magier",
    "Magier",
    "Spielautomat",
)
_NEUTRAL = [
    re.compile(r"<[@#]!?&?\d+>"),  # mentions, channel links
    re.compile(r"<t:\d+(:[a-zA-Z])?>"),  # timestamps
    re.compile(r"`[^`]*`"),  # code spans: commands, canonical moves
    re.compile(r"\[[^\[\]\s]{1,20}\]"),  # card tokens
    re.compile(r"\b[a-z]\d{1,2}([x+][a-z]\d{1,2})*\b"),  # cells, captures, pairs
    re.compile(r"https?://\S+"),
]


def _literal_parts(text: str) -> list[str]:
    return [part.strip(" .,:;!?…()*\n") for part in re.split(r"\{[^{}]*\}", text)]


SHORT_FRAGMENT = 8  # characters: a shorter fragment is only found as whole words


@functools.cache
def english_fragments() -> tuple[str, ...]:
    """Pieces of English catalogue entries (two words at least) the German never uses."""
    german = " \n ".join(
        text for m in read_catalogue("de") if m.id for text in texts(m) if text
    ).casefold()
    found = set()
    for message in read_catalogue("en"):
        if not message.id or _same_in_german(message):
            continue
        for text in texts(message):
            for part in _literal_parts(text):
                if len(part) >= 3 and " " in part and part.casefold() not in german:
                    found.add(part)
    return tuple(sorted(found, key=len, reverse=True))


@functools.cache
def _german_texts() -> dict[str, list[str]]:
    return {(m.id if isinstance(m.id, str) else m.id[0]): texts(m) for m in read_catalogue("de")}


def _same_in_german(message: Message) -> bool:
    key = message.id if isinstance(message.id, str) else message.id[0]
    return _german_texts().get(key) == texts(message)


def neutral(text: str, names: Iterable[str] = ()) -> str:
    """The text without what reads the same in every language."""
    for pattern in _NEUTRAL:
        text = pattern.sub(" ", text)
    for name in sorted({*names, *SAME_IN_EVERY_LANGUAGE}, key=len, reverse=True):
        if name:
            text = re.sub(rf"(?<!\w){re.escape(name)}(?!\w)", " ", text)
    return text


def english_in(text: str, names: Iterable[str] = ()) -> list[str]:
    """The English a text still holds (empty when it reads German)."""
    plain = neutral(text, names)
    found = [
        fragment
        for fragment in english_fragments()
        if (fragment in plain if len(fragment) >= SHORT_FRAGMENT else _as_words(fragment, plain))
    ]
    words = re.findall(r"[A-Za-zÄÖÜäöüß']+", plain)
    found += [word for word in words if word.casefold().strip("'") in ENGLISH_WORDS]
    return found


def _as_words(fragment: str, text: str) -> bool:
    return re.search(rf"(?<!\w){re.escape(fragment)}(?!\w)", text, re.IGNORECASE) is not None


def visible_texts(sim: Any) -> list[tuple[str, str]]:
    """(where, text) for every word the bot showed: messages with their earlier revisions,
    embeds, buttons, menus and options, and the forms it opened."""
    found: list[tuple[str, str]] = []
    for message in sim.all_messages:
        if message.author.id != sim.bot_user.id:
            continue
        where = f"message {message.id}"
        revisions = [(r.content, r.embeds, r.components) for r in message.history]
        revisions.append((message.content, message.embeds, message.components))
        for content, embeds, components in revisions:
            if content:
                found.append((where, content))
            for embed in embeds or []:
                found.extend((f"{where} embed", t) for t in _embed_texts(embed))
            for component in all_components(components or []):
                # Components v2: the text displays (sections' too) and pictures' alt texts
                if component.get("type") == 10 and component.get("content"):
                    found.append((f"{where} text", component["content"]))
                for item in component.get("items") or []:
                    if item.get("description"):
                        found.append((f"{where} picture", item["description"]))
            for component in walk_components(components or []):
                for key in ("label", "placeholder"):
                    if component.get(key):
                        found.append((f"{where} {key}", component[key]))
                for option in component.get("options") or []:
                    found.append((f"{where} option", option.get("label") or ""))
                    if option.get("description"):
                        found.append((f"{where} option", option["description"]))
    for interaction in sim.interactions:
        modal = getattr(interaction, "modal", None)
        if modal is None:
            continue
        found.append(("modal title", modal.title))
        for entry in modal.fields:
            for key in ("label", "placeholder"):
                if entry.get(key):
                    found.append((f"modal {key}", entry[key]))
    return found


def _embed_texts(embed: dict[str, Any]) -> list[str]:
    found = [embed.get("title") or "", embed.get("description") or ""]
    for field in embed.get("fields") or []:
        found += [field.get("name") or "", field.get("value") or ""]
    found.append((embed.get("footer") or {}).get("text") or "")
    found.append((embed.get("author") or {}).get("name") or "")
    return [text for text in found if text]


def untranslated(sim: Any, names: Iterable[str] = (), ignore: Iterable[str] = ()) -> list[str]:
    """Every text the bot showed that still holds English, with what was found; the
    strings in ``ignore`` are taken out of each text first."""
    names = tuple(names)
    ignored = sorted(set(ignore), key=len, reverse=True)
    problems = []
    for where, text in visible_texts(sim):
        for part in ignored:
            if part:
                text = text.replace(part, " ")
        english = english_in(text, names)
        if english:
            problems.append(f"{where}: {english} in {text!r}")
    return problems


@pytest.fixture
def service_lines(monkeypatch: pytest.MonkeyPatch) -> ServiceLines:
    """Every line the service phrased itself, as the Discord layer showed it."""
    said = ServiceLines()

    def recording(function: Any) -> Any:
        def wrapper(*args: Any, **kwargs: Any) -> str:
            text = function(*args, **kwargs)
            said.append(text)
            line = args[1] if len(args) > 1 else None
            if isinstance(line, Event) and line.kind == ENGINE_TEXT:
                said.engine.append(text)
            return text

        return wrapper

    words = wording.service_words
    monkeypatch.setattr(words, "service_text", recording(words.service_text))
    monkeypatch.setattr(bot.common.errors, "service_error", recording(words.service_error))
    monkeypatch.setattr(
        bot.features.board_games.feature, "service_error", recording(words.service_error)
    )
    monkeypatch.setattr(bot.common.match_lines, "result_words", recording(words.result_words))
    return said


class ServiceLines(list[str]):
    """The service's lines as shown; ``engine`` holds those that are the engine's own text
    (the Leiff engine's event texts, which it writes in English until it speaks in codes)."""

    def __init__(self) -> None:
        super().__init__()
        self.engine: list[str] = []

    def english(self, names: Iterable[str]) -> tuple[list[str], list[str]]:
        """The lines still holding English: the service's own, and the engine's texts."""
        engine = set(self.engine)
        english = sorted({line for line in self if english_in(line, names)})
        return [x for x in english if x not in engine], [x for x in english if x in engine]
