"""What members type, read in every language; and durations written for the reader.

Members type values into commands (``/settings value:``): "an", "Nacht", "2 Std.", "1 day".
The words they may type are catalogue entries like every other text, in the ``typed.``
namespace: one entry per meaning, its words separated by ``|``, the first of them the word
written back to the reader (German ``typed.on``: ``an|ein|ja``). What a member typed is
read against the words of *every* supported language at once (an admin whose Discord is
English may still type "an"), case-insensitively, a trailing dot ignored ("Std." is
"std"). Whole words only, no prefixes: the commands' autocomplete completes a word, and a
prefix such as "s" (Sekunden? Stunden?) would surprise. A word two meanings share would be
ambiguous; a test forbids it.

Durations (:func:`read_duration`, :func:`write_duration`):

- read: numbers with units, in any order and either language: "1 day", "2 Tage",
  "2 h", "2 Std.", "90 min", "1h30", "1 Tag 12 Std.", "1,5 Std.", "1 day and 2 hours".
  A number right after a unit counts the next smaller one ("1h30" is 1 h 30 min,
  "2 Tage 6" is 2 days 6 h). A bare number alone counts seconds, the unit the settings
  are kept in (what ``/settings`` always read). The total must be whole seconds.
- written: days, hours, minutes and seconds, largest first, each part that is not zero
  ("1 day", "1 h 30 min"; "1 Tag", "1 Std. 30 Min."); what is written reads back as the
  same number of seconds.
"""

from __future__ import annotations

import functools
import re
from fractions import Fraction

from i18n import N_, translate_plural
from i18n.catalogues import LANGUAGES, translations

# the meanings members type, each with its entry of words
ON, OFF = N_("typed.on"), N_("typed.off")
_UNIT_WORDS = {
    7 * 86400: N_("typed.week"),
    86400: N_("typed.day"),
    3600: N_("typed.hour"),
    60: N_("typed.minute"),
    1: N_("typed.second"),
}
_JOINING_WORDS = N_("typed.and")  # "1 day and 2 hours"
# the next smaller unit, for a number written right after a unit ("1h30")
_NEXT_SMALLER = {7 * 86400: 86400, 86400: 3600, 3600: 60, 60: 1}

_PART = re.compile(
    r"\s*(?:(?P<number>\d+(?:[.,]\d+)?)|(?P<word>[^\W\d_]+)\.?|(?P<comma>,))\s*", re.UNICODE
)


def normal(text: str) -> str:
    """Typed text as it is compared: case folded, spaces collapsed, a trailing dot dropped."""
    return " ".join(text.split()).casefold().removesuffix(".").strip()


def words(language: str, msgid: str) -> tuple[str, ...]:
    """The words of a ``typed.`` entry in ``language``, as written (the first is shown)."""
    return tuple(w.strip() for w in translations(language).gettext(msgid).split("|") if w.strip())


def shown(language: str, msgid: str) -> str:
    """The word of a meaning written for a reader of ``language`` (``typed.on``: "an")."""
    return words(language, msgid)[0]


@functools.cache  # the catalogues do not change while the process runs
def every_word(msgid: str) -> frozenset[str]:
    """The words of a meaning in every supported language, as compared (:func:`normal`)."""
    return frozenset(normal(w) for language in LANGUAGES for w in words(language, msgid))


def read_switch(text: str) -> bool | None:
    """On (True) or off (False) in any language's words ("an", "off", "ja", "1"), else None."""
    typed = normal(text)
    if typed in every_word(ON):
        return True
    if typed in every_word(OFF):
        return False
    return None


def write_switch(language: str, value: bool) -> str:
    return shown(language, ON if value else OFF)


def _unit_of(word: str) -> int | None:
    typed = normal(word)
    for seconds, msgid in _UNIT_WORDS.items():
        if typed in every_word(msgid):
            return seconds
    return None


def read_duration(text: str) -> int | None:
    """Seconds from a duration typed in any language (see the module docstring), or None
    when the text is not one."""
    parts: list[tuple[Fraction, int | None]] = []  # (number, its unit or None)
    position = 0
    text = text.strip()
    if not text:
        return None
    joining = every_word(_JOINING_WORDS)
    while position < len(text):
        found = _PART.match(text, position)
        if found is None or found.end() == position:
            return None
        position = found.end()
        if found["number"] is not None:
            parts.append((Fraction(found["number"].replace(",", ".")), None))
        elif found["word"] is not None:
            if normal(found["word"]) in joining:
                continue
            unit = _unit_of(found["word"])
            if unit is None or not parts or parts[-1][1] is not None:
                return None  # a word that is no unit, or a unit without its number
            parts[-1] = (parts[-1][0], unit)
    if not parts:
        return None
    total = Fraction(0)
    used: set[int] = set()
    previous: int | None = None
    for number, unit in parts:
        if unit is None:
            if len(parts) == 1:
                unit = 1  # a bare number alone: seconds
            elif previous is not None and previous in _NEXT_SMALLER:
                unit = _NEXT_SMALLER[previous]
            else:
                return None
        if unit in used:
            return None
        used.add(unit)
        previous = unit
        total += number * unit
    return int(total) if total.denominator == 1 else None


def _unit(language: str, seconds: int, count: int) -> str:
    if seconds == 86400:
        return translate_plural(language, "duration.day", "duration.day.plural", count)
    if seconds == 3600:
        return translate_plural(language, "duration.hour", "duration.hour.plural", count)
    if seconds == 60:
        return translate_plural(language, "duration.minute", "duration.minute.plural", count)
    return translate_plural(language, "duration.second", "duration.second.plural", count)


def write_duration(language: str, seconds: int) -> str:
    """``seconds`` written for a reader of ``language``: "1 day", "1 h 30 min", "1 Tag"."""
    parts = []
    rest = seconds
    for unit in (86400, 3600, 60, 1):
        count, rest = divmod(rest, unit)
        if count:
            parts.append(_unit(language, unit, count))
    return " ".join(parts) if parts else _unit(language, 1, 0)
