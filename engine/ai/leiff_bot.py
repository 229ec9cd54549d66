"""Leiff bot seats: a sensible player that decides only from its own view, and a random one.

A bot seat is a pure function of what a human in that seat would be shown:
:func:`decide` takes the seat's view (``state.view(seat)``, a plain JSON-able dict that
already lists the seat's legal actions) and returns one of those actions, or ``None`` when
it has nothing to do right now. It never receives the state, so it cannot read hidden
cards; :func:`bot_action` is the one-line bridge the match service calls, and it touches
nothing but ``state.view(seat)``.

How the sensible bot plays (values are card points; an unknown card is worth the average
of the deck it plays with):

* *Remembering*: the engine's view is the seat's memory: every slot it has looked at keeps
  its label until the card leaves the slot (and is cleared when the rules say the player
  lost track). The bot plans with those labels and the deck average for the rest.
* *Swapping high cards*: a held card goes into the slot it improves most (the highest
  known card, or an unknown slot when the held card is clearly below average); a drawn
  card that improves nothing is discarded, and its effect is used to learn or shed cards
  (7/8: look at an unknown own slot; 9: trade away the highest known card; slot machine:
  throw the highest known card away).
* *Matching when sure*: it throws a slot onto the pile only when it knows that slot holds
  exactly the top card, and *catching when sure*: it turns over another seat's slot only
  when its view shows that slot holds the top card. It never guesses, so it never pays
  the penalty cards a wrong match or catch costs.
* *Calling Leiff when ahead*: at the start of its turn it calls when it knows most of its
  hand, its estimated total is small, and it is clearly below every other seat's estimate
  (which counts what it has seen of their hands and the deck average for the rest).
* Anything else (special cards, the Magier exchange, the look at the deal in team games)
  falls back to the engine's own safe ``default_action`` for the seat, or ``decline``.

Decisions are cheap (microseconds): the service can call them inline on the event loop.

:func:`random_decide` is the baseline for the benchmark: when the seat owes the step being
waited for it picks uniformly among that step's actions (never a speculative match or
catch, which would only hand it penalty cards), and otherwise does nothing.
"""

from __future__ import annotations

import math
import random
from collections.abc import Sequence
from functools import cache, lru_cache

from engine.leiff.actions import OUT_OF_TURN_KINDS
from engine.leiff.actions import parse_action as _parse_text
from engine.leiff.cards import load_default_deck
from engine.leiff.state import LeiffState
from engine.leiff.views import LeiffView

# Bots read the same few action texts again and again (and searching bots, in their
# rollouts, thousands of times a decision): each is parsed once. Actions are frozen.
parse_action = lru_cache(maxsize=4096)(_parse_text)

# Calling Leiff: the bot must know at least this share of its own slots, hold an estimated
# total of at most CALL_MAX_TOTAL, and be at least CALL_MARGIN below every other seat.
CALL_KNOWN_SHARE = 0.75
CALL_MAX_TOTAL = 9.0
CALL_MARGIN = 5.0
# Patience. Nothing in the rules ends a round nobody calls, and bot seats can stall one for
# good: two seats that matched their hands away both hold 0, and whichever calls ties and
# takes +5, so neither does, while everyone else draws and discards (a six-seat bench game
# went through its draw pile 14 times). Once the pile has been refilled PATIENT_REFILLS
# times in a round, the bot calls when it is no worse than every other seat (no margin,
# whatever it knows); from CALL_ANYWAY_REFILLS on it calls at the start of every turn, so
# a round among bots always ends. Rounds of sensible bots at six seats end with at most
# two refills (docs/ai.md).
PATIENT_REFILLS = 3
CALL_ANYWAY_REFILLS = 5
# A held card replaces an unknown slot when it is at least this far below the average.
UNKNOWN_SWAP_MARGIN = 2.0
# The discard top is taken when it is at most this value (and improves a slot).
TAKE_MAX_VALUE = 3


@cache
def _deck_stats(specials: bool) -> tuple[dict[str, int], float]:
    deck = load_default_deck()
    values = deck.values()
    cards = deck.cards(specials)
    average = sum(values[label] for label in cards) / len(cards)
    return values, average


def _values(view: LeiffView) -> tuple[dict[str, int], float]:
    options = view.get("options")
    return _deck_stats(bool(options.get("specials", False)) if options else False)


def _slot_estimates(view: LeiffView, seat: int) -> list[float]:
    """Each slot of ``seat``'s hand: its known value, or the deck average when unknown."""
    values, average = _values(view)
    return [average if label is None else float(values[label]) for label in view["hands"][seat]]


def estimated_total(view: LeiffView, seat: int) -> float:
    """What the viewer believes ``seat``'s hand is worth now."""
    return sum(_slot_estimates(view, seat))


def _team_of(view: LeiffView, seat: int) -> list[int]:
    for team in view.get("teams") or ():
        if seat in team:
            return list(team)
    return [seat]


