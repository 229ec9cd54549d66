"""Puzzles: ``/puzzle [game]``, answers through ``/move``, and each server's daily puzzle.

``/puzzle`` answers privately with the untried puzzle nearest the member's puzzle rating:
its position, whose move it is, where it came from ("from alice vs bob, move 23") and the
member's rating and streak. The member answers with ``/move`` (while a puzzle is open,
within the hour, ``/move`` without ``match:`` answers it): right or wrong, the answer says
so, draws the solution line on the board (numbered in order) and shows the new rating.

The daily puzzle: a server that chose a channel (``/settings puzzle_channel``) gets one a
day there, posted by whichever process claims the day first (the database's row for the
day is the claim), with a **Solve** button that opens it for the member; the message lists
who solved it.
"""

from __future__ import annotations

import logging
from typing import Any

import discord
from discord import app_commands

from bot.common.components import Choice
from bot.common.context import Context
from bot.common.custom_ids import PUZZLE
from bot.common.errors import ErrorHandler
from bot.common.games import game_title
from bot.common.outgoing import Outgoing
from bot.common.responder import Responder
from bot.common.routing import ComponentRouter
from bot.common.themes import member_theme
from bot.common.translator import command_text
from bot.features.review.feature import Page
from engine import board_game_names
from i18n import translate
from matchcore.learning_records import PuzzleAnswer, StoredPuzzle
from matchcore.service.protocol import GameService
from wording import puzzle_words

log = logging.getLogger(__name__)

SOLVE = "~solve"


