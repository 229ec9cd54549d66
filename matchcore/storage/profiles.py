"""What the repository keeps for profiles and seasons: the interface (issue 35).

Rating history, records against opponents, season ratings, seasons and their final
standings; every back end implements it with :class:`matchcore.storage.sql_profiles.
ProfileQueries`. A result's history points and season ratings are written by
``commit_match`` in the result's own transaction.
"""

from __future__ import annotations

import abc
from collections.abc import Iterable

from matchcore.storage.records import RatingRecord
from matchcore.storage.season_records import (
    OpponentRecord,
    RatingPoint,
    SeasonRecord,
    SeasonStanding,
)


class ProfileRepository(abc.ABC):
    """Rating history, opponents and seasons (the queries' docstrings say what each does)."""

    @abc.abstractmethod
    async def rating_history(self, guild_id: int, user_id: int) -> list[RatingPoint]: ...

    @abc.abstractmethod
    async def opponent_records(self, guild_id: int, user_id: int) -> list[OpponentRecord]: ...

    @abc.abstractmethod
    async def get_season_ratings(
        self, guild_id: int, season: str, game: str, user_ids: list[int], pool: str
    ) -> dict[int, RatingRecord]: ...

    @abc.abstractmethod
    async def season_leaderboard(
        self, guild_id: int, season: str, game: str, limit: int, pool: str
    ) -> list[RatingRecord]: ...

    @abc.abstractmethod
    async def seasons(self, guild_id: int) -> list[SeasonRecord]: ...

    @abc.abstractmethod
    async def seasons_to_close(self, before: float) -> list[SeasonRecord]: ...

    @abc.abstractmethod
    async def close_season(self, guild_id: int, season: str, at: float) -> bool:
        """Claim the season and keep its final standings, in one transaction; False when
        another process closed it first (nothing is written then)."""

    @abc.abstractmethod
    async def season_posts_due(
        self, guild_ids: Iterable[int], lease_now: float
    ) -> list[SeasonRecord]:
        """Closed seasons of these servers whose final standings are not posted yet and
        that no process holds a live claim on (``lease_now``: the lease clock)."""

    @abc.abstractmethod
    async def claim_season_post(
        self, guild_id: int, season: str, owner: str, lease_now: float, lease_until: float
    ) -> bool:
        """Claim the post of a closed season's standings until ``lease_until`` (its owner
        may renew its own claim); False when it is done or another process holds it."""

    @abc.abstractmethod
    async def season_post_done(self, guild_id: int, season: str, owner: str, at: float) -> bool:
        """The post is done (by ``owner``, whose claim it must be): never claimed again."""

    @abc.abstractmethod
    async def season_standings(
        self, guild_id: int, season: str, game: str, limit: int, pool: str
    ) -> list[SeasonStanding]: ...
