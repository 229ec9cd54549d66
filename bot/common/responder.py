"""Answering one interaction in time, in the right place.

Discord wants every interaction acknowledged within three seconds. A :class:`Responder`
wraps one interaction: a timer acknowledges it (a "thinking" reply for commands, a silent
deferred update for clicks) if the real answer has not gone out after
``ACK_AFTER_SECONDS``. Handlers just say what they want — a public reply, an update of the
clicked message, a private note — and the responder picks the right Discord call for
whatever has happened so far.

Nothing the REST queue does may hold the acknowledgement up. The timer takes no lock that an
answer holds while it waits for Discord: only the first response itself (the interaction
callback) is serialised, and a first response still on its way at ``ABANDON_AFTER_SECONDS``
(discord.py sleeping on a 429, say) is given up, so that the timer's acknowledgement goes
out in time instead; the answer then follows as a follow-up or an edit. Unless the given-up
response reached Discord after all (the acknowledgement then meets 40060, "already
acknowledged"): that response is the answer, and it is not sent a second time.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Awaitable, Callable
from typing import Any, TypeVar

import discord

from i18n import N_, language_for, translate

log = logging.getLogger(__name__)

T = TypeVar("T")

# When the real answer could not be delivered (it never says the action succeeded or not).
UNDELIVERED = N_("bot.reply.undelivered")
DONE = N_("bot.reply.done")

# Leave ample margin below Discord's 3 s, as the network and the event loop add their share.
ACK_AFTER_SECONDS = 1.5
# A first response still under way this long after the interaction arrived is given up for
# a plain acknowledgement, which then has most of a second to reach Discord.
ABANDON_AFTER_SECONDS = 2.2
# Discord's answer when a callback comes after another one went through.
ALREADY_ACKNOWLEDGED = 40060


class _Missed:
    """The first response was not sent: the interaction had been acknowledged already."""


MISSED = _Missed()


class _Unseen:
    """The first response was given up while under way, yet it reached Discord (the
    acknowledgement after it met 40060): it is the answer, and must not be sent again."""


UNSEEN = _Unseen()


class Responder:
    """The answers to one interaction."""

    def __init__(
        self,
        interaction: discord.Interaction,
        *,
        ack_after: float = ACK_AFTER_SECONDS,
        abandon_after: float = ABANDON_AFTER_SECONDS,
    ) -> None:
        self.interaction = interaction
        self.user_id = interaction.user.id
        self.is_component = interaction.type == discord.InteractionType.component
        self.is_modal = interaction.type == discord.InteractionType.modal_submit
        self.origin = interaction.message  # the clicked message (components only)
        self.channel_id = interaction.channel_id
        self.in_dm = interaction.guild_id is None
        # Private answers speak the member's own Discord language.
        self.language = language_for(interaction.locale)
        # Orders the handler's own answers (never taken by the timer).
        self._lock = asyncio.Lock()
        # Held only around the one interaction callback (the first response).
        self._callback_lock = asyncio.Lock()
        self._callback_call: asyncio.Future[Any] | None = None
        self._acknowledged_unseen = False  # Discord took a callback discord.py never saw back
        self._deferred_privately = False  # a command answered by an ephemeral "thinking"
        self._public_sent = False
        self.origin_updated = False  # the clicked message was already edited
        # the public answer went out through the interaction (its callback or a follow-up),
        # in its channel: its token may post there again (the bot's answer, bot_turns)
        self.answered_in_channel = False
        # A click whose answer is the channel message, the clicked message staying as it is
        # (a board, the resign question): the callback posts it as a new message (no
        # request of the budget) rather than editing the clicked one.
        self.public_in_callback = False
        self.failed = False  # no answer at all could be delivered (set by the error path)
        loop = asyncio.get_running_loop()
        self._abandon_at = loop.time() + abandon_after
        self._timer: asyncio.TimerHandle | None = loop.call_later(ack_after, self._fire_timer)
        self._timer_task: asyncio.Task[None] | None = None

    # ---- acknowledging -------------------------------------------------------------
    @property
    def origin_is_private(self) -> bool:
        """The clicked message is only the clicker's: a DM or an ephemeral message."""
        if self.origin is None:
            return False
        return self.in_dm or bool(self.origin.flags.ephemeral)

    def _is_done(self) -> bool:
        return self.interaction.response.is_done() or self._acknowledged_unseen

    def _fire_timer(self) -> None:
        self._timer = None
        self._timer_task = asyncio.create_task(self._fallback(), name="leafbot-ack")

    def _cancel_timer(self) -> None:
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None

    async def _fallback(self) -> None:
        """The timer: acknowledge unless answered. A first response still on its way gets
        until ``ABANDON_AFTER_SECONDS``; then it is cancelled (its sender goes on with a
        follow-up) and the acknowledgement goes out instead."""
        call = self._callback_call
        if call is not None and not call.done():
            remaining = self._abandon_at - asyncio.get_running_loop().time()
            await asyncio.wait({call}, timeout=max(remaining, 0.0))
            if not call.done():
                log.warning(
                    "the answer to interaction %s is held up; acknowledging it first",
                    self.interaction.id,
                )
                call.cancel()
        await self.acknowledge()

    async def acknowledge(self) -> None:
        """Defer now unless already answered (commands: privately, so errors stay private)."""
        async with self._callback_lock:
            await self._defer_locked()

    async def _defer_locked(self) -> None:
        if self._is_done():
            return
        response = self.interaction.response
        try:
            if self.is_component or (self.is_modal and self.origin is not None):
                await response.defer()
            else:
                await response.defer(ephemeral=True, thinking=True)
                self._deferred_privately = True
        except discord.HTTPException as error:
            if error.code == ALREADY_ACKNOWLEDGED:
                # an abandoned first response reached Discord after all
                self._acknowledged_unseen = True
                return
            log.warning("could not acknowledge interaction %s", self.interaction.id)

    async def _first_response(self, send: Callable[[], Awaitable[T]]) -> T | _Missed | _Unseen:
        """Send the interaction's first response, unless it was acknowledged already
        (then :data:`MISSED`: the caller answers as after an acknowledgement). The timer
        may give the call up while discord.py waits on a rate limit; then this waits for
        the timer's acknowledgement and returns :data:`MISSED` too, or :data:`UNSEEN` when
        the call reached Discord all the same (the caller must not answer again)."""
        async with self._callback_lock:
            if self._is_done():
                return MISSED
            call = asyncio.ensure_future(send())
            self._callback_call = call
            try:
                await asyncio.wait({call})
            except asyncio.CancelledError:
                call.cancel()
                raise
            finally:
                self._callback_call = None
            if not call.cancelled():
                return call.result()
        async with self._callback_lock:  # the timer acknowledges meanwhile
            if not self._is_done():
                await self._defer_locked()
        if self._acknowledged_unseen:
            return UNSEEN
        return MISSED

    async def _original(self) -> discord.Message | None:
        """The message of a first response that reached Discord unseen (read back)."""
        try:
            return await self.interaction.original_response()
        except discord.HTTPException as error:
            log.warning("could not read back the answer to %s: %s", self.interaction.id, error)
            return None

    async def finish(self) -> None:
        """Make sure Discord got some answer (a click that changed nothing visible)."""
        self._cancel_timer()
        async with self._lock:
            await self.acknowledge()
            if self._deferred_privately and not self._public_sent:
                # A private "thinking" placeholder would spin forever otherwise. It says
                # "Done." only when nothing failed: an undelivered refusal is no success.
                text = translate(self.language, UNDELIVERED if self.failed else DONE)
                with contextlib.suppress(discord.HTTPException):
                    await self.interaction.edit_original_response(content=text)

    # ---- answering -----------------------------------------------------------------
    # The timer keeps running while an answer is on its way (it does nothing once the
    # interaction is answered): an answer held up by a rate limit must not stop it.
    async def public(
        self, channel: discord.abc.Messageable, **message: Any
    ) -> discord.Message | None:
        """Post the public answer: as the interaction's reply when it can be, else in ``channel``.

        Returns the posted message (its id is what the service records).
        """
        async with self._lock:
            response = self.interaction.response
            in_place = self.channel_id == getattr(channel, "id", None) and not self.in_dm
            first_answer = not self.is_component or self.public_in_callback
            if in_place and first_answer and not self.is_modal:
                sent = await self._first_response(lambda: response.send_message(**message))
                if isinstance(sent, _Unseen):
                    self._public_sent = True
                    return await self._original()
                if not isinstance(sent, _Missed):
                    self._public_sent = self.answered_in_channel = True
                    resource = sent.resource if sent is not None else None
                    return resource if isinstance(resource, discord.Message) else None
                _rewind(message)
            if (
                in_place
                and self._is_done()
                and not self._deferred_privately
                and not self.origin_is_private
            ):
                followup = await self.interaction.followup.send(wait=True, **message)
                self._public_sent = self.answered_in_channel = True
                return followup
            # (if this send fails, ``finish`` still closes a "thinking" placeholder)
            posted = await channel.send(**message)
            self._public_sent = True
            if self._deferred_privately:
                with contextlib.suppress(discord.HTTPException):
                    await self.interaction.edit_original_response(
                        content=translate(self.language, "bot.reply.done_see_channel")
                    )
            else:
                await self.acknowledge()
            return posted

    async def update_origin(self, **changes: Any) -> bool:
        """Edit the clicked message (components and modals from a message only)."""
        if self.origin is None:
            return False
        async with self._lock:
            response = self.interaction.response
            try:
                sent = await self._first_response(lambda: response.edit_message(**changes))
                # (UNSEEN: the edit was made)
                if isinstance(sent, _Missed):
                    _rewind(changes)
                    await self.interaction.edit_original_response(**changes)
            except discord.HTTPException as error:
                log.warning("could not edit the clicked message: %s", error)
                return False
            self.origin_updated = True
            return True

    async def private(self, content: str | None = None, **message: Any) -> discord.Message | None:
        """An answer only the user sees (ephemeral)."""
        message.setdefault("allowed_mentions", discord.AllowedMentions.none())
        async with self._lock:
            response = self.interaction.response
            sent = await self._first_response(
                lambda: response.send_message(content, ephemeral=True, **message)
            )
            if isinstance(sent, _Unseen):
                return await self._original()
            if not isinstance(sent, _Missed):
                resource = sent.resource if sent is not None else None
                return resource if isinstance(resource, discord.Message) else None
            _rewind(message)
            if self._deferred_privately and not self._public_sent:
                edit = dict(message)
                if "file" in edit:  # an edit takes attachments, not a file
                    edit["attachments"] = [edit.pop("file")]
                edited = await self.interaction.edit_original_response(content=content, **edit)
                self._public_sent = True  # the placeholder now holds this answer
                return edited
            # discord.py's stubs want text, but a reply of a picture alone has none
            followed: discord.WebhookMessage = await self.interaction.followup.send(  # type: ignore[call-overload]
                content, ephemeral=True, wait=True, **message
            )
            return followed

    async def launch_activity(self) -> bool:
        """Launch the application's Activity for the user (only possible as the first
        answer); False when it could not be (answered already, or refused)."""
        async with self._lock:
            try:
                sent = await self._first_response(self.interaction.response.launch_activity)
            except discord.HTTPException as error:
                log.warning("could not launch the Activity: %s", error)
                return False
            return not isinstance(sent, _Missed)

    async def modal(self, modal: discord.ui.Modal) -> None:
        """Open a modal (only possible as the first answer)."""
        async with self._lock:
            sent = await self._first_response(lambda: self.interaction.response.send_modal(modal))
            if isinstance(sent, _Missed):
                log.warning("interaction %s was acknowledged before its form", self.interaction.id)


def _rewind(message: dict[str, Any]) -> None:
    """Files of an abandoned first response start again from their beginning (discord.py
    rewinds a file only between its own retries)."""
    files: list[Any] = []
    for key in ("file", "files", "attachments"):
        value = message.get(key)
        if isinstance(value, discord.File):
            files.append(value)
        elif isinstance(value, list | tuple):
            files.extend(v for v in value if isinstance(v, discord.File))
    for file in files:
        file.reset()
