"""How a Leiff action reads, for both front ends: the one source of the words of the
Discord layer's buttons and menus (``bot/features/leiff_tables/labels.py`` adds their
colours and layout) and of the web table's buttons.

An action arrives as the engine's canonical string ("catch 2.4"); it is parsed by the
engine's own parser and worded by its kind, seats by name, the reader's own cards as "your
slot N". Nothing here decides what is legal.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from engine import IllegalMove
from engine.leiff import CALL_LEIFF, parse_action
from engine.leiff.actions import Action
from i18n import N_, translate, translate_plural

# An action's numbers by what they mean, in the order the action string writes them.
Words = Callable[[tuple[int, ...], Callable[[int], str], Callable[[int], str]], dict[str, str]]


def _none(
    n: tuple[int, ...], seat: Callable[[int], str], steps: Callable[[int], str]
) -> dict[str, str]:
    return {}


def _slot(
    n: tuple[int, ...], seat: Callable[[int], str], steps: Callable[[int], str]
) -> dict[str, str]:
    return {"slot": str(n[0])}


def _seat(
    n: tuple[int, ...], seat: Callable[[int], str], steps: Callable[[int], str]
) -> dict[str, str]:
    return {"player": seat(n[0])}


def _seat_slot(
    n: tuple[int, ...], seat: Callable[[int], str], steps: Callable[[int], str]
) -> dict[str, str]:
    return {"owner": seat(n[0]), "slot": str(n[1])}


def _two_seat_slots(
    n: tuple[int, ...], seat: Callable[[int], str], steps: Callable[[int], str]
) -> dict[str, str]:
    return {"owner": seat(n[0]), "slot": str(n[1]), "other": seat(n[2]), "other_slot": str(n[3])}


def _rotation(
    n: tuple[int, ...], seat: Callable[[int], str], steps: Callable[[int], str]
) -> dict[str, str]:
    return {"owner": seat(n[0]), "steps": steps(n[1])}


@dataclass(frozen=True)
class ActionText:
    """How one kind of action reads: ``text`` filled in with its ``words``; actions of one
    ``family`` share a menu (placeholder ``menu``) when there are many."""

    text: str
    words: Words = _none
    family: str = ""
    menu: str = ""


# By the kind of the parsed action (engine.leiff.actions).
ACTION_TEXTS: dict[str, ActionText] = {
    CALL_LEIFF: ActionText(N_("bot.leiff.action.leiff")),
    "draw": ActionText(N_("bot.leiff.action.draw")),
    "take": ActionText(N_("bot.leiff.action.take")),
    "discard": ActionText(N_("bot.leiff.action.discard")),
    "decline": ActionText(N_("bot.leiff.action.decline")),
    "next": ActionText(N_("bot.leiff.action.next")),
    "immune": ActionText(N_("bot.leiff.action.immune")),
    "swap": ActionText(N_("bot.leiff.action.swap"), _slot, "swap", N_("bot.leiff.menu.swap")),
    "look": ActionText(N_("bot.leiff.action.look"), _slot, "look", N_("bot.leiff.menu.look")),
    "peek": ActionText(N_("bot.leiff.action.look"), _slot, "peek", N_("bot.leiff.menu.peek")),
    "peek_at": ActionText(
        N_("bot.leiff.action.peek_at"), _seat_slot, "peek", N_("bot.leiff.menu.peek")
    ),
    "trade": ActionText(
        N_("bot.leiff.action.trade"), _two_seat_slots, "trade", N_("bot.leiff.menu.trade")
    ),
    "slot_discard": ActionText(
        N_("bot.leiff.action.slot_discard"),
        _slot,
        "slot discard",
        N_("bot.leiff.menu.slot_discard"),
    ),
    "slot_give": ActionText(
        N_("bot.leiff.action.slot_give"), _seat, "slot give", N_("bot.leiff.menu.slot_give")
    ),
    "rotate": ActionText(
        N_("bot.leiff.action.rotate"), _rotation, "rotate", N_("bot.leiff.menu.rotate")
    ),
    "belle_link": ActionText(N_("bot.leiff.action.belle_link")),
    "belle_swap": ActionText(N_("bot.leiff.action.belle_swap")),
    "belle_show": ActionText(
        N_("bot.leiff.action.belle_show"), _slot, "belle show", N_("bot.leiff.menu.belle_show")
    ),
    "enchant": ActionText(
        N_("bot.leiff.action.enchant"), _seat, "enchant", N_("bot.leiff.menu.enchant")
    ),
    "spy": ActionText(N_("bot.leiff.action.spy"), _slot, "spy", N_("bot.leiff.menu.spy")),
    "give": ActionText(N_("bot.leiff.action.give"), _slot, "give", N_("bot.leiff.menu.give")),
    "match": ActionText(N_("bot.leiff.action.match"), _slot, "match", N_("bot.leiff.menu.match")),
    "catch": ActionText(
        N_("bot.leiff.action.catch"), _seat_slot, "catch", N_("bot.leiff.menu.catch")
    ),
    "penalty": ActionText(
        N_("bot.leiff.action.penalty"), _seat, "penalty", N_("bot.leiff.menu.penalty")
    ),
}
# The Klatschtante's rule is free text, typed by the player.
RULE_PROMPT = N_("bot.leiff.action.rule")
# A card of the reader's own is "your slot 2", not "<their name>'s slot 2".
YOUR_SLOT = {
    "peek_at": N_("bot.leiff.action.look"),
    "trade": N_("bot.leiff.action.trade_yours"),
    "trade_with": N_("bot.leiff.action.trade_with_yours"),
    # the first card of a 9's swap picked on its own (the Discord layer's two picks)
    "trade_first": N_("bot.leiff.action.trade_first_yours"),
}
# Actions on one of the player's own slots; beside its slot an action needs no number.
SLOT_KINDS = ("swap", "look", "peek", "give", "belle_show", "slot_discard", "match")
BESIDE: dict[str, str] = {
    "swap": N_("bot.leiff.beside.swap"),
    "look": N_("bot.leiff.beside.look"),
    "peek": N_("bot.leiff.beside.look"),
    "give": N_("bot.leiff.beside.give"),
    "belle_show": N_("bot.leiff.beside.belle_show"),
    "slot_discard": N_("bot.leiff.beside.slot_discard"),
    "match": N_("bot.leiff.beside.match"),
}


def parsed_action(action: str) -> Action | None:
    try:
        return parse_action(action)
    except IllegalMove:
        return None


@dataclass(frozen=True)
class ActionWords:
    """An action as a front end offers it: its label, its family's menu placeholder (empty
    for an action of its own), and, for an action on a card, whose card and which slot."""

    action: str
    label: str
    family: str
    menu: str
    card: tuple[int, int] | None
    # the parsed action's kind ("catch", "peek_at"; the first word of one not parsed) and
    # its short label beside the reader's own card (None: none), from the same one parse
    kind: str = ""
    beside: str | None = None


def action_words(
    language: str, action: str, seat_names: Sequence[str], reader: int | None = None
) -> ActionWords:
    """How ``action`` reads in ``language`` for ``reader`` (their own cards: "your slot")."""

    def seat(number: int) -> str:
        if 0 <= number < len(seat_names):
            return seat_names[number]
        return translate(language, "bot.leiff.seat", seat=number)

    def steps(count: int) -> str:
        return translate_plural(language, "bot.leiff.steps", "bot.leiff.steps.plural", count)

    parsed = parsed_action(action)
    if parsed is not None and parsed.kind == "rule":
        return ActionWords(action, translate(language, RULE_PROMPT), "", "", None, "rule")
    known = ACTION_TEXTS.get(parsed.kind) if parsed is not None else None
    if parsed is None or known is None:
        verb = action.split()[0] if action.split() else action
        return ActionWords(action, action[:80], verb, f"{verb}…", None, verb)
    words = known.words(parsed.numbers, seat, steps)
    text = known.text
    if reader is not None and parsed.kind in ("peek_at", "trade"):
        if parsed.numbers[0] == reader:
            text = YOUR_SLOT[parsed.kind]
            words = {key: value for key, value in words.items() if key != "owner"}
        elif parsed.kind == "trade" and parsed.numbers[2] == reader:
            text = YOUR_SLOT["trade_with"]
            words = {key: value for key, value in words.items() if key != "other"}
    menu = translate(language, known.menu) if known.menu else ""
    beside = translate(language, BESIDE[parsed.kind]) if parsed.kind in BESIDE else None
    return ActionWords(
        action,
        translate(language, text, **words),
        known.family,
        menu,
        _card(parsed, reader),
        parsed.kind,
        beside,
    )


def _card(parsed: Action, reader: int | None) -> tuple[int, int] | None:
    """(seat, slot) of the card an action is about, when it is about one card."""
    if parsed.kind in SLOT_KINDS and parsed.numbers and reader is not None:
        return (reader, parsed.numbers[0])
    if parsed.kind in ("catch", "peek_at"):
        return (parsed.numbers[0], parsed.numbers[1])
    return None
