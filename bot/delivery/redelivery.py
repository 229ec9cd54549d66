"""Messages of committed steps that did not go out yet, sent again until they land.

A step of a match is committed before its messages are sent, so a message Discord keeps
refusing for a while (429s beyond discord.py's retries, its 5xx, the network) must not be
lost: the delivery hands what it missed to :class:`Redelivery`, whose task per match sends
the match *as it is then* until every part went out. A later step's messages replace an
earlier step's that never went out. When all of a step went out, its version is recorded
as delivered; a start sends again every match whose recorded version is behind.

Each part is also recorded as it goes out, with the match's messages: the version the
channel shows (``delivered:channel``, in the same statement as a new channel message's id)
and, for a step not all of which went out, the version each player's private message
shows (``delivered:<user id>``). So a start sends again only the parts that are behind,
and never posts a second copy of a channel message that reached Discord. A match stored
before these records existed has none: its channel message is read back from Discord, and
the current one posted once only if that message shows an older version (or is gone).
"""

from __future__ import annotations

import asyncio
import hashlib
import logging
from collections.abc import Awaitable, Callable, Iterable, Mapping
from dataclasses import dataclass, field

import aiohttp
import discord

from bot.common.components import custom_ids
from bot.common.context import Context
from bot.common.custom_ids import ComponentId
from bot.common.outgoing import version_named
from bot.delivery.records import (
    CHANNEL_SHOWS,
    DELIVERED,
    Behind,
    DeliveryRecords,
    has_records,
    private_shows,
)
from matchcore.service.results import MatchInfo, Update

log = logging.getLogger(__name__)

# A start reads the matches to send again this many at a time.
RESUME_PAGE = 100
# How many of a channel's newest messages a start reads for one it posted but did not
# record before it stopped (a match's message is among the newest: nobody waited on it).
RECENT_MESSAGES = 20
# Redelivery waits this long after a failure, doubling up to the longest wait.
REDELIVERY_FIRST_SECONDS = 1.0
REDELIVERY_LONGEST_SECONDS = 60.0
__all__ = ["CHANNEL_SHOWS", "DELIVERED", "Redelivery", "Undelivered", "private_shows"]


def is_transient(error: BaseException) -> bool:
    """Worth sending again later: rate limits that outlasted discord.py's retries, Discord's
    own failures, the network. A refusal (400, 403, 404) stays a refusal."""
    if isinstance(error, discord.HTTPException):
        return error.status == 429 or error.status >= 500
    return isinstance(error, discord.RateLimited | aiohttp.ClientError | OSError | TimeoutError)


async def guarded(sending: Awaitable[None]) -> bool:
    """Run one send; False when it failed for a reason that passes (see
    :func:`is_transient`)."""
    try:
        await sending
    except Exception as error:
        if not is_transient(error):
            raise
        log.warning("a private message is held up: %s", error)
        return False
    return True


def shown_versions(message: discord.Message, match_id: int) -> list[int]:
    """The versions of ``match_id`` a message read back from Discord shows: those its
    buttons were drawn for (in rows, sections and boxes), and the one its picture is named
    for (:func:`bot.common.outgoing.picture_name`: a message without buttons says it so)."""
    versions = [
        decoded.version
        for custom_id in custom_ids(message.components)
        if (decoded := ComponentId.decode(custom_id)) is not None and decoded.target == match_id
    ]
    for attachment in message.attachments:
        named = version_named(attachment.filename, match_id)
        if named is not None:
            versions.append(named)
    return versions


async def channel_is_current(
    channel: discord.PartialMessageable | None, message_id: int | None, match: MatchInfo
) -> bool:
    """For a match kept before delivery records existed: whether its recorded channel
    message already shows the current version (read from its buttons' custom ids). A
    message whose buttons say nothing (none left) is taken as current: a second copy of a
    message that reached Discord is worse than an old picture, which ``/board`` redraws.
    A message that is gone is not."""
    if message_id is None or channel is None:
        return False
    try:
        message = await channel.fetch_message(message_id)
    except discord.NotFound:
        return False
    versions = shown_versions(message, match.id)
    return not versions or max(versions) >= match.version


