"""Leiff bot seats: they decide from their own view only, play legally, and play sensibly."""

from __future__ import annotations

import copy
import json
import random
import statistics
from typing import Any

import pytest

from engine import get_game
from engine.ai.leiff_bot import bot_action, decide, random_decide, run_table
from tests.leiff.helpers import stacked


class ViewOnly:
    """Stands in for a state but hands out nothing except ``view(seat)``."""

    def __init__(self, state: Any) -> None:
        self._state = state
        self.asked: list[int] = []

    def view(self, seat: int) -> dict[str, Any]:
        self.asked.append(seat)
        return self._state.view(seat)

    def __getattr__(self, name: str) -> Any:
        raise AssertionError(f"the bot read state.{name}, which is not its view")


def test_bot_reads_nothing_but_its_own_view() -> None:
    # Bots in every seat, so the match runs long and meets effects and round ends.
    state = get_game("leiff").new(players=3, seed=4, options={"specials": True, "target": 100})
    checked = 0
    for _ in range(400):
        if state.outcome is not None:
            break
        chosen: tuple[int, str] | None = None
        for seat in state.actors():
            spy = ViewOnly(state)
            action = bot_action(spy, seat)
            assert spy.asked == [seat]
            if action is not None:
                assert state.is_legal(seat, action)
                checked += 1
                chosen = chosen or (seat, action)
        assert chosen is not None
        state = state.play(*chosen)
    assert checked > 100


def test_decisions_depend_only_on_the_view_not_on_hidden_cards() -> None:
    # Same seat-0 knowledge, different hidden truth: seat 0's unseen slots, seat 1's hand
    # and the deeper draw pile all differ between the two tables.
    first = stacked([["12", "1", "5", "9"], ["3", "4", "6", "7"]], "5", ["2", "8", "10", "11"])
    second = stacked([["12", "1", "13", "-1"], ["13", "2", "1", "slot"]], "5", ["2", "8", "4", "3"])
    assert first.hands != second.hands
    rng_first, rng_second = random.Random(9), random.Random(9)
    compared = 0
    for _ in range(40):
        if first.view(0)["hands"][0] != second.view(0)["hands"][0]:
            break
        view_first, view_second = first.view(0), second.view(0)
        if view_first != view_second:
            break
        assert bot_action(first, 0) == bot_action(second, 0)
        compared += 1
        action = bot_action(first, 0)
        if action is not None:
            first, second = first.play(0, action), second.play(0, action)
            continue
        move_first = random_decide(first.view(1), rng_first)
        move_second = random_decide(second.view(1), rng_second)
        if move_first != move_second or move_first is None:
            break
        first, second = first.play(1, move_first), second.play(1, move_second)
    assert compared >= 3


def test_decide_needs_only_a_plain_copy_of_the_view() -> None:
    state = stacked([["12", "1", "5", "9"], ["3", "4", "6", "7"]], "5", ["2"])
    plain = json.loads(json.dumps(state.view(0)))
    assert decide(plain) == bot_action(state, 0) == "draw"


def test_bot_swaps_a_low_drawn_card_for_its_highest_known_card() -> None:
    state = stacked([["12", "1", "5", "9"], ["3", "4", "6", "7"]], "5", ["2"])
    state = state.play(0, "draw")
    assert bot_action(state, 0) == "swap 1"


def test_bot_discards_a_drawn_card_that_improves_nothing() -> None:
    state = stacked([["2", "1", "5", "9"], ["3", "4", "6", "7"]], "5", ["12"])
    state = state.play(0, "draw")
    assert bot_action(state, 0) == "discard"


def test_bot_takes_a_low_discard_over_a_high_known_card() -> None:
    state = stacked([["12", "1", "5", "9"], ["3", "4", "6", "7"]], "-1", ["10"])
    assert bot_action(state, 0) == "take"


def test_bot_matches_when_it_knows_its_card_equals_the_top() -> None:
    state = stacked([["12", "5", "3", "9"], ["3", "4", "6", "7"]], "5", ["2"])
    assert bot_action(state, 0) == "match 2"
    # the other seat knows nothing that matches, so it waits (it is not its turn)
    assert bot_action(state, 1) is None


def test_bot_never_matches_or_catches_on_a_guess() -> None:
    # seat 0's unseen slot 3 equals the top, and so does seat 1's slot 1: a cheat would
    # match or catch; the bot does not know it and draws instead
    state = stacked([["12", "1", "5", "9"], ["5", "4", "6", "7"]], "5", ["2"])
    assert bot_action(state, 0) == "draw"


def test_bot_catches_a_card_it_has_seen() -> None:
    state = stacked([["12", "1", "5", "9"], ["3", "4", "6", "7"]], "5", ["2"])
    view = copy.deepcopy(state.view(0))
    view["hands"][1][2] = "5"  # as if an 8 had shown seat 1's third card
    assert "catch 1.3" in view["legal_actions"]
    assert decide(view) == "catch 1.3"


def test_bot_calls_leiff_when_clearly_ahead_and_not_otherwise() -> None:
    state = stacked([["1", "-1", "2", "slot"], ["3", "4", "6", "7"]], "9", ["2"])
    view = copy.deepcopy(state.view(0))
    assert decide(view) != "leiff"  # it has seen only half its hand
    view["hands"][0] = ["1", "-1", "2", "slot"]
    assert decide(view) == "leiff"
    view["hands"][1] = ["1", "1", "-1", "slot"]  # it knows the opponent is even lower
    assert decide(view) != "leiff"


@pytest.mark.parametrize(
    "options",
    [{}, {"specials": True}, {"specials": True, "drinking": True}, {"teams": True}],
)
def test_bot_seats_only_ever_play_legal_actions(options: dict[str, Any]) -> None:
    # run_table plays every decision through state.play, which raises on an illegal action
    state = get_game("leiff").new(players=4, seed=3, options=options)
    _, scores = run_table(state, ["bot", "random", "bot", "random"], rounds=6, rng=random.Random(3))
    assert scores and all(len(row) == 4 for row in scores)


def test_bots_score_lower_than_random_seats() -> None:
    scores: list[list[int]] = []
    for seed in range(6):
        state = get_game("leiff").new(players=4, seed=seed)
        _, more = run_table(
            state, ["bot", "random", "bot", "random"], rounds=10, rng=random.Random(seed)
        )
        scores.extend(more)
    bots = statistics.mean(row[s] for row in scores for s in (0, 2))
    randoms = statistics.mean(row[s] for row in scores for s in (1, 3))
    assert bots < randoms


def test_bot_with_an_empty_hand_still_answers_legally() -> None:
    state = stacked([["5", "1", "9", "12"], ["3", "4", "6", "7"]], "5", ["2"])
    view = copy.deepcopy(state.view(0))
    view["hands"][0] = []
    assert decide(view) in view["legal_actions"]
