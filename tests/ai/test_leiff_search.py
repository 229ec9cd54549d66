"""Searching Leiff seats: worlds agree with the view, decisions are functions of the view
alone, the search plays legally and makes the obvious calls."""

from __future__ import annotations

import copy
import random
from collections import Counter
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from engine import get_game
from engine.ai.leiff_bot import decide
from engine.ai.leiff_search import (
    LEIFF_WORLDS,
    STRONGEST_LEIFF_LEVEL,
    decide_at,
    plan,
    search_action,
    search_decide,
)
from engine.ai.leiff_worlds import (
    CARE_PRIOR,
    CARELESS_WEIGHT,
    PileMemory,
    can_sample,
    care,
    careless_acts,
    remembered_piles,
    sample_world,
    unseen_cards,
)
from engine.leiff import random_action
from engine.leiff.actions import parse_action
from engine.leiff.cards import load_default_deck
from engine.leiff.events import unworded
from engine.leiff.rules import apply, apply_owned, owner_actions
from engine.leiff.state import LeiffState
from engine.leiff.table import PLAY_STEPS, Table
from tests.ai.test_leiff_bot import ViewOnly
from tests.leiff.helpers import hidden_shuffled, play, stacked

OPTION_SETS: list[dict[str, Any]] = [
    {},
    {"specials": True, "drinking": True},
    {"specials": True, "water": True},
]


def _sensible_table(players: int, seed: int, options: dict[str, Any]) -> list[LeiffState]:
    """Every state of a game of sensible seats, a few rounds long."""
    state = get_game("leiff").new(players=players, seed=seed, options={**options, "target": 100})
    states = [state]
    for _ in range(300):
        if state.outcome is not None:
            break
        for seat in state.actors():
            action = decide(state.view(seat))
            if action is not None:
                state = state.play(seat, action)
                states.append(state)
                break
        else:
            break
    return states


def _owner_moments(states: list[LeiffState]) -> list[tuple[LeiffState, int]]:
    moments = []
    for state in states:
        for seat in state.actors():
            view = state.view(seat)
            if can_sample(view) and seat in view["waiting_for"]["owners"]:
                moments.append((state, seat))
    return moments


def test_a_sampled_world_agrees_with_the_view() -> None:
    deck = load_default_deck()
    checked = 0
    for players, options in ((3, OPTION_SETS[0]), (6, OPTION_SETS[1]), (4, OPTION_SETS[2])):
        states = _sensible_table(players, seed=players, options=options)
        for state, seat in _owner_moments(states)[:25]:
            view = state.view(seat)
            world = LeiffState(sample_world(view, random.Random(checked), deck))
            seen = world.view(seat)
            for key in ("hands", "hand_sizes", "draw_count", "discard_count", "discard_top"):
                assert seen[key] == view[key], key  # type: ignore[literal-required]
            assert seen["holding"] == view["holding"]
            assert seen["waiting_for"]["owners"] == view["waiting_for"]["owners"]
            assert sorted(seen["legal_actions"]) == sorted(view["legal_actions"])
            assert seen["totals"] == view["totals"]
            # the world holds exactly one deck: what the view shows and what it does not
            everything = [label for hand in world.hands for label in hand]
            truth = state.hands
            assert Counter(everything) != Counter() and len(everything) == sum(map(len, truth))
            assert world.card_count() == len(deck.cards(bool(options.get("specials"))))
            checked += 1
    assert checked >= 40


def test_the_unseen_cards_are_the_deck_less_what_the_view_shows() -> None:
    state = stacked([["12", "1", "5", "9"], ["3", "4", "6", "7"]], "5", ["2"])
    view = state.view(0)
    unseen = Counter(unseen_cards(view))
    deck = Counter(load_default_deck().cards(False))
    shown = Counter(["12", "1", "5"])  # slots 1 and 2 from the deal, and the top card
    assert unseen == deck - shown


