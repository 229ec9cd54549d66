"""The service's refusals and texts in the reader's language.

The service says what happened as codes with parameters; this module is where the front
ends turn them into words: the Discord layer and the web table alike (one place, so every
feature and both front ends word them alike).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping

from engine import IllegalMove
from engine.leiff.events import card as leiff_card
from engine.leiff.events import words
from engine.phrases import Phrase
from i18n import (
    DEFAULT_LANGUAGE,
    colour_name,
    illegal_move,
    outcome_reason,
    phrase,
    translate,
    translate_plural,
)
from i18n.typed import write_duration
from matchcore.service import board_logic, reasons
from matchcore.service.errors import ENGINE, ServiceError
from matchcore.service.errors import ENGLISH as ERROR_ENGLISH
from matchcore.service.reasons import Reason
from matchcore.service.results import Event, Note, Update
from matchcore.service.texts import (
    ENGINE_PHRASE,
    ENGINE_TEXT,
    RESULT,
    Duration,
    Said,
    Seated,
    english_mention,
    mention,
    result_params,
    result_winners,
)
from matchcore.service.texts import ENGLISH as SAY_ENGLISH

ERROR_PREFIX = "service.error."


def listing(language: str, items: list[str]) -> str:
    """ "a", "a and b", "a, b and c" (in ``language``)."""
    if len(items) <= 1:
        return "".join(items)
    return translate(language, "list.and", left=", ".join(items[:-1]), right=items[-1])


SAY_PREFIX = "service.say."
LEIFF_PREFIX = "leiff."


def service_error(language: str, error: ServiceError) -> str:
    """A service refusal (:class:`matchcore.service.ServiceError`) in ``language``: its code and
    parameters from the catalogue (``service.error.<code>``); a refusal the engine gave
    travels as the engine's own code and reads as the engine's message (``illegal.<code>``)."""
    return error_text(language, error.code, error.params)


def refusal(language: str, error: ServiceError | IllegalMove) -> str:
    """Why an action was refused, for the member who tried it: a service refusal, or the
    engine's own (an illegal move). Both front ends say it with this (the web table's error
    frames are the Discord layer's error messages, word for word)."""
    if isinstance(error, IllegalMove):
        return illegal_move(language, error)
    return service_error(language, error)


def error_text(language: str, code: str, params: Mapping[str, object]) -> str:
    """A service error code with its parameters in ``language``."""
    values = {key: _value(language, value) for key, value in params.items()}
    if code == ENGINE:
        engine_code = str(values.pop("engine_code"))
        return illegal_move(language, IllegalMove(engine_code, **values))
    places = values.get("places")
    if isinstance(places, list | tuple):
        # joined here, not by translate: a list parameter would read "a or b"
        values["places"] = ", ".join(_place(language, place) for place in places)
    sizes = values.get("sizes")
    if isinstance(sizes, list | tuple) and len(sizes) > 1:
        # "5, 7 or 9" in the language (translate alone would say "5 or 7 or 9")
        left = ", ".join(str(size) for size in sizes[:-1])
        values["sizes"] = translate(language, "list.or", left=left, right=sizes[-1])
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


def said_words(language: str, code: str, params: Mapping[str, object]) -> str:
    """A line the service said (a said :class:`matchcore.service.Event`: its kind and data)
    in ``language``, from the catalogue (``service.say.<code>``); see
    :mod:`matchcore.service.texts`."""
    if code == ENGINE_PHRASE:
        said = params["phrase"]
        assert isinstance(said, Phrase)
        player = params.get("player")
        text = phrase(language, said) if player is None else phrase(language, said, player=player)
    elif code == ENGINE_TEXT:
        text = leiff_event(language, params)
    elif code == RESULT:
        text = _result_line(language, params)
    else:
        values = {key: _value(language, value) for key, value in params.items() if key != "then"}
        msgid = SAY_PREFIX + code
        if isinstance(SAY_ENGLISH[code], tuple):
            count = values.pop("count")
            assert isinstance(count, int)
            text = translate_plural(language, msgid, f"{msgid}.plural", count, **values)
        else:
            text = translate(language, msgid, **values)
    then = params.get("then")
    if isinstance(then, list | tuple) and then:
        text = " ".join([text, *(str(_value(language, item)) for item in then)])
    return text


def leiff_event(language: str, params: Mapping[str, object]) -> str:
    """A Leiff engine event said as a line (``said``: its code and parameters, ``names``:
    how each seat is named) in ``language``, from the catalogue's ``leiff.<code>``; a line
    without a code (said before the engine spoke in codes) keeps its English ``text``."""
    says, names = params.get("said"), params.get("names")
    if not isinstance(says, Mapping) or not isinstance(names, list):
        return str(params["text"])
    seat_names = [str(name) for name in names]

    def message(code: str, values: dict[str, str], count: int | None) -> str:
        msgid = LEIFF_PREFIX + code
        if count is None:
            return translate(language, msgid, **values)
        values = {key: value for key, value in values.items() if key != "count"}
        return translate_plural(language, msgid, f"{msgid}.plural", count, **values)

    return words(
        says,
        message,
        lambda seat: seat_names[seat],
        leiff_card,
        lambda items: listing(language, items),
    )


