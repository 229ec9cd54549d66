"""What Discord checks when commands are synced: names, descriptions, localisations.

A bulk overwrite (``PUT .../commands``) with a name Discord would not take, a description
too long, or a localisation for a locale Discord does not know, is refused with a 400 form
error, as Discord does, so a bot's German command names are checked by the same rules.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Mapping
from typing import Any

# The locales Discord accepts as keys of name_localizations / description_localizations.
DISCORD_LOCALES = frozenset(
    [
        "id",
        "da",
        "de",
        "en-GB",
        "en-US",
        "es-ES",
        "es-419",
        "fr",
        "hr",
        "it",
        "lt",
        "hu",
        "nl",
        "no",
        "pl",
        "pt-BR",
        "ro",
        "fi",
        "sv-SE",
        "vi",
        "tr",
        "cs",
        "el",
        "bg",
        "ru",
        "uk",
        "hi",
        "th",
        "zh-CN",
        "ja",
        "zh-TW",
        "ko",
    ]
)
CHAT_INPUT = 1
MAX_NAME, MAX_DESCRIPTION, MAX_CHOICE_NAME = 32, 100, 100
MAX_OPTIONS = MAX_CHOICES = 25


def _name_character_ok(ch: str) -> bool:
    """Discord's pattern ``^[-_'\\p{L}\\p{N}\\p{sc=Deva}\\p{sc=Thai}]{1,32}$``."""
    if ch in "-_'" or unicodedata.category(ch)[0] in "LN":
        return True
    return "\u0900" <= ch <= "\u097f" or "\u0e00" <= ch <= "\u0e7f"


def name_problem(name: object, *, lowercase: bool = True) -> str | None:
    """Why Discord would refuse a command or option name (None if it would take it)."""
    if not isinstance(name, str) or not 1 <= len(name) <= MAX_NAME:
        return f"Must be between 1 and {MAX_NAME} in length."
    if not all(_name_character_ok(ch) for ch in name):
        return "String value did not match validation regex."
    if lowercase and name != name.lower():
        return "Command name is invalid"  # chat-input names must be lower case
    return None


def _text_problem(text: object, limit: int) -> str | None:
    if not isinstance(text, str) or not 1 <= len(text) <= limit:
        return f"Must be between 1 and {limit} in length."
    return None


def _localisations(
    field: str, values: Mapping[str, Any] | None, check: Any
) -> tuple[str, str] | None:
    for locale, value in (values or {}).items():
        if locale not in DISCORD_LOCALES:
            return f"{field}.{locale}", "Not a valid locale."
        problem = check(value)
        if problem:
            return f"{field}.{locale}", problem
    return None


def command_problem(index: int, command: Mapping[str, Any]) -> tuple[str, str] | None:
    """(field, message) of the first thing Discord would refuse in one command, or None."""
    chat_input = command.get("type", CHAT_INPUT) == CHAT_INPUT
    where = str(index)

    def named(value: object) -> str | None:
        return name_problem(value, lowercase=chat_input)

    def described(value: object) -> str | None:
        return _text_problem(value, MAX_DESCRIPTION)

    problem = named(command.get("name"))
    if problem:
        return f"{where}.name", problem
    found = _localisations(f"{where}.name_localizations", command.get("name_localizations"), named)
    if found:
        return found
    if chat_input:
        problem = described(command.get("description"))
        if problem:
            return f"{where}.description", problem
        found = _localisations(
            f"{where}.description_localizations",
            command.get("description_localizations"),
            described,
        )
        if found:
            return found
    return _options_problem(f"{where}.options", command.get("options") or [], named, described)


def _options_problem(
    where: str, options: list[Mapping[str, Any]], named: Any, described: Any
) -> tuple[str, str] | None:
    if len(options) > MAX_OPTIONS:
        return where, f"Must be {MAX_OPTIONS} or fewer in length."
    seen: set[str] = set()
    for number, option in enumerate(options):
        at = f"{where}.{number}"
        problem = named(option.get("name"))
        if problem:
            return f"{at}.name", problem
        if option["name"] in seen:
            return f"{at}.name", "Option names must be unique"
        seen.add(option["name"])
        found = _localisations(f"{at}.name_localizations", option.get("name_localizations"), named)
        if found:
            return found
        problem = described(option.get("description"))
        if problem:
            return f"{at}.description", problem
        found = _localisations(
            f"{at}.description_localizations", option.get("description_localizations"), described
        )
        if found:
            return found
        choices = option.get("choices") or []
        if len(choices) > MAX_CHOICES:
            return f"{at}.choices", f"Must be {MAX_CHOICES} or fewer in length."
        for choice_number, choice in enumerate(choices):
            spot = f"{at}.choices.{choice_number}"

            def choice_name(value: object) -> str | None:
                return _text_problem(value, MAX_CHOICE_NAME)

            problem = choice_name(choice.get("name"))
            if problem:
                return f"{spot}.name", problem
            found = _localisations(
                f"{spot}.name_localizations", choice.get("name_localizations"), choice_name
            )
            if found:
                return found
        found = _options_problem(f"{at}.options", option.get("options") or [], named, described)
        if found:
            return found
    return None