@settings(max_examples=8, deadline=None)
@given(
    seed=st.integers(0, 10_000),
    players=st.sampled_from([3, 4, 6]),
    options=st.sampled_from(range(len(OPTION_SETS))),
    pick=st.integers(0, 10_000),
    shuffle=st.integers(0, 10_000),
)
def test_a_seats_decision_is_a_function_of_its_own_view(
    seed: int, players: int, options: int, pick: int, shuffle: int
) -> None:
    states = _sensible_table(players, seed, OPTION_SETS[options])
    moments = _owner_moments(states[:120])
    state, seat = moments[pick % len(moments)]
    other = hidden_shuffled(state, seat, random.Random(shuffle))
    assert other.view(seat) == state.view(seat)
    # the worlds place the discard pile as the round's events tell it
    assert remembered_piles(state.view(seat)) is not None
    # through a stand-in that hands out nothing but the view
    spy = ViewOnly(other)
    assert search_action(spy, seat, "hard") == search_action(state, seat, "hard")  # type: ignore[arg-type]
    assert spy.asked == [seat]


def test_searched_decisions_stay_the_same_with_other_hidden_cards() -> None:
    # the property above, on the searched decisions of one table, each against two
    # other deals of the hidden cards (and the hidden cards really differ)
    states = _sensible_table(4, seed=11, options=OPTION_SETS[1])
    compared = 0
    for state, seat in _owner_moments(states)[:16]:
        _, options = plan(state.view(seat), None, 4)
        if len(options) < 2:
            continue
        mine = search_decide(state.view(seat), worlds=4)
        for shuffle in range(2):
            other = hidden_shuffled(state, seat, random.Random(shuffle))
            assert other.view(seat) == state.view(seat)
            assert search_decide(other.view(seat), worlds=4) == mine
        compared += 1
    assert compared >= 5


def test_hidden_cards_shuffled_really_differ() -> None:
    state = stacked([["12", "1", "5", "9"], ["3", "4", "6", "7"]], "5", ["2", "8", "10"])
    other = hidden_shuffled(state, 0, random.Random(1))
    assert other.view(0) == state.view(0)
    assert other.hands != state.hands


def test_search_calls_leiff_with_a_known_low_hand_and_not_with_a_high_one() -> None:
    state = stacked([["1", "-1", "2", "slot"], ["3", "4", "6", "7"]], "9", ["2"])
    view = copy.deepcopy(state.view(0))
    view["hands"][0] = ["1", "-1", "2", "slot"]
    assert search_decide(view, worlds=8) == "leiff"
    high = stacked([["12", "13", "11", "10"], ["3", "4", "6", "7"]], "9", ["2"])
    view = copy.deepcopy(high.view(0))
    view["hands"][0] = ["12", "13", "11", "10"]
    assert search_decide(view, worlds=8) != "leiff"


def test_search_keeps_a_drawn_low_card_when_its_hand_is_known_and_high() -> None:
    state = stacked([["12", "13", "11", "10"], ["3", "4", "6", "7"]], "5", ["-1"])
    state = state.play(0, "draw")
    view = copy.deepcopy(state.view(0))
    view["hands"][0] = ["12", "13", "11", "10"]
    assert search_decide(view, worlds=8) == "swap 2"


def test_search_seats_play_only_legal_actions_with_every_option() -> None:
    for options in ({}, {"specials": True, "drinking": True}, {"teams": True, "specials": True}):
        state = get_game("leiff").new(players=4, seed=5, options={**options, "target": 100})
        rounds = 0
        for _ in range(1500):
            if state.outcome is not None or rounds >= 2:
                break
            for seat in state.actors():
                view = state.view(seat)
                action = (
                    search_decide(view, worlds=2) if seat % 2 == 0 else decide(view)
                )  # play() raises on an illegal action
                if action is not None:
                    assert action in view["legal_actions"]
                    was_over = view["round_over"]
                    state = state.play(seat, action)
                    rounds += state.round_over and not was_over
                    break
        assert rounds >= 2


