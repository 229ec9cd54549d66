"""The information feature: ``/games``, ``/replay``, ``/leaderboard``, ``/stats``.

Nothing here changes a match: each command reads from the service and answers, privately
(``/games``, ``/replay``) or in the channel without pinging anyone
(``/leaderboard``, ``/stats``).
"""

from __future__ import annotations

import io
from typing import Any

import discord
from discord import app_commands

from bot.common.context import Context
from bot.common.errors import ErrorHandler, UserFacingError
from bot.common.games import game_choices, game_title
from bot.common.names import in_text
from bot.common.responder import Responder
from bot.common.translator import command_text
from bot.features.information.standings import record, streak
from engine import get_spec

GAMES_LISTED = 20  # matches shown by /games (a private message holds 2000 characters)
CHALLENGES_LISTED = 20


class Information:
    """Lists, records and replays."""

    def __init__(self, context: Context, errors: ErrorHandler) -> None:
        self.context = context
        self.errors = errors

    @property
    def service(self) -> Any:
        return self.context.service

    async def games(self, interaction: discord.Interaction) -> None:
        async def run(responder: Responder) -> None:
            if interaction.guild_id is None:
                raise UserFacingError("Use this in a server.")
            names = self.context.names
            guild_id = interaction.guild_id
            matches = await self.service.guild_matches(guild_id, limit=GAMES_LISTED + 1)
            challenges = await self.service.open_challenges(guild_id)
            lines = ["**Matches on this server** (yours marked ★)"]
            for match in matches[:GAMES_LISTED]:
                players = ", ".join(in_text(n) for n in await names.seat_names(match))
                place = f"<#{match.thread_id or match.channel_id}>"
                mine = "★ " if responder.user_id in match.user_ids else ""
                status = "open table" if match.status == "lobby" else "running"
                lines.append(
                    f"{mine}#{match.id} {game_title(match.game)} ({status}) in {place}: {players}"
                )
            if len(matches) > GAMES_LISTED:
                lines.append(f"…and more; these are the {GAMES_LISTED} most recently active.")
            if not matches:
                lines.append("None running. Start one with `/play`.")
            lines.append("**Open challenges**")
            for challenge in challenges[:CHALLENGES_LISTED]:
                who = in_text(await names.name(challenge.challenger_id))
                aimed = (
                    f" for {in_text(await names.name(challenge.target_id))}"
                    if challenge.target_id is not None
                    else " (anyone may accept)"
                )
                lines.append(
                    f"{game_title(challenge.game)} by {who}{aimed} in <#{challenge.channel_id}>, "
                    f"expires <t:{int(challenge.expires_at)}:R>"
                )
            if not challenges:
                lines.append("None.")
            await responder.private("\n".join(lines))

        await self.errors.run(interaction, run)

    async def replay(self, interaction: discord.Interaction, match_id: int) -> None:
        async def run(responder: Responder) -> None:
            match = await self.service.get_match(match_id)
            if match.guild_id != interaction.guild_id:
                raise UserFacingError("There is no such match on this server.")
            if not get_spec(match.game).is_board_game:
                raise UserFacingError("Replays are made for the board games only.")
            if match.status != "finished":
                raise UserFacingError(
                    "That match is still running; a replay is made once it is over."
                )
            await responder.acknowledge()
            update = await self.service.current(match.id)
            state = next(
                p.state for p in update.pictures if p.kind == "board" and p.state is not None
            )
            names = await self.context.names.seat_names(match)
            gif = await self.context.painter.replay_gif(state, names)
            await responder.private(
                f"Replay of match #{match.id} ({game_title(match.game)}).",
                file=discord.File(io.BytesIO(gif), filename=f"match-{match.id}.gif"),
            )

        await self.errors.run(interaction, run)

    async def leaderboard(self, interaction: discord.Interaction, game: str) -> None:
        async def run(responder: Responder) -> None:
            if interaction.guild_id is None:
                raise UserFacingError("Use this in a server.")
            rows = await self.service.leaderboard(interaction.guild_id, game)
            lines = [f"**{game_title(game)} leaderboard**"]
            for row in rows:
                name = in_text(await self.context.names.name(row.user_id))
                lines.append(f"{row.rank}. {name}: {row.ordinal:.1f} ({record(row)})")
            if not rows:
                lines.append("Nobody has finished a rated game yet.")
            await responder.public(
                interaction.channel,  # type: ignore[arg-type]
                content="\n".join(lines),
                allowed_mentions=discord.AllowedMentions.none(),
            )

        await self.errors.run(interaction, run)

    async def stats(
        self, interaction: discord.Interaction, member: discord.abc.User | None
    ) -> None:
        async def run(responder: Responder) -> None:
            if interaction.guild_id is None:
                raise UserFacingError("Use this in a server.")
            user = member or interaction.user
            rows = await self.service.stats(interaction.guild_id, user.id)
            name = in_text(await self.context.names.name(user.id))
            lines = [f"**Statistics of {name}**"]
            against_bot: list[str] = []
            for row in rows:
                if row.games:
                    lines.append(
                        f"{game_title(row.game)}: rating {row.ordinal:.1f}, "
                        f"{record(row)}{streak(row)}."
                    )
                # Games against the bot never touch the rating: they are listed apart.
                for vs_bot in row.vs_bot:
                    against_bot.append(
                        f"{game_title(vs_bot.game)} ({vs_bot.level}): {record(vs_bot)}."
                    )
            if not any(row.games for row in rows):
                lines.append("No finished rated games yet.")
            if against_bot:
                lines.append("**Against the bot** (not rated)")
                lines.extend(against_bot)
            await responder.public(
                interaction.channel,  # type: ignore[arg-type]
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
            name=command_text("command.replay.name"),
            description=command_text("command.replay.description"),
        )
        @app_commands.rename(match=command_text("command.option.match"))
        @app_commands.describe(match=command_text("command.replay.match"))
        @app_commands.guild_only()
        async def replay_command(
            interaction: discord.Interaction, match: app_commands.Range[int, 1]
        ) -> None:
            await feature.replay(interaction, match)

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

        return [games_command, replay_command, leaderboard_command, stats_command]
