"""How a profile reads, in the reader's language: its lines and its graph's worded view.

Pure functions of the service's :class:`matchcore.service.profiles.Profile` and the names
already looked up; the picture is drawn from the :class:`render.rating_graph.GraphView`
made here.
"""

from __future__ import annotations

from collections.abc import Mapping

from bot.common.games import game_title
from bot.common.match_lines import rating
from bot.common.record_words import (
    by_places,
    games_count,
    last_place,
    level_name,
    places_record,
    record,
    streak,
)
from bot.common.time_words import pool_words
from i18n import date_text, translate
from matchcore.service.profiles import Opponent, Profile, ProfileGame
from matchcore.service.results import PlayerStats
from render.rating_graph import GraphPanel, GraphView

MESSAGE_LIMIT = 2000  # characters of a Discord message


def game_heading(language: str, entry: ProfileGame) -> str:
    """ "Lefe · daily"."""
    return f"{game_title(entry.stats.game)} · {pool_words(language, entry.stats.pool)}"


def _against(language: str, met: Opponent) -> str:
    """A record against one opponent: wins, losses and draws; at a table of more than two
    sides, how often ahead, behind and level."""
    if by_places(met.game):
        return translate(
            language,
            "bot.profile.ahead_record",
            games=games_count(language, met.games),
            ahead=met.wins,
            behind=met.losses,
            level=met.draws,
        )
    return record(language, met)


def _runs(language: str, stats: PlayerStats) -> str:
    """The runs after the record: board games the current and the best run of wins;
    Leiff the last place and the best run of first places."""
    if not by_places(stats.game):
        return streak(language, stats)
    text = last_place(language, stats)
    if stats.best_streak > 1:
        best = translate(language, "bot.stats.best_run", count=stats.best_streak)
        text = f"{text}, {best}" if text else f"; {best}"
    return text


def game_lines(
    language: str, entry: ProfileGame, names: Mapping[int, str], viewer: str | None
) -> list[str]:
    """A game and pool of the profile: the rating and record, then the favourite
    opponent and the head-to-head with the member who asked (``viewer``, their name)."""
    stats = entry.stats
    lines = [
        translate(
            language,
            "bot.profile.game",
            game=game_heading(language, entry),
            rating=rating(stats.rating, stats.provisional),
            record=places_record(language, stats)
            if by_places(stats.game)
            else record(language, stats),
            streak=_runs(language, stats),
        )
    ]
    if entry.favourite is not None:
        lines.append(
            translate(
                language,
                "bot.profile.favourite",
                name=names.get(entry.favourite.opponent_id, "?"),
                record=_against(language, entry.favourite),
            )
        )
    if entry.versus_viewer is not None and viewer is not None:
        lines.append(
            translate(
                language,
                "bot.profile.versus",
                name=viewer,
                record=_against(language, entry.versus_viewer),
            )
        )
    return lines


def profile_lines(
    language: str, profile: Profile, name: str, names: Mapping[int, str], viewer: str | None
) -> list[str]:
    """The whole profile as lines: the title, each game and pool, the bot's levels beaten."""
    lines = [translate(language, "bot.profile.title", name=name)]
    for entry in profile.games:
        lines.extend(game_lines(language, entry, names, viewer))
    if not profile.games:
        lines.append(translate(language, "bot.profile.none", name=name))
    if profile.levels_beaten:
        beaten = [
            translate(
                language,
                "bot.profile.levels_of_game",
                game=game_title(game),
                levels=", ".join(level_name(language, level) for level in levels),
            )
            for game, levels in profile.levels_beaten
        ]
        lines.append(translate(language, "bot.profile.levels_beaten", games="; ".join(beaten)))
    return within_limit(lines)


def within_limit(lines: list[str]) -> list[str]:
    """The lines that fit one message (the first ones; a profile rarely comes near)."""
    kept: list[str] = []
    size = 0
    for line in lines:
        size += len(line) + 1
        if size > MESSAGE_LIMIT:
            break
        kept.append(line)
    return kept


def graph_view(language: str, profile: Profile, name: str) -> GraphView | None:
    """The rating graphs' worded view (None: no rated game, so no picture)."""
    panels = []
    for entry in profile.games:
        points = entry.points
        panels.append(
            GraphPanel(
                title=game_heading(language, entry),
                rating=rating(entry.stats.rating, entry.stats.provisional),
                points=points,
                start=date_text(language, points[0][0]) if points else "",
                end=date_text(language, points[-1][0]) if points else "",
                note=translate(language, "bot.profile.graph_begins"),
            )
        )
    if not panels:
        return None
    return GraphView(translate(language, "bot.profile.graph_title", name=name), tuple(panels))
