"""A living channel message: one message per running match, edited in place (delivery's part).

A card table moves on with every action, bot steps included; a new channel message for
each would flood the channel and, at five messages per five seconds per channel, stall it.
So a running match of such a game keeps one message (its picture, the recent public
events, whose move it is) that every update edits, and posts a new one only when the
players' attention is needed, which the feature's words say (:class:`LivingWords`:
``needs_attention``; for Leiff, ``bot/features/leiff_tables/living.py``: a round's end and
the next deal, the game's end, the clock's reminder, which pings where an edit never
would).

Updates are coalesced per match: at most one request of a match is under way at a time,
and whatever arrives meanwhile (a human action followed by a burst of bot steps) becomes
one edit showing the newest state with every event line gathered since. An update the
words say may wait (``held_back``: Leiff's draw from the draw pile) waits for the next
one, so a turn of two actions is one edit, not two. discord.py
paces the requests by the rate-limit headers Discord sends, so a table never goes past the
channel's limit, and nobody waits on it: :meth:`LivingMessages.submit` only queues, the
acting player's answer and the other players' DMs go out beside it.

The message's id is kept in the delivery's record store with the version it shows
(``DeliveryRecords.set(match, {kind: id, "delivered:channel": version})``), so after a
restart the same message is edited, not duplicated; so are the event lines it shows
(``DeliveryRecords.set_table_lines``: public events only, the ones the channel already
sees), so that the message looks the same after a restart. What was queued is sent before
the process closes (:meth:`LivingMessages.close`).
"""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import logging
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Protocol

import discord

from bot.common.context import Context
from bot.common.outgoing import Outgoing, match_of
from bot.common.responder import Responder
from bot.delivery.delivery import Delivery
from bot.delivery.records import CHANNEL_SHOWS, DeliveryRecords
from bot.delivery.redelivery import is_transient, nonce_of
from matchcore.service.protocol import GameService
from matchcore.service.results import Update
from matchcore.storage import CHANNEL

log = logging.getLogger(__name__)

# The public event lines the living message shows (the newest; a burst of bot steps may
# bring many): enough to follow what happened since one's own move, short on a phone.
RECENT_LINES = 12
CLOSE_TIMEOUT_SECONDS = 10.0
# The longest a table's message waits for the bot seats' burst of steps to end.
BOT_BURST_SECONDS = 2.0


@dataclass
class _Feed:
    """One match's living message and what is queued for it."""

    message_id: int | None = None
    shown: list[str] = field(default_factory=list)  # event lines the message shows
    # whether ``shown`` is known for ``message_id`` (else it is read from the database)
    loaded: bool = False
    pending: Update | None = None  # the newest update not shown yet
    lines: list[str] = field(default_factory=list)  # event lines gathered since
    fresh: bool = False  # the next request posts a new message
    language: str = "en"
    channel: discord.PartialMessageable | None = None
    task: asyncio.Task[None] | None = None
    status: str | None = None  # the match's status as last shown
    bot_turns: asyncio.Task[None] | None = None  # the bot seats' steps under way
    delivery: Delivery | None = None
    held: bool = False  # ``pending`` waits for the next update (``LivingWords.held_back``)


class LivingWords(Protocol):
    """What the living message needs of the feature's messages (``LeiffMessages``)."""

    context: Context

    def event_lines(self, update: Update, language: str) -> list[str]: ...

    async def public_message(
        self, update: Update, language: str, events: Sequence[str] | None = None
    ) -> Outgoing: ...

    def needs_attention(self, update: Update) -> bool:
        """Whether the update needs the players' attention: a new message, not an edit."""
        ...

    def held_back(self, update: Update) -> bool:
        """Whether the update's edit may wait for the next update (nobody acts on it)."""
        ...


