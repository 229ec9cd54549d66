"""The 7, 8, 9 and slot machine effects, and when effects do not fire."""

from __future__ import annotations

import pytest

from engine import IllegalMove
from tests.leiff.helpers import play, stacked, texts

A = ["1", "2", "3", "4"]
B = ["5", "6", "10", "11"]
C = ["12", "12", "13", "-1"]


def test_a_seven_drawn_and_discarded_lets_you_look_at_one_of_your_cards():
    state = play(stacked([A, B], "12", ["7"]), (0, "draw"), (0, "discard"))
    assert state.waiting_for()["step"] == "effect" and state.waiting_for()["card"] == "7"
    assert state.legal_actions(0)[:5] == ["peek 1", "peek 2", "peek 3", "peek 4", "decline"]
    state = state.play(0, "peek 4")
    assert state.view(0)["hands"][0] == ["1", "2", None, "4"]
    assert state.view(1)["hands"][0] == [None] * 4
    assert all("[4]" not in text for text in texts(state))
    assert texts(state, 0)[-1] == "Your slot 4 is [4]."
    assert state.waiting_for()["turn"] == 1


def test_an_eight_lets_you_look_at_any_players_card():
    state = play(stacked([A, B, C], "12", ["8"]), (0, "draw"), (0, "discard"))
    assert "peek 2.3" in state.legal_actions(0) and "peek 0.3" in state.legal_actions(0)
    state = state.play(0, "peek 2.3")
    assert state.view(0)["hands"][2] == [None, None, "13", None]
    assert state.view(2)["hands"][2] == ["12", "12", None, None]
    assert state.view(1)["hands"][2] == [None] * 4


def test_a_nine_swaps_your_card_with_another_players_unseen_and_knowledge_follows_the_card():
    state = play(stacked([A, B], "12", ["9"]), (0, "draw"), (0, "discard"), (0, "trade 0.1 1.2"))
    assert state.hands == [["6", "2", "3", "4"], ["5", "1", "10", "11"]]
    # seat 0 saw its "1" at the deal and knows where it went; seat 1 saw its "6" likewise
    assert state.view(0)["hands"] == [[None, "2", None, None], [None, "1", None, None]]
    assert state.view(1)["hands"] == [["6", None, None, None], ["5", None, None, None]]
    assert state.view(None)["hands"] == [[None] * 4, [None] * 4]
    # the player is named once: "their slot", not their name again
    assert texts(state)[-1] == "{p0} swaps their slot 1 with {p1}'s slot 2, unseen."


def test_a_nine_swap_names_the_players_own_card_as_theirs_in_either_order():
    state = play(stacked([A, B, C], "12", ["9", "9"]), (0, "draw"), (0, "discard"))
    state = play(state, (0, "trade 0.3 2.1"), (1, "draw"), (1, "discard"), (1, "trade 0.2 1.4"))
    assert texts(state)[-1] == "{p1} swaps their slot 4 with {p0}'s slot 2, unseen."
    assert state.events[-1]["code"] == "blind_swap_own"


def test_a_nine_may_swap_the_cards_of_two_other_players():
    state = play(stacked([A, B, C], "12", ["9"]), (0, "draw"), (0, "discard"))
    assert "trade 1.4 2.4" in state.legal_actions(0)
    assert "trade 1.1 1.2" not in state.legal_actions(0)
    with pytest.raises(IllegalMove):
        state.play(0, "trade 1.1 1.2")
    state = state.play(0, "trade 2.4 1.4")  # either order is accepted
    assert state.hands[1][3] == "-1" and state.hands[2][3] == "11"
    assert state.log[-1] == (0, "trade 1.4 2.4")
    assert texts(state)[-1] == "{p0} swaps {p1}'s slot 4 with {p2}'s slot 4, unseen."


def test_slot_machine_lets_you_discard_one_of_your_cards():
    state = play(
        stacked([A, B], "12", ["slot"]), (0, "draw"), (0, "discard"), (0, "slot discard 2")
    )
    assert state.hands[0] == ["1", "3", "4"]
    assert state.view(None)["discard_top"] == "2"
    # the remembered slot 1 stays; the rest moved up one slot, still unknown
    assert state.view(0)["hands"][0] == ["1", None, None]


def test_slot_machine_can_make_another_player_draw_an_extra_card():
    state = play(
        stacked([A, B], "12", ["slot", "13"]), (0, "draw"), (0, "discard"), (0, "slot give 1")
    )
    assert state.hands[1] == [*B, "13"]
    assert state.view(1)["hands"][1] == ["5", "6", None, None, None]


def test_effects_may_be_declined():
    state = play(stacked([A, B], "12", ["8"]), (0, "draw"), (0, "discard"), (0, "decline"))
    assert state.waiting_for()["turn"] == 1
    assert state.view(0)["hands"] == [["1", "2", None, None], [None] * 4]


def test_effect_card_taken_from_the_discard_pile_does_not_fire():
    state = play(stacked([A, B], "7"), (0, "take"))
    assert state.legal_actions(0)[:4] == ["swap 1", "swap 2", "swap 3", "swap 4"]
    assert not any(a.startswith("peek") or a == "discard" for a in state.legal_actions(0))
    state = state.play(0, "swap 3")
    assert state.waiting_for()["step"] == "turn" and state.waiting_for()["turn"] == 1


def test_effect_card_leaving_a_hand_does_not_fire():
    state = play(stacked([["8", "2", "3", "4"], B], "12", ["13"]), (0, "draw"), (0, "swap 1"))
    assert state.view(None)["discard_top"] == "8"
    assert state.waiting_for()["step"] == "turn" and state.waiting_for()["turn"] == 1


def test_slot_machine_drawn_and_swapped_in_does_not_fire():
    state = play(stacked([A, B], "12", ["slot"]), (0, "draw"), (0, "swap 4"))
    assert state.waiting_for()["step"] == "turn" and state.hands[0][3] == "slot"


def test_an_effect_choice_that_does_not_answer_the_card_is_refused():
    state = play(stacked([A, B], "12", ["7"]), (0, "draw"), (0, "discard"))
    with pytest.raises(IllegalMove):
        state.play(0, "peek 1.1")
    with pytest.raises(IllegalMove):
        state.play(1, "peek 1")
