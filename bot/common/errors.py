"""The one error handler: every refusal becomes a private answer, every bug an apology.

Every command, click and form of every feature runs inside :meth:`ErrorHandler.run`, which
answers the interaction in time (a :class:`Responder`) and maps whatever the handler raised
to a private answer in the member's own language (their Discord locale): a refusal — a
service error, an engine ``IllegalMove`` that slipped through, or a
:class:`UserFacingError` decided in the Discord layer — is a message id with parameters,
safe to show; anything else is a bug: it is logged with its traceback and the user gets a
generic apology that reveals nothing. A refusal changes nothing, with one exception: a call
that arrived after its deadline (``TooLate``) carries the timeout the clock applied
instead, which is posted to the channel as a tick would post it.
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable
from typing import Any

import discord

from bot.common.context import Context
from bot.common.outgoing import MAX_TEXT, full_sentence
from bot.common.responder import UNDELIVERED, Responder
from engine import IllegalMove
from i18n import N_, illegal_move, language_for, translate
from matchcore.service import ServiceError, TooLate
from matchcore.service.results import Update
from wording.service_words import service_error

log = logging.getLogger(__name__)

GENERIC_FAILURE = N_("bot.error.generic")

Handler = Callable[[Responder], Awaitable[None]]


class UserFacingError(Exception):
    """A refusal decided in the Discord layer itself (bad text in a command, stale button):
    a message id and its parameters, worded in the reader's language when it is shown."""

    def __init__(self, msgid: str, /, **params: Any) -> None:
        super().__init__(msgid)
        self.msgid = msgid
        self.params = params

    def words(self, language: str) -> str:
        return translate(language, self.msgid, **self.params)


def player_message(error: BaseException, language: str) -> str | None:
    """The player-readable sentence for a domain error in ``language``, or None for a bug."""
    if isinstance(
        error, discord.app_commands.CommandInvokeError | discord.app_commands.TransformerError
    ):
        error = error.__cause__ or error
    if isinstance(error, discord.app_commands.MissingPermissions):
        return translate(language, "bot.error.manage_server")
    if isinstance(error, discord.app_commands.NoPrivateMessage):
        return translate(language, "bot.error.server_only")
    if isinstance(error, discord.app_commands.CheckFailure):
        return translate(language, "bot.error.not_here")
    if isinstance(error, UserFacingError):
        return error.words(language)
    if isinstance(error, IllegalMove):
        return illegal_move(language, error)
    if isinstance(error, ServiceError):
        text = service_error(language, error).strip()
        return text or translate(language, "bot.error.not_possible")
    return None


class ErrorHandler:
    """Runs the features' handlers; maps what they raise to private answers."""

    def __init__(self, context: Context, publish: Callable[[Update], Awaitable[None]]) -> None:
        self.context = context
        # how an update nobody waits for is shown (the delivery's ``publish_quietly``)
        self.publish = publish

    async def run(self, interaction: discord.Interaction, handler: Handler) -> None:
        """Run one handler with a responder; every exception becomes an ephemeral answer."""
        responder = Responder(interaction)
        self.context.names.remember_interaction(interaction)
        await self.context.languages.remember_interaction(interaction)
        try:
            await handler(responder)
        except Exception as error:
            text = player_message(error, responder.language)
            if text is None:
                log.error(
                    "unexpected error handling interaction %s", interaction.id, exc_info=error
                )
                text = translate(responder.language, GENERIC_FAILURE)
            await self._refuse(responder, full_sentence(text))
            if isinstance(error, TooLate) and error.update is not None:
                # The clock's timeout was applied instead: the channel hears of it as from
                # a tick (the refusal above has already answered the interaction).
                await self.publish(error.update)
        finally:
            await responder.finish()

    @staticmethod
    async def _refuse(responder: Responder, text: str) -> None:
        """Answer privately; if that answer cannot be delivered, a short generic one, and if
        even that fails the placeholder says so (it never reads as a success)."""
        for attempt in (text[:MAX_TEXT], translate(responder.language, UNDELIVERED)):
            try:
                await responder.private(attempt)
                return
            except discord.HTTPException as error:
                log.warning(
                    "could not deliver a reply to interaction %s: %s",
                    responder.interaction.id,
                    error,
                )
        responder.failed = True


async def reply_ephemeral(interaction: discord.Interaction, text: str) -> None:
    """Answer privately, whether or not the interaction was already acknowledged."""
    allowed = discord.AllowedMentions.none()
    try:
        if interaction.response.is_done():
            await interaction.followup.send(text, ephemeral=True, allowed_mentions=allowed)
        else:
            await interaction.response.send_message(text, ephemeral=True, allowed_mentions=allowed)
    except discord.HTTPException:
        log.warning("could not deliver an error reply for interaction %s", interaction.id)


async def report_error(interaction: discord.Interaction, error: BaseException) -> None:
    """What the command tree raised outside a handler (a check, a conversion) as an
    ephemeral reply in the member's language."""
    language = language_for(interaction.locale)
    text = player_message(error, language)
    if text is None:
        log.error("unexpected error handling interaction %s", interaction.id, exc_info=error)
        text = translate(language, GENERIC_FAILURE)
    await reply_ephemeral(interaction, text)
