"""The drinking ledger: after-round arithmetic, in-round catches, water rules, no ledger when off."""

from __future__ import annotations

import pytest

from engine.leiff.scoring import hand_drinks
from tests.leiff.helpers import play, stacked, texts

B = ["5", "6", "1", "2"]


@pytest.mark.parametrize(
    "values, expected",
    [
        ([13, 10, 4, 2], (2, 2, 0)),  # two shots; 4 + 2 = 6 -> two sips
        ([1, 1, 1, 1], (2, 0, 0)),  # 4 / 3 rounded up
        ([3, 3, 0], (2, 0, 0)),
        ([-1, 0, 0, 12], (0, 1, 1)),  # negative rest: hand one sip out
        ([], (0, 0, 0)),
    ],
)
def test_after_round_drinking_arithmetic(values, expected):
    assert hand_drinks(values) == expected


def test_a_hand_of_13_10_4_2_costs_two_shots_and_two_sips_at_round_end():
    state = stacked([["13", "10", "4", "2"], B], "9", drinking=True).play(0, "leiff")
    ledger = state.view(None)["drinks"]
    assert ledger[0] == {"sips": 0 + 2, "shots": 2, "hand_out": 0}
    assert ledger[1] == {"sips": 5, "shots": 0, "hand_out": 0}  # 14 / 3 rounded up
    assert any("2 shots and 2 sips (or 10 sips)" in text for text in texts(state))


def test_negative_hand_lets_the_player_hand_out_sips():
    state = stacked([["-1", "slot", "-1", "slot"], B], "9", drinking=True).play(0, "leiff")
    assert state.view(None)["drinks"][0] == {"sips": 0, "shots": 0, "hand_out": 2}


def test_having_a_card_caught_costs_a_shot_and_the_catcher_hands_out_a_sip():
    state = stacked([["9", "2", "3", "4"], B], "9", ["10", "11"], drinking=True).play(
        1, "catch 0.1"
    )
    assert state.view(None)["drinks"] == [
        {"sips": 0, "shots": 1, "hand_out": 0},
        {"sips": 0, "shots": 0, "hand_out": 1},
    ]


def test_a_failed_catch_costs_the_catcher_a_shot():
    state = stacked([["1", "2", "3", "4"], B], "9", ["10"], drinking=True).play(1, "catch 0.1")
    assert state.view(None)["drinks"][1] == {"sips": 0, "shots": 1, "hand_out": 0}
    assert state.view(None)["drinks"][0] == {"sips": 0, "shots": 0, "hand_out": 0}


def test_a_wrong_match_costs_cards_but_no_drink():
    state = stacked([["1", "2", "3", "4"], B], "9", ["10", "11"], drinking=True).play(0, "match 1")
    assert state.view(None)["drinks"][0] == {"sips": 0, "shots": 0, "hand_out": 0}


def test_water_rules_keep_the_ledger():
    state = stacked([["13", "10", "4", "2"], B], "9", drinking=True, water=True).play(0, "leiff")
    assert state.view(None)["drinks"][0]["shots"] == 2


def test_no_ledger_without_drinking_rules():
    state = play(
        stacked([["9", "2", "3", "4"], B], "9", ["10", "11"]), (1, "catch 0.1"), (0, "leiff")
    )
    assert state.view(None)["drinks"] is None
    assert not any(item["kind"] == "drink" for item in state.events)


def test_ledger_starts_fresh_each_round():
    state = stacked([["13", "10", "4", "2"], B], "9", drinking=True, target=100)
    state = play(state, (0, "leiff"), (1, "next"))
    assert state.view(None)["drinks"] == [{"sips": 0, "shots": 0, "hand_out": 0}] * 2


def test_the_drinks_line_counts_in_words_with_plurals():
    hands = [["10", "1", "slot", "slot"], ["-1", "slot", "-1", "slot"], ["2", "2", "1", "1"]]
    state = stacked(hands, "9", drinking=True).play(0, "leiff")
    (line,) = [text for text in texts(state) if text.startswith("Drinks this round")]
    assert line == (
        "Drinks this round: {p0} 1 shot and 1 sip (or 5 sips); {p1} hands out 2 sips; {p2} 2 sips."
    )
    assert "(s)" not in line
