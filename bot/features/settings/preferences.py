"""``/prefs``: a member's own preferences, the same on every server and in DMs.

- ``hints:on|off``: dots on the board picture where the member may play, while it is their
  turn. Without a choice they are on for a member's first
  :data:`~bot.service.preferences.HINT_GAMES` games of each game. The dots are drawn on
  the channel's board picture of that member's turn: where a stone may go is no secret in
  these games (everyone can work it out from the board), and the board message of their
  turn is the one they look at to choose a move; a private copy would cost a message per
  move, and Discord only lets the bot answer privately when the member acts.
- ``theme:classic|night|paper``: the colours of the pictures only the member sees (their
  Leiff hand in DMs or privately, tutorial pages, replays, refused moves); pictures in the
  channel keep the server's theme (``/settings theme``), since everybody sees them.

Without options, ``/prefs`` shows what the member chose and what the defaults are.
"""

from __future__ import annotations

from typing import Any

import discord
from discord import app_commands

from bot.common.context import Context
from bot.common.errors import ErrorHandler
from bot.common.responder import Responder
from bot.common.translator import command_text
from bot.features.settings.values import THEME_TEXT_IDS
from bot.service.preferences import HINT_GAMES, UNCHANGED
from i18n import translate
from render.themes import list_themes


class Preferences:
    """``/prefs [hints] [theme]``."""

    def __init__(self, context: Context, errors: ErrorHandler) -> None:
        self.context = context
        self.errors = errors

    async def prefs(
        self, interaction: discord.Interaction, hints: bool | None, theme: str | None
    ) -> None:
        async def run(responder: Responder) -> None:
            service = self.context.service
            if hints is None and theme is None:
                chosen = await service.preferences(responder.user_id)
            else:
                chosen = await service.set_preferences(
                    responder.user_id,
                    hints=UNCHANGED if hints is None else hints,
                    theme=UNCHANGED if theme is None else theme,
                )
            await responder.private(describe(responder.language, chosen.hints, chosen.theme))

        await self.errors.run(interaction, run)

    def commands(self) -> list[app_commands.Command[Any, ..., None]]:
        feature = self

        @app_commands.command(
            name=command_text("command.prefs.name"),
            description=command_text("command.prefs.description"),
        )
        @app_commands.rename(
            hints=command_text("command.option.hints"), theme=command_text("command.option.theme")
        )
        @app_commands.describe(
            hints=command_text("command.prefs.hints"), theme=command_text("command.prefs.theme")
        )
        @app_commands.choices(
            hints=[
                app_commands.Choice(name=command_text("command.prefs.hints.on"), value="on"),
                app_commands.Choice(name=command_text("command.prefs.hints.off"), value="off"),
            ],
            theme=[
                app_commands.Choice(name=command_text(THEME_TEXT_IDS[name]), value=name)
                for name in list_themes()
            ],
        )
        async def prefs_command(
            interaction: discord.Interaction,
            hints: app_commands.Choice[str] | None = None,
            theme: app_commands.Choice[str] | None = None,
        ) -> None:
            await feature.prefs(
                interaction,
                None if hints is None else hints.value == "on",
                None if theme is None else theme.value,
            )

        return [prefs_command]


def describe(language: str, hints: bool | None, theme: str | None) -> str:
    """What the member chose, each line with its default, in their language."""
    if hints is None:
        hint_line = translate(language, "bot.prefs.hints.default", games=HINT_GAMES)
    elif hints:
        hint_line = translate(language, "bot.prefs.hints.on")
    else:
        hint_line = translate(language, "bot.prefs.hints.off")
    if theme is None:
        theme_line = translate(language, "bot.prefs.theme.server")
    else:
        theme_line = translate(
            language, "bot.prefs.theme.chosen", theme=translate(language, THEME_TEXT_IDS[theme])
        )
    return "\n".join((translate(language, "bot.prefs.title"), hint_line, theme_line))
