"""``/play`` and ``/board``: the two commands every kind of game shares.

``/play`` reads its options and hands the game to the feature of its kind: a board game
becomes a challenge (:mod:`bot.features.board_games`), Leiff a lobby
(:mod:`bot.features.leiff_tables`). ``/board`` posts the caller's match in this channel
again, whatever its game.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from typing import Any, Protocol

import discord
from discord import app_commands

from bot.common.context import Context
from bot.common.delivery import Delivery
from bot.common.errors import ErrorHandler, UserFacingError
from bot.common.games import game_choices
from bot.common.outgoing import only_for
from bot.common.responder import Responder
from bot.common.translator import command_text
from engine import get_spec
from engine.ai.levels import LEVEL_NAMES
from engine.spec import GameKind
from i18n import N_

# the levels' ids, one per engine level (a test checks that every level has one)
LEVEL_TEXT_IDS = {
    "easy": N_("command.play.level.easy"),
    "normal": N_("command.play.level.normal"),
    "hard": N_("command.play.level.hard"),
}


class Starter(Protocol):
    """What starts a game of one kind (a challenge, a lobby)."""

    async def start(
        self,
        interaction: discord.Interaction,
        responder: Responder,
        game: str,
        opponent: discord.abc.User | None,
        size: int | None,
        options: dict[str, Any],
        level: str | None,
    ) -> None: ...


class Play:
    """``/play`` and ``/board``."""

    def __init__(
        self,
        context: Context,
        delivery: Delivery,
        errors: ErrorHandler,
        starters: Mapping[GameKind, Starter],
    ) -> None:
        self.context = context
        self.delivery = delivery
        self.errors = errors
        self.starters = dict(starters)

    async def play(
        self,
        interaction: discord.Interaction,
        game: str,
        opponent: discord.abc.User | None,
        size: int | None,
        options: dict[str, Any],
        level: str | None = None,
    ) -> None:
        async def run(responder: Responder) -> None:
            if interaction.guild_id is None:
                raise UserFacingError("bot.play.error.not_in_dms")
            starter = self.starters[get_spec(game).kind]
            await starter.start(interaction, responder, game, opponent, size, options, level)

        await self.errors.run(interaction, run)

    async def board(self, interaction: discord.Interaction) -> None:
        async def run(responder: Responder) -> None:
            if interaction.guild_id is None or interaction.channel_id is None:
                raise UserFacingError("bot.error.use_in_match_channel")
            service = self.context.service
            match = await service.match_in_channel(
                interaction.guild_id, interaction.channel_id, responder.user_id
            )
            if match is None:
                raise UserFacingError("bot.error.no_match_here")
            update = await service.current(match.id, for_user=responder.user_id)
            # showing the board again pings nobody and shows only the caller's own hand
            update = only_for(dataclasses.replace(update, mentions=()), responder.user_id)
            await self.delivery.publish(update, responder, whole=False)

        await self.errors.run(interaction, run)

    # ---- the slash commands ----------------------------------------------------------
    def commands(self) -> list[app_commands.Command[Any, ..., None]]:
        feature = self

        @app_commands.command(
            name=command_text("command.play.name"),
            description=command_text("command.play.description"),
        )
        @app_commands.rename(
            game=command_text("command.option.game"),
            opponent=command_text("command.option.opponent"),
            size=command_text("command.option.size"),
            variant=command_text("command.option.variant"),
            target=command_text("command.option.target"),
            teams=command_text("command.option.teams"),
            level=command_text("command.option.level"),
        )
        @app_commands.describe(
            game=command_text("command.play.game"),
            opponent=command_text("command.play.opponent"),
            size=command_text("command.play.size"),
            variant=command_text("command.play.variant"),
            target=command_text("command.play.target"),
            teams=command_text("command.play.teams"),
            level=command_text("command.play.level"),
        )
        @app_commands.choices(  # type: ignore[misc]  # str and int choices in one call
            game=game_choices(),
            level=[
                app_commands.Choice(name=command_text(LEVEL_TEXT_IDS[name]), value=name)
                for name in LEVEL_NAMES
            ],
            target=[
                app_commands.Choice(name=command_text("command.play.target.short"), value=50),
                app_commands.Choice(name=command_text("command.play.target.long"), value=100),
            ],
        )
        @app_commands.guild_only()
        async def play_command(
            interaction: discord.Interaction,
            game: app_commands.Choice[str],
            opponent: discord.Member | None = None,
            size: app_commands.Range[int, 3, 15] | None = None,
            variant: bool | None = None,
            target: app_commands.Choice[int] | None = None,
            teams: bool | None = None,
            level: app_commands.Choice[str] | None = None,
        ) -> None:
            options: dict[str, object] = {}
            if get_spec(game.value).kind is GameKind.CARDS:
                if target is not None:
                    options["target"] = target.value
                if teams is not None:
                    options["teams"] = teams
            elif variant is not None:
                options["variant"] = variant
            await feature.play(
                interaction, game.value, opponent, size, options, level.value if level else None
            )

        @app_commands.command(
            name=command_text("command.board.name"),
            description=command_text("command.board.description"),
        )
        @app_commands.guild_only()
        async def board_command(interaction: discord.Interaction) -> None:
            await feature.board(interaction)

        return [play_command, board_command]
