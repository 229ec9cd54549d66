"""Patience: a round among bot seats always ends (engine.ai.leiff_bot, PATIENT_REFILLS).

Nothing in Leiff's rules ends a round nobody calls. A six-seat bench game stalled for good:
two searching seats had matched their hands away and both held 0, so whichever called
would tie and take +5, and neither did, while the others drew and discarded; its draw pile
went round 14 times. ``data/leiff-standoff.json`` is that table (seed
``seats:6:specials+drinking:search-sensible:158``, after 1,500 actions).
"""

from __future__ import annotations

import copy
from pathlib import Path

import pytest

from engine.ai import leiff_bot
from engine.ai.leiff_bot import decide, refills_seen
from engine.ai.leiff_search import search_decide
from engine.leiff import Leiff
from engine.leiff.events import Said
from engine.leiff.state import LeiffState
from engine.leiff.views import LeiffView

STANDOFF = Path(__file__).parent / "data" / "leiff-standoff.json"
# the bench's seats at that table: searching seats at the strongest level's 24 worlds
KINDS = ["search", "sensible"] * 3


def _refilled(view: LeiffView, times: int) -> LeiffView:
    """The same view with ``times`` more refills among the round's public events."""
    more = copy.deepcopy(view)
    refill: Said = {"code": "refill", "params": {}}
    more["round_events"] = [*more["round_events"], *([refill] * times)]
    return more


def _turn_start(seed: int) -> LeiffView:
    """The first turn's view of a new three-seat game, once the deal's looks are done."""
    state = Leiff().new(players=3, seed=seed)
    while state.view(None)["waiting_for"]["step"] != "turn":
        seat = state.view(None)["waiting_for"]["owners"][0]
        action = state.view(seat)["default_action"]
        assert action is not None
        state = state.play(seat, action)
    return state.view(state.view(None)["waiting_for"]["turn"])


def _play_bots(state: LeiffState, actions: int) -> tuple[LeiffState, int | None]:
    """Play the bench's seats on ``state`` for at most ``actions`` actions; the state and
    the number of actions it took to end the round (None: it did not end)."""
    for taken in range(1, actions + 1):
        for seat in state.actors():
            view = state.view(seat)
            kind = KINDS[seat]
            action = search_decide(view) if kind == "search" else decide(view)
            if action is None:
                continue
            state = state.play(seat, action)
            break
        else:
            raise AssertionError("nobody at the table acts")
        if state.view(None)["round_over"]:
            return state, taken
    return state, None


def test_refills_are_counted_from_the_rounds_public_events() -> None:
    state = Leiff().from_json(STANDOFF.read_text(encoding="utf-8"))
    assert all(refills_seen(state.view(seat)) == 14 for seat in range(6))
    assert refills_seen(_turn_start(7)) == 0


def test_a_long_round_lowers_the_bar_for_calling() -> None:
    # seat 0 knows 2 and 6 (an estimated 20 against 24 for the others): below the margin
    # a fresh round asks for, no worse than anyone once the pile has gone round three times
    low = _turn_start(7)
    assert decide(low) != "leiff"
    assert decide(_refilled(low, leiff_bot.PATIENT_REFILLS - 1)) != "leiff"
    assert decide(_refilled(low, leiff_bot.PATIENT_REFILLS)) == "leiff"


def test_after_five_refills_every_bot_calls_at_its_turn() -> None:
    high = _turn_start(1)  # 13 and 5 known: an estimated 30, the worst at the table
    assert decide(_refilled(high, leiff_bot.PATIENT_REFILLS)) != "leiff"
    assert decide(_refilled(high, leiff_bot.CALL_ANYWAY_REFILLS)) == "leiff"
    # the searching seat does not second-guess it (its rollouts stop short of the end)
    assert search_decide(_refilled(high, leiff_bot.CALL_ANYWAY_REFILLS), worlds=4) == "leiff"


def test_the_stalled_bench_round_ends_at_the_next_turn() -> None:
    state = Leiff().from_json(STANDOFF.read_text(encoding="utf-8"))
    ended, taken = _play_bots(state, 20)
    assert taken is not None and taken <= 3
    assert ended.view(None)["caller"] == 0  # seat 0 was to move


def test_without_patience_the_standoff_goes_on(monkeypatch: pytest.MonkeyPatch) -> None:
    # the old rule (margin only): three times round the table and nobody calls
    monkeypatch.setattr(leiff_bot, "PATIENT_REFILLS", 10**9)
    monkeypatch.setattr(leiff_bot, "CALL_ANYWAY_REFILLS", 10**9)
    state = Leiff().from_json(STANDOFF.read_text(encoding="utf-8"))
    _, taken = _play_bots(state, 45)
    assert taken is None
