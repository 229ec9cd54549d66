"""Helpers for the Leiff tests: stacked decks and short ways to play a few actions."""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

from engine import get_game
from engine.leiff import LeiffState
from engine.leiff.table import Table

GAME = get_game("leiff")


def stacked(
    hands: Sequence[Sequence[str]],
    discard: str,
    draw: Sequence[str] = (),
    *,
    seed: int = 0,
    **options: Any,
) -> LeiffState:
    """A new match whose first round deals exactly these hands, this discard and draw pile.

    ``draw`` lists the draw pile from the top; the rest of the deck follows, shuffled.
    """
    order = [label for hand in hands for label in hand] + [discard, *draw]
    return GAME.new(players=len(hands), seed=seed, options=options, deck_order=order)


def play(state: LeiffState, *moves: tuple[int, str]) -> LeiffState:
    for seat, action in moves:
        state = state.play(seat, action)
    return state


def texts(state: LeiffState, audience: str | int = "all") -> list[str]:
    """Texts of the last action's events addressed to one audience."""
    out = []
    for item in state.events:
        public = item["audience"] == "all"
        if (audience == "all" and public) or (not public and audience in item["audience"]):
            out.append(item["text"])
    return out


def look_everyone(state: LeiffState, slots: tuple[int, int] = (1, 2)) -> LeiffState:
    """Team games: every seat looks at the given two slots."""
    for seat in range(state.players):
        for slot in slots:
            state = state.play(seat, f"look {slot}")
    return state


def hidden_shuffled(state: LeiffState, seat: int, rng: random.Random) -> LeiffState:
    """The same table with the cards ``seat`` cannot see dealt differently among
    themselves: its unknown slots, the other hands' unknown slots, a card held unseen,
    the discard pile under its top and the draw pile."""
    data = state.to_dict()
    table = Table.from_dict(data)
    visible = {card for hand in table.hands for card in hand if card in table.known[seat]}
    if table.discard:
        visible.add(table.discard[-1])
    if table.holding is not None and (table.hold_source == "discard" or table.turn == seat):
        visible.add(table.holding)
    hidden = sorted(set(table.all_card_ids()) - visible)
    labels = [data["labels"][card] for card in hidden]
    rng.shuffle(labels)
    new_labels = list(data["labels"])
    for card, label in zip(hidden, labels, strict=True):
        new_labels[card] = label
    data["labels"] = new_labels
    return GAME.from_json(data)
