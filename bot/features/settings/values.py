"""Server settings as an admin types and reads them, in either language.

The service takes and gives the values themselves (``True``, ``86400``, ``"night"``,
channel ids: :mod:`matchcore.service.guild_settings` says which setting holds which kind). This
module is the edge's half:

- :func:`read_value`: what the admin typed into ``/settings value:`` read as that value, in
  the words of any supported language whatever the admin's own (:mod:`i18n.typed`: "an",
  "on", "1 Tag", "2 h", "Nacht", "night", ``#spiele``); a refusal names only what the admin
  can type, in their language;
- :func:`switch_from`, :func:`theme_from`: the same reading of on/off and of a theme, for
  ``/prefs`` too;
- :func:`refusal`: the service's refusal of a value (out of range) in the same words;
- :func:`write_value` and :func:`describe`: values and the list of settings as the reader's
  language writes them ("1 day (allowed: 1 min to 14 days)", "1 Tag (erlaubt: 1 Min. bis
  14 Tage)"); what is written can be typed back.

Each setting has a name of its own in every language (:data:`SETTING_TEXT_IDS`, the
choices of ``/settings key``); the stored key never changes.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from bot.common.errors import UserFacingError
from bot.common.languages import LANGUAGE_NAMES
from bot.common.names import excerpt
from i18n import LANGUAGES, N_, translate
from i18n.typed import (
    every_word,
    normal,
    read_duration,
    read_switch,
    write_duration,
    write_switch,
)
from matchcore.service import InvalidSettings
from matchcore.service.guild_settings import (
    COUNTS,
    DURATIONS,
    LEIFF_TARGETS,
    SWITCHES,
    GuildSettings,
)
from render.themes import list_themes

# each setting key with the message id of its name (as /settings lists and offers it)
SETTING_TEXT_IDS = {
    "leiff_drinking": N_("command.settings.key.leiff_drinking"),
    "leiff_water": N_("command.settings.key.leiff_water"),
    "leiff_specials": N_("command.settings.key.leiff_specials"),
    "leiff_target": N_("command.settings.key.leiff_target"),
    "leiff_teams_allowed": N_("command.settings.key.leiff_teams_allowed"),
    "daily_takebacks": N_("command.settings.key.daily_takebacks"),
    "match_threads": N_("command.settings.key.match_threads"),
    "board_move_seconds": N_("command.settings.key.board_move_seconds"),
    "leiff_turn_seconds": N_("command.settings.key.leiff_turn_seconds"),
    "leiff_choice_seconds": N_("command.settings.key.leiff_choice_seconds"),
    "leiff_max_timeouts": N_("command.settings.key.leiff_max_timeouts"),
    "challenge_expiry_seconds": N_("command.settings.key.challenge_expiry_seconds"),
    "challenge_cooldown_seconds": N_("command.settings.key.challenge_cooldown_seconds"),
    "max_matches_per_user": N_("command.settings.key.max_matches_per_user"),
    "vacation_days": N_("command.settings.key.vacation_days"),
    "allowed_channels": N_("command.settings.key.allowed_channels"),
    "theme": N_("command.settings.key.theme"),
    "puzzle_channel": N_("command.settings.key.puzzle_channel"),
    "season": N_("command.settings.key.season"),
    "season_channel": N_("command.settings.key.season_channel"),
    "tournament_role": N_("command.settings.key.tournament_role"),
}

# each theme's name (in /settings and in /prefs)
THEME_TEXT_IDS = {
    "classic": N_("bot.theme.classic"),
    "night": N_("bot.theme.night"),
    "paper": N_("bot.theme.paper"),
}

# each kind of season's name (matchcore.service.season_calendar.SEASON_KINDS)
SEASON_TEXT_IDS = {
    "none": N_("bot.season_kind.none"),
    "monthly": N_("bot.season_kind.monthly"),
    "quarterly": N_("bot.season_kind.quarterly"),
}

# the words for "every channel" (no restriction) in allowed_channels
ALL_CHANNELS = N_("typed.all_channels")
# the words for "no role" (Manage Server alone) in tournament_role
NO_ROLE = N_("typed.no_role")

ChannelNames = Mapping[str, int]  # a server's channels: name (as typed) → id


def setting_name(language: str, key: str) -> str:
    return translate(language, SETTING_TEXT_IDS[key])


def theme_name(language: str, theme: str) -> str:
    return translate(language, THEME_TEXT_IDS[theme])


def season_kind_name(language: str, kind: str) -> str:
    return translate(language, SEASON_TEXT_IDS[kind])


def _named(typed: str, ids: Mapping[str, str]) -> str | None:
    """The id whose id or name in any language was typed."""
    wanted = normal(typed)
    for value, msgid in ids.items():
        if wanted == value or wanted in {normal(translate(lang, msgid)) for lang in LANGUAGES}:
            return value
    return None


def read_theme(typed: str) -> str | None:
    """A theme's id from its id or its name in any language ("Nacht", "night")."""
    return _named(typed, THEME_TEXT_IDS)


