"""The five special cards: Kneipenphilosoph, Kellner, Klatschtante, Dorfschönheit, Magier."""

from __future__ import annotations

import pytest

from engine import IllegalMove
from engine.leiff import Deck, load_default_deck
from tests.leiff.helpers import GAME, play, stacked, texts

A = ["1", "2", "3", "4"]
B = ["5", "6", "10", "11"]
C = ["12", "12", "13", "-1"]


def discard_drawn(state, seat=0):
    return play(state, (seat, "draw"), (seat, "discard"))


# ---- Kneipenphilosoph ------------------------------------------------------------------------
def test_philosopher_turns_a_hand_unseen_and_clears_the_victims_memory():
    state = stacked([A, B, C], "12", ["9", "philosopher"], specials=True)
    state = state.play(2, "catch 1.3")  # wrong: everyone now knows seat 1's slot 3 is a 10
    assert state.view(0)["hands"][1] == [None, None, "10", None]
    state = discard_drawn(state)
    assert "rotate 1 3" in state.legal_actions(0) and "rotate 0 1" not in state.legal_actions(0)
    state = state.play(0, "rotate 1 1")
    assert state.hands[1] == ["11", "5", "6", "10"]
    assert state.view(1)["hands"][1] == [None] * 4  # the victim lost track
    assert state.view(2)["hands"][1] == [None] * 4  # so did the onlookers
    assert state.view(None)["hands"][1] == [None] * 4
    assert state.view(0)["hands"][1] == [None, None, None, "10"]  # the actor followed the turn
    assert all("1 step" not in text for text in texts(state))
    assert texts(state, 0)[-1] == "You turned {p1}'s cards 1 step clockwise."
    # the victim is told in private, naming no card; the onlooker is told nothing more
    assert texts(state, 1) == ["{p0} rearranged your cards: you no longer know where they are."]
    assert texts(state, 2) == []


# ---- Kellner ----------------------------------------------------------------------------------
def make_immune(hands, draw, **options):
    state = stacked(hands, "12", ["waiter", *draw], specials=True, **options)
    state = discard_drawn(state)
    assert state.legal_actions(0)[0] == "immune"
    return state.play(0, "immune")


def test_waiter_makes_the_player_immune_to_every_targeted_effect():
    state = make_immune([A, B, C], ["8"])
    assert state.view(None)["immune"] == [0]
    state = discard_drawn(state, seat=1)
    assert not any(a.startswith("peek 0.") for a in state.legal_actions(1))
    with pytest.raises(IllegalMove):
        state.play(1, "peek 0.1")


@pytest.mark.parametrize(
    "card, forbidden",
    [
        ("9", "trade 0.1 1.1"),
        ("slot", "slot give 0"),
        ("philosopher", "rotate 0 1"),
        ("magician", "enchant 0"),
    ],
)
def test_immune_player_cannot_be_targeted(card, forbidden):
    state = discard_drawn(make_immune([A, B, C], [card]), seat=1)
    assert state.waiting_for()["step"] == "effect"
    assert forbidden not in state.legal_actions(1)
    with pytest.raises(IllegalMove):
        state.play(1, forbidden)


def test_immune_left_neighbour_cannot_be_swapped_with_by_the_belle():
    state = play(make_immune([A, B, C], ["10", "belle"]), (1, "draw"), (1, "swap 1"))
    state = discard_drawn(state, seat=2)
    assert "belle swap" not in state.legal_actions(2)


def test_immune_player_drinks_nothing_but_can_still_be_caught():
    hands = [["5", "2", "3", "4"], B]
    state = play(make_immune(hands, ["9"], drinking=True), (1, "draw"), (1, "swap 1"))
    assert state.view(None)["discard_top"] == "5"
    state = state.play(1, "catch 0.1")
    assert len(state.hands[0]) == 5  # caught: the card went, two came
    assert state.view(None)["drinks"][0] == {"sips": 0, "shots": 0, "hand_out": 0}
    assert state.view(None)["drinks"][1] == {"sips": 0, "shots": 0, "hand_out": 1}
    assert "{p0} is immune (Kellner) and drinks nothing." in texts(state)


