"""The round's memory in a view (``round_events``): the public events since the deal, the
same for every viewer, and nothing a seat was told alone."""

from __future__ import annotations

import json
import random

from hypothesis import given, settings
from hypothesis import strategies as st

from engine.leiff import random_action
from tests.leiff.helpers import GAME, hidden_shuffled, play, stacked


def _codes(view: dict) -> list[str]:
    return [e["code"] for e in view["round_events"]]


def test_the_round_remembers_who_took_and_threw_away_which_card() -> None:
    state = stacked([["12", "1", "5", "9"], ["3", "4", "6", "7"]], "2", ["11", "8"])
    state = play(state, (0, "take"), (0, "swap 1"), (1, "draw"), (1, "discard"))
    for seat in (0, 1, None):
        view = state.view(seat)
        assert _codes(view) == ["deal", "take", "swap_taken", "draw", "discard"]
        took = view["round_events"][1]
        assert took["params"] == {"player": 0, "card": "2"}
        assert view["round_events"][4]["params"] == {"player": 1, "card": "11"}


def test_what_one_seat_was_told_alone_is_not_in_the_rounds_memory() -> None:
    state = stacked([["12", "1", "5", "9"], ["3", "4", "6", "7"]], "2", ["11", "8"])
    state = play(state, (0, "draw"))
    # seat 0 was told it drew the 11; the table only that it drew
    assert any(e["audience"] == [0] for e in state.events)
    for seat in (0, 1, None):
        view = state.view(seat)
        assert all(set(e) == {"code", "params"} for e in view["round_events"])
        assert "11" not in json.dumps(view["round_events"])
    assert state.view(0)["holding"]["card"] == "11"


def test_the_next_deal_starts_the_rounds_memory_afresh() -> None:
    state = stacked([["1", "1", "2", "2"], ["9", "9", "10", "10"]], "5")
    state = play(state, (0, "leiff"))
    assert "leiff" in _codes(state.view(1)) and "scores_bonus" in _codes(state.view(1))
    state = play(state, (0, "next"))
    assert state.round == 2
    assert _codes(state.view(0)) == ["deal"]
    assert state.view(0)["round_events"][0]["params"]["round"] == 2


def test_a_table_stored_before_the_rounds_memory_loads_and_remembers_from_then_on() -> None:
    state = stacked([["12", "1", "5", "9"], ["3", "4", "6", "7"]], "2", ["11", "8"])
    data = play(state, (0, "draw")).to_dict()
    del data["round_events"]
    old = GAME.from_json(data)
    assert old.view(1)["round_events"] == []
    assert _codes(old.play(0, "discard").view(1)) == ["discard"]


@settings(max_examples=12, deadline=None)
@given(
    seed=st.integers(0, 10_000),
    players=st.integers(2, 6),
    specials=st.booleans(),
    steps=st.integers(5, 80),
    shuffle=st.integers(0, 10_000),
)
def test_a_view_is_the_same_whatever_the_cards_its_seat_cannot_see(
    seed: int, players: int, specials: bool, steps: int, shuffle: int
) -> None:
    # two tables that differ only in the cards a seat cannot see (its unknown slots, the
    # other hands' unknown slots, a card held unseen, the piles under the top) give that
    # seat the same view, the round's memory included
    state = GAME.new(players=players, seed=seed, options={"specials": specials, "target": 100})
    rng = random.Random(seed)
    for _ in range(steps):
        if state.outcome is not None or state.round_over:
            break
        seat, action = random_action(state, rng)
        state = state.play(seat, action)
    differed = False
    for seat in range(players):
        other = hidden_shuffled(state, seat, random.Random(shuffle + seat))
        assert other.view(seat) == state.view(seat)
        differed = differed or other.hands != state.hands
    assert state.view(0)["round_events"][0]["code"] == "deal"
    if not state.round_over:
        assert differed  # the hidden cards really moved somewhere
