"""Who reads which language.

- A member's private answers (ephemeral replies) and their DMs follow their own Discord
  language (``interaction.locale``). Every interaction tells it; the last one seen is kept
  in memory and, when it changes, in the database, so a DM sent later by the clock or a
  bot turn (no interaction at hand) still speaks it, also after a restart or from another
  process.
- Channel messages follow the server's language: the ``language`` setting of
  ``/settings`` when set, else the server's preferred locale (Discord's community setting).
- Anything not supported reads English.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

import discord

from i18n import DEFAULT_LANGUAGE, language_for


class Languages:
    """The languages of members and servers."""

    def __init__(self, client: discord.Client) -> None:
        self._client = client
        self._members: dict[int, str] = {}

    def remember(self, user_id: int, locale: object) -> None:
        """A member's Discord locale as an interaction reported it."""
        self._members[user_id] = language_for(locale)

    async def remember_interaction(self, interaction: discord.Interaction) -> None:
        self.remember(interaction.user.id, interaction.locale)

    async def member(self, user_id: int) -> str:
        """The language of a member's private messages (English if never seen)."""
        return self._members.get(user_id, DEFAULT_LANGUAGE)

    async def members(self, user_ids: Iterable[int]) -> dict[int, str]:
        return {user_id: await self.member(user_id) for user_id in user_ids}

    async def server(self, guild_id: int | None) -> str:
        """The language of a server's channel messages."""
        guild: Any = self._client.get_guild(guild_id) if guild_id is not None else None
        if guild is None:
            return DEFAULT_LANGUAGE
        return language_for(guild.preferred_locale)
