"""Leiff actions as values: parsing friendly text into one canonical string and back.

Seats in action strings are API seats (0-based); slots are 1-based. The grammar is listed in
``docs/leiff-engine.md``. :func:`parse_action` raises :class:`IllegalMove` for text that is
not an action at all; whether an action is allowed *now* is the rules' business.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from engine.errors import IllegalMove

RULE_MAX_LENGTH = 100

# The action that calls Leiff (ends the round) is spelled like the game: code outside the
# engine names it by this constant, never by the game's name.
CALL_LEIFF = "leiff"

# Actions any seat may take during play, whoever's turn it is.
OUT_OF_TURN_KINDS = frozenset({"match", "catch", "penalty"})

_SEAT_SLOT = r"(\d+)\s*\.\s*(\d+)"
_PATTERNS: list[tuple[str, re.Pattern[str]]] = [
    (CALL_LEIFF, re.compile(r"leiff!?")),
    ("draw", re.compile(r"draw")),
    ("take", re.compile(r"take")),
    ("discard", re.compile(r"discard")),
    ("decline", re.compile(r"decline")),
    ("immune", re.compile(r"immune")),
    ("next", re.compile(r"next")),
    ("swap", re.compile(r"swap\s*(\d+)")),
    ("look", re.compile(r"look\s*(\d+)")),
    ("spy", re.compile(r"spy\s*(\d+)")),
    ("give", re.compile(r"give\s*(\d+)")),
    ("match", re.compile(r"match\s*(\d+)")),
    ("peek_at", re.compile(r"peek\s*" + _SEAT_SLOT)),
    ("peek", re.compile(r"peek\s*(\d+)")),
    ("catch", re.compile(r"catch\s*" + _SEAT_SLOT)),
    ("trade", re.compile(r"trade\s*" + _SEAT_SLOT + r"\s*[ >,]\s*" + _SEAT_SLOT)),
    ("slot_discard", re.compile(r"slot\s+discard\s*(\d+)")),
    ("slot_give", re.compile(r"slot\s+give\s*(\d+)")),
    ("rotate", re.compile(r"rotate\s*(\d+)\s+(\d+)")),
    ("belle_link", re.compile(r"belle\s+link")),
    ("belle_show", re.compile(r"belle\s+show\s*(\d+)")),
    ("belle_swap", re.compile(r"belle\s+swap")),
    ("enchant", re.compile(r"enchant\s*(\d+)")),
    ("penalty", re.compile(r"penalty\s*(\d+)")),
]


@dataclass(frozen=True)
class Action:
    """A parsed action. ``numbers`` holds its seats/slots/steps in string order."""

    kind: str
    numbers: tuple[int, ...] = ()
    text: str | None = None

    def __str__(self) -> str:
        n = self.numbers
        match self.kind:
            case "peek_at":
                return f"peek {n[0]}.{n[1]}"
            case "catch":
                return f"catch {n[0]}.{n[1]}"
            case "trade":
                return f"trade {n[0]}.{n[1]} {n[2]}.{n[3]}"
            case "slot_discard":
                return f"slot discard {n[0]}"
            case "slot_give":
                return f"slot give {n[0]}"
            case "rotate":
                return f"rotate {n[0]} {n[1]}"
            case "belle_link":
                return "belle link"
            case "belle_show":
                return f"belle show {n[0]}"
            case "belle_swap":
                return "belle swap"
            case "rule":
                return f"rule {self.text}"
        return " ".join([self.kind, *(str(x) for x in n)])

    @property
    def out_of_turn(self) -> bool:
        return self.kind in OUT_OF_TURN_KINDS


def normalise_rule_text(text: str) -> str:
    """Collapse whitespace; refuse empty or over-long rules."""
    cleaned = " ".join(text.split())
    if not cleaned:
        raise IllegalMove("leiff_rule_missing")
    if len(cleaned) > RULE_MAX_LENGTH:
        raise IllegalMove("leiff_rule_too_long", limit=RULE_MAX_LENGTH)
    return cleaned


def parse_action(text: str) -> Action:
    """Parse action text (any capitalisation, extra spaces) into an :class:`Action`."""
    if not isinstance(text, str):
        raise IllegalMove("leiff_not_text")
    stripped = text.strip()
    head = stripped[:5].lower()
    if head == "rule" or head.startswith("rule ") or head.startswith("rule\t"):
        return Action("rule", (), normalise_rule_text(stripped[4:]))
    lowered = " ".join(stripped.lower().split())
    for kind, pattern in _PATTERNS:
        found = pattern.fullmatch(lowered)
        if found:
            numbers = tuple(int(g) for g in found.groups())
            if kind == "trade" and numbers[2:] < numbers[:2]:
                numbers = numbers[2:] + numbers[:2]
            return Action(kind, numbers)
    raise IllegalMove("leiff_unknown_action", text=repr(stripped[:40]))