def nonce_of(match_id: int, version: int, audience: str) -> str:
    """The nonce of the message showing ``version`` of a match to ``audience`` ("channel",
    a user id): Discord returns the message already made with it (``enforce_nonce``, which
    discord.py sets with every nonce) instead of a second one, for a few minutes; a sender
    killed after posting and before recording posts the same version again harmlessly."""
    digest = hashlib.blake2b(f"{match_id}:{version}:{audience}".encode(), digest_size=12)
    return digest.hexdigest()  # 24 characters (Discord takes 25 at most)


async def recent_showing(
    channel: discord.PartialMessageable | None, match: MatchInfo
) -> discord.Message | None:
    """One of the channel's newest messages that already shows ``match`` at its
    version (read from its buttons' custom ids), or None: the answer to a command or a
    click may have reached the channel before the process died, before it was recorded.
    A message without buttons (a board the bot is to answer) says it by its picture's
    name (:func:`shown_versions`)."""
    if channel is None:
        return None
    try:
        async for message in channel.history(limit=RECENT_MESSAGES):
            versions = shown_versions(message, match.id)
            if versions and max(versions) >= match.version:
                return message
    except discord.Forbidden:
        # no Read Message History in that channel: posting again beats never posting
        log.info("cannot read the recent messages of channel %s", channel.id)
    return None


@dataclass
class Undelivered:
    """What of a match's messages has not gone out yet: the channel message, players' DMs
    (``every_player``: every player's but those in ``up_to_date``, as after a restart
    nobody knows which). ``look_first``: the channel message was recorded by a version
    without delivery records; it is read back from Discord before anything is posted.
    ``look_recent``: after a start, the channel's newest messages are read first (one may
    show the step without having been recorded)."""

    public: bool = False
    users: set[int] = field(default_factory=set)
    every_player: bool = False
    up_to_date: set[int] = field(default_factory=set)
    look_first: bool = False
    look_recent: bool = False

    def __bool__(self) -> bool:
        return self.public or bool(self.users) or self.every_player

    def add(self, other: Undelivered) -> None:
        self.public |= other.public
        self.users |= other.users
        self.every_player |= other.every_player
        self.up_to_date &= other.up_to_date
        self.look_first &= other.look_first
        self.look_recent &= other.look_recent


