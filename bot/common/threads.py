"""Threads the bot opens for something that lives a while (a match, a tournament's event):
open one under a channel, post into it, reopen it when Discord archived it meanwhile, and
archive it at the end. Nothing here knows about matches: :mod:`bot.delivery.match_threads`
uses it for a match, a tournament may use it for its event.

Within Discord's rules (docs/discord-simulator.md, "Threads"):

- a thread's name is 1 to 100 characters: :func:`thread_name` makes one from parts that
  came from users (display names) safe to show: one line, no mention syntax, cut with "…";
- opening needs the bot's *Create Public Threads* and, to post, *Send Messages in
  Threads* in the channel: :func:`missing_permissions` says which of them it lacks (from
  discord.py's cache: no request), so a caller can play in the channel instead and say why;
- a thread is opened from a message of the channel (one request, the thread shows under
  that message, which is how a reader finds it) or, without one, as a public thread
  (discord.py would make a private one unless told);
- it archives itself after ``AUTO_ARCHIVE_MINUTES`` without a message (the longest Discord
  allows, a week: a daily match may wait days for a move); an archived thread refuses
  messages, so :meth:`BotThreads.reopen` unarchives it first (one request, only when
  discord.py's cache, which drops archived threads, does not know it as open);
- the bot archives its own thread as its creator (no *Manage Threads* needed).
"""

from __future__ import annotations

import logging
from typing import Final, Literal

import discord

from bot.common.names import clean_name

log = logging.getLogger(__name__)

NAME_LIMIT = 100
AUTO_ARCHIVE_MINUTES: Final[Literal[10080]] = 10080
#: The permissions a thread of the bot's needs, as discord.py names them.
THREAD_PERMISSIONS = ("create_public_threads", "send_messages_in_threads")
THREAD_ARCHIVED = 50083  # Discord: the thread is archived
UNKNOWN_CHANNEL = 10003


def thread_name(*parts: str) -> str:
    """A thread's name from its parts ("Lefe", "alice vs bob" → "Lefe · alice vs bob"):
    one line, no mention syntax (a name never pings anyone), at most 100 characters."""
    flat = " · ".join(" ".join(part.split()) for part in parts if part.strip())
    safe = discord.utils.escape_mentions(flat) or "?"
    return safe if len(safe) <= NAME_LIMIT else safe[: NAME_LIMIT - 1].rstrip() + "…"


def player_name(name: str) -> str:
    """A display name as a thread's name shows it (one line, bounded)."""
    return clean_name(name)


def missing_permissions(channel: discord.TextChannel) -> list[str]:
    """The thread permissions the bot lacks in ``channel`` (discord.py's names; empty:
    none), from discord.py's cache."""
    permissions = channel.permissions_for(channel.guild.me)
    return [name for name in THREAD_PERMISSIONS if not getattr(permissions, name)]


class BotThreads:
    """Open, reopen and archive the bot's threads through one client."""

    def __init__(self, client: discord.Client) -> None:
        self.client = client

    async def open(
        self,
        channel: discord.TextChannel | discord.PartialMessageable,
        name: str,
        *,
        from_message: int | None = None,
    ) -> discord.Thread:
        """A public thread under ``channel`` named ``name`` (already :func:`thread_name`),
        started from the channel's message ``from_message`` when given (one request; the
        channel may then be known by its id alone)."""
        if from_message is not None:
            message = channel.get_partial_message(from_message)
            return await message.create_thread(
                name=name, auto_archive_duration=AUTO_ARCHIVE_MINUTES
            )
        assert isinstance(channel, discord.TextChannel)
        return await channel.create_thread(
            name=name,
            type=discord.ChannelType.public_thread,
            auto_archive_duration=AUTO_ARCHIVE_MINUTES,
        )

    def is_open(self, thread_id: int) -> bool:
        """Whether discord.py knows the thread as open (it drops archived ones, and a start
        gets only the open ones from Discord)."""
        thread = self.client.get_channel(thread_id)
        return isinstance(thread, discord.Thread) and not thread.archived

    async def reopen(self, thread_id: int) -> bool:
        """Make sure the thread takes messages: unarchive it if it is not known as open.
        False when it is gone (deleted) or cannot be reopened (locked by a moderator)."""
        if self.is_open(thread_id):
            return True
        try:
            await self.client.http.edit_channel(thread_id, archived=False)
        except discord.NotFound:
            return False
        except discord.HTTPException as error:
            log.warning("could not reopen thread %s: %s", thread_id, error)
            return False
        return True

    async def archive(self, thread_id: int) -> bool:
        """Archive the bot's thread (done already, or gone: nothing to do)."""
        try:
            await self.client.http.edit_channel(thread_id, archived=True)
        except discord.HTTPException as error:
            if error.code not in (THREAD_ARCHIVED, UNKNOWN_CHANNEL):
                log.warning("could not archive thread %s: %s", thread_id, error)
                return False
        return True
