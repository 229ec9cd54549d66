"""Random-playout properties of Leiff over random option combinations.

The knowledge check does not trust the engine's own bookkeeping: :class:`Tracker` rebuilds,
for every audience (each seat and the channel), what that audience has legitimately seen,
only from the events addressed to it (card movements and reveals), and checks each view
against it and against the truth. Event texts may only name cards their audience can see.
"""

from __future__ import annotations

import json
import random
import re
from collections import Counter

from hypothesis import given, settings
from hypothesis import strategies as st

from engine import IllegalMove
from engine.leiff import DISPLAY_NAMES, LeiffState, random_action
from tests.leiff.helpers import GAME

SPECTATOR = "spectator"
LABEL_OF_NAME = {name: label for label, name in DISPLAY_NAMES.items()}
BRACKETED = re.compile(r"\[([^\]]+)\]")
# events whose public reveals are part of the rules (a card shown to the whole table)
PUBLIC_REVEAL_KINDS = {"match", "catch", "swap", "effect", "reveal"}
MAX_ACTIONS = 350


class Tracker:
    """What each audience knows of every hand slot, rebuilt from events only."""

    def __init__(self, players: int) -> None:
        self.players = players
        self.audiences: list[int | str] = [*range(players), SPECTATOR]
        self.memory: dict[int | str, list[list[str | None]]] = {}
        # the round's public events since its deal: what every view must remember of it
        self.public: list[dict] = []
        self.reset([4] * players)

    def hear(self, item: dict) -> None:
        if item["kind"] == "deal":
            self.public = []
        if item["audience"] == "all":
            self.public.append({"code": item["code"], "params": item["params"]})

    def reset(self, sizes: list[int]) -> None:
        self.memory = {a: [[None] * size for size in sizes] for a in self.audiences}

    def reaches(self, item: dict, audience: int | str) -> bool:
        return item["audience"] == "all" or audience in item["audience"]

    def apply(self, item: dict, audience: int | str) -> None:
        hands = self.memory[audience]
        data = item["data"]
        if item["kind"] == "deal":
            hands[:] = [[None] * 4 for _ in range(self.players)]
        for op in data.get("ops", []):
            name = op[0]
            if name == "remove":
                del hands[op[1]][op[2] - 1]
            elif name == "add":
                hands[op[1]].append(None)
            elif name == "replace":
                hands[op[1]][op[2] - 1] = None
            elif name == "exchange":
                _, s, a, t, b = op
                hands[s][a - 1], hands[t][b - 1] = hands[t][b - 1], hands[s][a - 1]
            elif name == "swap_hands":
                hands[op[1]], hands[op[2]] = hands[op[2]], hands[op[1]]
            elif name == "scramble":
                if audience != op[2]:
                    hands[op[1]] = [None] * len(hands[op[1]])
            elif name == "rotate":
                seat, steps = op[1], op[2]
                old = hands[seat]
                hands[seat] = [old[(i - steps) % len(old)] for i in range(len(old))]
            else:
                raise AssertionError(f"unknown op {op}")
        for seat, slot, label in data.get("reveal", []):
            hands[seat][slot - 1] = label


def card_multiset(state: LeiffState) -> Counter:
    data = state.to_dict()
    labels = data["labels"]
    ids = [c for hand in data["hands"] for c in hand] + data["draw"] + data["discard"]
    if data["holding"] is not None:
        ids.append(data["holding"])
    assert len(ids) == len(set(ids)), "a card is in two places"
    return Counter(labels[c] for c in ids)


def check_events(before: LeiffState, after: LeiffState, actor: int, tracker: Tracker) -> None:
    """Apply the action's events to the tracker, checking each against its audience."""
    tops = {before.view(None)["discard_top"], after.view(None)["discard_top"]}
    for item in after.events:
        tracker.hear(item)
        audience = item["audience"]
        if audience != "all":
            assert audience, "an event without audience"
            for seat, _slot, _label in item["data"].get("reveal", []):
                # a private reveal is of one's own hand, or the result of one's own action
                assert all(a in (seat, actor) for a in audience), item
        elif item["data"].get("reveal"):
            assert item["kind"] in PUBLIC_REVEAL_KINDS, item
        for who in tracker.audiences:
            if tracker.reaches(item, who):
                tracker.apply(item, who)
        for who in tracker.audiences:
            if not tracker.reaches(item, who):
                continue
            seen = {label for hand in tracker.memory[who] for label in hand if label}
            if who != SPECTATOR and item["audience"] != "all":
                seen |= {item["data"].get("holding")}
            allowed = seen | tops | {item["data"].get("card"), item["data"].get("discarded")}
            for name in BRACKETED.findall(item["text"]):
                assert LABEL_OF_NAME.get(name, name) in allowed, (who, item["text"])


