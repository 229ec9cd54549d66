"""Why a finished match ended, as stored with its result and as read back.

A stored result (``MatchRecord.result``) names the winners, says why in English
(``reason``, for logs and English texts) and, since results carry codes, says why as a
code too: ``why``, the service's reason (a :class:`matchcore.service.texts.Said` of a
``reason_*`` code, as data), or ``outcome``, the engine's (its outcome's ``to_dict()``:
code and parameters). :func:`reason_of` gives the code back for the edges to word in the
reader's language (``i18n.outcome_reason`` words an engine outcome's data). For a result
stored before codes existed it recognises the English of every known reason (the
service's ``reason_*`` texts and the engine's :data:`engine.reasons.REASONS`) and gives
its code, so old history lines read in German too; an English reason it does not know
stays as it is.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Callable, Mapping, Sequence
from typing import Any, Protocol

from engine.reasons import REASONS
from matchcore.records import MatchResult, SaidData
from matchcore.service.texts import ENGLISH, Said, english

# Why, read back: the service's reason, or an engine outcome's data (code, params, reason).
Reason = Said | dict[str, Any]


class EngineOutcome(Protocol):
    """A board game's or Leiff's ``Outcome``: its English and its data."""

    @property
    def reason(self) -> str: ...

    def to_dict(self) -> dict[str, Any]: ...


def result(
    winners: Sequence[int | None],
    why: Said | EngineOutcome,
    *,
    draw: bool = False,
    aborted: bool = False,
) -> MatchResult:
    """A finished match's stored result: the winners (user ids) and why, in English and as
    a code. An aborted match (``aborted``, status "aborted") has no winner and is no draw:
    it counts for nobody."""
    found: MatchResult = {"winners": list(winners), "draw": draw}
    if aborted:
        found["aborted"] = True
    if isinstance(why, Said):
        found["reason"] = english(why.code, why.params)
        found["why"] = said_data(why)
    else:
        found["reason"] = why.reason
        found["outcome"] = why.to_dict()
    return found


def reason_of(stored: Mapping[str, object]) -> Reason | None:
    """Why a stored result says the match ended, as a code: its own, or, for a result stored
    before codes, the code whose English it holds; None for a reason nobody knows (or none)."""
    why, outcome = stored.get("why"), stored.get("outcome")
    if isinstance(why, Mapping):
        return said_from(why)
    if isinstance(outcome, Mapping):
        return dict(outcome)
    text = stored.get("reason")
    return from_english(text) if isinstance(text, str) and text else None


def said_data(said: Said) -> SaidData:
    """A :class:`Said` as JSON data (a parameter that is itself said nests the same way)."""
    params: dict[str, object] = {
        key: {"said": said_data(value)} if isinstance(value, Said) else value
        for key, value in said.params.items()
    }
    return {"code": said.code, "params": params}


def said_from(data: Mapping[str, Any]) -> Said:
    """The :class:`Said` that :func:`said_data` stored."""
    params = {
        key: said_from(value["said"]) if isinstance(value, Mapping) and "said" in value else value
        for key, value in dict(data.get("params") or {}).items()
    }
    return Said(str(data["code"]), params)


def from_english(text: str) -> Reason | None:
    """The code of an English reason stored before results carried codes."""
    for pattern, make in _patterns():
        found = pattern.fullmatch(text)
        if found is not None:
            return make(text, found.groupdict())
    return None


# What a placeholder of an English reason may hold: colours are one word, the numbers
# digits; anything else (a mention) is text. Keeping colours to one word tells
# "neither player has ..." apart from "{stuck_colour} has ...".
_NUMBERS = frozenset({"count", "high", "low", "target", "best"})


def _placeholder(name: str) -> str:
    if name == "colour" or name.endswith("_colour"):
        return rf"(?P<{name}>[a-z]+)"
    if name in _NUMBERS:
        return rf"(?P<{name}>\d+)"
    return rf"(?P<{name}>.+?)"


def _pattern(template: str) -> re.Pattern[str]:
    # split keeps the placeholders' names at the odd positions
    parts = re.split(r"\{(\w+)\}", template)
    return re.compile(
        "".join(_placeholder(part) if i % 2 else re.escape(part) for i, part in enumerate(parts))
    )


def _values(groups: Mapping[str, str]) -> dict[str, Any]:
    return {key: int(value) if key in _NUMBERS else value for key, value in groups.items()}


# makes the code of a recognised English reason from its text and placeholders' values
_Maker = Callable[[str, Mapping[str, str]], Reason]


@functools.cache
def _patterns() -> list[tuple[re.Pattern[str], _Maker]]:
    """Every known English reason as a pattern, the most literal text first."""
    found: list[tuple[str, _Maker]] = []
    for code, english_text in REASONS.items():
        for template in english_text if isinstance(english_text, tuple) else (english_text,):
            found.append((template, functools.partial(_engine_reason, code)))
    for code, english_text in ENGLISH.items():
        if code.startswith("reason_") and isinstance(english_text, str):
            found.append((english_text, functools.partial(_service_reason, code)))
    found.sort(key=lambda item: -len(re.sub(r"\{\w+\}", "", item[0])))
    return [(_pattern(template), make) for template, make in found]


def _engine_reason(code: str, text: str, groups: Mapping[str, str]) -> dict[str, Any]:
    return {"reason": text, "code": code, "params": _values(groups)}


def _service_reason(code: str, text: str, groups: Mapping[str, str]) -> Said:
    params: dict[str, object] = _values(groups)
    if params.get("user") == english("a_bot", {}):
        params["user"] = Said("a_bot")  # a seat without a user, named in English then
    return Said(code, params)
