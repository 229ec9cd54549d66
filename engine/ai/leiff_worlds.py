"""Worlds a Leiff seat cannot tell apart: whole tables sampled from one seat's view.

A seat sees the labels of the slots it knows, the discard pile's top, a card it holds, the
sizes of hands and piles, and everything public (scores, immunities, links, the rule). A
*world* is a complete :class:`engine.leiff.table.Table` that agrees with all of that. The
discard pile under its top is what the round's public events say was thrown onto it
(:func:`remembered_piles`: every card thrown away is shown to everyone, a card taken is
taken from the top, a refill shuffles all but the top into the draw pile), and after a
refill the draw pile holds only cards shuffled into it then. Every other card the view does
not show is dealt at random from the cards the view does not account for (the whole deck
less the labels it shows and the remembered pile), into the unknown slots, the card another
seat holds unseen and the draw pile. A view whose events do not go back to the round's deal
(a table stored before views remembered the round) has its pile dealt at random too.

:func:`sample_world` reads nothing but the view, so worlds drawn with the same generator
from the same view are the same worlds, whatever the hidden truth of the real table: the
search built on them (:mod:`engine.ai.leiff_search`) is a function of the view.

Another seat's unseen cards lean to low ones as far as that seat is taken to play
sensibly (:func:`care`, read from its past round scores and what it did this round in
everyone's sight): a random seat's hand does not sink. The seat's own unseen slots and the
draw pile get what those hands leave. What the view does not say is guessed plainly:
another seat is assumed to know the first two slots of its hand (what it saw at the deal),
nobody's knowledge of the other hands is modelled, Magier doublings and exchanges still to
settle are not modelled, and the deck is the default deck (the only one a server plays
with).
"""

from __future__ import annotations

import math
import random
from collections import Counter
from typing import NamedTuple

from engine.leiff.cards import Deck, load_default_deck
from engine.leiff.options import LeiffOptions
from engine.leiff.table import Table
from engine.leiff.views import LeiffView

# The steps of play a world is sampled in: the turn player's choices.
WORLD_STEPS = frozenset({"turn", "hold", "effect"})
# Slots of its own hand another seat is assumed to know (the deal's look).
ASSUMED_KNOWN_SLOTS = 2
# How much lower than the unseen cards' mean another seat's unseen cards are, by the
# rounds of turns played so far (the discard pile's size over the seats): players keep
# low cards and throw high ones, so their hands sink as a round goes on. Measured with
# sensible seats at tables of 3 and 6, with and without special cards
# (``python -m bench.leiff_hands``): -0.5 to -0.6 points a card in the first round of
# turns, -1.8 after two, -3 after five, -4 after eight.
OTHER_HAND_SHIFT = (-0.55, -1.3, -1.85, -2.3, -2.7, -3.0, -3.3, -3.7, -4.0)
# The same, less the mean of the cards a world deals when it remembers the discard pile
# (:func:`remembered_piles`: the pile's thrown-away high cards are no longer among them, so
# the cards left are lower, and the other seats' hands sink less below them). Measured
# the same way (``python -m bench.leiff_hands --remembered``): -0.5 in the first round of
# turns, -1.2 after two, -1.6 after four, -2.1 after seven (the last few smoothed: 15 to
# 170 turns each).
REMEMBERED_HAND_SHIFT = (-0.5, -0.95, -1.25, -1.45, -1.6, -1.7, -1.8, -2.0, -2.2)
# Halvings of [0, 2] that find a tilt (2 / 2**16: the cards' mean within a thousandth).
TILT_STEPS = 16
# Cards dealt to a hand (what a hand that never sinks holds, on average: four of the deck's).
DEALT = 4
# How many rounds of evidence the prior is worth in :func:`care`, and the care it stands
# for: a seat nothing is known of yet is taken to play a fifth of its choices carelessly.
# Measured on first rounds (3 seats, hard's 12 worlds, the same deals): against random
# seats the search scored 17.4 a round where it had scored 19.1 with a prior of 1 (242
# rounds); against sensible seats it lost +0.9 ± 1.1 points of its lead (109 rounds, within
# the noise; 0.6 gained a little more against random seats and lost more); see docs/ai.md.
CARE_PRIOR_ROUNDS = 1.0
CARE_PRIOR = 0.8
# What a seat did this round that a sensible player does not (read from the round's
# public events, ``view["round_events"]``): take a card of at least CARELESS_TAKE from the
# discard pile (the sensible bot takes 3 or less; the searching seats took a card of 7 or
# more at about 1 turn in 40, random seats at 1 in 6), or throw away a drawn card of at
# most CARELESS_THROW (a card lower than any unknown slot's worth: never seen from the
# sensible or searching seats, at 1 turn in 30 from random seats). Each such act counts
# as CARELESS_WEIGHT rounds of evidence of care 0.
CARELESS_TAKE = 7
CARELESS_THROW = 3
CARELESS_WEIGHT = 1.0
# The least gap between a random hand and the viewer's own mean that :func:`care` divides by.
CARE_MIN_GAP = 4.0


