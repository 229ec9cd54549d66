"""Words for players, in English and German, from gettext message catalogues (Babel).

The engine and the service say *what* happened as codes with parameters; the edges (the
Discord layer, the pictures) turn them into a sentence in the reader's language here:

- :func:`translate` — ``translate("de", "picture.board.to_move", name="Ann", colour="dark")``;
- :func:`translate_plural` — the form for ``count`` by the language's plural rules;
- :func:`illegal_move` — an engine :class:`~engine.IllegalMove` in the reader's language;
- :func:`outcome_reason` — why a game ended (an engine outcome) in the reader's language;
- :func:`phrase` — an engine ``Phrase`` (a ``Text`` code and its parameters) in words;
- :func:`colour_name` — an engine colour ("dark") in the reader's language;
- :func:`ordinal` — a place as the language writes it: "2nd" in English, "2." in German;
- :func:`date_text`, :func:`month_text` — a day and a month as the language writes them
  ("Nov 14, 2023", "14.11.2023"; "November 2023"), from CLDR through Babel;
- :func:`language_for` — a Discord locale (``interaction.locale``,
  ``guild.preferred_locale``) mapped to a supported language, English otherwise;
- :func:`N_` — marks a message id written as data (a table of ids) for extraction;
- :mod:`i18n.typed` — what members type (on/off, times such as "2 Std."), read in every
  language, and times written for the reader ("1 Tag", "1 day").

Message ids are stable codes, not English sentences (``docs/i18n.md`` says why and how to
add a message or a language). The catalogues are ``i18n/locales/<language>/LC_MESSAGES/
leafbot.po``, read and compiled once per process on first use. This package imports no
Discord and no Pillow, so both ``render`` and ``bot`` may use it; the engine never does.
"""

from __future__ import annotations

import datetime
import functools
from collections.abc import Mapping
from typing import Any

from babel import Locale
from babel.dates import format_date

from i18n.catalogues import DEFAULT_LANGUAGE, LANGUAGES, translations

__all__ = [
    "DEFAULT_LANGUAGE",
    "LANGUAGES",
    "N_",
    "colour_id",
    "colour_name",
    "date_text",
    "illegal_move",
    "language_for",
    "month_text",
    "ordinal",
    "outcome_reason",
    "phrase",
    "translate",
    "translate_plural",
]


def N_(msgid: str) -> str:
    """Return ``msgid`` unchanged: marks an id kept in a table so extraction finds it."""
    return msgid


def language_for(locale: object) -> str:
    """The supported language for a Discord locale: ``"de"`` for ``de``, ``"en"`` for
    ``en-US``/``en-GB`` and for anything unsupported or missing.

    Accepts a ``discord.Locale`` (its ``value`` is read), a string such as ``"de"``,
    ``"de-AT"`` or ``"de_DE"``, or ``None``.
    """
    value = getattr(locale, "value", locale)
    if not isinstance(value, str):
        return DEFAULT_LANGUAGE
    primary = value.strip().replace("_", "-").split("-")[0].lower()
    return primary if primary in LANGUAGES else DEFAULT_LANGUAGE


def _supported(language: str) -> str:
    return language if language in LANGUAGES else language_for(language)


def colour_id(colour: str) -> str:
    """An engine colour's message id (``colour.dark``): extracted from the colours each
    game's spec names, so a new game's colours need nothing but catalogue entries."""
    return f"colour.{colour}"


_LIST_OR = N_("list.or")


# A number's ordinal form by CLDR's ordinal plural categories (Babel knows each language's
# rule: English 1st, 2nd, 3rd, 4th, 11th, 21st; German always "1.").
ORDINAL_IDS: dict[str, str] = {
    "one": N_("ordinal.one"),
    "two": N_("ordinal.two"),
    "few": N_("ordinal.few"),
    "other": N_("ordinal.other"),
}


@functools.cache
def _locale(language: str) -> Locale:
    return Locale.parse(language)


def date_text(language: str, at: float) -> str:
    """The day of the Unix time ``at`` (UTC) as ``language`` writes it: "Nov 14, 2023"."""
    day = datetime.datetime.fromtimestamp(at, datetime.UTC).date()
    return format_date(day, "medium", locale=_locale(_supported(language)))