def check_views(state: LeiffState, tracker: Tracker) -> None:
    truth = state.hands
    for who in tracker.audiences:
        seat = None if who == SPECTATOR else who
        view = state.view(seat)
        json.dumps(view)
        assert "seed" not in view and "known" not in view and "labels" not in view
        assert view["hands"] == tracker.memory[who], (who, view["hands"], tracker.memory[who])
        for hand, true_hand in zip(view["hands"], truth, strict=True):
            for shown, real in zip(hand, true_hand, strict=True):
                assert shown is None or shown == real
        holding = view["holding"]
        if holding is not None and holding["card"] is not None:
            assert holding["source"] == "discard" or holding["seat"] == seat
        if seat is None:
            assert view["legal_actions"] == [] and view["default_action"] is None
            assert all(e["audience"] == "all" for e in view["events"])
        # the round's memory: exactly the public events since the deal, for every viewer
        assert view["round_events"] == tracker.public, who


options_strategy = st.fixed_dictionaries(
    {
        "target": st.sampled_from([50, 100]),
        "specials": st.booleans(),
        "drinking": st.booleans(),
        "water": st.booleans(),
        "teams": st.booleans(),
    }
)


@settings(max_examples=45)
@given(
    options=options_strategy,
    players=st.integers(2, 6),
    seed=st.integers(0, 10_000),
    out_of_turn_bias=st.booleans(),
)
def test_random_games_never_leak_and_stay_consistent(options, players, seed, out_of_turn_bias):
    if options["teams"] and players not in (4, 6):
        players = 4 if players < 5 else 6
    state = GAME.new(players=players, seed=seed, options=options)
    deck = card_multiset(state)
    rng = random.Random(seed)
    tracker = Tracker(players)
    for item in state.events:
        tracker.hear(item)
        for who in tracker.audiences:
            if tracker.reaches(item, who):
                tracker.apply(item, who)
    check_views(state, tracker)
    for step in range(MAX_ACTIONS):
        if state.outcome is not None:
            break
        if out_of_turn_bias and rng.random() < 0.3:
            seat = rng.choice(state.actors())
            action = rng.choice(state.legal_actions(seat))
        else:
            seat, action = random_action(state, rng)
        assert action in state.legal_actions(seat)
        after = state.play(seat, action)
        assert state.version == after.version - 1  # the old state did not change
        check_events(state, after, seat, tracker)
        state = after
        check_views(state, tracker)
        assert card_multiset(state) == deck
        assert state.card_count() == sum(deck.values())
        if step % 25 == 0:
            assert GAME.from_json(state.to_json()).to_json() == state.to_json()
    if state.outcome is not None:
        assert state.actors() == []
        assert all(state.legal_actions(s) == [] for s in range(players))
    assert GAME.from_json(state.to_json()).to_json() == state.to_json()
    rebuilt = GAME.replay(seed, players, options, state.log)
    assert rebuilt.to_json() == state.to_json()


@settings(max_examples=15)
@given(seed=st.integers(0, 10_000), players=st.integers(2, 6), specials=st.booleans())
def test_illegal_actions_change_nothing_and_reveal_no_card(seed, players, specials):
    state = GAME.new(players=players, seed=seed, options={"specials": specials})
    rng = random.Random(seed)
    probes = [
        "swap 9",
        "catch 0.9",
        "peek 1.1",
        "take",
        "discard",
        "give 1",
        "next",
        "rule x",
        "leiff",
    ]
    for _ in range(60):
        if state.outcome is not None:
            break
        before = state.to_json()
        seat = rng.randrange(players)
        for probe in probes:
            legal = state.legal_actions(seat)
            if probe in legal or (
                probe.startswith("rule") and any(a.startswith("rule ") for a in legal)
            ):
                continue
            try:
                state.play(seat, probe)
            except IllegalMove as error:
                assert not BRACKETED.search(str(error))
            else:
                raise AssertionError(f"{probe!r} was accepted though not listed as legal")
        assert state.to_json() == before
        seat, action = random_action(state, rng)
        state = state.play(seat, action)