def _label(view: LeiffView, seat: int, slot: int) -> str | None:
    """The label the viewer knows for ``seat``'s 1-based ``slot`` (None if unknown or absent)."""
    hand = view["hands"][seat]
    return hand[slot - 1] if 1 <= slot <= len(hand) else None


def _sure_out_of_turn(view: LeiffView, legal: Sequence[str], me: int) -> str | None:
    """A match or catch the viewer knows is right (the slot's label equals the top card)."""
    top = view.get("discard_top")
    if top is None:
        return None
    friends = set(_team_of(view, me))
    for action in legal:
        parsed = parse_action(action)
        if parsed.kind == "match" and _label(view, me, parsed.numbers[0]) == top:
            return action
    for action in legal:
        parsed = parse_action(action)
        if parsed.kind == "catch":
            seat, slot = parsed.numbers
            # a correct catch hands the owner two cards: never do that to a team-mate
            if seat not in friends and _label(view, seat, slot) == top:
                return action
    return None


def _worst_slot(view: LeiffView, me: int) -> tuple[int, float, bool]:
    """(1-based slot, its estimated value, whether it is known) of the slot to replace first.

    The highest known card goes first; an unknown slot stands for the deck average.
    """
    hand = view["hands"][me]
    if not hand:  # matched everything away: no slot to replace
        return 0, -math.inf, False
    estimates = _slot_estimates(view, me)
    best_index = max(range(len(hand)), key=lambda i: (estimates[i], hand[i] is not None, -i))
    return best_index + 1, estimates[best_index], hand[best_index] is not None


def refills_seen(view: LeiffView) -> int:
    """How often this round's draw pile has been refilled: public, counted from the round's
    events. A search's rollouts (``leiff_rollout.lean_view``) carry no events and count 0:
    they are cut off after a fixed number of actions anyway, and so play as they always did."""
    return sum(1 for said in view.get("round_events", ()) if said["code"] == "refill")


def calls_anyway(view: LeiffView) -> bool:
    """Whether the round has gone on so long that any bot calls at its turn (patience)."""
    return refills_seen(view) >= CALL_ANYWAY_REFILLS


def _should_call(view: LeiffView, me: int) -> bool:
    hand = view["hands"][me]
    if not hand or calls_anyway(view):
        return True
    patient = refills_seen(view) >= PATIENT_REFILLS
    known = sum(label is not None for label in hand)
    if known / len(hand) < CALL_KNOWN_SHARE and not patient:
        return False
    my_side = _team_of(view, me)
    mine = sum(estimated_total(view, seat) for seat in my_side)
    if mine > CALL_MAX_TOTAL * len(my_side) and not patient:
        return False
    margin = 0.0 if patient else CALL_MARGIN
    others: list[float] = []
    teams = view.get("teams")
    if teams:
        for team in teams:
            if me not in team:
                others.append(sum(estimated_total(view, seat) for seat in team))
    else:
        others = [estimated_total(view, seat) for seat in range(view["players"]) if seat != me]
    return all(mine + margin * len(my_side) <= other for other in others)


def _turn_start(view: LeiffView, legal: Sequence[str], me: int) -> str:
    if "leiff" in legal and _should_call(view, me):
        return "leiff"
    top = view.get("discard_top")
    if "take" in legal and top is not None:
        values, _ = _values(view)
        _, worst_value, _ = _worst_slot(view, me)
        if values[top] <= TAKE_MAX_VALUE and values[top] < worst_value:
            return "take"
    return "draw" if "draw" in legal else legal[0]


def _hold(view: LeiffView, legal: Sequence[str], me: int) -> str:
    holding = view["holding"]
    assert holding is not None  # decide() asks only while a card is held
    values, average = _values(view)
    card = holding.get("card")
    held = average if card is None else float(values[card])
    slot, worst_value, worst_known = _worst_slot(view, me)
    # An unknown slot is replaced only by a card clearly below average: swapping blindly
    # with an average-looking card gains nothing and throws away a possible low card.
    improves = held < worst_value and (worst_known or held <= worst_value - UNKNOWN_SWAP_MARGIN)
    swap = f"swap {slot}"
    if improves and swap in legal:
        return swap
    if "discard" in legal:
        return "discard"
    return swap if swap in legal else next((a for a in legal if a.startswith("swap")), legal[0])


