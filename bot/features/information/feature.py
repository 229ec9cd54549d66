"""The information feature: ``/games``, ``/leaderboard``, ``/stats`` (replays are the
history feature's).

Nothing here changes a match: each command reads from the service and answers, privately
in the member's language (``/games``) or in the channel, in the server's
language, without pinging anyone (``/leaderboard``, ``/stats``).
"""

from __future__ import annotations

from typing import Any

import discord
from discord import app_commands

from bot.common.context import Context
from bot.common.errors import ErrorHandler, UserFacingError
from bot.common.games import game_choices, game_title
from bot.common.match_lines import rating
from bot.common.match_list import match_line, mine_first, within_limit
from bot.common.names import in_text
from bot.common.record_words import (
    by_places,
    last_place,
    leaderboard_row,
    level_name,
    places_record,
    record,
    streak,
    wins_record,
)
from bot.common.responder import Responder
from bot.common.time_words import pool_words
from bot.common.translator import command_text
from bot.features.information.seasons import named_key, season_choices, typed_key
from i18n import language_for, translate
from matchcore.service.protocol import GameService

GAMES_LISTED = 20  # matches shown by /games (a private message holds 2000 characters)
CHALLENGES_LISTED = 20


class Information:
    """Lists, records and replays."""

    def __init__(self, context: Context, errors: ErrorHandler) -> None:
        self.context = context
        self.errors = errors

    @property
    def service(self) -> GameService:
        return self.context.service

    async def games(self, interaction: discord.Interaction) -> None:
        """The caller's matches first, each saying whose turn it is, when its time runs out
        and where its newest message is; in a server then the server's other matches and
        its open challenges, in DMs the caller's matches on every server."""

        async def run(responder: Responder) -> None:
            language = responder.language
            user_id = responder.user_id
            names = self.context.names
            guild_id = interaction.guild_id
            if guild_id is None:  # a DM: my matches everywhere
                mine = mine_first(await self.service.user_matches(user_id), user_id)
                lines = [await match_line(language, names, m, user_id) for m in mine]
                head = [translate(language, "bot.games.title_everywhere")]
                tail = [] if mine else [translate(language, "bot.games.none_of_mine")]
                await responder.private(within_limit(language, head, lines, tail))
                return
            mine = await self.service.user_matches(user_id, guild_id)
            others = [
                m
                for m in await self.service.guild_matches(guild_id, limit=GAMES_LISTED + 1)
                if user_id not in m.user_ids
            ]
            matches = mine_first(mine, user_id) + others[:GAMES_LISTED]
            lines = [await match_line(language, names, m, user_id) for m in matches]
            if len(others) > GAMES_LISTED:
                lines.append(translate(language, "bot.games.more", count=GAMES_LISTED))
            if not matches:
                lines.append(translate(language, "bot.games.none"))
            tail = [translate(language, "bot.games.challenges")]
            challenges = await self.service.open_challenges(guild_id)
            for challenge in challenges[:CHALLENGES_LISTED]:
                who = in_text(await names.name(challenge.challenger_id))
                common = {
                    "game": game_title(challenge.game),
                    "who": who,
                    "place": f"<#{challenge.channel_id}>",
                    "time": f"<t:{int(challenge.expires_at)}:R>",
                }
                if challenge.target_id is not None:
                    target = in_text(await names.name(challenge.target_id))
                    tail.append(
                        translate(language, "bot.games.challenge_to", target=target, **common)
                    )
                else:
                    tail.append(translate(language, "bot.games.challenge_open", **common))
            if not challenges:
                tail.append(translate(language, "bot.games.no_challenges"))
            head = [translate(language, "bot.games.title")]
            await responder.private(within_limit(language, head, lines, tail))

        await self.errors.run(interaction, run)

    async def leaderboard(
        self,
        interaction: discord.Interaction,
        game: str,
        pool: str | None = None,
        season: str | None = None,
    ) -> None:
        async def run(responder: Responder) -> None:
            if interaction.guild_id is None:
                raise UserFacingError("bot.error.server_only")
            # a channel message: the server's language
            language = await self.context.languages.server(interaction.guild_id)
            guild_id = interaction.guild_id
            key = None
            if season is None:
                rows = await self.service.leaderboard(guild_id, game, pool=pool)
            else:
                # a season picked from the list is its key; one typed may be its name
                key = typed_key(season, await self.service.season_list(guild_id))
                rows = await self.service.season_leaderboard(guild_id, game, key, pool=pool)
            title = translate(language, "bot.leaderboard.title", game=game_title(game))
            shown = rows[0].pool if rows else pool
            if shown is not None:  # live and daily matches are rated apart
                title = f"{title} · {pool_words(language, shown)}"
            if key is not None:
                title = f"{title} · " + translate(
                    language, "bot.leaderboard.season", season=named_key(language, key)
                )
            lines = [title]
            for row in rows:
                name = in_text(await self.context.names.name(row.user_id))
                lines.append(leaderboard_row(language, game, row, name))
            if not rows:
                lines.append(translate(language, "bot.leaderboard.empty"))
            await responder.public(
                interaction.channel,  # type: ignore[arg-type]  # a command is used in a text channel, never a category or forum
                content="\n".join(lines),
                allowed_mentions=discord.AllowedMentions.none(),
            )

        await self.errors.run(interaction, run)

    async def stats(
        self, interaction: discord.Interaction, member: discord.abc.User | None
    ) -> None:
        async def run(responder: Responder) -> None:
            if interaction.guild_id is None:
                raise UserFacingError("bot.error.server_only")
            # a channel message: the server's language
            language = await self.context.languages.server(interaction.guild_id)
            user = member or interaction.user
            rows = await self.service.stats(interaction.guild_id, user.id)
            name = in_text(await self.context.names.name(user.id))
            lines = [translate(language, "bot.stats.title", name=name)]
            against_bot: list[str] = []
            # a game rated in both pools (live, daily) says which line is which
            pools: dict[str, set[str]] = {}
            for row in rows:
                if row.games:
                    pools.setdefault(row.game, set()).add(row.pool)
            both = {game for game, seen in pools.items() if len(seen) > 1}
            for row in rows:
                if row.games:
                    title = game_title(row.game)
                    if row.game in both:
                        title = f"{title} ({pool_words(language, row.pool)})"
                    lines.append(
                        translate(
                            language,
                            "bot.stats.row",
                            game=title,
                            rating=rating(row.rating, row.provisional),
                            # Leiff: places, "finished 2nd of 4" (no loss); board games:
                            # wins, losses, draws and the current run
                            record=(
                                places_record(language, row)
                                if by_places(row.game)
                                else record(language, row)
                            ),
                            streak=(
                                last_place(language, row)
                                if by_places(row.game)
                                else streak(language, row)
                            ),
                        )
                    )
                # Games against the bot never touch the rating: they are listed apart.
                for vs_bot in row.vs_bot:
                    against_bot.append(
                        translate(
                            language,
                            "bot.stats.vs_bot_row",
                            game=game_title(vs_bot.game),
                            level=level_name(language, vs_bot.level),
                            record=(
                                wins_record(language, vs_bot)
                                if by_places(vs_bot.game)
                                else record(language, vs_bot)
                            ),
                        )
                    )
            if not any(row.games for row in rows):
                lines.append(translate(language, "bot.stats.none"))
            if against_bot:
                lines.append(translate(language, "bot.stats.vs_bot"))
                lines.extend(against_bot)
            await responder.public(
                interaction.channel,  # type: ignore[arg-type]  # a command is used in a text channel, never a category or forum
                content="\n".join(lines),
                allowed_mentions=discord.AllowedMentions.none(),
            )

        await self.errors.run(interaction, run)

    # ---- the slash commands ----------------------------------------------------------
    def commands(self) -> list[app_commands.Command[Any, ..., None]]:
        feature = self
        games = game_choices()

        @app_commands.command(
            name=command_text("command.games.name"),
            description=command_text("command.games.description"),
        )
        @app_commands.allowed_contexts(guilds=True, dms=True, private_channels=False)
        async def games_command(interaction: discord.Interaction) -> None:
            await feature.games(interaction)

        @app_commands.command(
            name=command_text("command.mygames.name"),
            description=command_text("command.mygames.description"),
        )
        @app_commands.allowed_contexts(guilds=True, dms=True, private_channels=False)
        async def my_games_command(interaction: discord.Interaction) -> None:
            await feature.games(interaction)

        @app_commands.command(
            name=command_text("command.leaderboard.name"),
            description=command_text("command.leaderboard.description"),
        )
        @app_commands.rename(
            game=command_text("command.option.game"),
            pool=command_text("command.option.pool"),
            season=command_text("command.option.season"),
        )
        @app_commands.describe(
            game=command_text("command.leaderboard.game"),
            pool=command_text("command.leaderboard.pool"),
            season=command_text("command.leaderboard.season"),
        )
        @app_commands.choices(
            game=games,
            pool=[
                app_commands.Choice(
                    name=command_text("command.leaderboard.pool.live"), value="live"
                ),
                app_commands.Choice(
                    name=command_text("command.leaderboard.pool.daily"), value="daily"
                ),
            ],
        )
        @app_commands.guild_only()
        async def leaderboard_command(
            interaction: discord.Interaction,
            game: app_commands.Choice[str],
            pool: app_commands.Choice[str] | None = None,
            season: str | None = None,
        ) -> None:
            chosen = None if pool is None else pool.value
            await feature.leaderboard(interaction, game.value, chosen, season)

        @leaderboard_command.autocomplete("season")
        async def season_autocomplete(
            interaction: discord.Interaction, current: str
        ) -> list[app_commands.Choice[str]]:
            if interaction.guild_id is None:
                return []
            language = language_for(interaction.locale)
            seasons = await feature.service.season_list(interaction.guild_id)
            return season_choices(language, seasons, current)

        @app_commands.command(
            name=command_text("command.stats.name"),
            description=command_text("command.stats.description"),
        )
        @app_commands.rename(member=command_text("command.option.member"))
        @app_commands.describe(member=command_text("command.stats.member"))
        @app_commands.guild_only()
        async def stats_command(
            interaction: discord.Interaction, member: discord.Member | None = None
        ) -> None:
            await feature.stats(interaction, member)

        return [games_command, my_games_command, leaderboard_command, stats_command]
