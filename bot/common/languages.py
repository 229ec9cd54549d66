"""Who reads which language.

- A member's private answers (ephemeral replies) and their DMs follow their own Discord
  language (``interaction.locale``). Every interaction tells it; the last one seen is kept
  in memory and, when it changes, in the database, so a DM sent later by the clock or a
  bot turn (no interaction at hand) still speaks it, also after a restart or from another
  process. An unchanged language is stored again once a day of a member's interactions
  (``REFRESH_SECONDS``): the database forgets the languages of members not seen for months
  (docs/service.md, "What is kept"), never those of members who still play.
- Channel messages follow the server's language: the ``language`` setting of
  ``/settings`` when set, else the server's preferred locale (Discord's community setting).
- Anything not supported reads English.
"""

from __future__ import annotations

import logging
import time
from collections import OrderedDict
from collections.abc import Callable, Iterable
from typing import Protocol

import discord

from i18n import DEFAULT_LANGUAGE, language_for
from matchcore.service.protocol import GameService

log = logging.getLogger(__name__)

# Each language by its own name (the same in every language, as on a language menu).
LANGUAGE_NAMES = {"en": "English", "de": "Deutsch"}

# How long a language this process stored stands before an interaction that
# shows it again stores it again, with the time it was seen.
REFRESH_SECONDS = 86_400.0

# Members whose language one process keeps in memory, the most recently seen first: the
# database holds every member's, so a member forgotten here costs one read when next needed
# (about 200 bytes a member: some 10 MB at this size, whatever the bot's reach).
REMEMBERED_MEMBERS = 50_000


class ServiceHolder(Protocol):
    """What this part needs of the client's context (``bot.common.context.Context``, which
    holds a :class:`Languages` and so is not imported here): the service, once started."""

    @property
    def has_service(self) -> bool: ...

    @property
    def service(self) -> GameService: ...


class Languages:
    """The languages of members and servers."""

    def __init__(
        self,
        client: discord.Client,
        context: ServiceHolder,
        *,
        remembered_members: int = REMEMBERED_MEMBERS,
    ) -> None:
        self._client = client
        self._context = context  # its service is there once the client has started
        # each member's language and when this process last stored it (None: not by this
        # process), least recently used first, at most ``remembered_members`` of them
        self._members: OrderedDict[int, tuple[str, float | None]] = OrderedDict()
        self._capacity = max(1, remembered_members)
        self.clock: Callable[[], float] = time.monotonic
        self._servers: dict[int, str] = {}  # a server's Discord locale, from interactions

    def _keep(self, user_id: int, language: str, stored_at: float | None) -> None:
        self._members[user_id] = (language, stored_at)
        self._members.move_to_end(user_id)
        while len(self._members) > self._capacity:
            self._members.popitem(last=False)

    def remembered(self) -> int:
        """How many members' languages this process holds in memory."""
        return len(self._members)

    @property
    def _service(self) -> GameService | None:
        return self._context.service if self._context.has_service else None

    async def remember_interaction(self, interaction: discord.Interaction) -> None:
        """What an interaction says: the member's language (stored when it changed) and the
        server's Discord locale."""
        if interaction.guild_id is not None and interaction.guild_locale is not None:
            self._servers[interaction.guild_id] = language_for(interaction.guild_locale)
        await self.remember(interaction.user.id, language_for(interaction.locale))

    async def remember(self, user_id: int, language: str) -> None:
        now = self.clock()
        known, stored_at = self._members.get(user_id, (None, None))
        fresh = stored_at is not None and now - stored_at < REFRESH_SECONDS
        if known == language and fresh:
            self._members.move_to_end(user_id)
            return
        service = self._service
        if service is None:
            self._keep(user_id, language, None)
            return
        self._keep(user_id, language, now)
        try:
            await service.note_member_language(user_id, language)
        except Exception:
            # Only later DMs depend on it, and the next interaction tries again.
            self._members.pop(user_id, None)
            log.warning("could not store the language of user %s", user_id, exc_info=True)

    async def member(self, user_id: int) -> str:
        """The language of a member's private messages (English if never seen)."""
        return (await self.members([user_id]))[user_id]

    async def members(self, user_ids: Iterable[int]) -> dict[int, str]:
        """The languages of several members' private messages, with one database read at
        most (for those this process has not seen)."""
        wanted = list(dict.fromkeys(user_ids))
        found = {u: self._members[u][0] for u in wanted if u in self._members}
        unknown = [u for u in wanted if u not in found and u > 0]
        service = self._service
        if unknown and service is not None:
            for user_id, language in (await service.member_languages(unknown)).items():
                found[user_id] = language
                self._keep(user_id, language, None)
        return {u: found.get(u, DEFAULT_LANGUAGE) for u in wanted}

    async def server(self, guild_id: int | None) -> str:
        """The language of a server's channel messages: its ``language`` setting, else its
        Discord locale, else English."""
        if guild_id is None:
            return DEFAULT_LANGUAGE
        service = self._service
        if service is not None:
            chosen = (await service.get_settings(guild_id)).language
            if chosen:
                return str(chosen)
        known = self.server_default(guild_id)
        if known is not None:
            return known
        # A server of another shard (a DM click is handled by shard 0's process, which may
        # post to any server's channel): ask Discord once, then remember it.
        try:
            guild = await self._client.fetch_guild(guild_id, with_counts=False)
        except discord.HTTPException:
            log.warning("could not read the language of server %s", guild_id)
            return DEFAULT_LANGUAGE
        self._servers[guild_id] = language_for(guild.preferred_locale)
        return self._servers[guild_id]

    def server_default(self, guild_id: int) -> str | None:
        """The language a server's Discord locale asks for (its community setting), if
        this process knows the server (its shard's cache, or an interaction from it)."""
        guild = self._client.get_guild(guild_id)
        if guild is not None:
            return language_for(guild.preferred_locale)
        return self._servers.get(guild_id)