def test_the_levels_below_hard_play_the_sensible_bot() -> None:
    state = stacked([["12", "1", "5", "9"], ["3", "4", "6", "7"]], "5", ["2"])
    state = state.play(0, "draw")
    view = state.view(0)
    for level, worlds in LEIFF_WORLDS.items():
        if worlds == 0:
            assert decide_at(view, None, level) == decide(view)
    assert LEIFF_WORLDS[STRONGEST_LEIFF_LEVEL] == max(LEIFF_WORLDS.values())


def _with_history(view: Any, history: list[list[int]]) -> Any:
    view = copy.deepcopy(view)
    view["history"] = history
    return view


def test_before_anything_is_known_every_other_seat_is_taken_at_the_priors_care() -> None:
    state = stacked([["12", "1", "5", "9"], ["3", "4", "6", "7"], ["2", "2", "8", "8"]], "5")
    assert care(state.view(0)) == [1.0, CARE_PRIOR, CARE_PRIOR]
    assert 0.5 < CARE_PRIOR <= 1.0  # mostly sensible: most players are


def test_a_seat_whose_rounds_scored_like_a_random_hand_is_taken_to_play_carelessly() -> None:
    state = stacked([["12", "1", "5", "9"], ["3", "4", "6", "7"], ["2", "2", "8", "8"]], "5")
    # seat 1 scored what four cards of the deck are worth (24) and more; seat 2 as the viewer
    view = _with_history(state.view(0), [[10, 26, 12], [8, 31, 9], [12, 25, 11]])
    sense = care(view)
    assert sense[0] == 1.0
    # the prior (one round's worth of CARE_PRIOR) against three rounds of care 0
    assert sense[1] == CARE_PRIOR / 4
    assert sense[2] > 0.9
    # the same scores seen from seat 2's chair: seat 0 plays as well as seat 2 does
    assert care(_with_history(state.view(2), view["history"]))[0] == (CARE_PRIOR + 3) / 4


def test_taking_a_high_card_or_throwing_away_a_low_drawn_one_counts_against_care() -> None:
    state = stacked(
        [["12", "1", "5", "9"], ["3", "4", "6", "7"], ["2", "2", "8", "8"]], "11", ["1", "10"]
    )
    # seat 0 takes the 11 (a sensible seat takes 3 or less), seat 1 draws the 1 and throws
    # it away, seat 2 draws the 10 and throws it away (as a sensible seat would)
    state = play(state, (0, "take"), (0, "swap 2"), (1, "draw"), (1, "discard"))
    state = play(state, (2, "draw"), (2, "discard"))
    for seat in range(3):
        assert careless_acts(state.view(seat), load_default_deck().values()) == [1, 1, 0]
    sense = care(state.view(2))
    assert sense[0] == sense[1] == CARE_PRIOR / (1 + CARELESS_WEIGHT) and sense[2] == 1.0
    assert care(state.view(0))[2] == CARE_PRIOR


def test_taking_a_low_card_or_a_high_card_seen_in_a_hand_leaves_care_alone() -> None:
    state = stacked([["12", "1", "5", "9"], ["3", "4", "6", "7"], ["2", "2", "8", "8"]], "2")
    state = play(state, (0, "take"), (0, "swap 1"))
    assert care(state.view(1)) == [CARE_PRIOR, 1.0, CARE_PRIOR]
    # a high card the viewer saw in another hand (by an 8, say) is no sign of carelessness
    view = copy.deepcopy(state.view(0))
    view["hands"][1][0] = "11"
    assert care(view) == [1.0, CARE_PRIOR, CARE_PRIOR]


