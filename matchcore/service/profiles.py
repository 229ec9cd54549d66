"""A member's profile (``/profile``, issue 35): per game and rating pool the rating and
record, the rating's history for the graph, the favourite opponent and the record against
the one who asks; and the bot's levels the member has beaten.

Reads only. The rating history begins with the migration that keeps it (0019): a rating
older than that has its graph start at its first result after it.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from matchcore.service import bots
from matchcore.service.rating_scale import DEFAULT_MU, display_rating
from matchcore.service.results import LeaderboardRow, PlayerStats, VsBotStats
from matchcore.service.seasons import SeasonInfo, SeasonPost, Seasons
from matchcore.service.standings import Standings
from matchcore.storage import Repository
from matchcore.storage.season_records import OpponentRecord, RatingPoint


@dataclass(frozen=True)
class Opponent:
    """How a member fared against one opponent in a game and pool, over the rated matches
    they both played: ahead of them (``wins``), behind (``losses``) or level (``draws``)."""

    game: str
    pool: str
    opponent_id: int
    games: int
    wins: int
    losses: int
    draws: int


def opponent_of(record: OpponentRecord) -> Opponent:
    return Opponent(
        game=record.game,
        pool=record.pool,
        opponent_id=record.opponent_id,
        games=record.games,
        wins=record.wins,
        losses=record.losses,
        draws=record.draws,
    )


@dataclass(frozen=True)
class ProfileGame:
    """One game and pool of a profile: ``points`` are (when, rating shown) oldest first,
    from the rating before the first recorded result (a newcomer's 1500 when that result
    was the first in the pool); ``favourite`` the opponent met most often;
    ``versus_viewer`` the record against the member who asked (None: never met, or the
    member asked about themselves)."""

    stats: PlayerStats
    points: tuple[tuple[float, int], ...]
    favourite: Opponent | None
    versus_viewer: Opponent | None


@dataclass(frozen=True)
class Profile:
    """A member's profile on a server: each game and pool they played among people (live
    before daily), their record against the bot, and the bot's levels beaten per game
    (weakest first)."""

    user_id: int
    games: tuple[ProfileGame, ...]
    vs_bot: tuple[VsBotStats, ...]
    levels_beaten: tuple[tuple[str, tuple[str, ...]], ...]


def graph_points(points: list[RatingPoint]) -> tuple[tuple[float, int], ...]:
    """The graph's points of one game and pool's history (oldest first)."""
    if not points:
        return ()
    drawn = [(p.at, display_rating(p.mu)) for p in points]
    if points[0].games == 1:  # the first game in the pool: it started from a newcomer's
        drawn.insert(0, (points[0].at, display_rating(DEFAULT_MU)))
    return tuple(drawn)


def favourite(records: list[Opponent]) -> Opponent | None:
    """The opponent met most often (of equals, the one with the lower id)."""
    people = [r for r in records if r.opponent_id > 0]
    return min(people, key=lambda r: (-r.games, r.opponent_id)) if people else None


class Profiles:
    """Members' profiles."""

    def __init__(self, repo: Repository, standings: Standings) -> None:
        self.repo = repo
        self.standings = standings

    async def profile(self, guild_id: int, user_id: int, viewer_id: int | None = None) -> Profile:
        stats = await self.standings.stats(guild_id, user_id)
        history: dict[tuple[str, str], list[RatingPoint]] = {}
        for point in await self.repo.rating_history(guild_id, user_id):
            history.setdefault((point.game, point.pool), []).append(point)
        opponents: dict[tuple[str, str], list[Opponent]] = {}
        for record in await self.repo.opponent_records(guild_id, user_id):
            opponents.setdefault((record.game, record.pool), []).append(opponent_of(record))
        games = []
        for row in stats:
            if not row.games:
                continue
            met = opponents.get((row.game, row.pool), [])
            versus = next(
                (r for r in met if viewer_id is not None and r.opponent_id == viewer_id), None
            )
            games.append(
                ProfileGame(
                    stats=row,
                    points=graph_points(history.get((row.game, row.pool), [])),
                    favourite=favourite(met),
                    versus_viewer=None if viewer_id == user_id else versus,
                )
            )
        vs_bot = tuple(entry for row in stats for entry in row.vs_bot)
        beaten: dict[str, list[str]] = {}
        for entry in vs_bot:
            if entry.wins > 0:
                beaten.setdefault(entry.game, []).append(entry.level)
        order = {level: i for i, level in enumerate(bots.LEVEL_ORDER)}
        return Profile(
            user_id=user_id,
            games=tuple(games),
            vs_bot=vs_bot,
            levels_beaten=tuple(
                (game, tuple(sorted(levels, key=lambda lv: order.get(lv, len(order)))))
                for game, levels in sorted(beaten.items())
            ),
        )


class ProfileCalls:
    """The facade's calls about profiles and seasons (a base of
    :class:`matchcore.service.service.MatchService`, which sets the parts)."""

    profiles: Profiles
    seasons: Seasons

    async def profile(self, guild_id: int, user_id: int, viewer_id: int | None = None) -> Profile:
        return await self.profiles.profile(guild_id, user_id, viewer_id)

    async def season_list(self, guild_id: int) -> list[SeasonInfo]:
        return await self.seasons.seasons(guild_id)

    async def season_leaderboard(
        self, guild_id: int, game: str, season: str, limit: int = 10, pool: str | None = None
    ) -> list[LeaderboardRow]:
        return await self.seasons.leaderboard(guild_id, game, season, limit, pool)

    async def season_posts_due(self, guild_ids: Iterable[int]) -> list[SeasonPost]:
        return await self.seasons.claim_posts(guild_ids)

    async def season_post_done(self, guild_id: int, season: str) -> bool:
        return await self.seasons.post_done(guild_id, season)

    async def close_seasons(self, now: float | None = None) -> list[tuple[int, str]]:
        """Close the seasons that ended (the clock's tick does it too)."""
        return await self.seasons.close_due(self.seasons.store.clock() if now is None else now)
