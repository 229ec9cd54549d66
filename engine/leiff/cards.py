"""Leiff's cards and decks: labels, points, effects, display names, and the deck as data.

A deck is data (``data/leiff/deck.json``) so that a server could one day ship another one;
:func:`load_default_deck` is the only place in the engine that reads a file.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

# Effects the engine knows how to run; a deck file may only name these.
EFFECTS: tuple[str, ...] = (
    "peek_own",
    "peek_any",
    "trade",
    "slot",
    "philosopher",
    "waiter",
    "gossip",
    "belle",
    "magician",
)

SPECIAL_LABELS: tuple[str, ...] = ("philosopher", "waiter", "gossip", "belle", "magician")

# What pictures print for each label (numbers print as themselves).
DISPLAY_NAMES: dict[str, str] = {
    **{str(n): str(n) for n in range(-1, 14) if n != 0},
    "slot": "Spielautomat",
    "philosopher": "Kneipenphilosoph",
    "waiter": "Kellner",
    "gossip": "Klatschtante",
    "belle": "Dorfschönheit",
    "magician": "Hinterhältiger Magier",
}

DEFAULT_DECK_PATH = Path(__file__).resolve().parents[2] / "data" / "leiff" / "deck.json"


@dataclass(frozen=True)
class CardSpec:
    """One kind of card: its label, points, how many the deck holds, and its effect."""

    label: str
    value: int
    count: int
    effect: str | None = None
    name: str | None = None
    takeable: bool = True

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> CardSpec:
        label = str(data["label"]).strip()
        if not label or " " in label or "." in label:
            raise ValueError(f"card label {label!r} must be one word without dots")
        effect = data.get("effect")
        if effect is not None and effect not in EFFECTS:
            raise ValueError(f"card {label!r} has unknown effect {effect!r}")
        count = int(data["count"])
        if count < 0:
            raise ValueError(f"card {label!r} has a negative count")
        return cls(
            label=label,
            value=int(data["value"]),
            count=count,
            effect=effect,
            name=data.get("name"),
            takeable=bool(data.get("takeable", True)),
        )

    def to_dict(self) -> dict[str, Any]:
        data: dict[str, Any] = {"label": self.label, "value": self.value, "count": self.count}
        if self.effect is not None:
            data["effect"] = self.effect
        if self.name is not None:
            data["name"] = self.name
        if not self.takeable:
            data["takeable"] = False
        return data


@dataclass(frozen=True)
class Deck:
    """A deck composition: the base cards and the special-card expansion."""

    base: tuple[CardSpec, ...]
    specials: tuple[CardSpec, ...] = ()
    name: str = "Leiff"

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Deck:
        base = tuple(CardSpec.from_dict(c) for c in data.get("base", ()))
        specials = tuple(CardSpec.from_dict(c) for c in data.get("specials", ()))
        labels = [c.label for c in (*base, *specials)]
        if len(set(labels)) != len(labels):
            raise ValueError("a deck lists the same card label twice")
        return cls(base=base, specials=specials, name=str(data.get("name", "Leiff")))

    def to_dict(self) -> dict[str, Any]:
        return {
            "format": 1,
            "name": self.name,
            "base": [c.to_dict() for c in self.base],
            "specials": [c.to_dict() for c in self.specials],
        }

    def spec(self, label: str) -> CardSpec:
        for card in (*self.base, *self.specials):
            if card.label == label:
                return card
        raise KeyError(label)

    def cards(self, specials: bool) -> list[str]:
        """Every card label of one full deck, in the file's order (before shuffling)."""
        kinds = (*self.base, *self.specials) if specials else self.base
        return [card.label for card in kinds for _ in range(card.count)]

    def values(self) -> dict[str, int]:
        return {c.label: c.value for c in (*self.base, *self.specials)}


@cache
def load_default_deck() -> Deck:
    """The deck in ``data/leiff/deck.json`` (read once)."""
    return Deck.from_dict(json.loads(DEFAULT_DECK_PATH.read_text(encoding="utf-8")))


def card_value(label: str, deck: Deck | None = None) -> int:
    """Points of a card label in ``deck`` (the default deck when omitted)."""
    return (deck or load_default_deck()).spec(label).value


def display_name(label: str) -> str:
    """What a picture should print for a card label."""
    return DISPLAY_NAMES.get(label, label)