class LivingMessages:
    """Keeps each running match's channel message up to date, coalescing its updates.
    ``kind``: what the message is recorded under, and the kind of picture it shows."""

    def __init__(self, messages: LivingWords, kind: str, records: DeliveryRecords) -> None:
        self.messages = messages
        self.kind = kind
        self.records = records
        self._feeds: dict[int, _Feed] = {}

    @property
    def service(self) -> GameService:
        return self.messages.context.service

    @staticmethod
    def takes(update: Update, responder: Responder | None) -> bool:
        """Whether this update's channel part goes to the living message. Lobbies, ``/board``
        (a new message on purpose; the table sent again by redelivery is an edit) and a click on a public message (the start of a game:
        the interaction's own answer) go the usual way."""
        match = update.match
        if match is None or match.status == "lobby":
            return False
        if update.kind == "refresh" and responder is not None:
            return False  # /board: a new message, on purpose
        return responder is None or responder.origin is None or responder.origin_is_private

    def posted_elsewhere(self, match_id: int, message_id: int | None) -> None:
        """The table's message was posted the usual way (the answer to the click that
        started the game): the next updates edit it. The bots' steps that follow at once
        were described before it was recorded (the core plays them from the commit on),
        so its id is taken from here, not from their ``messages``."""
        if message_id is None:
            feed = self._feeds.get(match_id)
            if feed is None:
                return
        else:
            feed = self._feeds.setdefault(match_id, _Feed())
        feed.message_id = message_id
        feed.shown = []
        feed.loaded = False

    def submit(
        self,
        update: Update,
        language: str,
        channel: discord.PartialMessageable | None,
        delivery: Delivery | None = None,
    ) -> None:
        """Queue ``update`` for its table's message (returns at once). The table's bot
        seats' steps the core is playing (``delivery.bot_turns.running``) are awaited, up to
        ``BOT_BURST_SECONDS``, so that a burst of them becomes one edit; ``delivery`` is
        told when the message shows a version, or when Discord keeps refusing it for now
        (its redelivery then sends the table again later, as it is then)."""
        match = match_of(update)
        if channel is None:
            return
        feed = self._feeds.setdefault(match.id, _Feed())
        feed.delivery = delivery
        feed.bot_turns = delivery.bot_turns.running(match.id) if delivery is not None else None
        if feed.message_id is None:
            feed.message_id = match.messages.get(self.kind)
        feed.language = language
        feed.channel = channel
        feed.pending = update
        feed.lines.extend(self.messages.event_lines(update, language))
        if (
            # no message yet, nor one on its way (the first post may still be under way
            # when the bots' burst after it comes: that burst edits it)
            (feed.message_id is None and feed.task is None)
            or match.status != "running"
            or self.messages.needs_attention(update)
        ):
            feed.fresh = True
        feed.held = not feed.fresh and self.messages.held_back(update)
        if feed.task is None and not feed.held:
            feed.task = asyncio.create_task(self._run(match.id), name=f"living-{match.id}")

    async def _run(self, match_id: int) -> None:
        feed = self._feeds[match_id]
        try:
            while feed.pending is not None and not feed.held:
                await self._let_bots_finish(feed)
                update, lines, fresh = feed.pending, feed.lines, feed.fresh
                feed.pending, feed.lines, feed.fresh = None, [], False
                try:
                    await self._show(feed, update, lines, fresh)
                    if (feed.pending is None or feed.held) and feed.delivery is not None:
                        shown = match_of(update)
                        await feed.delivery.public_shown(shown.id, shown.version)
                except asyncio.CancelledError:
                    raise
                except Exception as error:
                    if not is_transient(error):
                        # a refusal (a missing permission, a deleted channel) stays one
                        log.exception("giving up the message of table %s", match_id)
                        feed.pending, feed.lines, feed.fresh = None, [], False
                        break
                    log.warning("the message of table %s is held up: %s", match_id, error)
                    # the lines wait for the next try; delivery's redelivery sends the
                    # table as it is then (a later step replaces this one meanwhile)
                    feed.lines = lines + feed.lines
                    feed.fresh = feed.fresh or fresh
                    if feed.pending is None and feed.delivery is not None:
                        feed.delivery.public_held_up(match_id)
                        break
        finally:
            feed.task = None
            if feed.pending is None and feed.status not in (None, "running"):
                self._feeds.pop(match_id, None)  # a finished table needs no more edits

    @staticmethod
    async def _let_bots_finish(feed: _Feed) -> None:
        """While bot seats are playing a burst of steps, wait for the rest of it (bounded:
        a long burst still shows its progress)."""
        task = feed.bot_turns
        if task is not None and not task.done() and task is not asyncio.current_task():
            await asyncio.wait({task}, timeout=BOT_BURST_SECONDS)

    async def _show(self, feed: _Feed, update: Update, lines: list[str], fresh: bool) -> None:
        """One request: edit the living message into ``update``, or post a new one."""
        assert feed.channel is not None
        if not any(p.kind == self.kind for p in update.pictures):
            # a clock reminder carries no picture: the table as it stands (same version)
            current = await self.service.current(match_of(update).id)
            update = dataclasses.replace(update, pictures=current.pictures)
        match = match_of(update)
        if not fresh and feed.message_id is not None and not feed.loaded:
            feed.shown = await self._kept_lines(match.id, feed.message_id)
            feed.loaded = True
        shown = (lines if fresh or feed.message_id is None else feed.shown + lines)[-RECENT_LINES:]
        outgoing = await self.messages.public_message(update, feed.language, shown)
        if not fresh and feed.message_id is not None:
            try:
                await feed.channel.get_partial_message(feed.message_id).edit(
                    **outgoing.edit_kwargs()
                )
                feed.shown = shown
                feed.status = match.status
                await self._keep_lines(match.id, feed.message_id, shown)
                return
            except discord.NotFound:
                pass  # deleted by someone: a new message takes its place
        previous = feed.message_id
        # (a nonce: the same version sent again after a kill is the same message)
        posted = await feed.channel.send(
            nonce=nonce_of(match.id, match.version, CHANNEL), **outgoing.send_kwargs()
        )
        feed.message_id = posted.id
        feed.shown = shown
        feed.loaded = True
        feed.status = match.status
        # the message and the version it shows in one statement (see ``redelivery``)
        await self.records.set(match.id, {self.kind: posted.id, CHANNEL_SHOWS: match.version})
        await self._keep_lines(match.id, posted.id, shown)
        if previous is not None and match.status != "running":
            # a finished table keeps no live button anywhere
            with contextlib.suppress(discord.HTTPException):
                await feed.channel.get_partial_message(previous).edit(view=None)

    async def _kept_lines(self, match_id: int, message_id: int) -> list[str]:
        """The lines the message showed when this process, or the one before a restart,
        last sent it (none for a message they were not kept for)."""
        try:
            kept = await self.records.table_lines(match_id)
        except Exception:
            log.exception("could not read the lines of table %s", match_id)
            return []
        return kept[1] if kept is not None and kept[0] == message_id else []

    async def _keep_lines(self, match_id: int, message_id: int, shown: list[str]) -> None:
        """Keep the lines the message shows (public events only, as the channel sees
        them; at most ``RECENT_LINES``), so that it looks the same after a restart."""
        try:
            await self.records.set_table_lines(match_id, message_id, shown)
        except Exception:
            log.exception("could not keep the lines of table %s", match_id)

    async def idle(self) -> None:
        """Wait until no table message is queued or being sent."""
        while True:
            tasks = [f.task for f in self._feeds.values() if f.task is not None]
            if not tasks:
                return
            await asyncio.gather(*tasks, return_exceptions=True)

    async def close(self) -> None:
        """Send what is queued, a draw held back too (the process is closing), then stop."""
        for match_id, feed in self._feeds.items():
            if feed.held and feed.task is None:
                feed.held = False
                feed.task = asyncio.create_task(self._run(match_id), name=f"living-{match_id}")
        try:
            await asyncio.wait_for(self.idle(), CLOSE_TIMEOUT_SECONDS)
        except TimeoutError:
            log.warning("closing with table messages still queued")
        for feed in self._feeds.values():
            if feed.task is not None:
                feed.task.cancel()
        self._feeds.clear()
