"""Plain records of rating history and seasons (issue 35): what the repository stores and
returns for ``/profile``'s rating graph and head-to-head, and for a server's seasons."""

from __future__ import annotations

from dataclasses import dataclass

from matchcore.storage.records import RatingRecord


@dataclass(frozen=True)
class RatingPoint:
    """A person's rating in one game and pool after a rated match: ``games`` counts that
    match (1: it was their first in the pool)."""

    match_id: int
    guild_id: int
    game: str
    user_id: int
    pool: str
    mu: float
    sigma: float
    games: int
    at: float


@dataclass(frozen=True)
class SeasonRating:
    """A person's rating in a season (``season`` a key of
    :mod:`matchcore.service.season_calendar`, ending at ``ends_at``)."""

    season: str
    ends_at: float
    rating: RatingRecord


@dataclass(frozen=True)
class SeasonRecord:
    """A season of a server that had a rated result; ``closed_at`` is None while its final
    standings are not yet kept."""

    guild_id: int
    season: str
    ends_at: float
    closed_at: float | None


@dataclass(frozen=True)
class SeasonStanding:
    """A place in a closed season's final standings of a game and pool."""

    guild_id: int
    season: str
    game: str
    pool: str
    rank: int
    user_id: int
    mu: float
    sigma: float
    games: int
    wins: int
    losses: int
    draws: int


@dataclass(frozen=True)
class OpponentRecord:
    """How a person fared against one opponent in a game and pool, over the rated matches
    they both played: ahead of them (``wins``), behind (``losses``) or level (``draws``)."""

    game: str
    pool: str
    opponent_id: int
    games: int
    wins: int
    losses: int
    draws: int
