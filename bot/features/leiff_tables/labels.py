"""How Leiff actions read on buttons and in menus.

A player's actions arrive as the engine's canonical strings ("catch 2.4"); each is parsed
with the engine's own parser (:func:`engine.leiff.parse_action`) and looked up by its kind
in :data:`LABELS`: the label (with the action's seats and slots filled in, seats by name),
its colour, and the family of actions it shares a menu with when there are many. The
channel's lobby and table buttons have plain labels (:data:`TABLE_ACTIONS`). Nothing here
decides what is legal.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

import discord

from bot.common.components import Choice, ordered_choices
from bot.common.custom_ids import ADD_BOT, PROMPT, REMOVE_BOT, SHOW_HAND
from engine import IllegalMove
from engine.leiff import parse_action
from engine.leiff.actions import Action

STYLE = discord.ButtonStyle

# The lobby's and the table's own buttons (on the channel message).
TABLE_ACTIONS: dict[str, tuple[str, discord.ButtonStyle]] = {
    "join": ("Join", STYLE.success),
    "leave": ("Leave", STYLE.secondary),
    "start": ("Start", STYLE.primary),
    ADD_BOT: ("Add bot seat", STYLE.secondary),
    REMOVE_BOT: ("Remove bot", STYLE.secondary),
    SHOW_HAND: ("Show my hand", STYLE.primary),
}
TABLE_ORDER = ["join", "leave", "start", ADD_BOT, REMOVE_BOT, SHOW_HAND]


def table_choices(actions: Sequence[str]) -> list[Choice]:
    """Choices for the lobby's and the table's buttons, in a stable order."""
    return ordered_choices(actions, TABLE_ACTIONS, TABLE_ORDER)


# An action's numbers by what they mean, in the order the action string writes them.
Words = Callable[[tuple[int, ...], Callable[[int], str]], dict[str, str]]


def _none(numbers: tuple[int, ...], seat: Callable[[int], str]) -> dict[str, str]:
    return {}


def _slot(numbers: tuple[int, ...], seat: Callable[[int], str]) -> dict[str, str]:
    return {"slot": str(numbers[0])}


def _seat(numbers: tuple[int, ...], seat: Callable[[int], str]) -> dict[str, str]:
    return {"player": seat(numbers[0])}


def _seat_slot(numbers: tuple[int, ...], seat: Callable[[int], str]) -> dict[str, str]:
    return {"owner": seat(numbers[0]), "slot": str(numbers[1])}


def _two_seat_slots(numbers: tuple[int, ...], seat: Callable[[int], str]) -> dict[str, str]:
    return {
        "owner": seat(numbers[0]),
        "slot": str(numbers[1]),
        "other": seat(numbers[2]),
        "other_slot": str(numbers[3]),
    }


def _rotation(numbers: tuple[int, ...], seat: Callable[[int], str]) -> dict[str, str]:
    steps = numbers[1]
    return {"owner": seat(numbers[0]), "steps": f"{steps} step{'' if steps == 1 else 's'}"}


@dataclass(frozen=True)
class Label:
    """How one kind of action reads: ``text`` is filled in with the action's ``words``;
    actions of one ``family`` become one menu (placeholder ``menu``) when there are many."""

    text: str
    style: discord.ButtonStyle
    words: Words = _none
    family: str = ""
    menu: str = ""


# By the kind of the parsed action (engine.leiff.actions).
LABELS: dict[str, Label] = {
    "leiff": Label("Call Leiff!", STYLE.danger),
    "draw": Label("Draw", STYLE.primary),
    "take": Label("Take the discard", STYLE.primary),
    "discard": Label("Discard it", STYLE.secondary),
    "decline": Label("Skip the effect", STYLE.secondary),
    "next": Label("Deal the next round", STYLE.primary),
    "immune": Label("Become immune (Kellner)", STYLE.success),
    "swap": Label("Put it in slot {slot}", STYLE.success, _slot, "swap", "Put it in slot…"),
    "look": Label("Look at your slot {slot}", STYLE.primary, _slot, "look", "Look at a slot…"),
    "peek": Label("Look at your slot {slot}", STYLE.primary, _slot, "peek", "Look at a card…"),
    "peek_at": Label(
        "Look at {owner}'s slot {slot}", STYLE.primary, _seat_slot, "peek", "Look at a card…"
    ),
    "trade": Label(
        "Swap {owner}'s slot {slot} with {other}'s slot {other_slot}",
        STYLE.primary,
        _two_seat_slots,
        "trade",
        "Swap two cards…",
    ),
    "slot_discard": Label(
        "Throw away your slot {slot}", STYLE.primary, _slot, "slot discard", "Throw away a slot…"
    ),
    "slot_give": Label(
        "{player} draws a card", STYLE.primary, _seat, "slot give", "Make a player draw…"
    ),
    "rotate": Label(
        "Turn {owner}'s hand {steps} clockwise",
        STYLE.primary,
        _rotation,
        "rotate",
        "Reorder a hand…",
    ),
    "belle_link": Label("Drink with your right neighbour", STYLE.primary),
    "belle_swap": Label("Swap hands with your left neighbour", STYLE.primary),
    "belle_show": Label(
        "Show your slot {slot} to everyone", STYLE.primary, _slot, "belle show", "Show a slot…"
    ),
    "enchant": Label("Enchant {player}", STYLE.primary, _seat, "enchant", "Enchant a player…"),
    "spy": Label("Look at the Magier's slot {slot}", STYLE.primary, _slot, "spy", "Spy on a slot…"),
    "give": Label("Give your slot {slot}", STYLE.primary, _slot, "give", "Give a card…"),
    "match": Label(
        "Match your slot {slot}", STYLE.secondary, _slot, "match", "Match one of your cards…"
    ),
    "catch": Label(
        "Catch {owner}'s slot {slot}", STYLE.secondary, _seat_slot, "catch", "Catch someone's card…"
    ),
    "penalty": Label(
        "Penalty for {player}", STYLE.danger, _seat, "penalty", "Give a table-talk penalty…"
    ),
}
# The Klatschtante's rule is free text: its button opens a form (the rule typed there).
RULE_PROMPT = Choice(PROMPT + "rule", "Write the table rule…", STYLE.primary)


def _parsed(action: str) -> Action | None:
    try:
        return parse_action(action)
    except IllegalMove:
        return None


def leiff_choice(action: str, seat_names: Sequence[str]) -> Choice:
    """How one Leiff action reads (families with many members become a select menu)."""

    def seat(number: int) -> str:
        return seat_names[number] if 0 <= number < len(seat_names) else f"seat {number}"

    parsed = _parsed(action)
    if parsed is not None and parsed.kind == "rule":
        return RULE_PROMPT
    label = LABELS.get(parsed.kind) if parsed is not None else None
    if parsed is None or label is None:
        verb = action.split()[0] if action.split() else action
        return Choice(action, action[:80], STYLE.secondary, verb, f"{verb}…")
    text = label.text.format(**label.words(parsed.numbers, seat))
    return Choice(action, text, label.style, label.family, label.menu)


def leiff_choices(actions: Sequence[str], seat_names: Sequence[str]) -> list[Choice]:
    """Choices for a player's Leiff actions; the free-text rule appears once, as a prompt."""
    choices: list[Choice] = []
    seen: set[str] = set()
    for action in actions:
        choice = leiff_choice(action, seat_names)
        if choice.action in seen:
            continue
        seen.add(choice.action)
        choices.append(choice)
    return choices