def _or(language: str, items: Sequence[str]) -> str:
    """ "a, b or c" in ``language``."""
    if len(items) == 1:
        return items[0]
    return translate(language, "list.or", left=", ".join(items[:-1]), right=items[-1])


def choice_words(language: str, key: str) -> list[str]:
    """The values a choice setting takes, as the reader's language writes them."""
    if key == "theme":
        return [theme_name(language, theme) for theme in list_themes()]
    if key == "season":
        return [season_kind_name(language, kind) for kind in SEASON_TEXT_IDS]
    assert key == "leiff_target", key
    return [str(value) for value in LEIFF_TARGETS]


def allowed_range(language: str, key: str) -> str:
    """ "1 min to 14 days" / "1 Min. bis 14 Tage"; "1 to 10" for a count."""
    low, high = DURATIONS.get(key) or COUNTS[key]
    return translate(
        language,
        "bot.settings.range",
        low=write_value(language, key, low),
        high=write_value(language, key, high),
    )


def write_value(language: str, key: str, value: object) -> str:
    """A value as the reader's language writes it (and as it can be typed back)."""
    if key in SWITCHES:
        return write_switch(language, bool(value))
    if key in DURATIONS:
        assert isinstance(value, int)
        return write_duration(language, value)
    if key == "theme":
        return theme_name(language, str(value))
    if key == "season":
        return season_kind_name(language, str(value))
    if key == "puzzle_channel":
        return f"<#{value}>" if value else translate(language, "bot.settings.no_puzzle_channel")
    if key == "season_channel":
        return f"<#{value}>" if value else translate(language, "bot.settings.no_season_channel")
    if key == "tournament_role":
        return f"<@&{value}>" if value else translate(language, "bot.settings.no_tournament_role")
    if key == "allowed_channels":
        channels = list(value) if isinstance(value, list | tuple) else []
        if not channels:
            return translate(language, "bot.settings.all_channels")
        return ", ".join(f"<#{channel}>" for channel in channels)
    return str(value)


def read_value(
    language: str,
    key: str,
    typed: str,
    channels: ChannelNames | None = None,
    roles: ChannelNames | None = None,
) -> bool | int | str | list[int]:
    """What the admin typed for ``key``, as the value the service takes; a refusal (in
    ``language``) names the values the admin can type. ``channels``: the server's channels
    by name, for ``allowed_channels`` given by name; ``roles`` its roles by name, for
    ``tournament_role``."""
    name = setting_name(language, key)
    quoted = excerpt(typed)
    if key in SWITCHES:
        return switch_from(language, name, typed)
    if key in DURATIONS:
        seconds = read_duration(typed)
        if seconds is None:
            example = write_value(language, key, getattr(GuildSettings(), key))
            raise UserFacingError(
                "bot.settings.error.duration",
                name=name,
                example=example,
                range=allowed_range(language, key),
                typed=quoted,
            )
        return seconds
    if key in COUNTS:
        text = typed.strip()
        if not text.isdigit():
            raise UserFacingError(
                "bot.settings.error.count",
                name=name,
                range=allowed_range(language, key),
                typed=quoted,
            )
        return int(text)
    if key == "theme":
        return theme_from(language, name, typed)
    if key == "season":
        kind = _named(typed, SEASON_TEXT_IDS)
        if kind is None:
            raise UserFacingError(
                "bot.settings.error.choice",
                name=name,
                choices=_or(language, choice_words(language, key)),
                typed=quoted,
            )
        return kind
    if key == "leiff_target":
        text = normal(typed)
        if text.isdigit() and int(text) in LEIFF_TARGETS:
            return int(text)
        raise UserFacingError(
            "bot.settings.error.choice",
            name=name,
            choices=_or(language, choice_words(language, key)),
            typed=quoted,
        )
    if key == "allowed_channels":
        return _read_channels(language, typed, channels or {})
    if key in ("puzzle_channel", "season_channel"):
        # one channel, or "all"/"none" in any language: no daily puzzle (season post)
        chosen = _read_channels(language, typed, channels or {})
        return chosen[0] if chosen else 0
    if key == "tournament_role":
        return _read_role(language, typed, roles or {})
    raise UserFacingError("bot.settings.error.no_key")