def test_immunity_ends_with_the_round():
    state = play(make_immune([A, B], ["9"], target=100), (1, "leiff"), (0, "next"))
    assert state.view(None)["immune"] == []


# ---- Klatschtante -----------------------------------------------------------------------------
def test_gossip_writes_a_table_rule_kept_into_the_next_round():
    state = discard_drawn(stacked([A, B], "12", ["gossip"], specials=True, target=100))
    assert any(a.startswith("rule ") for a in state.legal_actions(0))
    state = state.play(0, "rule   Toast   the host before every draw! ")
    assert state.view(1)["rule"] == "Toast the host before every draw!"
    state = play(state, (1, "leiff"), (0, "next"))
    assert state.view(None)["rule"] == "Toast the host before every draw!"


def test_gossip_rule_is_length_limited_and_not_empty():
    state = discard_drawn(stacked([A, B], "12", ["gossip"], specials=True))
    with pytest.raises(IllegalMove, match="100"):
        state.play(0, "rule " + "x" * 101)
    with pytest.raises(IllegalMove):
        state.play(0, "rule   ")


def deck_with_two(label: str) -> Deck:
    data = load_default_deck().to_dict()
    for special in data["specials"]:
        if special["label"] == label:
            special["count"] = 2
    return Deck.from_dict(data)


def test_a_new_gossip_rule_replaces_the_previous_one():
    order = [*A, *B, "12", "gossip", "gossip"]
    state = GAME.new(
        players=2,
        seed=0,
        options={"specials": True},
        deck=deck_with_two("gossip"),
        deck_order=order,
    )
    state = discard_drawn(state).play(0, "rule First rule")
    state = discard_drawn(state, seat=1).play(1, "rule Second rule")
    assert state.view(None)["rule"] == "Second rule"


# ---- Dorfschönheit ----------------------------------------------------------------------------
def test_belle_link_makes_you_drink_what_your_right_neighbour_drinks():
    state = discard_drawn(stacked([A, B, C], "12", ["belle"], specials=True, drinking=True))
    assert "belle link" in state.legal_actions(0) and "belle show 1" not in state.legal_actions(0)
    state = state.play(0, "belle link")
    assert state.view(None)["link"] == {"seat": 0, "to": 2}
    state = state.play(2, "catch 1.1")  # wrong: seat 2 drinks a shot, so does seat 0
    drinks = state.view(None)["drinks"]
    assert drinks[2]["shots"] == 1 and drinks[0]["shots"] == 1 and drinks[1]["shots"] == 0
    assert any("{p0} drinks the same (Dorfschönheit)." in text for text in texts(state))


def test_belle_with_water_rules_shows_one_of_your_cards_to_everyone():
    state = discard_drawn(
        stacked([A, B], "12", ["belle"], specials=True, drinking=True, water=True)
    )
    assert "belle link" not in state.legal_actions(0)
    state = state.play(0, "belle show 3")
    assert state.view(1)["hands"][0] == [None, None, "3", None]
    assert state.view(None)["hands"][0] == [None, None, "3", None]


def test_without_drinking_rules_belle_offers_the_water_alternative():
    state = discard_drawn(stacked([A, B], "12", ["belle"], specials=True))
    assert "belle show 1" in state.legal_actions(0) and "belle link" not in state.legal_actions(0)


def test_belle_can_swap_your_whole_hand_with_your_left_neighbour():
    state = discard_drawn(stacked([A, B, C], "12", ["belle"], specials=True)).play(0, "belle swap")
    assert state.hands == [B, A, C]
    assert state.view(0)["hands"][1] == ["1", "2", None, None]  # seat 0 knows where its cards went
    assert state.view(1)["hands"][0] == ["5", "6", None, None]


def test_the_next_belle_ends_the_drinking_link():
    order = [*A, *B, *C, "12", "belle", "10", "10", "belle"]
    state = GAME.new(
        players=3,
        seed=0,
        options={"specials": True, "drinking": True},
        deck=deck_with_two("belle"),
        deck_order=order,
    )
    state = discard_drawn(state).play(0, "belle link")
    state = play(state, (1, "draw"), (1, "swap 1"), (2, "draw"), (2, "swap 1"))
    state = discard_drawn(state)
    assert state.view(None)["link"] is None
    state = state.play(0, "decline")
    assert state.view(None)["link"] is None


