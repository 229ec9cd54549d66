"""The service's refusals and texts in the reader's language.

The service says what happened as codes with parameters; this module is where the Discord
layer turns them into words (one place, so every feature words them alike).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from bot.service import board_logic
from bot.service.errors import ENGINE, ServiceError
from bot.service.errors import ENGLISH as ERROR_ENGLISH
from engine import IllegalMove
from i18n import illegal_move, translate, translate_plural

ERROR_PREFIX = "service.error."


def service_error(language: str, error: ServiceError) -> str:
    """A service refusal (:class:`bot.service.ServiceError`) in ``language``: its code and
    parameters from the catalogue (``service.error.<code>``); a refusal the engine gave
    travels as the engine's own code and reads as the engine's message (``illegal.<code>``)."""
    return error_text(language, error.code, error.params)


def error_text(language: str, code: str, params: Mapping[str, object]) -> str:
    """A service error code with its parameters in ``language``."""
    values = dict(params)
    if code == ENGINE:
        engine_code = str(values.pop("engine_code"))
        return illegal_move(language, IllegalMove(engine_code, **values))
    places = values.get("places")
    if isinstance(places, list | tuple):
        # joined here, not by translate: a list parameter would read "a or b"
        values["places"] = ", ".join(_place(language, place) for place in places)
    if isinstance(ERROR_ENGLISH[code], tuple):
        count = values.pop("count")
        assert isinstance(count, int)
        msgid = ERROR_PREFIX + code
        return translate_plural(language, msgid, f"{msgid}.plural", count, **values)
    return translate(language, ERROR_PREFIX + code, **values)


def _place(language: str, place: object) -> str:
    assert isinstance(place, Mapping)
    values = {str(key): value for key, value in place.items()}
    return translate(language, f"{ERROR_PREFIX}place_{values.pop('kind')}", **values)


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