def can_sample(view: LeiffView) -> bool:
    """Whether :func:`sample_world` models the view's moment (a turn of play, no spy or
    Magier exchange under way, the round not over)."""
    waiting = view["waiting_for"]
    return (
        view["viewer"] is not None
        and not view["round_over"]
        and view["outcome"] is None
        and waiting["step"] in WORLD_STEPS
        and waiting["turn"] is not None
    )


def unseen_cards(view: LeiffView, deck: Deck | None = None) -> list[str]:
    """The labels the viewer cannot place: the deck less every label its view shows.

    Raises ``ValueError`` when the view shows more of a label than the deck holds (a
    view of another deck).
    """
    deck = deck or load_default_deck()
    options = view["options"]
    pool = Counter(deck.cards(bool(options.get("specials", False))))
    shown = [label for hand in view["hands"] for label in hand if label is not None]
    if view["discard_top"] is not None:
        shown.append(view["discard_top"])
    holding = view["holding"]
    if holding is not None and holding["card"] is not None:
        shown.append(holding["card"])
    for label in shown:
        if pool[label] <= 0:
            raise ValueError(f"the view shows more {label!r} cards than the deck has")
        pool[label] -= 1
    return sorted(pool.elements())


# What the round's public events say moved a card onto the discard pile (each names it as
# ``card``): a card swapped out of a hand, a drawn card thrown away, a right match or catch,
# the slot machine's discard.
_ONTO_THE_PILE = frozenset(
    {"swap_taken", "swap_drawn", "discard", "match_right", "catch_right", "slot_discard"}
)


class PileMemory(NamedTuple):
    """What a player remembers of the round's piles (:func:`remembered_piles`)."""

    under: list[str]  # the discard pile under its top, bottom first
    refilled: list[str] | None  # shuffled into the draw pile at the round's last refill


def remembered_piles(view: LeiffView, unseen: list[str] | None = None) -> PileMemory | None:
    """The discard pile under its top, and the cards of the round's last refill, as the
    round's public events tell them (``view["round_events"]``, from the deal on): the
    deal's card starts the pile, every card thrown onto it is named to everyone, a card
    taken leaves from the top, and a refill shuffles all but the top into the draw pile.

    None when the events do not account for the pile the view shows (they do not go back
    to the deal, or disagree with its size or top) or name a card that ``unseen``
    (:func:`unseen_cards` of the view) cannot hold."""
    pile: list[str] = []
    refilled: list[str] | None = None
    dealt = False
    for said in view["round_events"]:
        code = said["code"]
        card = said["params"].get("card")
        if code == "deal":
            if not isinstance(card, str):
                return None
            pile, refilled, dealt = [card], None, True
        elif code in _ONTO_THE_PILE:
            if not isinstance(card, str):
                return None
            pile.append(card)
        elif code == "take":
            if not pile or pile[-1] != card:
                return None
            pile.pop()
        elif code == "refill":
            refilled, pile = pile[:-1], pile[-1:]
    if not dealt or len(pile) != view["discard_count"]:
        return None
    if (pile[-1] if pile else None) != view["discard_top"]:
        return None
    under = pile[:-1]
    if unseen is not None and Counter(under) - Counter(unseen):
        return None
    return PileMemory(under, refilled)


def careless_acts(view: LeiffView, values: dict[str, int]) -> list[int]:
    """How many times each seat did this round what a sensible player does not (see
    ``CARELESS_TAKE``), read from the round's public events."""
    acts = [0] * view["players"]
    for said in view["round_events"]:
        code = said["code"]
        if code not in ("take", "discard"):
            continue
        params = said["params"]
        seat, label = params.get("player"), params.get("card")
        if not isinstance(seat, int) or not isinstance(label, str) or label not in values:
            continue
        value = values[label]
        # a "discard" is always of a drawn card: a card taken from the pile goes into a slot
        if (code == "take" and value >= CARELESS_TAKE) or (
            code == "discard" and value <= CARELESS_THROW
        ):
            acts[seat] += 1
    return acts


