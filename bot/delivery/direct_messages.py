"""A player's private message in their DMs, and what the bot knows of refused DMs.

Discord refuses DMs from a bot to a member who closed them (error 50007). Who refused is
kept in the database by the delivery's record store (``dm_failures``), so every process knows it; a
refused member is tried again at the next table, whenever they ask for their private
message, and otherwise at most every :data:`DM_RETRY_SECONDS`. The DM channel of each user
is kept per process (Discord never changes it).
"""

from __future__ import annotations

import logging

import discord

from bot.common.context import Context
from bot.common.outgoing import Outgoing
from bot.delivery.records import DeliveryRecords, private_shows
from bot.delivery.redelivery import RECENT_MESSAGES, nonce_of, shown_versions
from matchcore.records import DmFailure
from matchcore.service.results import MatchInfo

log = logging.getLogger(__name__)

DM_CLOSED = 50007
# After Discord refused a user's DMs, they are tried again at the next table, whenever the
# player asks for their private message, and otherwise at most this often (the player may
# have opened them meanwhile; each try that fails costs one request).
DM_RETRY_SECONDS = 600.0


class DirectMessages:
    """Sends a player's private message as a DM, and remembers refusals."""

    def __init__(self, context: Context, records: DeliveryRecords) -> None:
        self.context = context
        self.records = records
        # user id -> their DM channel id (Discord never changes it: safe to keep per process).
        # Everything else another process may need is in the database: the users whose DMs
        # refused us and the tables told so (``DeliveryRecords.dm_failures``), every message id.
        self._channels: dict[int, int] = {}
        # (match, user) sent again after a failure or a start: a process that died may have
        # posted their first DM and not recorded it, and Discord forgets the nonce after a
        # few minutes, so the DM channel's newest messages are read before posting one.
        self.look_first: set[tuple[int, int]] = set()

    def forget(self) -> None:
        self._channels.clear()
        self.look_first.clear()

    async def refusal(self, user_id: int) -> DmFailure | None:
        """The user's DM refusal as every process knows it (a ``DmFailure``), or None."""
        return (await self.records.dm_failures([user_id])).get(user_id)

    def worth_trying(self, refusal: DmFailure | None, match_id: int) -> bool:
        """Whether to try a DM despite an earlier refusal (see :data:`DM_RETRY_SECONDS`)."""
        return (
            refusal is None
            or match_id not in refusal.noticed
            or self.context.now() - refusal.failed_at >= DM_RETRY_SECONDS
        )

    async def send(
        self, match: MatchInfo, user_id: int, outgoing: Outgoing, *, refused_before: bool
    ) -> bool:
        """Send (or edit) the player's private DM message; False when Discord refuses their
        DMs (50007), which is remembered (in the database, for every process) until a DM
        gets through again. ``refused_before``: the DMs were refused last time."""
        records = self.records
        try:
            await self._deliver(match, user_id, outgoing)
        except discord.Forbidden as error:
            if error.code != DM_CLOSED:
                raise
            await records.note_dm_failure(user_id, error.code)
            log.info("DMs closed for user %s; offering the in-channel hand button", user_id)
            return False
        if refused_before:
            await records.note_dm_delivered(user_id)
            log.info("DMs open again for user %s", user_id)
        return True

    async def _deliver(self, match: MatchInfo, user_id: int, outgoing: Outgoing) -> None:
        client = self.context.client
        channel_id = self._channels.get(user_id)
        if channel_id is None:
            user = client.get_user(user_id) or await client.fetch_user(user_id)
            dm = await user.create_dm()
            channel_id = self._channels[user_id] = dm.id
        channel = client.get_partial_messageable(channel_id, type=discord.ChannelType.private)
        key = f"hand:{user_id}"
        previous = match.messages.get(key)
        if previous:
            try:
                await channel.get_partial_message(previous).edit(**outgoing.edit_kwargs())
                return
            except discord.NotFound:
                pass
        if (match.id, user_id) in self.look_first:
            self.look_first.discard((match.id, user_id))
            found = await _recent_of_match(channel, match.id)
            if found is not None:  # posted, never recorded: edited and recorded now
                await channel.get_partial_message(found).edit(**outgoing.edit_kwargs())
                await self.records.set(
                    match.id, {key: found, private_shows(user_id): match.version}
                )
                return
        # (a nonce: the same version sent again after a kill is the same message)
        posted = await channel.send(
            nonce=nonce_of(match.id, match.version, str(user_id)), **outgoing.send_kwargs()
        )
        # the message and the version it shows in one statement: a start after a crash
        # edits it rather than posting a second one
        await self.records.set(match.id, {key: posted.id, private_shows(user_id): match.version})


async def _recent_of_match(channel: discord.PartialMessageable, match_id: int) -> int | None:
    """The id of one of the DM channel's newest messages that belongs to ``match_id`` (its
    buttons carry the match), or None."""
    try:
        async for message in channel.history(limit=RECENT_MESSAGES):
            if shown_versions(message, match_id):
                return message.id
    except discord.HTTPException as error:
        log.info("cannot read the DMs in %s: %s", channel.id, error)
    return None
