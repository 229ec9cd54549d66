"""The learning feature: ``/help``, the paged ``/rules`` tutorial and its practice game.

``/help`` answers privately with what the bot is, every registered game in a line and the
commands to start with, and a button per game that opens its tutorial. ``/rules game`` is
that tutorial: a private message showing one rule a page, with its annotated picture, a
page counter and **Previous** / **Next** buttons that turn the page in place. The last page
starts a practice game against the bot at the tutorial's level (easy) in one click.

Nothing is remembered between clicks: a page's buttons carry the page they lead to and the
game (:mod:`bot.features.learning.messages`), and the reader's language is their Discord
locale at each click, so pages keep turning after a restart.
"""

from __future__ import annotations

from typing import Any

import discord
from discord import app_commands

from bot.common.context import Context
from bot.common.custom_ids import OPEN, PRACTICE, TUTORIAL
from bot.common.errors import ErrorHandler, UserFacingError
from bot.common.games import game_choices, game_title
from bot.common.outgoing import match_of
from bot.common.responder import Responder
from bot.common.routing import ComponentRouter
from bot.common.themes import member_theme
from bot.common.translator import command_text
from bot.delivery.delivery import Delivery
from bot.features.learning.messages import PageMessage, help_message
from engine import get_spec
from engine.spec import GameKind
from i18n import phrase, translate
from matchcore.service.protocol import GameService
from tutorial import PRACTICE_LEVEL, help_text, tutorial_games, tutorial_page, tutorial_pages

# How many bot seats a Leiff practice table gets besides the member (a table of three).
LEIFF_PRACTICE_BOTS = 2


class Learning:
    """``/help``, ``/rules`` and the tutorial's buttons."""

    def __init__(
        self,
        context: Context,
        delivery: Delivery,
        errors: ErrorHandler,
        *,
        docs_url: str | None = None,
    ) -> None:
        self.context = context
        self.delivery = delivery
        self.errors = errors
        self.docs_url = docs_url

    def register(self, router: ComponentRouter) -> None:
        router.route(TUTORIAL, self._click)

    @property
    def service(self) -> GameService:
        return self.context.service

    # ---- pages -----------------------------------------------------------------------
    async def page_message(self, responder: Responder, game: str, number: int) -> PageMessage:
        """Page ``number`` of ``game`` for the member who asked, in their language and
        theme (clamped to the tutorial: a page of an old message may no longer exist after
        the tutorial changed), its picture drawn off the loop."""
        count = len(tutorial_pages(game))
        number = min(max(number, 1), count)
        language = responder.language
        theme = await member_theme(self.service, responder.user_id, responder.interaction.guild_id)
        page = tutorial_page(game, number, language, theme=theme)
        picture = await self.context.painter.tutorial_png(game, number, language, theme)
        return PageMessage(page, picture, self.docs_url)

    # ---- commands --------------------------------------------------------------------
    async def help(self, interaction: discord.Interaction) -> None:
        async def run(responder: Responder) -> None:
            me: discord.abc.User | None = (
                interaction.guild.me if interaction.guild is not None else None
            )
            me = me or self.context.client.user
            text = help_text(responder.language, bot_name=me.display_name if me else "Leafbot")
            await responder.private(**help_message(text, responder.language))

        await self.errors.run(interaction, run)

    async def rules(self, interaction: discord.Interaction, game: str) -> None:
        async def run(responder: Responder) -> None:
            if game not in tutorial_games():
                # a game without a tutorial: its rules in a few words, from its spec
                summary = phrase(responder.language, get_spec(game).summary())
                await responder.private(
                    translate(
                        responder.language,
                        "bot.learning.summary",
                        game=game_title(game),
                        summary=summary,
                    )
                )
                return
            message = await self.page_message(responder, game, 1)
            await responder.private(**message.send_kwargs())

        await self.errors.run(interaction, run)

    # ---- clicks ----------------------------------------------------------------------
    async def _click(self, responder: Responder, number: int, version: int, action: str) -> None:
        if action.startswith(PRACTICE):
            await self._practice(responder, action[len(PRACTICE) :])
            return
        opens = action.startswith(OPEN)
        game = action[len(OPEN) :] if opens else action
        if game not in tutorial_games():
            raise UserFacingError("bot.learning.no_tutorial")
        message = await self.page_message(responder, game, number)
        # /help's buttons open the tutorial in a message of its own (so /help stays to
        # pick another game); a page's buttons turn that page.
        if opens or not await responder.update_origin(**message.edit_kwargs()):
            await responder.private(**message.send_kwargs())

    async def _practice(self, responder: Responder, game: str) -> None:
        """A practice game against the bot, started at once in the tutorial's channel."""
        interaction = responder.interaction
        if interaction.guild_id is None or interaction.channel_id is None:
            raise UserFacingError("bot.learning.practice_in_server")
        if game not in tutorial_games():
            raise UserFacingError("bot.learning.no_tutorial")
        guild_id, channel_id, user_id = (
            interaction.guild_id,
            interaction.channel_id,
            responder.user_id,
        )
        if get_spec(game).kind is GameKind.CARDS:
            # Leiff: a table of the member and bot seats, dealt at once.
            lobby = await self.service.open_lobby(guild_id, channel_id, user_id)
            match_id = match_of(lobby).id
            for _ in range(LEIFF_PRACTICE_BOTS):
                await self.service.add_bot_seat(match_id, user_id, version=None)
            update = await self.service.start_lobby(match_id, user_id, version=None)
        else:
            me = self.context.client.user
            assert me is not None  # logged in: the client is serving interactions
            update = await self.service.challenge(
                guild_id, channel_id, user_id, game, me.id, level=PRACTICE_LEVEL
            )
        await self.delivery.publish(update, responder)

    # ---- the slash commands ----------------------------------------------------------
    def commands(self) -> list[app_commands.Command[Any, ..., None]]:
        feature = self

        @app_commands.command(
            name=command_text("command.help.name"),
            description=command_text("command.help.description"),
        )
        async def help_command(interaction: discord.Interaction) -> None:
            await feature.help(interaction)

        @app_commands.command(
            name=command_text("command.rules.name"),
            description=command_text("command.rules.description"),
        )
        @app_commands.rename(game=command_text("command.option.game"))
        @app_commands.describe(game=command_text("command.rules.game"))
        @app_commands.choices(game=game_choices())
        async def rules_command(
            interaction: discord.Interaction, game: app_commands.Choice[str]
        ) -> None:
            await feature.rules(interaction, game.value)

        return [help_command, rules_command]
