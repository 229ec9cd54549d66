"""The bot seats' turns as the core hands them over, posted after what they answer.

The core plays a bot seat's turns itself, right after the commit that makes them due
(``matchcore.service.bot_turns``): a hard board move takes seconds, and the search starts
while the member's move is still being drawn and posted. The core hands the bot's updates
to :meth:`BotTurns.answered` (registered with the core's turns, a :class:`TurnSource`,
by :meth:`BotTurns.listen`), which posts them
in order once the update that made the bot due has been published here, so the bot's
answer never comes before the move it answers.

The bot's answer goes out as a follow-up of the member's interaction that made it due
(:meth:`BotTurns.post`): Discord's global limit (50 requests per second per token) spares
interaction endpoints, follow-ups included, where a channel message counts. An
interaction's token lasts 15 minutes; after that, in another channel, or after a restart,
the answer is a channel message as before.
"""

from __future__ import annotations

import asyncio
import datetime
import logging
from collections.abc import Awaitable, Callable, Sequence
from typing import Any, Protocol

import discord

from bot.common.context import Context
from bot.common.outgoing import without_user
from bot.common.responder import Responder
from bot.delivery.redelivery import nonce_of
from matchcore.service.bot_turns import BotTurnsListener
from matchcore.service.results import Update
from matchcore.storage import CHANNEL

log = logging.getLogger(__name__)

# Discord keeps an interaction's token for 15 minutes; the bot's answer is a follow-up
# only well inside them (the answer may wait on a hard move, or on a rate limit).
FOLLOW_UP_WITHIN = datetime.timedelta(minutes=13)
# The bot's answer waits at most this long for the update it answers to be published here
# (it always is, unless that publish failed before it began: then order matters no more).
# Generous: on a loaded machine drawing and posting the member's move can take seconds,
# and an answer posted before it would be out of order (and a channel message, not the
# follow-up the member's interaction allows).
ORDER_WAIT_SECONDS = 30.0

Publish = Callable[[Update], Awaitable[object]]


class TurnSource(Protocol):
    """The core's player of the bot seats' turns (``MatchService.turns``)."""

    def listen(self, listener: BotTurnsListener) -> None: ...
    def running(self, match_id: int) -> asyncio.Task[None] | None: ...
    async def idle(self) -> None: ...


class BotTurns:
    """Posts the bot's updates the core hands over, each after the update it answers."""

    def __init__(self, context: Context, publish: Publish) -> None:
        self.context = context
        self.publish = publish
        # By match: the member's interaction whose public answer made a bot seat due (its
        # token posts the bot's answer as a follow-up, see ``post``).
        self._answering: dict[int, discord.Interaction] = {}
        # By running match with a bot seat: the newest version published here, and who
        # waits for a newer one.
        self._published: dict[int, int] = {}
        self._waiting: dict[int, asyncio.Event] = {}
        self._source: TurnSource | None = None

    def listen(self, source: TurnSource) -> None:
        """Have the core's turns hand the bot's updates to :meth:`answered`."""
        self._source = source
        source.listen(self.answered)

    def published(self, update: Update, answered: Responder | None = None) -> None:
        """An update has been published (or handed to redelivery). ``answered``: the
        interaction it was the public answer to, if any."""
        match = update.match
        if match is None:
            return
        if match.status != "running":
            self._answering.pop(match.id, None)
            self._published.pop(match.id, None)
        elif match.bot_to_act or match.id in self._published:
            if match.bot_to_act and answered is not None and answered.answered_in_channel:
                self._answering[match.id] = answered.interaction
            self._published[match.id] = max(match.version, self._published.get(match.id, -1))
        waiting = self._waiting.pop(match.id, None)
        if waiting is not None:
            waiting.set()

    async def answered(self, match_id: int, updates: Sequence[Update], cause: int | None) -> None:
        """The core played the bot's turns in ``match_id`` after the step ``cause`` (None:
        turns a start found due): post each update once that step is published here."""
        if cause is not None:
            await self._after(match_id, cause)
        for index, update in enumerate(updates):
            await self.publish(without_redrawn_hands(update, updates[index + 1 :]))

    async def _after(self, match_id: int, version: int) -> None:
        loop = asyncio.get_running_loop()
        deadline = loop.time() + ORDER_WAIT_SECONDS
        while self._published.get(match_id, -1) < version:
            waiting = self._waiting.setdefault(match_id, asyncio.Event())
            try:
                await asyncio.wait_for(waiting.wait(), max(0.0, deadline - loop.time()))
            except TimeoutError:
                log.warning("posting the bot's answer in match %s without its cause", match_id)
                return

    def running(self, match_id: int) -> asyncio.Task[None] | None:
        """The core's task playing this match's bot turns, while it runs."""
        return self._source.running(match_id) if self._source is not None else None

    async def idle(self) -> None:
        """Wait until no bot turn is being played or handed on in this process."""
        if self._source is not None:
            await self._source.idle()

    def stop(self) -> None:
        """Forget the interactions and versions kept (the process is closing)."""
        self._answering.clear()
        self._published.clear()
        for waiting in self._waiting.values():
            waiting.set()
        self._waiting.clear()

    async def post(
        self, update: Update, channel: discord.PartialMessageable, **message: Any
    ) -> discord.Message:
        """Post a match's channel message that answers no interaction of its own (the bot's
        answer, a clock's update, a message sent again): as a follow-up of the member's
        interaction that made the bot due, while its token is fresh and it was made in
        this channel (spared by the global limit), else as a channel message."""
        match_id = update.match.id if update.match is not None else None
        interaction = self._answering.get(match_id) if match_id is not None else None
        if interaction is not None and (
            interaction.channel_id != channel.id
            or discord.utils.utcnow() - interaction.created_at > FOLLOW_UP_WITHIN
        ):
            if match_id is not None:
                self._answering.pop(match_id, None)
            interaction = None
        if interaction is not None:
            try:
                return await interaction.followup.send(wait=True, **message)
            except discord.HTTPException as error:
                if error.status == 429 or error.status >= 500:
                    raise  # passing: delivery sends the match again later
                # the token is spent (expired, unknown): the channel, from now on
                log.info("follow-up refused for match %s (%s): a channel message", match_id, error)
                if match_id is not None:
                    self._answering.pop(match_id, None)
                file = message.get("file")
                if isinstance(file, discord.File):
                    file.reset()
        if match_id is not None and update.match is not None:
            # the same update posted twice (a start after a kill that came before the post
            # was recorded) is one message; a warning at the same version is another
            nonce = nonce_of(match_id, update.match.version, f"{CHANNEL}:{update.kind}")
            message.setdefault("nonce", nonce)
        return await channel.send(**message)


def without_redrawn_hands(update: Update, later: Sequence[Update]) -> Update:
    """A bot step followed by more in the same batch: the hands a later step draws again
    are left to it (one DM edit for the batch instead of one per step), unless this step
    has news for their player (what a bot's 8 showed them, say)."""
    users = {p.for_user for p in update.pictures if p.for_user is not None}
    users |= {b.for_user for b in update.buttons if b.for_user is not None}
    for user in users:
        if any(e.to == user for e in update.said):
            continue
        if any(p.for_user == user for step in later for p in step.pictures):
            update = without_user(update, user)
    return update