def _read_role(language: str, typed: str, roles: ChannelNames) -> int:
    """A role as a mention (what Discord inserts for ``@``), an id or a name; "no role"
    (in any language) for Manage Server alone."""
    if normal(typed) in every_word(NO_ROLE):
        return 0
    bare = typed.strip().removeprefix("<@&").removesuffix(">").lstrip("@").strip()
    if bare.isdigit():
        return int(bare)
    if bare.casefold() in roles:
        return roles[bare.casefold()]
    raise UserFacingError(
        "bot.settings.error.role",
        name=setting_name(language, "tournament_role"),
        none=translate(language, "bot.settings.no_tournament_role"),
        typed=excerpt(typed),
    )


def switch_from(language: str, name: str, typed: str) -> bool:
    """On or off from what was typed for the switch called ``name`` (any language's words);
    the refusal names the reader's two words."""
    switch = read_switch(typed)
    if switch is None:
        raise UserFacingError(
            "bot.settings.error.switch",
            name=name,
            on=write_switch(language, True),
            off=write_switch(language, False),
            typed=excerpt(typed),
        )
    return switch


def theme_from(language: str, name: str, typed: str) -> str:
    """A theme's id from what was typed for ``name`` (its id or its name in any language);
    the refusal names the themes as the reader's language calls them."""
    theme = read_theme(typed)
    if theme is None:
        raise UserFacingError(
            "bot.settings.error.choice",
            name=name,
            choices=_or(language, choice_words(language, "theme")),
            typed=excerpt(typed),
        )
    return theme


def _read_channels(language: str, typed: str, channels: ChannelNames) -> list[int]:
    """Channels as mentions (what Discord inserts for ``#``), ids or names, separated by
    commas or spaces; "all" (or "none", as before: no restriction) in any language."""
    if normal(typed) in every_word(ALL_CHANNELS):
        return []
    found = []
    for token in typed.replace(",", " ").split():
        bare = token.removeprefix("<#").removesuffix(">").lstrip("#")
        if bare.isdigit():
            found.append(int(bare))
        elif bare.casefold() in channels:
            found.append(channels[bare.casefold()])
        else:
            raise UserFacingError(
                "bot.settings.error.channels",
                name=setting_name(language, "allowed_channels"),
                all=translate(language, "bot.settings.all_channels"),
                typed=excerpt(token),
            )
    return found


def refusal(language: str, key: str, error: InvalidSettings) -> UserFacingError | None:
    """The service's refusal of a value read from the admin's text, in their words (the
    value out of range), or None when it is not about one value of ``key``."""
    if error.code == "setting_range" and error.params.get("key") == key:
        return UserFacingError(
            "bot.settings.error.range",
            name=setting_name(language, key),
            value=write_value(language, key, error.params["value"]),
            range=allowed_range(language, key),
        )
    return None


def describe(language: str, settings: GuildSettings, server_default: str) -> list[str]:
    """One line per setting, in ``language``: its name, its value and, for a time or a
    count, the values allowed; first the language of channel messages (``server_default``:
    the one the server's Discord locale gives)."""
    if settings.language:
        chosen = LANGUAGE_NAMES.get(settings.language, settings.language)
    else:
        chosen = translate(
            language, "bot.settings.language.auto", name=LANGUAGE_NAMES[server_default]
        )
    lines = [translate(language, "bot.settings.language", value=chosen)]
    for key in SETTING_TEXT_IDS:
        lines.append(setting_line(language, settings, key))
    return lines


def setting_line(language: str, settings: GuildSettings, key: str) -> str:
    """ "Board games: time per move: **1 day** (allowed: 1 min to 14 days)"."""
    shown = write_value(language, key, getattr(settings, key))
    if key in DURATIONS or key in COUNTS:
        return translate(
            language,
            "bot.settings.line_range",
            name=setting_name(language, key),
            value=shown,
            range=allowed_range(language, key),
        )
    return translate(language, "bot.settings.line", name=setting_name(language, key), value=shown)