class Redelivery:
    """What of each match did not go out yet, and the tasks that send it again."""

    def __init__(
        self,
        context: Context,
        records: DeliveryRecords,
        send_again: Callable[[int], Awaitable[None]],
    ) -> None:
        self.context = context
        self.records = records
        # sends the match as it is now, for what ``pending`` holds of it
        self.send_again = send_again
        self.pending: dict[int, Undelivered] = {}
        self._tasks: dict[int, asyncio.Task[None]] = {}
        # A step whose channel part goes out in the background is delivered when both that
        # and its private messages went out, in either order: the versions of each so far.
        self._shown: dict[int, int] = {}
        self._privates_sent: dict[int, int] = {}
        self._resuming: asyncio.Task[int] | None = None  # a start's search, page by page

    async def settle(
        self,
        update: Update,
        missed: Undelivered,
        done: Undelivered,
        *,
        whole: bool,
        public_later: bool = False,
        channel_recorded: bool = False,
    ) -> None:
        """After a publish: hand what did not go out to the match's redelivery task, and
        record what did. What went out now replaces what an earlier step could not send.
        ``public_later``: the channel part is being sent in the background
        (:meth:`public_shown` tells when it is shown). ``channel_recorded``: the channel's
        record of this version was written with its new message; a step with nothing
        private (a board move) is then recorded whole already: the outbox's only row of
        the chat front end, the channel's, is judged by it (one statement less a move)."""
        match = update.match
        if match is None:
            return
        pending = self.pending.get(match.id)
        if pending is not None:
            pending.public &= not done.public
            pending.users -= done.users
            if not pending:
                del self.pending[match.id]
        records = {private_shows(user): match.version for user in done.users}
        if missed:
            self.pending.setdefault(match.id, Undelivered()).add(missed)
            self._start(match.id)
        elif whole and match.id not in self.pending:
            if public_later and self._shown.get(match.id, -1) < match.version:
                # the channel part is still on its way: it records the whole step when shown
                self._privates_sent[match.id] = max(
                    match.version, self._privates_sent.get(match.id, -1)
                )
            else:
                self._forget(match.id)
                if not (channel_recorded and not done.users):
                    records = {DELIVERED: match.version}
        await self.record(match.id, records)

    async def public_shown(self, match_id: int, version: int) -> None:
        """A channel message sent in the background now shows ``version``: recorded, and
        the whole step as delivered when its private messages went out too."""
        self.note_shown(match_id, version)
        records = {CHANNEL_SHOWS: version}
        if match_id not in self.pending and self._privates_sent.get(match_id, -1) >= version:
            records[DELIVERED] = version
            self._forget(match_id)
        await self.record(match_id, records)

    async def already_shown(
        self,
        match: MatchInfo,
        kind: str,
        keeps: Callable[[discord.Message], bool],
        channel: discord.PartialMessageable | None,
        pending: Undelivered,
    ) -> bool:
        """After a start, before posting the channel part of ``match`` again: whether the
        channel already shows it. A match without records (``look_first``): its recorded
        ``kind`` of message is read back (:func:`channel_is_current`); one without any
        message recorded, and otherwise (``look_recent``), the channel's newest messages
        are read: one posted before the
        last stop and never recorded is recorded now, not posted again. ``keeps``: whether
        its buttons stay when a newer one comes (``MessageBuilder.keeps_buttons_of``)."""
        if pending.look_first:
            pending.look_first = False
            if match.messages.get(kind) is not None:
                if not await channel_is_current(channel, match.messages.get(kind), match):
                    return False
                self.note_shown(match.id, match.version)
                return True
            # nothing recorded at all: a match the clock started (a tournament's step)
            # whose first message may have gone out before the process died, unrecorded
        pending.look_recent = False
        found = await recent_showing(channel, match)
        if found is None:
            return False
        records = {kind: found.id, CHANNEL_SHOWS: match.version}
        if keeps(found):
            records[f"{kind}:kept"] = found.id
        await self.records.set(match.id, records)
        self.note_shown(match.id, match.version)
        return True

    def note_shown(self, match_id: int, version: int) -> None:
        """The channel shows ``version`` (known without sending it)."""
        self._shown[match_id] = max(version, self._shown.get(match_id, -1))

    def _forget(self, match_id: int) -> None:
        self._shown.pop(match_id, None)
        self._privates_sent.pop(match_id, None)

    def settle_missed(self, match_id: int, missed: Undelivered) -> None:
        """Hand a part of a match that could not go out now to its redelivery task."""
        self.pending.setdefault(match_id, Undelivered()).add(missed)
        self._start(match_id)

    async def record(self, match_id: int, records: Mapping[str, int]) -> None:
        """Write delivery records with the match's messages (one statement)."""
        if not records:
            return
        try:
            await self.records.set(match_id, records)
        except Exception:
            log.exception("could not record the delivery of match %s", match_id)

    async def record_delivered(self, match_id: int, version: int) -> None:
        await self.record(match_id, {DELIVERED: version})

    def start_resuming(self, runs_guild: Callable[[int], bool]) -> None:
        """At start, in the background: find the matches whose last step may not all have
        gone out, a page at a time (the service's indexed query reads no other match),
        and send again those of the servers ``runs_guild`` says this process runs."""
        self._resuming = asyncio.create_task(self._resume_all(runs_guild), name="resume")

    async def _resume_all(self, runs_guild: Callable[[int], bool]) -> int:
        after, count = 0, 0
        try:
            while True:
                page = await self.records.behind(after, RESUME_PAGE)
                count += self.resume(m for m in page if runs_guild(m.guild_id))
                if len(page) < RESUME_PAGE:
                    break
                after = page[-1].match_id
        except Exception:
            # the matches not reached are found by the next start (still behind)
            log.exception("could not look for the matches to send again after match %s", after)
        if count:
            log.info("sending %d matches again whose messages did not all go out", count)
        return count

    def resume(self, matches: Iterable[Behind]) -> int:
        """At start: send again what of each match may not have gone out (its delivered
        version is behind its version: the process stopped, or was killed, before all of
        it was sent): the channel message if the version it shows is behind, the private
        messages of the players whose record is behind. A match without any record (kept
        by a version before them) has its channel message looked at first. Returns how
        many matches."""
        count = 0
        for match in matches:
            pending = self.behind(match)
            if pending is None:
                continue
            # what the channel shows, as recorded: a channel part that is current needs no
            # showing before the step counts as delivered
            records = match.records
            self.note_shown(
                match.match_id, max(records.get(DELIVERED, -1), records.get(CHANNEL_SHOWS, -1))
            )
            self.pending[match.match_id] = pending
            self._start(match.match_id, wait=0.0)
            count += 1
        return count

    @staticmethod
    def behind(match: Behind) -> Undelivered | None:
        """What of ``match`` its delivery records say may not have gone out, or None."""
        records = match.records
        if not has_records(records):
            return Undelivered(public=True, look_first=True)
        delivered = records.get(DELIVERED, -1)
        if delivered >= match.version:
            return None
        channel = max(delivered, records.get(CHANNEL_SHOWS, -1))
        up_to_date = {
            user
            for user in match.user_ids
            if max(delivered, records.get(private_shows(user), -1)) >= match.version
        }
        return Undelivered(
            public=channel < match.version,
            every_player=True,
            up_to_date=up_to_date,
            look_recent=channel < match.version,
        )

    def _start(self, match_id: int, wait: float = REDELIVERY_FIRST_SECONDS) -> None:
        task = self._tasks.get(match_id)
        if task is None or task.done():
            self._tasks[match_id] = asyncio.create_task(
                self._loop(match_id, wait), name=f"redeliver-{match_id}"
            )

    async def _loop(self, match_id: int, wait: float) -> None:
        """Send the match as it is now, for every part that has not gone out, until it
        lands. A later step's messages replace an earlier step's that never went out."""
        try:
            while self.pending.get(match_id):
                await asyncio.sleep(wait)
                wait = min(max(wait * 2, REDELIVERY_FIRST_SECONDS), REDELIVERY_LONGEST_SECONDS)
                try:
                    await self.send_again(match_id)
                except asyncio.CancelledError:
                    raise
                except Exception as error:
                    if is_transient(error):
                        log.warning("match %s is still undelivered: %s", match_id, error)
                        continue
                    log.exception("giving up delivering match %s", match_id)
                    self.pending.pop(match_id, None)
        finally:
            if self._tasks.get(match_id) is asyncio.current_task():
                del self._tasks[match_id]

    async def idle(self) -> None:
        """Wait until nothing is waiting to be sent again (tests use it)."""
        if self._resuming is not None:
            await asyncio.gather(self._resuming, return_exceptions=True)
        while self._tasks:
            await asyncio.gather(*list(self._tasks.values()), return_exceptions=True)

    def stop(self) -> list[asyncio.Task[None] | asyncio.Task[int]]:
        """Forget everything (the caller cancels and awaits the tasks returned): what is
        still undelivered is sent by the next start, its version being behind."""
        tasks: list[asyncio.Task[None] | asyncio.Task[int]] = list(self._tasks.values())
        if self._resuming is not None and not self._resuming.done():
            tasks.append(self._resuming)
        self._resuming = None
        self._tasks.clear()
        self.pending.clear()
        self._shown.clear()
        self._privates_sent.clear()
        return tasks
