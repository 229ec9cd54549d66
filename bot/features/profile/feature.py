"""The profile feature: ``/profile [member]``.

A member's profile on this server, posted in the channel in the server's language without
pinging anyone (as ``/stats``): per game and rating pool (live and daily apart) the rating
on the players' scale, games, wins, draws and losses (Leiff: places), the best run of wins,
the favourite opponent and the head-to-head with the member who asked; the bot's levels
the member has beaten; and a picture of the rating graphs over time
(:mod:`render.rating_graph`, in the server's theme). The graph begins with the rating
history the match core keeps since it was added (``docs/bot.md``).
"""

from __future__ import annotations

import io
from typing import Any

import discord
from discord import app_commands

from bot.common.context import Context
from bot.common.errors import ErrorHandler, UserFacingError
from bot.common.names import in_text
from bot.common.responder import Responder
from bot.common.themes import server_theme
from bot.common.translator import command_text
from bot.features.profile.messages import graph_view, profile_lines
from matchcore.service.protocol import GameService

PICTURE = "profile.png"


class Profiles:
    """``/profile``."""

    def __init__(self, context: Context, errors: ErrorHandler) -> None:
        self.context = context
        self.errors = errors

    @property
    def service(self) -> GameService:
        return self.context.service

    async def profile(
        self, interaction: discord.Interaction, member: discord.abc.User | None
    ) -> None:
        async def run(responder: Responder) -> None:
            guild_id = interaction.guild_id
            if guild_id is None:
                raise UserFacingError("bot.error.server_only")
            language = await self.context.languages.server(guild_id)
            user = member or interaction.user
            viewer_id = interaction.user.id
            profile = await self.service.profile(guild_id, user.id, viewer_id)
            names = self.context.names
            name = in_text(await names.name(user.id))
            opponents = {
                entry.favourite.opponent_id
                for entry in profile.games
                if entry.favourite is not None
            }
            known = {uid: in_text(await names.name(uid)) for uid in sorted(opponents)}
            viewer = None if viewer_id == user.id else in_text(await names.name(viewer_id))
            lines = profile_lines(language, profile, name, known, viewer)
            message: dict[str, Any] = {
                "content": "\n".join(lines),
                "allowed_mentions": discord.AllowedMentions.none(),
            }
            view = graph_view(language, profile, await names.name(user.id))
            if view is not None:
                theme = await server_theme(self.service, guild_id)
                picture = await self.context.painter.rating_graph_png(view, theme)
                message["file"] = discord.File(io.BytesIO(picture), filename=PICTURE)
            await responder.public(
                interaction.channel,  # type: ignore[arg-type]  # a command is used in a text channel, never a category or forum
                **message,
            )

        await self.errors.run(interaction, run)

    def commands(self) -> list[app_commands.Command[Any, ..., None]]:
        feature = self

        @app_commands.command(
            name=command_text("command.profile.name"),
            description=command_text("command.profile.description"),
        )
        @app_commands.rename(member=command_text("command.option.member"))
        @app_commands.describe(member=command_text("command.profile.member"))
        @app_commands.guild_only()
        async def profile_command(
            interaction: discord.Interaction, member: discord.Member | None = None
        ) -> None:
            await feature.profile(interaction, member)

        return [profile_command]
