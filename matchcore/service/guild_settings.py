"""Per-server settings: their keys, defaults and validation, all in this one place.

Stored as a JSON object per server; unknown keys in storage are ignored (a key dropped by a
later version) and missing keys take their defaults (a key added by a later version).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import asdict, dataclass, field, fields, replace
from typing import Any

from matchcore.service.arguments import MAX_SNOWFLAKE
from matchcore.service.errors import InvalidSettings
from matchcore.service.season_calendar import SEASON_KINDS

# The theme of a server that chose none (its pictures' colours; a front end that draws
# pictures offers it among its :attr:`Choices.themes`).
DEFAULT_THEME = "classic"


@dataclass(frozen=True)
class Choices:
    """The theme and language ids the service accepts in settings and preferences.

    The core draws no picture and keeps no catalogue, so it does not know which themes and
    languages exist: the front end that starts it says which it can serve (the Discord
    layer: the renderer's themes and the catalogues' languages). Ids only, never words.
    """

    themes: tuple[str, ...]
    languages: tuple[str, ...]

    def __post_init__(self) -> None:
        if DEFAULT_THEME not in self.themes:
            raise ValueError(f"the themes {self.themes!r} lack the default {DEFAULT_THEME!r}")
        if not self.languages:
            raise ValueError("no language to choose from")


# What kind of value each setting holds. The service takes and gives the values themselves
# (True, 86400, "night"); reading what a member typed ("an", "1 Tag", "Nacht") and writing
# values for a reader is the edges' work (bot/features/settings/values.py).
# On/off settings (what each means: docs/service.md, and the Discord layer's catalogue).
SWITCHES = (
    "leiff_drinking",
    "leiff_water",
    "leiff_specials",
    "leiff_teams_allowed",
    "daily_takebacks",
    "match_threads",
)
# Times, in seconds, each with the lowest and highest allowed.
DURATIONS = {
    "board_move_seconds": (60, 14 * 86400),
    "leiff_turn_seconds": (15, 86400),
    "leiff_choice_seconds": (15, 86400),
    "challenge_expiry_seconds": (60, 7 * 86400),
    "challenge_cooldown_seconds": (0, 3600),
}
# Counts, each with the lowest and highest allowed.
COUNTS = {
    "leiff_max_timeouts": (1, 10),
    "max_matches_per_user": (1, 50),
    "vacation_days": (0, 365),
}
LEIFF_TARGETS = (50, 100)
# Settings that take one of a few values (ids, not words): the Leiff targets above, and a
# theme of :attr:`Choices.themes`.
CHOICES = ("leiff_target", "theme", "season")
_LIMITS = {**DURATIONS, **COUNTS}


@dataclass(frozen=True)
class GuildSettings:
    """One server's settings (defaults for a server that never changed anything)."""

    leiff_drinking: bool = False
    leiff_water: bool = False
    leiff_specials: bool = False
    leiff_target: int = 50
    leiff_teams_allowed: bool = True
    board_move_seconds: int = 86400
    leiff_turn_seconds: int = 300
    leiff_choice_seconds: int = 120
    leiff_max_timeouts: int = 3
    challenge_expiry_seconds: int = 900
    challenge_cooldown_seconds: int = 30
    max_matches_per_user: int = 5
    # days a year a member's daily clocks may stop for their vacation (/prefs vacation)
    vacation_days: int = 14
    # whether a rated daily board match may take a move back (the opponent agreeing)
    daily_takebacks: bool = False
    # whether each match plays in a thread of its own under its channel
    match_threads: bool = False
    allowed_channels: tuple[int, ...] = field(default_factory=tuple)
    # the colours of the pictures in the server's channels (members may choose their own
    # for the pictures only they see, with /prefs)
    theme: str = DEFAULT_THEME
    # the language of channel messages ("en", "de"); "" follows the server's Discord locale
    language: str = ""
    # the channel of the daily puzzle (0: none)
    puzzle_channel: int = 0
    # the leaderboards' seasons: "none", "monthly" or "quarterly" (season_calendar.py)
    season: str = "none"
    # the channel where a season's final standings are posted when it ends (0: none)
    season_channel: int = 0
    # the role whose members manage tournaments besides Manage Server (0: none)
    tournament_role: int = 0

    @classmethod
    def all_keys(cls) -> tuple[str, ...]:
        return tuple(f.name for f in fields(cls))

    @classmethod
    def from_stored(cls, data: Mapping[str, Any] | None, choices: Choices) -> GuildSettings:
        """Settings from stored JSON, keeping only known keys that are still valid."""
        settings = cls()
        for key, value in (data or {}).items():
            if key in cls.all_keys():
                try:
                    settings = replace(settings, **{key: validate_value(key, value, choices)})
                except InvalidSettings:
                    continue  # a value stored under older limits falls back to the default
        return settings

    def to_stored(self) -> dict[str, Any]:
        data = asdict(self)
        data["allowed_channels"] = list(self.allowed_channels)
        return data

    def with_changes(self, changes: Mapping[str, Any], choices: Choices) -> GuildSettings:
        """A copy with ``changes`` applied; every change is checked before any is applied."""
        if not changes:
            raise InvalidSettings("no_settings_given")
        checked = {key: validate_value(key, value, choices) for key, value in changes.items()}
        return replace(self, **checked)

    def allows_channel(self, channel_id: int, parent_id: int | None = None) -> bool:
        if not self.allowed_channels:
            return True
        return channel_id in self.allowed_channels or (
            parent_id is not None and parent_id in self.allowed_channels
        )

    def leiff_options(self) -> dict[str, Any]:
        """The Leiff engine options this server imposes (a lobby may pick target and teams)."""
        return {
            "target": self.leiff_target,
            "specials": self.leiff_specials,
            "drinking": self.leiff_drinking,
            "water": self.leiff_water,
            "teams": False,
        }

    def describe(self) -> list[tuple[str, object]]:
        """Every setting with its value, in order (the Discord layer words them)."""
        return [(key, getattr(self, key)) for key in self.all_keys()]