def test_a_careless_seats_unseen_cards_are_dealt_without_the_lean_to_low_ones() -> None:
    # a moment a few turns into a round of sensible seats, so the lean is strong
    view = next(
        v
        for v in (s.view(0) for s in _sensible_table(3, seed=4, options={}))
        if can_sample(v) and v["discard_count"] >= 7 and None in v["hands"][1]
    )
    values = load_default_deck().values()

    def mean_unseen(seat: int, sense: list[float]) -> float:
        rng = random.Random(7)
        total = count = 0
        for _ in range(200):
            world = LeiffState(sample_world(view, rng, sense=sense))
            for slot, label in enumerate(world.hands[seat]):
                if view["hands"][seat][slot] is None:
                    total += values[label]
                    count += 1
        return total / count

    # the lean at this moment: 1.25 points a card below the cards the world deals
    # (REMEMBERED_HAND_SHIFT after two rounds of turns)
    assert mean_unseen(1, [1.0, 0.0, 1.0]) > mean_unseen(1, [1.0, 1.0, 1.0]) + 0.75


def test_the_seats_own_unseen_slots_are_dealt_what_the_other_hands_leave() -> None:
    # Nobody chose the viewer's own unseen cards, so they are as high as the draw pile's.
    # Dealt before the other hands' lean, they shared its low cards: at six seats after two
    # rounds of turns they came out 0.3 to 0.7 points a card below the draw pile.
    values = load_default_deck().values()
    gaps = []
    for seed in range(3):
        view = next(
            v
            for v in (s.view(0) for s in _sensible_table(6, seed=seed, options={}))
            if can_sample(v)
            and v["discard_count"] >= 12
            and sum(label is None for label in v["hands"][0]) >= 2
        )
        rng = random.Random(7)
        for _ in range(800):
            world = sample_world(view, rng)
            own = [
                values[world.labels[card]]
                for slot, card in enumerate(world.hands[0])
                if view["hands"][0][slot] is None
            ]
            draw = [values[world.labels[card]] for card in world.draw]
            gaps.append(sum(own) / len(own) - sum(draw) / len(draw))
    # 2,400 worlds: the mean gap's standard error is about 0.05
    assert abs(sum(gaps) / len(gaps)) < 0.2


def test_events_are_worded_except_inside_a_search() -> None:
    state = stacked([["12", "1", "5", "9"], ["3", "4", "6", "7"]], "5", ["2"])
    assert all(e["text"] for e in state.play(0, "draw").events)
    with unworded():
        quiet = state.play(0, "draw")
    assert [e["text"] for e in quiet.events] == [""] * len(quiet.events)
    assert [e["code"] for e in quiet.events] == [e["code"] for e in state.play(0, "draw").events]
    assert all(e["text"] for e in state.play(0, "draw").events)  # and words again after


def test_an_owner_action_applied_unchecked_changes_the_table_as_apply_does() -> None:
    rng = random.Random(3)
    compared = 0
    for options in OPTION_SETS:
        state = get_game("leiff").new(players=4, seed=9, options={**options, "target": 100})
        for _ in range(400):
            if state.outcome is not None:
                break
            owners = state.view(None)["waiting_for"]["owners"]
            seat = owners[0] if owners else state.actors()[0]
            table = Table.from_dict(state.to_dict())
            own = owner_actions(table, seat)
            if own and table.step in ("turn", "hold", "effect"):
                action = parse_action(rng.choice(own))
                checked, unchecked = table.clone(), table.clone()
                apply(checked, seat, action, [])
                apply_owned(unchecked, seat, action, [])
                assert unchecked.to_dict() == checked.to_dict()
                compared += 1
                state = state.play(seat, str(action))
            else:
                state = state.play(seat, decide(state.view(seat)) or state.legal_actions(seat)[0])
    assert compared >= 60


def _long_rounds(players: int, seed: int, options: dict[str, Any]) -> list[LeiffState]:
    """A game of random actions (wrong matches and catches, penalties, every effect) in
    which nobody calls Leiff, so draw piles run out and are refilled."""
    rng = random.Random(seed)
    state = get_game("leiff").new(players=players, seed=seed, options={**options, "target": 100})
    states = [state]
    for _ in range(900):
        if state.outcome is not None:
            break
        seat, action = random_action(state, rng)
        if action == "leiff":
            seat, action = seat, "draw"
        state = state.play(seat, action)
        states.append(state)
    return states