def care(view: LeiffView, deck: Deck | None = None) -> list[float]:
    """How sensibly each seat is taken to play, from 0 (like a random seat: its hand does
    not sink, it calls Leiff at random) to 1 (like the sensible bot, whose hand sinks as
    ``OTHER_HAND_SHIFT`` says), read from what everyone at the table has seen: the round
    scores of the match (the view's ``history``) and what the seat did this round in
    everyone's sight (the view's ``round_events``: :func:`careless_acts`).

    A seat's past rounds are placed between two marks: a hand of four cards of the deck
    (the deck's mean, 24 points in the base game: what a hand that never sinks scores)
    and the viewer's own mean over the same rounds: ``(random - seat) / (random - own)``,
    clamped to [0, 1]. The prior, care ``CARE_PRIOR`` (a seat nothing is known of plays
    mostly sensibly), counts as ``CARE_PRIOR_ROUNDS`` rounds, so one bad round does not
    turn a good player into a random one; each careless act this round adds
    ``CARELESS_WEIGHT`` rounds of care 0. The viewer itself is 1."""
    me = view["viewer"]
    history = view["history"]
    out = [1.0] * view["players"]
    if me is None:
        return out
    deck = deck or load_default_deck()
    values = deck.values()
    labels = deck.cards(bool(view["options"].get("specials", False)))
    random_hand = DEALT * sum(values[label] for label in labels) / len(labels)
    rounds = len(history)
    own = sum(row[me] for row in history) / rounds if rounds else 0.0
    gap = max(random_hand - own, CARE_MIN_GAP)
    acts = careless_acts(view, values)
    for seat in range(view["players"]):
        if seat == me:
            continue
        mean = sum(row[seat] for row in history) / rounds if rounds else 0.0
        measured = min(1.0, max(0.0, (random_hand - mean) / gap)) if rounds else 0.0
        weight = CARE_PRIOR_ROUNDS + rounds + CARELESS_WEIGHT * acts[seat]
        out[seat] = (CARE_PRIOR_ROUNDS * CARE_PRIOR + rounds * measured) / weight
    return out


def _shift(view: LeiffView, table: tuple[float, ...] = OTHER_HAND_SHIFT) -> float:
    rounds_of_turns = view["discard_count"] // max(1, view["players"])
    return table[min(rounds_of_turns, len(table) - 1)]


def _tilt(values: list[int], shift: float) -> float:
    """The ``beta`` whose weights ``exp(-beta * value)`` move the cards' mean by ``shift``."""
    if shift == 0:
        return 0.0
    mean = sum(values) / len(values)
    low, high = 0.0, 2.0
    for _ in range(TILT_STEPS):
        beta = (low + high) / 2
        weights = [math.exp(-beta * v) for v in values]
        tilted = sum(w * v for w, v in zip(weights, values, strict=True)) / sum(weights)
        if tilted - mean > shift:
            low = beta
        else:
            high = beta
    return (low + high) / 2


def _lean_low(
    unseen: list[str], count: int, shift: float, values: dict[str, int], rng: random.Random
) -> list[str]:
    """Take ``count`` cards out of ``unseen`` (changed in place), low cards the likelier
    (a weighted draw without replacement, weights tilted to move the mean by ``shift``),
    in random order."""
    if count <= 0 or not unseen:
        return []
    beta = _tilt([values[label] for label in unseen], shift)
    # Efraimidis and Spirakis: the count largest keys u^(1/w) are a weighted sample
    keys = [
        (rng.random() ** (1.0 / math.exp(-beta * values[label])), i)
        for i, label in enumerate(unseen)
    ]
    chosen = sorted(i for _, i in sorted(keys, reverse=True)[:count])
    taken = [unseen[i] for i in chosen]
    for i in reversed(chosen):
        del unseen[i]
    rng.shuffle(taken)
    return taken


class _Ids:
    """Hands out card ids of the world's card list by label."""

    def __init__(self, labels: list[str]) -> None:
        self._free: dict[str, list[int]] = {}
        for card_id, label in enumerate(labels):
            self._free.setdefault(label, []).append(card_id)

    def take(self, label: str) -> int:
        return self._free[label].pop()


