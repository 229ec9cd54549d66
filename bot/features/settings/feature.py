"""The settings feature: ``/settings``, a server's own settings (Manage Server).

Members' own preferences (``/prefs``) belong here too, beside the server's: a module of
this package each.
"""

from __future__ import annotations

from typing import Any

import discord
from discord import app_commands

from bot.common.context import Context
from bot.common.errors import ErrorHandler, UserFacingError
from bot.common.languages import LANGUAGE_NAMES
from bot.common.responder import Responder
from bot.common.translator import command_text
from bot.features.settings.values import SETTING_TEXT_IDS, describe, setting_value
from i18n import language_for, translate


class ServerSettings:
    """``/settings [key] [value]``: show all settings, or change one."""

    def __init__(self, context: Context, errors: ErrorHandler) -> None:
        self.context = context
        self.errors = errors

    async def settings(
        self,
        interaction: discord.Interaction,
        key: str | None,
        value: str | None,
        language: str | None = None,
    ) -> None:
        """Show the settings, or change ``key`` to ``value`` and/or the server's ``language``
        ("en", "de", or "" for the server's Discord locale)."""

        async def run(responder: Responder) -> None:
            if interaction.guild_id is None:
                raise UserFacingError("bot.settings.error.server_only")
            service = self.context.service
            allowed = bool(interaction.permissions.manage_guild)
            changes: dict[str, Any] = {}
            if key is not None:
                if value is None:
                    raise UserFacingError("bot.settings.error.no_value", key=key)
                changes[key] = setting_value(key, value)
            if language is not None:
                changes["language"] = language
            if not changes:
                if not allowed:
                    raise UserFacingError("bot.error.manage_server")
                current = await service.get_settings(interaction.guild_id)
            else:
                current = await service.update_settings(
                    interaction.guild_id, responder.user_id, allowed, **changes
                )
            title = translate(responder.language, "bot.settings.title")
            server_default = self.context.languages.server_default(
                interaction.guild_id
            ) or language_for(interaction.guild_locale)
            body = "\n".join(describe(responder.language, current, server_default))
            await responder.private(f"{title}\n{body}")

        await self.errors.run(interaction, run)

    def commands(self) -> list[app_commands.Command[Any, ..., None]]:
        feature = self

        @app_commands.command(
            name=command_text("command.settings.name"),
            description=command_text("command.settings.description"),
        )
        @app_commands.rename(
            key=command_text("command.option.key"),
            value=command_text("command.option.value"),
            language=command_text("command.option.language"),
        )
        @app_commands.describe(
            key=command_text("command.settings.key"),
            value=command_text("command.settings.value"),
            language=command_text("command.settings.language"),
        )
        @app_commands.choices(
            key=[
                app_commands.Choice(name=command_text(text), value=key)
                for key, text in SETTING_TEXT_IDS.items()
            ],
            # each language by its own name; the last choice follows the server's locale
            language=[
                *(
                    app_commands.Choice(name=name, value=code)
                    for code, name in LANGUAGE_NAMES.items()
                ),
                app_commands.Choice(name=command_text("command.settings.language.auto"), value=""),
            ],
        )
        @app_commands.default_permissions(manage_guild=True)
        @app_commands.guild_only()
        async def settings_command(
            interaction: discord.Interaction,
            key: app_commands.Choice[str] | None = None,
            value: str | None = None,
            language: app_commands.Choice[str] | None = None,
        ) -> None:
            await feature.settings(
                interaction,
                key.value if key else None,
                value,
                language.value if language else None,
            )

        return [settings_command]