def _truth(state: LeiffState) -> Table:
    return Table.from_dict(state.to_dict())


def test_the_remembered_discard_pile_is_the_one_on_the_table() -> None:
    refilled = seen = 0
    for players, options in (
        (3, OPTION_SETS[0]),
        (6, OPTION_SETS[1]),
        (4, OPTION_SETS[2]),
        (4, {"teams": True, "specials": True, "drinking": True}),
    ):
        for state in _long_rounds(players, seed=players, options=options):
            truth = _truth(state)
            if truth.step not in PLAY_STEPS:
                continue  # a round's end may put a held card on the pile unsaid
            for seat in range(players):
                view = state.view(seat)
                memory = remembered_piles(view, unseen_cards(view))
                assert memory is not None
                assert memory.under == [truth.label(c) for c in truth.discard[:-1]]
                if memory.refilled is not None:
                    # the draw pile holds only cards the last refill shuffled into it
                    in_draw = Counter(truth.label(c) for c in truth.draw)
                    assert not in_draw - Counter(memory.refilled)
                    refilled += 1
                seen += 1
    assert seen > 3000 and refilled > 300, (seen, refilled)


def test_a_world_deals_the_remembered_pile_and_the_refilled_draw_pile() -> None:
    checked = refilled = 0
    for state in _long_rounds(4, seed=8, options=OPTION_SETS[1])[::7]:
        for seat in range(4):
            view = state.view(seat)
            if not can_sample(view):
                continue
            memory = remembered_piles(view)
            assert memory is not None
            world = sample_world(view, random.Random(checked))
            assert [world.label(c) for c in world.discard] == [
                *memory.under,
                *([] if view["discard_top"] is None else [view["discard_top"]]),
            ]
            assert len(world.draw) == view["draw_count"]
            if memory.refilled is not None:
                assert not Counter(world.label(c) for c in world.draw) - Counter(memory.refilled)
                refilled += 1
            checked += 1
    assert checked > 100 and refilled > 10


def test_a_thrown_away_card_is_remembered_and_a_taken_one_forgotten() -> None:
    state = stacked(
        [["12", "1", "5", "9"], ["3", "4", "6", "7"], ["2", "2", "8", "8"]], "11", ["13", "10"]
    )
    # seat 0 draws the 13 and throws it away, seat 1 draws the 10 and swaps out its 3,
    # seat 2 takes the 3 for its 8
    state = play(state, (0, "draw"), (0, "discard"), (1, "draw"), (1, "swap 1"))
    assert remembered_piles(state.view(2)) == PileMemory(["11", "13"], None)
    state = play(state, (2, "take"), (2, "swap 4"))
    assert remembered_piles(state.view(0)) == PileMemory(["11", "13"], None)
    assert state.view(0)["discard_top"] == "8"
    # a world deals those cards there, whatever the generator
    for seed in range(5):
        world = sample_world(state.view(0), random.Random(seed))
        assert [world.label(c) for c in world.discard] == ["11", "13", "8"]


def test_a_view_whose_events_miss_the_deal_deals_the_pile_at_random() -> None:
    # a table stored before views remembered the round: its pile is dealt as before
    state = stacked([["12", "1", "5", "9"], ["3", "4", "6", "7"]], "11", ["13"])
    state = play(state, (0, "draw"), (0, "discard"))
    view = copy.deepcopy(state.view(1))
    assert remembered_piles(view) == PileMemory(["11"], None)
    view["round_events"] = view["round_events"][1:]
    assert remembered_piles(view) is None
    world = sample_world(view, random.Random(0))
    assert len(world.discard) == 2 and world.label(world.discard[-1]) == "13"
    # events that disagree with the pile the view shows are not believed either
    wrong = copy.deepcopy(state.view(1))
    wrong["discard_count"] += 1
    assert remembered_piles(wrong) is None
