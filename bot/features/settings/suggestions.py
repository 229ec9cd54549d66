"""What ``/settings value:`` offers while the admin types: the values of the setting chosen
in ``key`` (the Discord layer reads it from ``interaction.namespace``), written in the
admin's language, the current one marked.

Each suggestion is a (name, value) pair: the name is what the admin reads, the value what
Discord sends when it is picked; every value is text that
:func:`bot.features.settings.values.read_value` reads as the value named. Within Discord's limits: at most 25 suggestions,
names and values of at most 100 characters.
"""

from __future__ import annotations

from collections.abc import Sequence

from bot.features.settings.values import (
    ALL_CHANNELS,
    NO_ROLE,
    SEASON_TEXT_IDS,
    THEME_TEXT_IDS,
    season_kind_name,
    theme_name,
    write_value,
)
from i18n import LANGUAGES, translate
from i18n.typed import OFF, ON, every_word, normal, read_duration, shown
from matchcore.service.guild_settings import (
    COUNTS,
    DURATIONS,
    LEIFF_TARGETS,
    SWITCHES,
    GuildSettings,
)

LIMIT = 25  # suggestions Discord shows
TEXT_LIMIT = 100  # characters of a suggestion's name and of its value

# times offered before anything is typed (those within the setting's range)
PRESET_SECONDS = (
    15,
    30,
    60,
    2 * 60,
    5 * 60,
    10 * 60,
    15 * 60,
    30 * 60,
    3600,
    2 * 3600,
    6 * 3600,
    12 * 3600,
    86400,
    2 * 86400,
    3 * 86400,
    7 * 86400,
    14 * 86400,
)
# a bare number typed for a time is offered in these units too ("2": 2 min, 2 h, 2 days)
BARE_NUMBER_UNITS = (1, 60, 3600, 86400)

Suggestion = tuple[str, str]  # (name, value)
Channels = Sequence[tuple[str, int]]  # the server's channels: (name, id)


def suggestions(
    language: str,
    key: str | None,
    typed: str,
    settings: GuildSettings,
    channels: Channels = (),
    here: int | None = None,
    roles: Channels = (),
) -> list[Suggestion]:
    """The values of ``key`` that fit what was typed, the current one marked; nothing
    before a setting is chosen. ``channels`` and ``here`` (the channel the admin types in)
    are for ``allowed_channels``, ``roles`` (name, id) for ``tournament_role``."""
    if key is None or not hasattr(settings, key):
        return []
    current = getattr(settings, key)
    if key in SWITCHES:
        found = switch_suggestions(language, typed)
    elif key in DURATIONS:
        found = _durations(language, key, typed, current)
    elif key in COUNTS:
        found = _counts(key, typed)
    elif key == "leiff_target":
        found = [(str(t), str(t)) for t in LEIFF_TARGETS if str(t).startswith(typed.strip())]
    elif key == "theme":
        found = theme_suggestions(language, typed)
    elif key == "season":
        found = [
            (season_kind_name(language, kind), kind)
            for kind, msgid in SEASON_TEXT_IDS.items()
            if _starts(typed, {kind, *(normal(translate(lang, msgid)) for lang in LANGUAGES)})
        ]
    elif key in ("allowed_channels", "puzzle_channel", "season_channel"):
        found = _channels(language, typed, channels, here)
    elif key == "tournament_role":
        found = _roles(language, typed, roles)
    else:
        found = []
    return within_limits(language, found, write_value(language, key, current))


def within_limits(language: str, found: list[Suggestion], current: str | None) -> list[Suggestion]:
    """The first suggestions Discord shows, the one named ``current`` marked as such."""
    result = []
    for name, value in found[:LIMIT]:
        if name == current:
            name = translate(language, "bot.settings.current", value=name)
        if len(value) <= TEXT_LIMIT:
            result.append((_cut(name), value))
    return result


def _cut(text: str) -> str:
    return text if len(text) <= TEXT_LIMIT else text[: TEXT_LIMIT - 1] + "…"


def _starts(typed: str, words: set[str] | frozenset[str]) -> bool:
    wanted = normal(typed)
    return any(word.startswith(wanted) for word in words)


def switch_suggestions(language: str, typed: str) -> list[Suggestion]:
    """On and off in the reader's words, if what was typed begins a word of either (in any
    language)."""
    return [
        (shown(language, meaning), value)
        for meaning, value in ((ON, "on"), (OFF, "off"))
        if _starts(typed, every_word(meaning))
    ]


def _durations(language: str, key: str, typed: str, current: int) -> list[Suggestion]:
    low, high = DURATIONS[key]
    text = typed.strip()
    if text.isdigit():
        # a bare number counts seconds; it is offered in the other units too (once: "0"
        # is 0 s in every unit)
        seconds = list(dict.fromkeys(int(text) * unit for unit in BARE_NUMBER_UNITS))
    elif text and read_duration(text) is not None:
        seconds = [read_duration(text) or 0]
    else:
        presets = sorted({*PRESET_SECONDS, current})
        seconds = [
            s for s in presets if normal(write_value(language, key, s)).startswith(normal(text))
        ] or presets
    return [(write_value(language, key, s), str(s)) for s in seconds if low <= s <= high]


def _counts(key: str, typed: str) -> list[Suggestion]:
    low, high = COUNTS[key]
    text = typed.strip()
    return [(str(n), str(n)) for n in range(low, high + 1) if str(n).startswith(text)]


def theme_suggestions(language: str, typed: str) -> list[Suggestion]:
    """The themes by their names in the reader's language, if what was typed begins one of
    their names (in any language) or ids."""
    return [
        (theme_name(language, theme), theme)
        for theme, msgid in THEME_TEXT_IDS.items()
        if _starts(typed, {theme, *(normal(translate(lang, msgid)) for lang in LANGUAGES)})
    ]


def _roles(language: str, typed: str, roles: Channels) -> list[Suggestion]:
    """None (Manage Server alone), then the server's roles whose name holds what is typed."""
    wanted = normal(typed).lstrip("@")
    none = write_value(language, "tournament_role", 0)
    found: list[Suggestion] = []
    if _starts(typed, every_word(NO_ROLE) | {normal(none)}) or not wanted:
        found.append((none, shown(language, NO_ROLE)))
    for name, role in sorted(roles, key=lambda r: r[0].casefold()):
        if wanted in name.casefold():
            found.append((f"@{name}", f"<@&{role}>"))
    return found


def _channels(language: str, typed: str, channels: Channels, here: int | None) -> list[Suggestion]:
    """Every channel; this channel; the server's channels whose name holds what is typed
    after the last comma (those before it are kept: several channels are allowed)."""
    before, _, last = typed.rpartition(",")
    kept = f"{before.strip()}, " if before.strip() else ""
    wanted = normal(last).lstrip("#")
    found: list[Suggestion] = []
    every_channel = write_value(language, "allowed_channels", [])
    if not kept and _starts(last, every_word(ALL_CHANNELS) | {normal(every_channel)}):
        found.append((every_channel, shown(language, ALL_CHANNELS)))
    ordered = sorted(channels, key=lambda c: (c[1] != here, c[0].casefold()))
    for name, channel in ordered:
        if wanted in name.casefold():
            found.append((f"{kept}#{name}", f"{kept}<#{channel}>"))
    return found
