"""Seasons as members read them: a season's name ("November 2026", "Q4 2026"; "4. Quartal
2026") and what ``/leaderboard season:`` offers while it is typed (the current season, then
the past ones, the latest first)."""

from __future__ import annotations

from discord import app_commands

from i18n import LANGUAGES, month_text, translate
from matchcore.service.season_calendar import Season, season_of_key
from matchcore.service.seasons import SeasonInfo

LIMIT = 25  # suggestions Discord shows


def season_name(language: str, season: Season) -> str:
    """ "November 2026" for a month, "Q4 2026" for a quarter."""
    if season.kind == "monthly":
        return month_text(language, season.year, season.number)
    return translate(language, "bot.season.quarter", number=season.number, year=season.year)


def named_key(language: str, key: str) -> str:
    """A season key's name (the key itself when it names no season)."""
    season = season_of_key(key)
    return key if season is None else season_name(language, season)


def season_choices(
    language: str, seasons: list[SeasonInfo], typed: str
) -> list[app_commands.Choice[str]]:
    """The seasons whose name or key holds what was typed, marked current or final."""
    wanted = typed.strip().casefold()
    found = []
    for info in seasons:
        name = season_name(language, info.season)
        if wanted and wanted not in name.casefold() and wanted not in info.season.key.casefold():
            continue
        if info.current:
            name = translate(language, "bot.season.current", season=name)
        elif info.closed:
            name = translate(language, "bot.season.final", season=name)
        found.append(app_commands.Choice(name=name[:100], value=info.season.key))
    return found[:LIMIT]


def typed_key(typed: str, seasons: list[SeasonInfo]) -> str:
    """The key of the season whose key or name (in any language) was typed; what was typed
    when none matches (the service then says there is no such season)."""
    wanted = typed.strip().casefold()
    for info in seasons:
        names = {season_name(language, info.season).casefold() for language in LANGUAGES}
        if wanted == info.season.key.casefold() or wanted in names:
            return info.season.key
    return typed.strip()
