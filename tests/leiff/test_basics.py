"""Leiff base rules: deck, options, deal, first look, turns, drawing, taking, swapping."""

from __future__ import annotations

from collections import Counter

import pytest

from engine import IllegalMove, get_game
from engine.leiff import Deck, LeiffOptions, card_value, load_default_deck
from tests.leiff.helpers import GAME, play, stacked, texts

LOW = ["1", "2", "3", "4"]
MID = ["5", "6", "5", "6"]


def test_get_game_returns_the_leiff_rules_object():
    assert get_game("leiff").name == "leiff"


def test_default_deck_has_the_ruled_composition():
    counts = Counter(load_default_deck().cards(specials=False))
    assert sum(counts.values()) == 56
    assert counts["-1"] == 2 and counts["13"] == 2 and counts["slot"] == 4
    assert all(counts[str(n)] == 4 for n in range(1, 13))
    assert card_value("slot") == 0 and card_value("-1") == -1 and card_value("13") == 13


def test_special_cards_add_one_each_worth_four_points():
    cards = load_default_deck().cards(specials=True)
    assert len(cards) == 61
    for label in ("philosopher", "waiter", "gossip", "belle", "magician"):
        assert cards.count(label) == 1 and card_value(label) == 4


def test_a_deck_passed_in_is_played():
    deck = Deck.from_dict({"base": [{"label": "2", "value": 2, "count": 20}]})
    state = GAME.new(players=2, seed=1, deck=deck)
    assert state.hands == [["2"] * 4, ["2"] * 4]
    assert state.view(None)["draw_count"] == 11


def test_a_deck_too_small_for_the_table_is_refused():
    deck = Deck.from_dict({"base": [{"label": "2", "value": 2, "count": 9}]})
    with pytest.raises(ValueError):
        GAME.new(players=2, seed=1, deck=deck)


@pytest.mark.parametrize(
    "players, options",
    [
        (1, {}),
        (7, {}),
        (3, {"teams": True}),
        (5, {"teams": True}),
        (2, {"target": 75}),
        (2, {"colour": "red"}),
        (2, {"drinking": "yes"}),
    ],
)
def test_invalid_options_are_refused(players, options):
    with pytest.raises(ValueError):
        GAME.new(players=players, seed=0, options=options)


def test_options_map_from_server_settings_and_back():
    options = LeiffOptions.from_mapping({"target": 100, "teams": True}, players=6)
    assert options.to_dict() == {
        "players": 6,
        "target": 100,
        "specials": False,
        "drinking": False,
        "water": False,
        "teams": True,
    }
    assert options.teams_list() == [[0, 3], [1, 4], [2, 5]]


def test_deal_gives_four_cards_each_and_starts_the_discard_pile():
    state = GAME.new(players=5, seed=3)
    view = state.view(None)
    assert view["hand_sizes"] == [4] * 5
    assert view["discard_count"] == 1
    assert view["draw_count"] == 56 - 20 - 1
    assert view["round_over"] is False


def test_each_player_sees_slots_one_and_two_at_the_start():
    state = stacked([LOW, MID, MID], "9")
    assert state.view(0)["hands"] == [["1", "2", None, None], [None] * 4, [None] * 4]
    assert state.view(1)["hands"][1] == ["5", "6", None, None]
    assert state.view(None)["hands"] == [[None] * 4] * 3
    assert texts(state, 0) == ["You look at your slots 1 and 2: [1] and [2]."]


def test_turns_go_in_seat_order():
    state = stacked([LOW, MID, MID], "9", ["10", "11", "12"])
    assert state.waiting_for()["turn"] == 0
    state = play(state, (0, "draw"), (0, "swap 4"))
    assert state.waiting_for()["turn"] == 1
    state = play(state, (1, "draw"), (1, "swap 4"), (2, "draw"), (2, "swap 4"))
    assert state.waiting_for()["turn"] == 0


def test_only_the_turn_player_may_draw():
    state = stacked([LOW, MID], "9")
    with pytest.raises(IllegalMove, match="turn"):
        state.play(1, "draw")


def test_drawn_card_swapped_in_puts_the_old_card_face_up_on_the_discard_pile():
    state = stacked([LOW, MID], "9", ["12"])
    state = play(state, (0, "draw"))
    assert state.view(0)["holding"] == {"seat": 0, "source": "draw", "card": "12"}
    assert state.view(1)["holding"] == {"seat": 0, "source": "draw", "card": None}
    assert all("12" not in text for text in texts(state))
    state = state.play(0, "swap 1")
    assert state.hands[0] == ["12", "2", "3", "4"]
    assert state.view(None)["discard_top"] == "1"
    assert state.view(0)["hands"][0][0] == "12"
    assert state.view(1)["hands"][0][0] is None


def test_drawn_card_may_be_discarded_straight_away():
    state = play(stacked([LOW, MID], "9", ["12"]), (0, "draw"), (0, "discard"))
    assert state.view(None)["discard_top"] == "12"
    assert state.hands[0] == LOW
    assert state.waiting_for()["turn"] == 1


def test_card_taken_from_the_discard_pile_must_be_swapped_in_and_is_seen_by_all():
    state = play(stacked([LOW, MID], "11"), (0, "take"))
    assert "discard" not in state.legal_actions(0)
    with pytest.raises(IllegalMove):
        state.play(0, "discard")
    state = state.play(0, "swap 3")
    assert state.view(1)["hands"][0] == [None, None, "11", None]
    assert state.view(None)["hands"][0] == [None, None, "11", None]
    assert state.view(None)["discard_top"] == "3"


def test_slot_machine_on_the_discard_pile_cannot_be_taken():
    state = stacked([LOW, MID], "slot")
    assert "take" not in state.legal_actions(0)
    with pytest.raises(IllegalMove):
        state.play(0, "take")


def test_actions_accept_friendly_spelling():
    state = stacked([LOW, MID], "9", ["12"])
    state = state.play(0, "  DRAW ")
    assert state.play(0, "Swap 2").log[-1] == (0, "swap 2")
    assert GAME.new(players=2, seed=0).play(0, "Leiff!").log[-1] == (0, "leiff")


def test_unknown_action_text_is_refused_with_a_reason():
    with pytest.raises(IllegalMove, match="not a Leiff action"):
        GAME.new(players=2, seed=0).play(0, "fly away")