# ---- Hinterhältiger Magier -------------------------------------------------------------------
def test_magician_exchange_happens_at_round_end_chosen_by_both_before_scoring():
    state = discard_drawn(
        stacked([A, C], "12", ["magician"], specials=True, drinking=True, target=100)
    )
    state = state.play(0, "enchant 1")
    assert state.view(None)["enchantments"] == [{"by": 0, "target": 1}]
    state = state.play(1, "leiff")
    assert state.waiting_for()["step"] == "exchange" and state.waiting_for()["owners"] == [0, 1]
    assert not state.round_over and state.view(None)["hands"][1] == [None] * 4
    # each of the two is told in private whom they exchange with, and which card to give
    assert texts(state, 1) == [
        "The Magier's exchange with {p0}: give them the card you choose as your best; you get "
        "back the one they choose as their worst."
    ]
    assert texts(state, 0) == [
        "The Magier's exchange with {p1}: give them the card you choose as your worst; you "
        "get the one they choose as their best."
    ]
    state = state.play(1, "give 4")  # the -1: its best card
    assert state.waiting_for()["owners"] == [0]
    with pytest.raises(IllegalMove):
        state.play(1, "give 1")
    state = state.play(0, "give 4")  # the 4: its worst
    assert state.round_over
    assert state.hands == [["1", "2", "3", "-1"], ["12", "12", "13", "4"]]
    assert state.view(None)["round_scores"] == [5, 41 + 5]


def test_magician_drinks_double_this_round():
    state = discard_drawn(
        stacked([C, A], "12", ["magician"], specials=True, drinking=True, target=100)
    )
    state = play(state, (0, "enchant 1"), (1, "leiff"), (0, "give 1"), (1, "give 1"))
    # seat 0 after the exchange: 1, 12, 13, -1 -> two shots, and 0 sips; doubled: four shots
    assert state.hands[0] == ["1", "12", "13", "-1"]
    assert state.view(None)["drinks"][0] == {"sips": 0, "shots": 4, "hand_out": 0}


def test_magician_with_water_rules_lets_the_victim_look_at_two_of_your_cards():
    state = discard_drawn(
        stacked([A, B], "12", ["magician"], specials=True, drinking=True, water=True)
    )
    state = state.play(0, "enchant 1")
    assert state.waiting_for()["step"] == "spy" and state.waiting_for()["owners"] == [1]
    assert state.actors() == [0, 1]  # seat 0 may still match and catch meanwhile
    state = play(state, (1, "spy 3"), (1, "spy 4"))
    assert state.view(1)["hands"][0] == [None, None, "3", "4"]
    assert state.view(None)["hands"][0] == [None] * 4
    assert state.waiting_for()["step"] == "turn" and state.waiting_for()["turn"] == 1
    assert state.view(None)["drinks"] is not None and 0 not in state.to_dict()["doubled"]


def test_specials_count_four_points():
    hand = ["philosopher", "waiter", "gossip", "belle"]
    state = stacked([hand, B], "12", specials=True).play(0, "leiff")
    assert state.view(None)["round_scores"] == [16 - 5, 32]


def test_a_kellner_played_after_the_magier_cancels_the_exchange():
    state = stacked([A, C], "12", ["magician", "waiter"], specials=True, target=100)
    state = play(discard_drawn(state), (0, "enchant 1"), (1, "spy 1"), (1, "spy 2"))
    state = play(discard_drawn(state, seat=1), (1, "immune"), (0, "leiff"))
    assert state.round_over and state.hands == [A, C]
    assert any("exchange is off" in text for text in texts(state))


def test_special_cards_do_not_match_a_four():
    state = stacked([["waiter", *A[1:]], B], "4", specials=True).play(0, "match 1")
    assert state.hands[0][0] == "waiter" and len(state.hands[0]) == 6