def _result_line(language: str, params: Mapping[str, object]) -> str:
    """A finished match's result line. English words it as it always has (the engine's
    "dark wins 4–2: …" with the player put in); other languages say who won and why, the
    why being the engine's outcome or the service's reason, each in that language."""
    seats, result = result_params(params)
    if language == DEFAULT_LANGUAGE:
        return result_words(language, seats, result, english_mention)
    why, outcome = params.get("why"), params.get("outcome")
    reason: Reason | None
    if isinstance(why, Said):
        reason = why
    elif isinstance(outcome, Mapping):
        reason = dict(outcome)
    else:
        reason = reasons.reason_of(result)
    winners = [str(_value(language, mention(user))) for user in _winners(result)]
    return _result_sentence(language, result, winners, reason)


def _winners(result: Mapping[str, object]) -> list[int | None]:
    return result_winners(result)


def _result_sentence(
    language: str, result: Mapping[str, object], winners: list[str], reason: Reason | None
) -> str:
    """Who won (``winners``: their names) and why, in a language other than English."""
    named = _winner_in_outcome(language, result, winners, reason)
    if named is not None:
        return named
    if isinstance(reason, Said):
        because = said_words(language, reason.code, reason.params)
    elif reason is not None:
        because = outcome_reason(language, reason)
    else:  # an English reason nobody knows the code of stays as it was stored
        because = str(result.get("reason") or "")
    names = listing(language, winners)
    if result.get("aborted"):
        code = "result_aborted" if because else "result_aborted_plain"
    elif result.get("draw") or not winners:
        code = "result_drawn" if because else "result_drawn_plain"
    elif len(winners) == 1:
        code = "result_win" if because else "result_win_plain"
    else:
        code = "result_win_many" if because else "result_win_many_plain"
    return translate(language, SAY_PREFIX + code, names=names, reason=because)


def _winner_in_outcome(
    language: str, result: Mapping[str, object], winners: list[str], reason: Reason | None
) -> str | None:
    """An engine outcome that itself says who won ("{colour} wins 4–2: …") with the player
    put in for the colour: "Bernd (Hell) gewinnt 4–2: …", so the winner is named once, as
    English does; None for any other result."""
    if result.get("draw") or len(winners) != 1 or not isinstance(reason, Mapping):
        return None
    params = reason.get("params")
    if not reason.get("code") or not isinstance(params, Mapping):
        return None
    colour = params.get("colour")
    if not isinstance(colour, str) or not str(reason.get("reason", "")).startswith(
        f"{colour} wins"
    ):
        return None
    player = f"{winners[0]} ({colour_name(language, colour)})"
    return outcome_reason(language, {**reason, "params": {**params, "colour": player}}) + "."


def _value(language: str, value: object) -> object:
    """A parameter of a said line: what is said inside it in words, plain values as they
    are (``translate`` words colours itself)."""
    if isinstance(value, Said):
        return said_words(language, value.code, value.params)
    if isinstance(value, Phrase):
        return phrase(language, value)
    if isinstance(value, Duration):
        return write_duration(language, value.seconds)
    if isinstance(value, list | tuple) and all(isinstance(v, Said | Phrase) for v in value):
        return ", ".join(str(_value(language, item)) for item in value)
    return value


def service_text(language: str, line: Event | Note) -> str:
    """One line of an update in ``language``: a said :class:`matchcore.service.Event`, or a note
    the Discord layer added (anything with ``words(language)``)."""
    if isinstance(line, Event):
        return said_words(language, line.kind, line.data)
    return line.words(language)


def texts_for(language: str, update: Update, user_id: int | None) -> list[str]:
    """The update's lines for the channel (``None``) or for one user, in ``language``: the
    Discord layer's own notes first, then what the service said."""
    notes = [note for note in update.notes if note.to == user_id]
    said = [event for event in update.said if event.to == user_id]
    lines: list[Event | Note] = [*notes, *said]
    return [service_text(language, line) for line in lines]


def result_words(
    language: str,
    seats: Iterable[Seated],
    result: Mapping[str, object],
    name: Callable[[int | None], str],
) -> str:
    """A finished match's result in one sentence in ``language`` (``name`` writes a player),
    as history lines and refreshed messages say it: why from the stored result's code, or,
    for a result stored before codes, from the code of its English reason."""
    if language == DEFAULT_LANGUAGE:
        return board_logic.result_text(seats, result, name)
    winners = [name(user) for user in _winners(result)]
    return _result_sentence(language, result, winners, reasons.reason_of(result))
