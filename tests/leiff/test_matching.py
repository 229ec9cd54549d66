"""Matching and catching, by anyone at any moment, right and wrong, one at a time."""

from __future__ import annotations

import pytest

from engine import IllegalMove
from engine.leiff import Deck
from tests.leiff.helpers import GAME, play, stacked, texts

A = ["1", "2", "3", "4"]
B = ["5", "6", "10", "11"]
C = ["12", "12", "13", "-1"]
NUMBERS = [{"label": label, "value": int(label), "count": 4} for label in ("5", "6", "10", "11")]


def test_right_match_throws_the_card_onto_the_pile_even_out_of_turn():
    state = stacked([A, B, C], "6")
    assert "match 2" in state.legal_actions(1)
    state = state.play(1, "match 2")
    assert state.hands[1] == ["5", "10", "11"]
    assert state.view(None)["discard_top"] == "6" and state.view(None)["discard_count"] == 2
    assert state.waiting_for()["turn"] == 0  # nobody's turn changed
    assert "right" in texts(state)[0]


def test_wrong_match_shows_the_card_to_all_returns_it_and_costs_two_cards():
    state = stacked([A, B, C], "6", ["9", "9"]).play(2, "match 1")
    assert state.hands[2] == [*C, "9", "9"]
    for viewer in (0, 1, None):
        assert state.view(viewer)["hands"][2] == ["12", None, None, None, None, None]
    assert state.view(None)["discard_top"] == "6"


def test_right_catch_discards_the_card_and_its_owner_draws_two():
    state = stacked([A, B, C], "13", ["9", "8"]).play(0, "catch 2.3")
    assert state.hands[2] == ["12", "12", "-1", "9", "8"]
    assert state.view(None)["discard_top"] == "13"
    assert state.hands[0] == A


def test_wrong_catch_shows_the_card_returns_it_and_the_catcher_draws_one():
    state = stacked([A, B, C], "13", ["9"]).play(0, "catch 1.1")
    assert state.hands[1] == B
    assert state.hands[0] == [*A, "9"]
    assert state.view(2)["hands"][1] == ["5", None, None, None]
    assert "does not match" in texts(state)[0]


def test_your_own_card_cannot_be_caught():
    state = stacked([A, B], "1")
    assert "catch 0.1" not in state.legal_actions(0)
    with pytest.raises(IllegalMove, match="match"):
        state.play(0, "catch 0.1")


def test_each_match_is_judged_against_the_pile_as_it_is_then():
    state = stacked([["4", "1", "2", "3"], ["4", "5", "6", "10"]], "4", ["11"])
    state = state.play(1, "match 1")
    assert state.view(None)["discard_top"] == "4"
    state = state.play(0, "match 1")  # a second 4 on the 4 is still right
    assert state.hands == [["1", "2", "3"], ["5", "6", "10"]]
    state = play(state, (0, "draw"), (0, "swap 1"))  # the top is now 1 ... which seat 0 threw
    assert state.view(None)["discard_top"] == "1"
    state = state.play(1, "match 1")  # 5 on 1: wrong now
    assert state.hands[1][:3] == ["5", "6", "10"] and len(state.hands[1]) == 5


def test_matching_is_allowed_while_the_turn_player_holds_a_card():
    state = stacked([A, ["3", "6", "10", "11"]], "3", ["12"]).play(0, "draw")
    state = state.play(1, "match 1")
    assert state.hands[1] == ["6", "10", "11"]
    assert state.waiting_for()["step"] == "hold"
    assert state.view(0)["holding"]["card"] == "12"


def test_a_player_who_matched_away_every_card_has_nothing_to_match_or_catch():
    deck = Deck.from_dict({"base": [{"label": "4", "value": 4, "count": 6}, *NUMBERS]})
    state = GAME.new(players=2, seed=0, deck=deck, deck_order=["4", "4", "4", "4", *B, "4"])
    state = play(state, (0, "match 1"), (0, "match 1"), (0, "match 1"), (0, "match 1"))
    assert state.hands[0] == []
    assert "take" not in state.legal_actions(0)
    assert not any(a.startswith("match") for a in state.legal_actions(0))
    assert not any(a.startswith("catch 0.") for a in state.legal_actions(1))
    assert state.view(None)["hand_sizes"] == [0, 4]
