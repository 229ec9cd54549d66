"""What the match service reports, in words: its refusals (codes with parameters) in the
reader's language, from the message catalogue.

The service never writes a sentence: a :class:`bot.service.ServiceError` carries a code and
plain parameters (``bot/service/errors.py`` lists every code with its English, which the
English catalogue holds as ``service.error.<code>``). :func:`service_error` is the one place
that turns such a refusal into words; a refusal the engine gave travels as the engine's own
code and reads as the engine's message (``illegal.<code>``).
"""

from __future__ import annotations

from collections.abc import Mapping

from bot.service.errors import ENGINE, ENGLISH, ServiceError
from engine import IllegalMove
from i18n import illegal_move, translate, translate_plural

PREFIX = "service.error."


def service_error(language: str, error: ServiceError) -> str:
    """The refusal as a sentence in ``language`` (English for any other language)."""
    return service_text(language, error.code, error.params)


def service_text(language: str, code: str, params: Mapping[str, object]) -> str:
    """A service code with its parameters in ``language``."""
    values = dict(params)
    if code == ENGINE:
        engine_code = str(values.pop("engine_code"))
        return illegal_move(language, IllegalMove(engine_code, **values))
    places = values.get("places")
    if isinstance(places, list | tuple):
        # joined here, not by translate: a list parameter would read "a or b"
        values["places"] = ", ".join(_place(language, place) for place in places)
    if isinstance(ENGLISH[code], tuple):
        count = values.pop("count")
        assert isinstance(count, int)
        msgid = PREFIX + code
        return translate_plural(language, msgid, f"{msgid}.plural", count, **values)
    return translate(language, PREFIX + code, **values)


def _place(language: str, place: object) -> str:
    assert isinstance(place, Mapping)
    values = {str(key): value for key, value in place.items()}
    return translate(language, f"{PREFIX}place_{values.pop('kind')}", **values)
