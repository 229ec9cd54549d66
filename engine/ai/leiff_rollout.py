"""Playing a sampled Leiff world to the end of its round with the sensible bot in every seat.

The search (:mod:`engine.ai.leiff_search`) values a candidate action by playing it in a
world (:mod:`engine.ai.leiff_worlds`) and then letting every seat play as the sensible bot
of :mod:`engine.ai.leiff_bot` until the round ends. A world is private to the search, so
the round is played on the table itself (the rules' ``apply``, no copy per action), and
each seat decides from what that world's table says it knows, through a small view with
only the keys the sensible bot reads; matching and catching "when sure" read the seat's
knowledge straight off the table. :func:`round_value` is what the round was worth to one
seat: how far its side finished below the others on average.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from functools import lru_cache
from typing import cast

from engine.ai.leiff_bot import step_choice
from engine.leiff.actions import parse_action
from engine.leiff.events import Event
from engine.leiff.rules import apply, apply_owned, owner_actions
from engine.leiff.scoring import unit_of
from engine.leiff.table import PLAY_STEPS, Table
from engine.leiff.views import LeiffView, default_action, owners

# A round played past this many actions is valued on the hands as they are.
MAX_ROLLOUT_ACTIONS = 400
_ENDED = frozenset({"next", "over"})
# Rollouts meet the same few action texts again and again: parse each once.
_parse = lru_cache(maxsize=4096)(parse_action)


def play(t: Table, seat: int, action: str, *, owned: bool = False) -> None:
    """Apply ``action`` by ``seat`` to the world's table in place; ``owned``: the action
    was taken from ``owner_actions(t, seat)`` just now, so it is not checked again."""
    events: list[Event] = []
    if owned:
        apply_owned(t, seat, _parse(action), events)
    else:
        apply(t, seat, _parse(action), events)


def _sure(t: Table, seat: int, sides: list[int], twins: frozenset[int]) -> str | None:
    """A match or catch ``seat`` knows is right in this world (its known card is the top);
    ``sides[s]`` is seat s's scoring unit, ``twins`` the other cards with the top's label."""
    seen = t.known[seat]
    if seen.isdisjoint(twins):  # the usual case, and a quick one: it knows no such card
        return None
    top = t.labels[t.discard[-1]]
    for i, card in enumerate(t.hands[seat]):
        if card in seen and t.labels[card] == top:
            return f"match {i + 1}"
    mine = sides[seat]
    for other, hand in enumerate(t.hands):
        if sides[other] == mine:
            continue
        for i, card in enumerate(hand):
            if card in seen and t.labels[card] == top:
                return f"catch {other}.{i + 1}"
    return None


def lean_view(t: Table, seat: int) -> LeiffView:
    """The keys of a seat's view that the sensible bot's step choice reads."""
    seen = t.known[seat]
    holding = None
    if t.holding is not None:
        show = t.hold_source == "discard" or seat == t.turn
        holding = {
            "seat": t.turn,
            "source": t.hold_source,
            "card": t.labels[t.holding] if show else None,
        }
    top = t.top()
    view = {
        "viewer": seat,
        "players": t.players,
        "options": {"specials": t.options.specials},
        "hands": [[t.labels[c] if c in seen else None for c in hand] for hand in t.hands],
        "discard_top": None if top is None else t.labels[top],
        "holding": holding,
        "teams": t.options.teams_list(),
        "waiting_for": {"step": t.step},
        "default_action": default_action(t, seat),
    }
    return cast(LeiffView, view)


class _Careless:
    """Whether a seat plays its next choice at random: with chance ``1 - sense[seat]``
    (``leiff_worlds.care``), never for a seat taken to play sensibly."""

    def __init__(self, sense: Sequence[float] | None, rng: random.Random | None) -> None:
        self.sense = [1.0] if sense is None else list(sense)
        self.rng = rng or random.Random(0)
        self.any = min(self.sense) < 1.0

    def __call__(self, seat: int) -> bool:
        return self.any and self.rng.random() >= self.sense[seat]


def _owner_move(t: Table, careless: _Careless) -> tuple[int, str, bool] | None:
    """The seat due and its action, and whether that action came from its owner actions."""
    due = owners(t)
    if not due:
        return None
    seat = due[0]
    if t.step not in PLAY_STEPS or t.step == "spy":
        action = default_action(t, seat)
        return None if action is None else (seat, action, False)
    legal = owner_actions(t, seat)
    if not legal:
        return None
    if careless(seat):
        return seat, legal[careless.rng.randrange(len(legal))], True
    return seat, step_choice(lean_view(t, seat), legal, seat), True


def finish(
    t: Table,
    limit: int = MAX_ROLLOUT_ACTIONS,
    *,
    sense: Sequence[float] | None = None,
    rng: random.Random | None = None,
) -> None:
    """Play the world's round to its end (or ``limit`` actions) with sensible bots; with
    ``sense`` (``leiff_worlds.care``), a seat plays each choice of its turn at random
    with chance ``1 - sense[seat]`` and makes a sure match or catch only with chance
    ``sense[seat]`` (what a random seat does: it never matches), drawn from ``rng``."""
    careless = _Careless(sense, rng)
    sides = [unit_of(t, seat) for seat in range(t.players)]
    # card ids by label (a round's labels never change)
    by_label: dict[str, frozenset[int]] = {}
    for card_id, label in enumerate(t.labels):
        by_label[label] = by_label.get(label, frozenset()) | {card_id}
    for _ in range(limit):
        if t.step in _ENDED:
            return
        move: tuple[int, str, bool] | None = None
        if t.step in PLAY_STEPS and t.discard:
            top = t.discard[-1]
            twins = by_label[t.labels[top]] - {top}
            for seat in range(t.players):
                action = _sure(t, seat, sides, twins)
                if action is not None and not careless(seat):
                    move = (seat, action, False)
                    break
        if move is None:
            move = _owner_move(t, careless)
        if move is None:
            return
        play(t, move[0], move[1], owned=move[2])


def round_value(t: Table, seat: int) -> float:
    """What the round was worth to ``seat``: the other sides' mean score less its side's
    (round scores when the round ended, else the hands' points as they are)."""
    if t.round_scores is not None and t.step in _ENDED:
        scores = list(t.round_scores)
    else:
        scores = [sum(t.value(c) for c in hand) for hand in t.hands]
    sides: dict[int, float] = {}
    for s, points in enumerate(scores):
        sides[unit_of(t, s)] = sides.get(unit_of(t, s), 0.0) + points
    mine = sides.pop(unit_of(t, seat))
    return sum(sides.values()) / len(sides) - mine if sides else -mine
