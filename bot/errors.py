"""The single place where a refusal becomes an ephemeral answer.

Every command and component handler lets domain errors propagate here. A ``ServiceError``
(and an engine ``IllegalMove`` that slipped through) carries a sentence written for the
player, safe to show; anything else is a bug: it is logged with its traceback and the user
gets a generic apology that reveals nothing.
"""

from __future__ import annotations

import logging

import discord

from engine import IllegalMove

log = logging.getLogger(__name__)

GENERIC_FAILURE = "Something went wrong on my side; nothing was changed. Please try again."
# When the real answer could not be delivered (it never says the action succeeded or not).
UNDELIVERED = "Sorry, I could not show my answer here. Please look at the channel and try again."


class UserFacingError(Exception):
    """A refusal decided in the Discord layer itself (bad text in a command, stale button)."""


def _service_error_type() -> type[Exception]:
    # Imported lazily so that the error mapping has no import cycle with the service.
    from bot.service import ServiceError

    return ServiceError


def player_message(error: BaseException) -> str | None:
    """The player-readable sentence for a domain error, or None if it is a bug."""
    if isinstance(
        error, discord.app_commands.CommandInvokeError | discord.app_commands.TransformerError
    ):
        error = error.__cause__ or error
    if isinstance(
        error, discord.app_commands.CheckFailure | discord.app_commands.MissingPermissions
    ):
        if isinstance(error, discord.app_commands.MissingPermissions):
            return "You need the Manage Server permission for that."
        return str(error) or "You may not use that here."
    if isinstance(error, UserFacingError | IllegalMove | _service_error_type()):
        text = str(error).strip()
        return text or "That is not possible right now."
    return None


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
    """Map any exception raised while handling ``interaction`` to an ephemeral reply."""
    text = player_message(error)
    if text is None:
        log.error("unexpected error handling interaction %s", interaction.id, exc_info=error)
        text = GENERIC_FAILURE
    await reply_ephemeral(interaction, text)
