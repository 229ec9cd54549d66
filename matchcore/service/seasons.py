"""Seasons of a server's leaderboards (issue 35): the season boards, the list of seasons,
and the closing of ended seasons.

A server that rates in seasons (its setting ``season``: monthly or quarterly) has, beside
each all-time rating, a season rating started fresh at the season's first result (stored
with the result, :class:`matchcore.service.ratings.RatingBook`). Once a season has ended
(and :data:`CLOSE_GRACE_SECONDS` more), the clock's tick of whichever process claims it
keeps its final standings, in one transaction with the claim: exactly one process closes a
season, and a process killed meanwhile leaves it open for the next tick.

A closed season's final standings are then posted (by a front end, in the server's chosen
channel): :meth:`Seasons.claim_posts` claims each post with a lease, like a match's clock
work, and hands over the season's best :data:`POSTED_PLACES` of each game and pool; the
front end posts (or finds its post already there, after a kill) and calls
:meth:`Seasons.post_done`. A process killed in between leaves the post to the next claim
once the lease ran out.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from engine import game_names
from matchcore.service.arguments import is_snowflake
from matchcore.service.errors import InvalidOptions, InvalidRequest
from matchcore.service.rating_scale import display_rating, is_provisional
from matchcore.service.results import LeaderboardRow
from matchcore.service.season_calendar import (
    CLOSE_GRACE_SECONDS,
    Season,
    season_at,
    season_of_key,
)
from matchcore.service.standings import Standings
from matchcore.service.steps import game_name
from matchcore.service.store import MatchStore
from matchcore.service.time_controls import POOLS, checked_pool

# The places of each board a season's final post shows.
POSTED_PLACES = 5


@dataclass(frozen=True)
class SeasonInfo:
    """A season of a server: ``current`` while results count in it, ``closed`` once its
    final standings are kept."""

    season: Season
    current: bool
    closed: bool


@dataclass(frozen=True)
class SeasonBoard:
    """The best places of a closed season in one game and pool."""

    game: str
    pool: str
    rows: tuple[LeaderboardRow, ...]


@dataclass(frozen=True)
class SeasonPost:
    """A closed season's final standings to post, claimed by this process: every game and
    pool with a rated result that season (none: nothing to show)."""

    guild_id: int
    season: Season
    boards: tuple[SeasonBoard, ...]


class Seasons:
    """The season boards, the server's seasons, and closing the ended ones."""

    def __init__(self, store: MatchStore, standings: Standings) -> None:
        self.store = store
        self.standings = standings

    async def current(self, guild_id: int, now: float | None = None) -> Season | None:
        """The season results count in now (None: the server has no seasons)."""
        kind = (await self.store.settings(guild_id)).season
        return season_at(kind, self.store.clock() if now is None else now)

    async def seasons(self, guild_id: int) -> list[SeasonInfo]:
        """The current season (if the server has seasons), then every past season that had
        a result, the latest first."""
        current = await self.current(guild_id)
        listed: list[SeasonInfo] = []
        if current is not None:
            listed.append(SeasonInfo(current, current=True, closed=False))
        for stored in await self.store.repo.seasons(guild_id):
            season = season_of_key(stored.season)
            if season is None or (current is not None and season.key == current.key):
                continue
            listed.append(SeasonInfo(season, current=False, closed=stored.closed_at is not None))
        return listed

    async def leaderboard(
        self, guild_id: int, game: str, season: str, limit: int = 10, pool: str | None = None
    ) -> list[LeaderboardRow]:
        """The best ``limit`` of a season's board of a game and pool: a closed season's
        final standings, else the season as it stands."""
        name = game_name(game)
        chosen = (
            checked_pool(pool)
            if pool is not None
            else await self.standings.default_pool(guild_id, name)
        )
        if not 1 <= limit <= 100:
            raise InvalidOptions("leaderboard_size")
        known = {info.season.key: info for info in await self.seasons(guild_id)}
        info = known.get(season)
        if info is None:
            raise InvalidOptions("season_unknown", season=season)
        repo = self.store.repo
        if info.closed:
            rows = [
                (s.rank, s.user_id, s.mu, s.sigma, s.games, s.wins, s.losses, s.draws, 0)
                for s in await repo.season_standings(guild_id, season, name, limit, chosen)
            ]
        else:
            rows = [
                (i + 1, r.user_id, r.mu, r.sigma, r.games, r.wins, r.losses, r.draws, r.streak)
                for i, r in enumerate(
                    await repo.season_leaderboard(guild_id, season, name, limit, chosen)
                )
            ]
        # the places of the season's results (what a Leiff board says)
        window = (info.season.starts_at, info.season.ends_at)
        places = await repo.place_counts(guild_id, [r[1] for r in rows], name, chosen, window)
        return [
            LeaderboardRow(
                rank=rank,
                user_id=user_id,
                rating=display_rating(mu),
                provisional=is_provisional(sigma),
                mu=mu,
                sigma=sigma,
                games=games,
                wins=wins,
                losses=losses,
                draws=draws,
                streak=streak,
                places=tuple(places.get((user_id, name), {}).items()),
                pool=chosen,
            )
            for rank, user_id, mu, sigma, games, wins, losses, draws, streak in rows
        ]

    async def close_due(self, now: float) -> list[tuple[int, str]]:
        """Close every season that ended long enough ago and that no other process closed
        first; the (server, season) pairs this call closed."""
        closed = []
        for stored in await self.store.repo.seasons_to_close(now - CLOSE_GRACE_SECONDS):
            if await self.store.repo.close_season(stored.guild_id, stored.season, now):
                closed.append((stored.guild_id, stored.season))
        return closed

    async def claim_posts(self, guild_ids: Iterable[int]) -> list[SeasonPost]:
        """The closed seasons of these servers whose final post this process claimed now
        (a lease: it is claimed again once the lease ran out and the post is not done)."""
        servers = list(guild_ids)
        if not all(is_snowflake(guild_id) for guild_id in servers):
            raise InvalidRequest("not_a_server")
        store = self.store
        lease_now = store.lease_clock()
        until = lease_now + store.claim_seconds
        posts = []
        for stored in await store.repo.season_posts_due(servers, lease_now):
            season = season_of_key(stored.season)
            if season is None or not await store.repo.claim_season_post(
                stored.guild_id, stored.season, store.owner, lease_now, until
            ):
                continue
            boards = []
            for game in game_names():
                for pool in POOLS:
                    rows = await self.leaderboard(
                        stored.guild_id, game, season.key, POSTED_PLACES, pool
                    )
                    if rows:
                        boards.append(SeasonBoard(game, pool, tuple(rows)))
            posts.append(SeasonPost(stored.guild_id, season, tuple(boards)))
        return posts

    async def post_done(self, guild_id: int, season: str) -> bool:
        """This process's claimed post of the season is done (posted, found posted, or
        nothing to post); False when its claim had run out and another process took it."""
        if season_of_key(season) is None:
            raise InvalidOptions("season_unknown", season=season)
        store = self.store
        return await store.repo.season_post_done(guild_id, season, store.owner, store.clock())