class PuzzleDesk:
    """``/puzzle``, answers and the daily puzzle."""

    def __init__(self, context: Context, errors: ErrorHandler) -> None:
        self.context = context
        self.errors = errors

    def register(self, router: ComponentRouter) -> None:
        router.route(PUZZLE, self._click)

    @property
    def service(self) -> GameService:
        return self.context.service

    # ---- showing a puzzle ----------------------------------------------------------------
    async def command(self, interaction: discord.Interaction, game: str | None) -> None:
        async def run(responder: Responder) -> None:
            puzzle, _ = await self.service.puzzles.next_puzzle(
                responder.user_id, interaction.guild_id, game
            )
            page = await self.puzzle_page(responder, puzzle)
            await responder.private(**page.send())

        await self.errors.run(interaction, run)

    async def puzzle_page(self, responder: Responder, stored: StoredPuzzle) -> Page:
        language = responder.language
        theme = await member_theme(self.service, responder.user_id, responder.interaction.guild_id)
        player = await self.service.puzzles.player(responder.user_id)
        puzzle = stored.puzzle
        colour = translate(language, f"colour.{puzzle.to_move}")
        lines = [
            puzzle_words.title(language, puzzle, stored.id),
            await self.source_line(language, stored),
            puzzle_words.how(language, puzzle, stored.rating),
            translate(
                language,
                "bot.puzzle.you",
                rating=round(player.rating),
                streak=player.streak,
            ),
        ]
        caption = translate(language, "bot.puzzle.caption", colour=colour)
        picture = await self.context.painter.puzzle_png(
            puzzle.game, puzzle.position().to_json(), (), caption, language, theme
        )
        return Page("\n".join(line for line in lines if line), picture, None, "puzzle.png")

    async def source_line(self, language: str, stored: StoredPuzzle) -> str:
        users = puzzle_words.user_ids(stored.puzzle.source)
        players = None
        if users is not None:
            first, second = [
                await self.context.names.name(u) if u is not None else "Leafbot" for u in users
            ]
            players = (first, second)
        return puzzle_words.source(language, stored.puzzle.source, players)

    # ---- answering -----------------------------------------------------------------------
    async def answer(self, responder: Responder, move: str) -> bool:
        """Judge ``move`` as the member's answer to their open puzzle; False when they have
        none open (``/move`` is then a move in a match)."""
        answered = await self.service.puzzles.answer(responder.user_id, move)
        if answered is None:
            return False
        page = await self.answer_page(responder, answered)
        await responder.private(**page.send())
        guild_id = responder.interaction.guild_id
        if answered.solved and guild_id is not None:
            await self.refresh_daily(guild_id, answered.puzzle.id)
        return True

    async def answer_page(self, responder: Responder, answered: PuzzleAnswer) -> Page:
        language = responder.language
        theme = await member_theme(self.service, responder.user_id, responder.interaction.guild_id)
        puzzle = answered.puzzle.puzzle
        line = " ".join(puzzle.solution)
        lines = puzzle_words.verdict(language, answered)
        caption = translate(language, "bot.puzzle.line_caption", line=line)
        picture = await self.context.painter.puzzle_png(
            puzzle.game, puzzle.position().to_json(), puzzle.solution, caption, language, theme
        )
        return Page("\n".join(lines), picture, None, "solution.png")

    # ---- the daily puzzle ----------------------------------------------------------------
    async def _click(self, responder: Responder, puzzle_id: int, version: int, action: str) -> None:
        stored = await self.service.puzzles.show(
            responder.user_id, puzzle_id, responder.interaction.guild_id
        )
        page = await self.puzzle_page(responder, stored)
        await responder.private(**page.send())

    async def post_daily(self, guild: discord.Guild) -> bool:
        """Post today's puzzle in the server's chosen channel when this process claims it."""
        settings = await self.service.get_settings(guild.id)
        channel_id = settings.puzzle_channel
        if not channel_id:
            return False
        channel = guild.get_channel(channel_id)
        if not isinstance(channel, discord.TextChannel | discord.Thread):
            return False
        stored = await self.service.puzzles.claim_daily(guild.id, channel_id)
        if stored is None:
            return False
        language = settings.language or "en"
        text, picture = await self.daily_message(language, stored, [], settings.theme)
        outgoing = Outgoing(
            text,
            image=picture,
            filename="puzzle.png",
            choices=[
                Choice(SOLVE, translate(language, "bot.puzzle.solve"), discord.ButtonStyle.primary)
            ],
            scope=PUZZLE,
            target=stored.id,
            language=language,
        )
        message = await channel.send(**outgoing.send_kwargs())
        await self.service.puzzles.daily_posted(guild.id, message.id)
        return True

    async def daily_message(
        self, language: str, stored: StoredPuzzle, solvers: list[int], theme: str
    ) -> tuple[str, bytes]:
        puzzle = stored.puzzle
        colour = translate(language, f"colour.{puzzle.to_move}")
        lines = [
            translate(language, "bot.puzzle.daily", game=game_title(puzzle.game), colour=colour),
            await self.source_line(language, stored),
            translate(language, "bot.puzzle.daily_how"),
        ]
        if solvers:
            names = ", ".join(f"<@{user_id}>" for user_id in solvers)
            lines.append(translate(language, "bot.puzzle.solved_by", names=names))
        caption = translate(language, "bot.puzzle.caption", colour=colour)
        picture = await self.context.painter.puzzle_png(
            puzzle.game, puzzle.position().to_json(), (), caption, language, theme
        )
        return "\n".join(line for line in lines if line), picture

    async def refresh_daily(self, guild_id: int, puzzle_id: int) -> None:
        """After a solve: the daily message lists who solved it (when it is the daily)."""
        daily = await self.service.puzzles.daily(guild_id)
        if daily is None or daily.puzzle_id != puzzle_id or daily.message_id is None:
            return
        channel = self.context.client.get_channel(daily.channel_id)
        if not isinstance(channel, discord.TextChannel | discord.Thread):
            return
        settings = await self.service.get_settings(guild_id)
        solvers = await self.service.puzzles.solvers(puzzle_id, guild_id)
        lines = []
        language = settings.language or "en"
        stored = await self.service.puzzles.get(puzzle_id)
        if stored is None:
            return
        text, _ = await self.daily_message(language, stored, solvers, settings.theme)
        lines.append(text)
        try:
            await channel.get_partial_message(daily.message_id).edit(content="\n".join(lines))
        except discord.HTTPException:
            log.warning("could not update the daily puzzle in %s", daily.channel_id)

    # ---- the slash command ---------------------------------------------------------------
    def commands(self) -> list[app_commands.Command[Any, ..., None]]:
        feature = self
        choices = [
            app_commands.Choice(name=game_title(name), value=name) for name in board_game_names()
        ]

        @app_commands.command(
            name=command_text("command.puzzle.name"),
            description=command_text("command.puzzle.description"),
        )
        @app_commands.rename(game=command_text("command.option.game"))
        @app_commands.describe(game=command_text("command.puzzle.game"))
        @app_commands.choices(game=choices)
        async def puzzle_command(
            interaction: discord.Interaction, game: app_commands.Choice[str] | None = None
        ) -> None:
            await feature.command(interaction, game.value if game else None)

        return [puzzle_command]