def _effect(view: LeiffView, legal: Sequence[str], me: int) -> str:
    """Use a discarded card's effect to learn or shed cards; decline what does not help."""
    hand = view["hands"][me]
    unknown_own = [i + 1 for i, label in enumerate(hand) if label is None]
    values, average = _values(view)
    parsed = [(action, parse_action(action)) for action in legal]
    for action, act in parsed:  # 7, or 8 on an own card: learn an unknown own slot
        if act.kind == "peek" and unknown_own and act.numbers[0] == unknown_own[0]:
            return action
        if act.kind == "peek_at" and unknown_own and act.numbers == (me, unknown_own[0]):
            return action
    slot, worst_value, worst_known = _worst_slot(view, me)
    if worst_known:
        for action, act in parsed:  # slot machine: throw the worst known card away
            if act.kind == "slot_discard" and act.numbers[0] == slot and worst_value > 0:
                return action
        if worst_value > average + 2:  # 9: trade the worst known card for a lower one
            friends = set(_team_of(view, me))
            best: tuple[float, str] | None = None
            for action, act in parsed:
                if act.kind != "trade":
                    continue
                a_seat, a_slot, b_seat, b_slot = act.numbers
                if (a_seat, a_slot) == (me, slot):
                    other_seat, other_slot = b_seat, b_slot
                elif (b_seat, b_slot) == (me, slot):
                    other_seat, other_slot = a_seat, a_slot
                else:
                    continue
                if other_seat in friends:
                    continue
                label = _label(view, other_seat, other_slot)
                gain = worst_value - (average if label is None else values[label])
                if gain > 0 and (best is None or gain > best[0]):
                    best = (gain, action)
            if best is not None:
                return best[1]
    default = view.get("default_action")
    if default is not None and default in legal:
        return default
    return "decline" if "decline" in legal else legal[0]


def decide(view: LeiffView, legal_actions: Sequence[str] | None = None) -> str | None:
    """The sensible bot's action for the viewing seat, or None when it should wait.

    ``view`` is ``state.view(seat)``; ``legal_actions`` defaults to the list inside it.
    Deterministic: the same view always gives the same answer.
    """
    legal = list(view["legal_actions"] if legal_actions is None else legal_actions)
    if not legal:
        return None
    me = view["viewer"]
    if me is None:  # a spectator's view: nothing to do
        return None
    waiting = view["waiting_for"]
    if not view.get("round_over"):
        sure = _sure_out_of_turn(view, legal, me)
        if sure is not None:
            return sure
    if me not in waiting.get("owners", ()):
        return None
    own_step = [a for a in legal if parse_action(a).kind not in OUT_OF_TURN_KINDS]
    if not own_step:
        return None
    return step_choice(view, own_step, me)


def step_choice(view: LeiffView, own_step: Sequence[str], me: int) -> str:
    """The sensible bot's answer to the step ``me`` owes, among ``own_step`` (its owner
    actions, never empty); the part of :func:`decide` after matching and catching."""
    step = view["waiting_for"]["step"]
    if step == "turn":
        return _turn_start(view, own_step, me)
    if step == "hold" and view.get("holding"):
        return _hold(view, own_step, me)
    if step == "effect":
        return _effect(view, own_step, me)
    default = view.get("default_action")
    return default if default is not None and default in own_step else own_step[0]


def random_decide(view: LeiffView, rng: random.Random) -> str | None:
    """The baseline: a uniformly random action of the step this seat owes, else None."""
    me = view["viewer"]
    if me not in view["waiting_for"].get("owners", ()):
        return None
    own_step = [a for a in view["legal_actions"] if parse_action(a).kind not in OUT_OF_TURN_KINDS]
    return rng.choice(own_step) if own_step else None


def bot_action(state: LeiffState, seat: int) -> str | None:
    """The sensible bot's action for ``seat`` in ``state``; reads only ``state.view(seat)``."""
    return decide(state.view(seat))


def run_table(
    state: LeiffState,
    players: Sequence[str],
    *,
    rounds: int,
    rng: random.Random,
    max_actions: int = 100_000,
) -> tuple[LeiffState, list[list[int]]]:
    """Play ``rounds`` rounds (or until the game ends) and return (state, round scores).

    ``players[seat]`` is ``"bot"`` (the sensible bot) or ``"random"`` (the baseline). This is
    the loop a table runs, for tests and the benchmark: after every action each seat that
    may act is asked in seat order, and the first that wants to act does. Only the table
    touches the state; each player is given nothing but its seat's view.
    """
    scores: list[list[int]] = []
    actions = 0
    while state.outcome is None and len(scores) < rounds:
        acted = False
        for seat in state.actors():
            view = state.view(seat)
            action = decide(view) if players[seat] == "bot" else random_decide(view, rng)
            if action is None:
                continue
            before_over = view["round_over"]
            state = state.play(seat, action)
            actions += 1
            acted = True
            after = state.view(None)
            round_scores = after["round_scores"]
            if after["round_over"] and not before_over and round_scores is not None:
                scores.append(list(round_scores))
            break
        if not acted:
            raise RuntimeError(f"nobody at the table acts in step {state.waiting_for()['step']!r}")
        if actions >= max_actions:
            raise RuntimeError(f"the table ran {max_actions} actions without finishing")
    return state, scores