def _as_bool(key: str, value: Any) -> bool:
    if isinstance(value, bool):
        return value
    raise InvalidSettings("setting_on_off", key=key, value=repr(value))


def _as_int(key: str, value: Any) -> int:
    if isinstance(value, int) and not isinstance(value, bool):
        return value
    raise InvalidSettings("setting_whole_number", key=key, value=repr(value))


def validate_value(key: str, value: Any, choices: Choices) -> Any:
    """The checked value for ``key`` (True, 86400, "night"; not words a member typed: the
    edges read those), a theme or language one of ``choices``; :class:`InvalidSettings`
    names what is wrong."""
    if key in SWITCHES:
        return _as_bool(key, value)
    if key == "leiff_target":
        number = _as_int(key, value)
        if number not in LEIFF_TARGETS:
            raise InvalidSettings("setting_leiff_target", value=number)
        return number
    if key in _LIMITS:
        number = _as_int(key, value)
        low, high = _LIMITS[key]
        if not low <= number <= high:
            raise InvalidSettings("setting_range", key=key, low=low, high=high, value=number)
        return number
    if key == "allowed_channels":
        if isinstance(value, int):
            value = [value]
        if not isinstance(value, list | tuple | set | frozenset):
            raise InvalidSettings("channels_not_a_list")
        channels = sorted({_as_int(key, item) for item in value})
        if any(not 0 < channel <= MAX_SNOWFLAKE for channel in channels):
            raise InvalidSettings("channels_not_ids")
        if len(channels) > 50:
            raise InvalidSettings("channels_too_many")
        return tuple(channels)
    if key in ("puzzle_channel", "season_channel"):
        channel = _as_int(key, value)
        if not 0 <= channel <= MAX_SNOWFLAKE:
            raise InvalidSettings("channels_not_ids")
        return channel
    if key == "tournament_role":
        role = _as_int(key, value)
        if not 0 <= role <= MAX_SNOWFLAKE:
            raise InvalidSettings("role_not_an_id")
        return role
    if key == "theme":
        if not isinstance(value, str) or value.strip().lower() not in choices.themes:
            raise InvalidSettings(
                "setting_theme", themes=", ".join(choices.themes), value=repr(value)
            )
        return value.strip().lower()
    if key == "season":
        text = str(value).strip().lower()
        if text not in SEASON_KINDS:
            raise InvalidSettings("setting_season", kinds=", ".join(SEASON_KINDS))
        return text
    if key == "language":
        text = str(value).strip().lower()
        if text in ("", "auto"):
            return ""
        if text not in choices.languages:
            raise InvalidSettings("setting_language", languages=", ".join(choices.languages))
        return text
    known = ", ".join(GuildSettings.all_keys())
    raise InvalidSettings("unknown_setting", key=repr(key), known=known)
