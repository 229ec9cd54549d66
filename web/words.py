"""A refusal in the reader's language: the core's codes worded from the catalogues, as the
Discord layer words them (``service.error.<code>``, the engine's ``illegal.<code>``)."""

from __future__ import annotations

from engine import IllegalMove
from i18n import illegal_move, translate, translate_plural
from matchcore.service.errors import ENGINE, ServiceError
from matchcore.service.errors import ENGLISH as ERROR_ENGLISH
from web.texts import REFUSED

ERROR_PREFIX = "service.error."


def refusal(language: str, error: ServiceError | IllegalMove) -> str:
    """Why an action was refused, for the member who tried it."""
    if isinstance(error, IllegalMove):
        return illegal_move(language, error)
    params = {key: value for key, value in error.params.items()}
    if error.code == ENGINE:
        code = str(params.pop("engine_code"))
        return illegal_move(language, IllegalMove(code, **params))
    msgid = ERROR_PREFIX + error.code
    try:
        if isinstance(ERROR_ENGLISH.get(error.code), tuple):
            count = params.pop("count")
            assert isinstance(count, int)
            return translate_plural(language, msgid, f"{msgid}.plural", count, **params)
        return translate(language, msgid, **params)
    except (KeyError, ValueError, AssertionError):
        # a parameter this page cannot word (a list of places): say it was refused
        return translate(language, REFUSED)
