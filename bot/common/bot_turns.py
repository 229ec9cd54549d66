"""The bot seats' turns, played in the background after an update is posted.

A hard board move takes seconds, and nobody's interaction waits for it: after every posted
update the delivery asks :class:`BotTurns` to let a bot seat that is due act. One task per
match plays the turns the service says are due (``advance_bots``) and posts each update;
a request that arrives while it runs makes it ask the service once more before it ends.

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
from typing import Any

import discord

from bot.common.context import Context
from bot.common.outgoing import without_user
from bot.common.redelivery import nonce_of
from bot.common.responder import Responder
from matchcore.service.results import Update
from matchcore.storage import CHANNEL

log = logging.getLogger(__name__)

# Discord keeps an interaction's token for 15 minutes; the bot's answer is a follow-up
# only well inside them (the answer may wait on a hard move, or on a rate limit).
FOLLOW_UP_WITHIN = datetime.timedelta(minutes=13)

Publish = Callable[[Update], Awaitable[object]]


class BotTurns:
    """Background tasks that play the bot seats' turns, one per match."""

    def __init__(self, context: Context, publish: Publish) -> None:
        self.context = context
        self.publish = publish
        self._tasks: dict[int, asyncio.Task[None]] = {}
        self._wanted: set[int] = set()
        # By match: the member's interaction whose public answer made a bot seat due (its
        # token posts the bot's answer as a follow-up, see ``post``).
        self._answering: dict[int, discord.Interaction] = {}

    def request(self, update: Update, answered: Responder | None = None) -> None:
        """After an update is posted: if a bot seat is due to act, let it act. ``answered``:
        the interaction the update was the public answer to, if any."""
        match = update.match
        if match is None or match.status != "running" or not match.bot_to_act:
            if match is not None:
                self._answering.pop(match.id, None)
            return
        if answered is not None and answered.answered_in_channel:
            self._answering[match.id] = answered.interaction
        self._wanted.add(match.id)
        task = self._tasks.get(match.id)
        if task is None or task.done():
            self._tasks[match.id] = asyncio.create_task(
                self._play(match.id), name=f"bot-turns-{match.id}"
            )

    async def _play(self, match_id: int) -> None:
        try:
            while match_id in self._wanted:
                self._wanted.discard(match_id)
                updates = await self.context.service.advance_bots(match_id)
                for index, update in enumerate(updates):
                    # posting it may ask for more bot turns: this loop runs again then
                    await self.publish(without_redrawn_hands(update, updates[index + 1 :]))
        except asyncio.CancelledError:
            raise
        except Exception:
            # The next clock tick plays whatever is still due.
            log.exception("the bot could not take its turn in match %s", match_id)
        finally:
            if self._tasks.get(match_id) is asyncio.current_task():
                del self._tasks[match_id]
            self._wanted.discard(match_id)

    def running(self, match_id: int) -> asyncio.Task[None] | None:
        """The task playing this match's bot turns, while it runs."""
        task = self._tasks.get(match_id)
        return task if task is not None and not task.done() else None

    def running_count(self) -> int:
        return len(self._tasks)

    async def idle(self) -> None:
        """Wait until no bot turn is being played or posted (tests and shutdown use it)."""
        while self._tasks:
            await asyncio.gather(*list(self._tasks.values()), return_exceptions=True)

    def stop(self) -> list[asyncio.Task[None]]:
        """Forget every task (the caller cancels and awaits them); a bot move cut short is
        played again by the next start's tick."""
        tasks = list(self._tasks.values())
        self._tasks.clear()
        self._wanted.clear()
        self._answering.clear()
        return tasks

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
