"""How records and ratings read in the reader's language: the leaderboard, a member's statistics
and profile (shared by the information and profile features)."""

from __future__ import annotations

from bot.common.match_lines import rating
from engine import get_spec
from i18n import N_, ordinal, translate, translate_plural
from matchcore.service.profiles import Opponent
from matchcore.service.results import LeaderboardRow, PlayerStats, VsBotStats

# the bot's levels as words (a test checks that every engine level has one)
LEVEL_IDS = {
    "beginner": N_("bot.level.beginner"),
    "easy": N_("bot.level.easy"),
    "normal": N_("bot.level.normal"),
    "hard": N_("bot.level.hard"),
    "master": N_("bot.level.master"),
}


def level_name(language: str, level: str) -> str:
    msgid = LEVEL_IDS.get(level)
    return translate(language, msgid) if msgid else level


def games_count(language: str, count: int) -> str:
    return translate_plural(language, "bot.stats.games", "bot.stats.games.plural", count)


def record(language: str, row: LeaderboardRow | PlayerStats | VsBotStats | Opponent) -> str:
    """ "3 games: 1W 2L 0D" ("3 Partien: 1S 2N 0R")."""
    return translate(
        language,
        "bot.stats.record",
        games=games_count(language, row.games),
        wins=row.wins,
        losses=row.losses,
        draws=row.draws,
    )


def streak(language: str, row: PlayerStats) -> str:
    """The current run and the best run of wins, in words ("" when there is nothing to say)."""
    parts = []
    if row.streak > 0:
        parts.append(
            translate_plural(
                language, "bot.stats.won_last", "bot.stats.won_last.plural", row.streak
            )
        )
    elif row.streak < 0:
        lost = -row.streak
        parts.append(
            translate_plural(language, "bot.stats.lost_last", "bot.stats.lost_last.plural", lost)
        )
    if row.best_streak > 1:
        parts.append(translate(language, "bot.stats.best_run", count=row.best_streak))
    return "; " + ", ".join(parts) if parts else ""


def by_places(game: str) -> bool:
    """Whether a game's record is told in places ("2nd of 4"), not wins and losses: a game
    of more than two sides (Leiff), where finishing second is no loss."""
    return get_spec(game).players[1] > 2


def places_record(language: str, row: LeaderboardRow | PlayerStats) -> str:
    """ "3 games: 2× 1st, 1× 3rd" ("3 Partien: 2× 1. Platz, 1× 3. Platz"); only the number
    of games while no place is known (a rating kept from games whose places nobody could
    derive)."""
    if not row.places:
        return games_count(language, row.games)
    counts = [
        translate(language, "bot.stats.place_count", count=count, place=ordinal(language, place))
        for place, count in row.places
    ]
    return translate(
        language,
        "bot.stats.places_record",
        games=games_count(language, row.games),
        places=translate(language, "list.comma").join(counts),
    )


def last_place(language: str, row: PlayerStats) -> str:
    """Where they finished last time ("" when not known), said where a board game's record
    says its run of wins or losses: "; finished 2nd of 4 in the last game"."""
    if row.last_place is None:
        return ""
    place, field = row.last_place
    return "; " + translate(
        language, "bot.stats.last_place", place=ordinal(language, place), field=field
    )


def wins_record(language: str, row: VsBotStats) -> str:
    """ "3 games, 1 won" ("3 Partien, davon 1 gewonnen"): a record against the bot in a game
    told in places, which the record against the bot does not keep."""
    return translate(
        language, "bot.stats.wins_record", games=games_count(language, row.games), wins=row.wins
    )


def leaderboard_row(language: str, game: str, row: LeaderboardRow, name: str) -> str:
    """One line of a leaderboard (``/leaderboard`` and a season's final post): the rank, the
    name, the rating and the record, in places for a game scored by places (Leiff)."""
    return translate(
        language,
        "bot.leaderboard.row",
        rank=row.rank,
        name=name,
        rating=rating(row.rating, row.provisional),
        record=places_record(language, row) if by_places(game) else record(language, row),
    )
