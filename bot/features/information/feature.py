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
from bot.common.names import in_text
from bot.common.responder import Responder
from bot.common.translator import command_text
from bot.features.information.standings import (
    by_places,
    last_place,
    level_name,
    places_record,
    record,
    streak,
    wins_record,
)
from i18n import N_, translate
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
        async def run(responder: Responder) -> None:
            if interaction.guild_id is None:
                raise UserFacingError("bot.error.server_only")
            language = responder.language
            names = self.context.names
            guild_id = interaction.guild_id
            matches = await self.service.guild_matches(guild_id, limit=GAMES_LISTED + 1)
            challenges = await self.service.open_challenges(guild_id)
            lines = [translate(language, "bot.games.title")]
            for match in matches[:GAMES_LISTED]:
                players = ", ".join(in_text(n) for n in await names.seat_names(match))
                place = f"<#{match.thread_id or match.channel_id}>"
                mine = "★ " if responder.user_id in match.user_ids else ""
                status = translate(
                    language,
                    N_("bot.games.status.lobby")
                    if match.status == "lobby"
                    else N_("bot.games.status.running"),
                )
                lines.append(
                    mine
                    + translate(
                        language,
                        "bot.games.match",
                        match=match.id,
                        game=game_title(match.game),
                        status=status,
                        place=place,
                        players=players,
                    )
                )
            if len(matches) > GAMES_LISTED:
                lines.append(translate(language, "bot.games.more", count=GAMES_LISTED))
            if not matches:
                lines.append(translate(language, "bot.games.none"))
            lines.append(translate(language, "bot.games.challenges"))
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
                    lines.append(
                        translate(language, "bot.games.challenge_to", target=target, **common)
                    )
                else:
                    lines.append(translate(language, "bot.games.challenge_open", **common))
            if not challenges:
                lines.append(translate(language, "bot.games.no_challenges"))
            await responder.private("\n".join(lines))

        await self.errors.run(interaction, run)

    async def leaderboard(self, interaction: discord.Interaction, game: str) -> None:
        async def run(responder: Responder) -> None:
            if interaction.guild_id is None:
                raise UserFacingError("bot.error.server_only")
            # a channel message: the server's language
            language = await self.context.languages.server(interaction.guild_id)
            rows = await self.service.leaderboard(interaction.guild_id, game)
            lines = [translate(language, "bot.leaderboard.title", game=game_title(game))]
            for row in rows:
                name = in_text(await self.context.names.name(row.user_id))
                lines.append(
                    translate(
                        language,
                        "bot.leaderboard.row",
                        rank=row.rank,
                        name=name,
                        rating=rating(row.rating, row.provisional),
                        record=(
                            places_record(language, row)
                            if by_places(game)
                            else record(language, row)
                        ),
                    )
                )
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
            for row in rows:
                if row.games:
                    lines.append(
                        translate(
                            language,
                            "bot.stats.row",
                            game=game_title(row.game),
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
        @app_commands.guild_only()
        async def games_command(interaction: discord.Interaction) -> None:
            await feature.games(interaction)

        @app_commands.command(
            name=command_text("command.leaderboard.name"),
            description=command_text("command.leaderboard.description"),
        )
        @app_commands.rename(game=command_text("command.option.game"))
        @app_commands.describe(game=command_text("command.leaderboard.game"))
        @app_commands.choices(game=games)
        @app_commands.guild_only()
        async def leaderboard_command(
            interaction: discord.Interaction, game: app_commands.Choice[str]
        ) -> None:
            await feature.leaderboard(interaction, game.value)

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

        return [games_command, leaderboard_command, stats_command]
