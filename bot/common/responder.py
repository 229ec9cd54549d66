"""Answering one interaction in time, in the right place.

Discord wants every interaction acknowledged within three seconds. A :class:`Responder`
wraps one interaction: a timer acknowledges it (a "thinking" reply for commands, a silent
deferred update for clicks) if the real answer has not gone out after
``ACK_AFTER_SECONDS``, and every answer goes through one lock so the timer and the handler
never both answer. Handlers then just say what they want — a public reply, an update of the
clicked message, a private note — and the responder picks the right Discord call for
whatever has happened so far.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from typing import Any

import discord

from i18n import N_, language_for, translate

log = logging.getLogger(__name__)

# When the real answer could not be delivered (it never says the action succeeded or not).
UNDELIVERED = N_("bot.reply.undelivered")
DONE = N_("bot.reply.done")

# Leave ample margin below Discord's 3 s, as the network and the event loop add their share.
ACK_AFTER_SECONDS = 1.5


class Responder:
    """The answers to one interaction."""

    def __init__(
        self, interaction: discord.Interaction, *, ack_after: float = ACK_AFTER_SECONDS
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
        self._lock = asyncio.Lock()
        self._deferred_privately = False  # a command answered by an ephemeral "thinking"
        self._public_sent = False
        self.origin_updated = False  # the clicked message was already edited
        self.failed = False  # no answer at all could be delivered (set by the error path)
        self._timer: asyncio.TimerHandle | None = asyncio.get_running_loop().call_later(
            ack_after, self._fire_timer
        )
        self._timer_task: asyncio.Task[None] | None = None

    # ---- acknowledging -------------------------------------------------------------
    @property
    def origin_is_private(self) -> bool:
        """The clicked message is only the clicker's: a DM or an ephemeral message."""
        if self.origin is None:
            return False
        return self.in_dm or bool(self.origin.flags.ephemeral)

    def _fire_timer(self) -> None:
        self._timer = None
        self._timer_task = asyncio.create_task(self.acknowledge(), name="leafbot-ack")

    def _cancel_timer(self) -> None:
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None

    async def acknowledge(self) -> None:
        """Defer now unless already answered (commands: privately, so errors stay private)."""
        async with self._lock:
            await self._acknowledge_locked()

    async def _acknowledge_locked(self) -> None:
        response = self.interaction.response
        if response.is_done():
            return
        try:
            if self.is_component or (self.is_modal and self.origin is not None):
                await response.defer()
            else:
                await response.defer(ephemeral=True, thinking=True)
                self._deferred_privately = True
        except discord.HTTPException:
            log.warning("could not acknowledge interaction %s", self.interaction.id)

    async def finish(self) -> None:
        """Make sure Discord got some answer (a click that changed nothing visible)."""
        self._cancel_timer()
        async with self._lock:
            await self._acknowledge_locked()
            if self._deferred_privately and not self._public_sent:
                # A private "thinking" placeholder would spin forever otherwise. It says
                # "Done." only when nothing failed: an undelivered refusal is no success.
                text = translate(self.language, UNDELIVERED if self.failed else DONE)
                with contextlib.suppress(discord.HTTPException):
                    await self.interaction.edit_original_response(content=text)

    # ---- answering -----------------------------------------------------------------
    async def public(
        self, channel: discord.abc.Messageable, **message: Any
    ) -> discord.Message | None:
        """Post the public answer: as the interaction's reply when it can be, else in ``channel``.

        Returns the posted message (its id is what the service records).
        """
        self._cancel_timer()
        async with self._lock:
            response = self.interaction.response
            self._public_sent = True
            in_place = self.channel_id == getattr(channel, "id", None) and not self.in_dm
            if in_place and not response.is_done() and not self.is_component and not self.is_modal:
                callback = await response.send_message(**message)
                resource = callback.resource if callback is not None else None
                return resource if isinstance(resource, discord.Message) else None
            if (
                in_place
                and response.is_done()
                and not self._deferred_privately
                and not self.origin_is_private
            ):
                return await self.interaction.followup.send(wait=True, **message)
            posted = await channel.send(**message)
            if self._deferred_privately:
                with contextlib.suppress(discord.HTTPException):
                    await self.interaction.edit_original_response(
                        content=translate(self.language, "bot.reply.done_see_channel")
                    )
            elif not response.is_done():
                await self._acknowledge_locked()
            return posted

    async def update_origin(self, **changes: Any) -> bool:
        """Edit the clicked message (components and modals from a message only)."""
        if self.origin is None:
            return False
        self._cancel_timer()
        async with self._lock:
            response = self.interaction.response
            try:
                if not response.is_done():
                    await response.edit_message(**changes)
                else:
                    await self.interaction.edit_original_response(**changes)
            except discord.HTTPException as error:
                log.warning("could not edit the clicked message: %s", error)
                return False
            self.origin_updated = True
            return True

    async def private(self, content: str | None = None, **message: Any) -> discord.Message | None:
        """An answer only the user sees (ephemeral)."""
        self._cancel_timer()
        message.setdefault("allowed_mentions", discord.AllowedMentions.none())
        async with self._lock:
            response = self.interaction.response
            if not response.is_done():
                callback = await response.send_message(content, ephemeral=True, **message)
                resource = callback.resource if callback is not None else None
                return resource if isinstance(resource, discord.Message) else None
            if self._deferred_privately and not self._public_sent:
                edit = dict(message)
                if "file" in edit:  # an edit takes attachments, not a file
                    edit["attachments"] = [edit.pop("file")]
                edited = await self.interaction.edit_original_response(content=content, **edit)
                self._public_sent = True  # the placeholder now holds this answer
                return edited
            # discord.py's stubs want text, but a reply of a picture alone has none
            return await self.interaction.followup.send(  # type: ignore[call-overload]
                content, ephemeral=True, wait=True, **message
            )

    async def modal(self, modal: discord.ui.Modal) -> None:
        """Open a modal (only possible as the first answer)."""
        self._cancel_timer()
        async with self._lock:
            await self.interaction.response.send_modal(modal)