def month_text(language: str, year: int, month: int) -> str:
    """A month of a year as ``language`` names it: "November 2023"."""
    day = datetime.date(year, month, 1)
    return format_date(day, "LLLL y", locale=_locale(_supported(language)))


def ordinal(language: str, number: int) -> str:
    """``number`` as an ordinal in ``language``: "1st", "2nd", "23rd", "11th"; "2."."""
    chosen = _supported(language)
    form = _locale(chosen).ordinal_form(number)
    msgid = ORDINAL_IDS.get(form, ORDINAL_IDS["other"])
    return translations(chosen).gettext(msgid).format(number=number)


def colour_name(language: str, colour: str) -> str:
    """An engine colour name ("dark") as the word for it in ``language``."""
    msgid = colour_id(colour)
    named = translations(_supported(language)).gettext(msgid)
    return colour if named == msgid else named  # a colour no catalogue knows: as it is


def _value(language: str, name: str, value: Any) -> str:
    """A parameter as it appears in a sentence: colour names and lists are words too."""
    if (name == "colour" or name.endswith("_colour")) and isinstance(value, str):
        return colour_name(language, value)
    if isinstance(value, list | tuple):
        items = [_value(language, name, item) for item in value]
        if not items:
            return ""
        joined = items[0]
        for item in items[1:]:
            joined = translations(language).gettext(_LIST_OR).format(left=joined, right=item)
        return joined
    return str(value)


def _fill(language: str, text: str, params: Mapping[str, Any]) -> str:
    values = {name: _value(language, name, value) for name, value in params.items()}
    return text.format_map(values)


def translate(language: str, msgid: str, /, **params: Any) -> str:
    """The message ``msgid`` in ``language`` (English if unsupported), ``{name}``s filled in.

    A parameter named ``colour`` or ``..._colour`` holds an engine colour name (``"dark"``)
    and is translated too; a list or tuple is written "a or b" in the language.
    """
    chosen = _supported(language)
    return _fill(chosen, translations(chosen).gettext(msgid), params)


def translate_plural(
    language: str, msgid: str, msgid_plural: str, count: int, /, **params: Any
) -> str:
    """The form of a plural message for ``count`` (also available as ``{count}``)."""
    chosen = _supported(language)
    text = translations(chosen).ngettext(msgid, msgid_plural, count)
    return _fill(chosen, text, {"count": count, **params})


def _engine_message(language: str, msgid: str, params: Mapping[str, Any]) -> str:
    """An engine code's message; plural codes (two English forms) go by their ``count``."""
    values = dict(params)
    if "count" in values:
        return translate_plural(language, msgid, f"{msgid}.plural", values.pop("count"), **values)
    return translate(language, msgid, **values)


def illegal_move(language: str, error: Any) -> str:
    """An engine ``IllegalMove`` (its ``code`` and ``params``) as a sentence in ``language``."""
    return _engine_message(language, f"illegal.{error.code}", error.params)


def outcome_reason(language: str, outcome: Any) -> str:
    """Why a game ended, in ``language``: from an engine outcome object or its dict (as in a
    Leiff view). An outcome without a code (stored before codes existed) keeps its English."""
    data = outcome.to_dict() if hasattr(outcome, "to_dict") else dict(outcome)
    code = data.get("code")
    if not code:
        return str(data.get("reason", ""))
    return _engine_message(language, f"outcome.{code}", data.get("params") or {})


def _known(msgid: str, *, plural: bool) -> bool:
    """Whether the English catalogue has the message (gettext answers a missing id with the
    id itself)."""
    english = translations(DEFAULT_LANGUAGE)
    if plural:
        return english.ngettext(msgid, f"{msgid}.plural", 1) != msgid
    return english.gettext(msgid) != msgid


def phrase(language: str, said: Any, /, **edge: Any) -> str:
    """An engine ``Phrase`` in ``language``: its text's code is the message id (a text with
    a plural English is a plural message), its parameters and the edge's (``player=``)
    filled in."""
    params = {**said.params, **edge}
    if not _known(said.code, plural=said.text.plural is not None):
        # a game the catalogues do not know yet (one registered at run time): its own English
        return str(said.english(**edge))
    if said.text.plural is not None:
        msgid = said.code
        return translate_plural(language, msgid, f"{msgid}.plural", params.pop("count"), **params)
    return translate(language, said.code, **params)