def sample_world(
    view: LeiffView,
    rng: random.Random,
    deck: Deck | None = None,
    sense: list[float] | None = None,
    *,
    remember: bool = True,
) -> Table:
    """One complete table that agrees with ``view`` (see :func:`can_sample`), the cards
    the view does not show dealt with ``rng``; ``sense`` is :func:`care` of the view
    (computed when not given): another seat's unseen cards lean low by its share of the
    shift. ``remember=False`` deals the discard pile under its top at random like the rest
    (as before the worlds remembered it; ``bench.leiff_hands --worlds`` compares the two)."""
    if not can_sample(view):
        raise ValueError("worlds are sampled only during a turn of play")
    deck = deck or load_default_deck()
    me = view["viewer"]
    assert me is not None  # can_sample checked
    options = LeiffOptions.from_mapping(view["options"])
    labels = deck.cards(options.specials)
    ids = _Ids(labels)
    unseen = unseen_cards(view, deck)
    memory = remembered_piles(view, unseen) if remember else None
    drawn: list[str] | None = None  # the draw pile, when a refill says what it holds
    if memory is not None:
        unseen = sorted((Counter(unseen) - Counter(memory.under)).elements())
    rng.shuffle(unseen)
    if memory is not None and memory.refilled is not None:
        # since the last refill every card drawn came from the cards it shuffled in, and
        # the cards it did not shuffle in are all in hands
        could = Counter(unseen) & Counter(memory.refilled)
        if could.total() >= view["draw_count"]:
            pick = sorted(could.elements())
            rng.shuffle(pick)
            drawn = pick[: view["draw_count"]]
            unseen = list((Counter(unseen) - Counter(drawn)).elements())
            rng.shuffle(unseen)
    # The other seats' unseen slots lean towards low ones (the shift tables). The viewer's
    # own unseen slots and a card just drawn unseen are any of what those hands leave: no
    # one chose them, so they sit where the draw pile does. Dealt before the lean, they
    # took their share of the low cards the other hands hold and came out too low.
    sense = care(view, deck) if sense is None else sense
    shift = _shift(view, REMEMBERED_HAND_SHIFT if memory is not None else OTHER_HAND_SHIFT)
    values = deck.values()
    others: dict[int, list[str]] = {}
    if len({sense[s] for s in range(view["players"]) if s != me}) <= 1:
        # every other seat alike: one draw for all of them
        wanted = sum(label is None for s, h in enumerate(view["hands"]) if s != me for label in h)
        alike = _lean_low(unseen, wanted, sense[(me + 1) % view["players"]] * shift, values, rng)
        others = {s: alike for s in range(view["players"]) if s != me}
    else:
        for seat, hand in enumerate(view["hands"]):
            if seat != me:
                wanted = sum(label is None for label in hand)
                others[seat] = _lean_low(unseen, wanted, sense[seat] * shift, values, rng)
    own = [unseen.pop() for label in view["hands"][me] if label is None]
    holding_view = view["holding"]
    holding: int | None = None
    if holding_view is not None:
        label = holding_view["card"]
        holding = ids.take(unseen.pop() if label is None else label)
    hands: list[list[int]] = []
    known_to_me: set[int] = set()
    for seat, hand in enumerate(view["hands"]):
        row = []
        for label in hand:
            if label is None:
                row.append(ids.take(own.pop() if seat == me else others[seat].pop()))
            else:
                card_id = ids.take(label)
                known_to_me.add(card_id)
                row.append(card_id)
        hands.append(row)
    discard: list[int] = []
    if view["discard_top"] is not None:
        if memory is None:
            under = [ids.take(unseen.pop()) for _ in range(view["discard_count"] - 1)]
        else:
            under = [ids.take(label) for label in memory.under]
        discard = [*under, ids.take(view["discard_top"])]
    # what is left once the hands are dealt, or the refill's cards picked above
    draw = [ids.take(label) for label in (unseen if drawn is None else [*unseen, *drawn])]
    if len(draw) != view["draw_count"]:
        raise ValueError("the view's pile sizes do not add up to the deck")
    known: list[set[int]] = [set(hand[:ASSUMED_KNOWN_SLOTS]) for hand in hands]
    known.append(set())  # the spectator
    known[me] = known_to_me
    waiting = view["waiting_for"]
    drinks = view["drinks"]
    return Table(
        options=options,
        deck=deck,
        seed=rng.getrandbits(32),
        round=view["round"],
        first=view["first"],
        labels=labels,
        hands=hands,
        draw=draw,
        discard=discard,
        known=known,
        step=waiting["step"],
        turn=waiting["turn"],
        holding=holding,
        hold_source=None if holding_view is None else holding_view["source"],
        effect=waiting["card"],
        looks_left=[0] * options.players,
        immune=set(view["immune"]),
        rule=view["rule"],
        link=None if view["link"] is None else [view["link"]["seat"], view["link"]["to"]],
        enchantments=[[e["by"], e["target"]] for e in view["enchantments"]],
        caller=view["caller"],
        drinks=[[0, 0, 0] for _ in range(options.players)]
        if drinks is None
        else [[row["sips"], row["shots"], row["hand_out"]] for row in drinks],
        history=[list(row) for row in view["history"]],
    )
