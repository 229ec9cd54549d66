"""The settings feature: ``/settings``, a server's own settings (Manage Server).

``key`` offers each setting by its name in the admin's language (the stored key never
changes); ``value`` is typed in the words of either language and autocompleted with the
values of the setting chosen (``values.py`` reads and writes them, ``suggestions.py``
offers them). Members' own preferences (``/prefs``) belong here too, beside the
server's: a module of this package each.
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
from bot.features.settings.suggestions import suggestions
from bot.features.settings.values import (
    SETTING_TEXT_IDS,
    describe,
    read_value,
    refusal,
    setting_line,
    setting_name,
)
from i18n import language_for, translate
from matchcore.service import InvalidSettings

# the name Discord gives the key option in an autocomplete's namespace (its default name)
KEY_OPTION = command_text("command.option.key").message


def game_channels(guild: discord.Guild | None) -> list[tuple[str, int]]:
    """The server's channels games may be allowed in: (name, id)."""
    if guild is None:
        return []
    return [
        (channel.name, channel.id)
        for channel in guild.channels
        if isinstance(channel, discord.TextChannel | discord.ForumChannel)
    ]


def server_roles(guild: discord.Guild | None) -> list[tuple[str, int]]:
    """The server's roles a setting may name (not @everyone, not a bot's own): (name, id)."""
    if guild is None:
        return []
    return [
        (role.name, role.id) for role in guild.roles if not role.is_default() and not role.managed
    ]


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
            if not interaction.permissions.manage_guild:
                raise UserFacingError("bot.error.manage_server")
            service = self.context.service
            words = responder.language
            changes: dict[str, Any] = {}
            if key is None and value is not None:
                raise UserFacingError("bot.settings.error.no_key")
            if key is not None:
                if value is None:
                    raise UserFacingError(
                        "bot.settings.error.no_value", name=setting_name(words, key)
                    )
                by_name = {name.casefold(): id for name, id in game_channels(interaction.guild)}
                roles = {name.casefold(): id for name, id in server_roles(interaction.guild)}
                changes[key] = read_value(words, key, value, by_name, roles)
            if language is not None:
                changes["language"] = language
            if not changes:
                current = await service.get_settings(interaction.guild_id)
            else:
                try:
                    current = await service.update_settings(
                        interaction.guild_id,
                        responder.user_id,
                        bool(interaction.permissions.manage_guild),
                        **changes,
                    )
                except InvalidSettings as error:
                    reworded = refusal(words, key, error) if key is not None else None
                    if reworded is None:
                        raise
                    raise reworded from error
            lines = [translate(words, "bot.settings.title")]
            server_default = self.context.languages.server_default(
                interaction.guild_id
            ) or language_for(interaction.guild_locale)
            described = describe(words, current, server_default)
            if key is not None:
                changed = setting_line(words, current, key)
                lines.append(translate(words, "bot.settings.changed", setting=changed))
            if language is not None:  # the list's first line is the language's
                lines.append(translate(words, "bot.settings.changed", setting=described[0]))
            lines += described
            await responder.private("\n".join(lines))

        await self.errors.run(interaction, run)

    async def value_autocomplete(
        self, interaction: discord.Interaction, current: str
    ) -> list[app_commands.Choice[str]]:
        """The values of the setting chosen in ``key`` that fit what was typed."""
        if interaction.guild_id is None or not interaction.permissions.manage_guild:
            return []
        key = getattr(interaction.namespace, KEY_OPTION, None)
        if not isinstance(key, str) or key not in SETTING_TEXT_IDS:
            return []
        settings = await self.context.service.get_settings(interaction.guild_id)
        offered = suggestions(
            language_for(interaction.locale),
            key,
            current,
            settings,
            game_channels(interaction.guild),
            interaction.channel_id,
            server_roles(interaction.guild),
        )
        return [app_commands.Choice(name=name, value=value) for name, value in offered]

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

        @settings_command.autocomplete("value")
        async def settings_value_autocomplete(
            interaction: discord.Interaction, current: str
        ) -> list[app_commands.Choice[str]]:
            return await feature.value_autocomplete(interaction, current)

        return [settings_command]
