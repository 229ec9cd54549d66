"""The service's refusals and texts in the reader's language.

The service says what happened as codes with parameters; this module is where the Discord
layer turns them into words (one place, so every feature words them alike).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from bot.service import board_logic


def service_error(language: str, error: Any) -> str:
    """A service refusal (:class:`bot.service.ServiceError`) in ``language``."""
    return str(error)


def service_text(language: str, message: Any) -> str:
    """One text of an update (a :class:`bot.service.Message`, or a line the Discord layer
    added that words itself) in ``language``."""
    if hasattr(message, "words"):
        return str(message.words(language))
    return str(message.text)


def texts_for(language: str, update: Any, user_id: int | None) -> list[str]:
    """The update's texts for the channel (``None``) or for one user, in ``language``."""
    return [service_text(language, m) for m in update.messages if m.to == user_id]


def result_words(
    language: str, seats: Any, result: dict[str, Any], name: Callable[[int | None], str]
) -> str:
    """A finished match's result in one sentence in ``language`` (``name`` writes a player)."""
    return board_logic.result_text(seats, result, name)
