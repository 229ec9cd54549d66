"""Leaderboards, player statistics and the record against the bot."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import replace

from matchcore.service import bots
from matchcore.service.errors import InvalidOptions
from matchcore.service.guild_settings import GuildSettings
from matchcore.service.rating_scale import DEFAULT_MU, DEFAULT_SIGMA, display_rating, is_provisional
from matchcore.service.results import LeaderboardRow, PlayerStats, VsBotStats
from matchcore.service.steps import game_name, is_table_game
from matchcore.service.time_controls import POOLS, TimeControl, checked_pool
from matchcore.storage import Repository


class Standings:
    """Leaderboards, player statistics, records against the bot (reads only)."""

    def __init__(
        self, repo: Repository, settings: Callable[[int], Awaitable[GuildSettings]]
    ) -> None:
        self.repo = repo
        self.settings = settings

    async def default_pool(self, guild_id: int, game: str) -> str:
        """The pool of the server's time per move for the game: what a match played
        without choosing a time control counts in."""
        settings = await self.settings(guild_id)
        seconds = (
            settings.leiff_turn_seconds if is_table_game(game) else settings.board_move_seconds
        )
        return TimeControl.per_move_of(seconds).pool

    async def leaderboard(
        self, guild_id: int, game: str, limit: int = 10, pool: str | None = None
    ) -> list[LeaderboardRow]:
        """The best ``limit`` of a game's rating pool (live or daily; None: the pool of the
        server's time per move for the game)."""
        name = game_name(game)
        chosen = checked_pool(pool) if pool is not None else await self.default_pool(guild_id, name)
        if not 1 <= limit <= 100:
            raise InvalidOptions("leaderboard_size")
        rows = await self.repo.leaderboard(guild_id, name, limit, chosen)
        places = await self.repo.place_counts(guild_id, [r.user_id for r in rows], name, chosen)
        return [
            LeaderboardRow(
                rank=i + 1,
                user_id=r.user_id,
                rating=display_rating(r.mu),
                provisional=is_provisional(r.sigma),
                mu=r.mu,
                sigma=r.sigma,
                games=r.games,
                wins=r.wins,
                losses=r.losses,
                draws=r.draws,
                streak=r.streak,
                places=tuple(places.get((r.user_id, name), {}).items()),
                pool=chosen,
            )
            for i, r in enumerate(rows)
        ]

    async def vs_bot_stats(
        self, guild_id: int, user_id: int, game: str | None = None
    ) -> list[VsBotStats]:
        """A player's record against the bot on a server, per game and level (weakest
        level first); never part of the ratings or the leaderboard."""
        name = None if game is None else game_name(game)
        records = await self.repo.vs_bot_stats(guild_id, user_id, name)
        rows = [
            VsBotStats(
                game=r.game,
                level=r.level,
                games=r.games,
                wins=r.wins,
                losses=r.losses,
                draws=r.draws,
            )
            for r in records
        ]
        order = {level: i for i, level in enumerate(bots.LEVEL_ORDER)}
        return sorted(rows, key=lambda r: (r.game, order.get(r.level, len(order)), r.level))

    async def stats(
        self, guild_id: int, user_id: int, game: str | None = None
    ) -> list[PlayerStats]:
        """Per game and rating pool (live, then daily): the rating and record among
        humans, with the vs-bot record beside the game's first row in ``vs_bot`` (a game
        played only against the bot has one live row with ``games == 0``)."""
        name = None if game is None else game_name(game)
        against_bot: dict[str, list[VsBotStats]] = {}
        for row in await self.vs_bot_stats(guild_id, user_id, name):
            against_bot.setdefault(row.game, []).append(row)
        rated: list[PlayerStats] = []
        for pool in POOLS:
            rated.extend(await self._pool_stats(guild_id, user_id, name, pool))
        rated.sort(key=lambda row: (row.game, POOLS.index(row.pool)))
        seen: set[str] = set()
        for i, stats in enumerate(rated):
            if stats.game not in seen:
                seen.add(stats.game)
                rated[i] = replace(stats, vs_bot=tuple(against_bot.get(stats.game, ())))
        only_bot = [
            PlayerStats(
                game=played,
                mu=DEFAULT_MU,
                sigma=DEFAULT_SIGMA,
                rating=display_rating(DEFAULT_MU),
                provisional=is_provisional(DEFAULT_SIGMA),
                games=0,
                wins=0,
                losses=0,
                draws=0,
                streak=0,
                best_streak=0,
                vs_bot=tuple(rows),
            )
            for played, rows in against_bot.items()
            if played not in seen
        ]
        return sorted(rated + only_bot, key=lambda row: (row.game, POOLS.index(row.pool)))

    async def _pool_stats(
        self, guild_id: int, user_id: int, name: str | None, pool: str
    ) -> list[PlayerStats]:
        places = await self.repo.place_counts(guild_id, [user_id], name, pool)
        last = await self.repo.last_placements(guild_id, user_id, pool)
        return [
            PlayerStats(
                game=r.game,
                mu=r.mu,
                sigma=r.sigma,
                rating=display_rating(r.mu),
                provisional=is_provisional(r.sigma),
                games=r.games,
                wins=r.wins,
                losses=r.losses,
                draws=r.draws,
                streak=r.streak,
                best_streak=r.best_streak,
                pool=pool,
                places=tuple(places.get((user_id, r.game), {}).items()),
                last_place=(last[r.game].place, last[r.game].field) if r.game in last else None,
            )
            for r in await self.repo.player_ratings(guild_id, user_id, pool)
            if name is None or r.game == name
        ]
