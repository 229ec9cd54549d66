"""Leaderboards, player statistics and the record against the bot."""

from __future__ import annotations

from matchcore.service import bots
from matchcore.service.errors import InvalidOptions
from matchcore.service.rating_scale import DEFAULT_MU, DEFAULT_SIGMA, display_rating, is_provisional
from matchcore.service.results import LeaderboardRow, PlayerStats, VsBotStats
from matchcore.service.steps import game_name
from matchcore.storage import Repository


class Standings:
    """Leaderboards, player statistics, records against the bot (reads only)."""

    def __init__(self, repo: Repository) -> None:
        self.repo = repo

    async def leaderboard(self, guild_id: int, game: str, limit: int = 10) -> list[LeaderboardRow]:
        name = game_name(game)
        if not 1 <= limit <= 100:
            raise InvalidOptions("leaderboard_size")
        rows = await self.repo.leaderboard(guild_id, name, limit)
        places = await self.repo.place_counts(guild_id, [r.user_id for r in rows], name)
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
        """Per game: the rating and record among humans, with the vs-bot record beside it
        in ``vs_bot`` (a game played only against the bot has ``games == 0``)."""
        name = None if game is None else game_name(game)
        against_bot: dict[str, list[VsBotStats]] = {}
        for row in await self.vs_bot_stats(guild_id, user_id, name):
            against_bot.setdefault(row.game, []).append(row)
        places = await self.repo.place_counts(guild_id, [user_id], name)
        last = await self.repo.last_placements(guild_id, user_id)
        rated = [
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
                vs_bot=tuple(against_bot.get(r.game, ())),
                places=tuple(places.get((user_id, r.game), {}).items()),
                last_place=(last[r.game].place, last[r.game].field) if r.game in last else None,
            )
            for r in await self.repo.player_ratings(guild_id, user_id)
            if name is None or r.game == name
        ]
        seen = {row.game for row in rated}
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
        return sorted(rated + only_bot, key=lambda row: row.game)
