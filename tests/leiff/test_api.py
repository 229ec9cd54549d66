"""The public surface: immutability, JSON, replay, views, events, waiting_for and defaults."""

from __future__ import annotations

import json
import random

import pytest

from engine import IllegalMove
from engine.leiff import parse_action, random_action, render_text
from i18n import illegal_move
from tests.leiff.helpers import GAME, play, stacked

A = ["1", "2", "3", "4"]
B = ["5", "6", "10", "11"]
OPTIONS = {"target": 50, "specials": True, "drinking": True, "water": False, "teams": False}


def test_play_returns_a_new_state_and_leaves_the_old_one_alone():
    state = GAME.new(players=3, seed=7, options=OPTIONS)
    before = state.to_json()
    after = state.play(0, "draw")
    assert state.to_json() == before and after.to_json() != before
    assert (state.version, after.version) == (0, 1)


def test_illegal_action_changes_nothing():
    state = GAME.new(players=3, seed=7, options=OPTIONS)
    before = state.to_json()
    with pytest.raises(IllegalMove):
        state.play(1, "swap 2")
    with pytest.raises(IllegalMove):
        state.play(9, "draw")
    assert state.to_json() == before


def test_json_round_trip_is_byte_stable_mid_game():
    rng = random.Random(3)
    state = GAME.new(players=4, seed=11, options={**OPTIONS, "teams": True})
    for _ in range(120):
        if state.outcome:
            break
        state = state.play(*random_action(state, rng))
    text = state.to_json()
    again = GAME.from_json(text)
    assert again.to_json() == text and again == state
    assert again.legal_actions(1) == state.legal_actions(1)
    assert again.view(2) == state.view(2)


def test_seed_and_log_rebuild_the_same_match():
    rng = random.Random(5)
    state = GAME.new(players=3, seed="party", options=OPTIONS)
    for _ in range(200):
        if state.outcome:
            break
        state = state.play(*random_action(state, rng))
    rebuilt = GAME.replay("party", 3, OPTIONS, state.log)
    assert rebuilt.to_json() == state.to_json()


def test_different_seeds_shuffle_differently():
    assert GAME.new(players=2, seed=1).hands != GAME.new(players=2, seed=2).hands


def test_views_never_show_the_seed_or_the_deck_order():
    state = stacked([A, B], "12", seed=424242)
    for viewer in (0, 1, None):
        text = json.dumps(state.view(viewer))
        assert "424242" not in text and "deck_order" not in text


def test_view_has_the_agreed_keys():
    view = GAME.new(players=2, seed=0).view(0)
    for key in (
        "hands",
        "draw_count",
        "discard_count",
        "discard_top",
        "round_over",
        "holding",
        "waiting_for",
        "legal_actions",
        "totals",
        "drinks",
        "outcome",
        "events",
        "version",
    ):
        assert key in view
    with pytest.raises(ValueError):
        GAME.new(players=2, seed=0).view(2)


def test_events_carry_an_audience_and_a_text_with_name_tokens():
    state = stacked([A, B], "12", ["13"]).play(0, "draw")
    public, private = state.events
    assert public["audience"] == "all" and private["audience"] == [0]
    assert render_text(public["text"], ["Ann", "Ben"]) == "Ann draws a card from the draw pile."
    assert private["text"] == "You draw [13]."
    assert state.view(1)["events"] == [public]


def test_waiting_for_and_defaults_through_a_turn():
    state = stacked([A, B], "12", ["7", "13"])
    assert state.waiting_for() == {
        "step": "turn",
        "turn": 0,
        "owners": [0],
        "card": None,
        "out_of_turn": [0, 1],
        "round": 1,
        "version": 0,
    }
    assert state.default_action(0) == "draw" and state.default_action(1) is None
    state = state.play(0, "draw")
    assert state.waiting_for()["step"] == "hold" and state.default_action(0) == "discard"
    state = state.play(0, "discard")
    assert state.waiting_for()["card"] == "7" and state.default_action(0) == "decline"
    state = play(state, (0, "decline"), (1, "take"))
    assert state.default_action(1) == "swap 2"  # the highest card it knows: its 6
    state = play(state, (1, "swap 2"), (0, "leiff"))
    assert state.waiting_for()["owners"] == [0, 1] and state.default_action(1) == "next"


def test_default_actions_are_always_legal():
    rng = random.Random(8)
    for seed in range(6):
        state = GAME.new(
            players=4, seed=seed, options={**OPTIONS, "teams": seed % 2 == 0, "water": True}
        )
        for _ in range(150):
            if state.outcome:
                break
            for seat in state.waiting_for()["owners"]:
                default = state.default_action(seat)
                assert default is not None
                assert default in state.legal_actions(seat) or default.startswith("rule ")
            state = state.play(*random_action(state, rng))


def test_parse_action_gives_one_canonical_form():
    assert str(parse_action(" Trade 2.1 > 0.3 ")) == "trade 0.3 2.1"
    assert str(parse_action("CATCH 1 . 4")) == "catch 1.4"
    assert str(parse_action("slot  give 2")) == "slot give 2"
    assert str(parse_action("rule  Drink   up")) == "rule Drink up"
    assert parse_action("peek 2").kind == "peek" and parse_action("peek 1.2").kind == "peek_at"


def test_error_texts_name_no_hidden_card():
    state = stacked([A, B], "12", ["13"]).play(0, "draw")
    with pytest.raises(IllegalMove) as caught:
        state.play(0, "peek 1")
    for text in (str(caught.value), illegal_move("de", caught.value)):
        assert "13" not in text and "[" not in text


def test_a_views_events_are_a_deep_copy_of_what_the_viewer_may_see():
    import copy

    from engine.leiff.events import visible_to
    from engine.leiff.views import json_copy

    def containers(value, found):
        if isinstance(value, dict | list):
            found.add(id(value))
            for item in value.values() if isinstance(value, dict) else value:
                containers(item, found)
        return found

    rng = random.Random(11)
    state = GAME.new(players=4, seed=11, options=OPTIONS)
    checked = 0
    while state.actors() and checked < 400:
        seat, action = random_action(state, rng)
        state = state.play(seat, action)
        events = state._table.events
        for viewer in (None, 0, 1, 2, 3):
            shown = state.view(viewer)["events"]
            assert shown == copy.deepcopy([e for e in events if visible_to(e, viewer)])
            # nothing a viewer may change is shared with the state
            assert not containers(shown, set()) & containers(events, set())
            checked += 1
    assert checked >= 400
    odd = {"set": {1, 2}, "tuple": (1, [2])}
    copied = json_copy(odd)
    assert copied == odd and copied["set"] is not odd["set"]
    assert copied["tuple"][1] is not odd["tuple"][1]
