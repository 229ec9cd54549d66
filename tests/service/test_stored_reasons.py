"""Why a match ended, stored with its result and read back as a code.

New results carry their reason's code; a result stored before codes existed has only the
English, and :func:`matchcore.service.reasons.reason_of` recognises every English reason the
service and the engines write (each plural form, each game) and gives its code and
parameters back, so that the edges can word it in any language.
"""

from __future__ import annotations

import re
from typing import Any

import pytest

from engine.errors import fill
from engine.reasons import REASONS
from engine.reports import Outcome
from matchcore.service import reasons
from matchcore.service.texts import ENGLISH, Said, english

# A value for each placeholder the reasons use (colours and numbers as games write them).
SAMPLES: dict[str, Any] = {
    "colour": "light",
    "loser_colour": "dark",
    "stuck_colour": "dark",
    "high": 4,
    "low": 2,
    "target": 50,
    "best": 31,
    "user": "<@12>",
}


def _params(template: str, count: int | None) -> dict[str, Any]:
    names = re.findall(r"\{(\w+)\}", template)
    params = {name: SAMPLES[name] for name in names if name != "count"}
    if count is not None:
        params["count"] = count
    return params


ENGINE_CASES = [
    (code, count)
    for code, text in REASONS.items()
    for count in ((1, 2) if isinstance(text, tuple) else (None,))
]
SERVICE_CODES = [code for code in ENGLISH if code.startswith("reason_")]


@pytest.mark.parametrize(("code", "count"), ENGINE_CASES)
def test_an_old_engine_reason_reads_as_its_code(code: str, count: int | None) -> None:
    text = REASONS[code]
    template = text if isinstance(text, str) else text[0 if count == 1 else 1]
    params = _params(template, count)
    old = {"winners": [11], "reason": fill(text, params), "draw": False}
    found = reasons.reason_of(old)
    assert isinstance(found, dict)
    assert (found["code"], found["params"]) == (code, params)


@pytest.mark.parametrize("code", SERVICE_CODES)
def test_an_old_service_reason_reads_as_its_code(code: str) -> None:
    template = ENGLISH[code]
    assert isinstance(template, str)
    params = _params(template, None)
    found = reasons.reason_of({"winners": [], "reason": english(code, params), "draw": True})
    assert found == Said(code, params)


def test_an_old_reason_naming_a_seat_without_a_user_names_it_in_every_language() -> None:
    found = reasons.reason_of({"winners": [11], "reason": "a bot ran out of time"})
    assert found == Said("reason_timed_out", {"user": Said("a_bot")})


def test_an_unknown_or_missing_reason_has_no_code() -> None:
    assert reasons.reason_of({"winners": [], "reason": "drawn long ago", "draw": True}) is None
    assert reasons.reason_of({"winners": [11]}) is None


def test_a_new_result_stores_its_code_beside_the_english() -> None:
    why = Said("reason_resigned", {"user": "<@12>"})
    stored = reasons.result([11], why)
    assert stored["reason"] == "<@12> resigned"
    assert reasons.reason_of(stored) == why
    outcome = Outcome.because(
        "light", "lefe_win_stuck", **_params(str(REASONS["lefe_win_stuck"]), None)
    )
    stored = reasons.result([11], outcome)
    assert stored["reason"] == outcome.reason
    assert reasons.reason_of(stored) == outcome.to_dict()
    bot_seat = reasons.result([11], Said("reason_timed_out", {"user": Said("a_bot")}))
    assert reasons.reason_of(bot_seat) == Said("reason_timed_out", {"user": Said("a_bot")})
