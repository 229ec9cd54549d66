"""How Leiff actions read on buttons and in menus.

A player's actions arrive as the engine's canonical strings ("catch 2.4"); each is parsed
with the engine's own parser (:func:`engine.leiff.parse_action`) and looked up by its kind
in :data:`LABELS`: the label (a message id, worded in the reader's language with the
action's seats and slots filled in, seats by name), its colour, and the family of actions it
shares a menu with when there are many (with the menu's placeholder, a message id too). The
channel's lobby and table buttons have plain labels (:data:`TABLE_ACTIONS`). Nothing here
decides what is legal.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Sequence
from dataclasses import dataclass

import discord

from bot.common.components import OPTIONS_PER_SELECT, Choice, ordered_choices
from bot.common.custom_ids import (
    ADD_BOT,
    PLAY_AGAIN,
    PROMPT,
    REMOVE_BOT,
    SHOW_HAND,
    TRADE_BACK,
    TRADE_FIRST,
)
from engine import IllegalMove
from engine.leiff import CALL_LEIFF, parse_action
from engine.leiff.actions import Action
from i18n import N_, translate, translate_plural

STYLE = discord.ButtonStyle

# The lobby's and the table's own buttons (on the channel message).
TABLE_ACTIONS: dict[str, tuple[str, discord.ButtonStyle]] = {
    "join": (N_("bot.leiff.button.join"), STYLE.success),
    "leave": (N_("bot.leiff.button.leave"), STYLE.secondary),
    "start": (N_("bot.leiff.button.start"), STYLE.primary),
    ADD_BOT: (N_("bot.leiff.button.add_bot"), STYLE.secondary),
    REMOVE_BOT: (N_("bot.leiff.button.remove_bot"), STYLE.secondary),
    SHOW_HAND: (N_("bot.leiff.button.show_hand"), STYLE.primary),
    PLAY_AGAIN: (N_("bot.leiff.button.play_again"), STYLE.success),
}
TABLE_ORDER = ["join", "leave", "start", ADD_BOT, REMOVE_BOT, SHOW_HAND, PLAY_AGAIN]


def table_choices(language: str, actions: Sequence[str]) -> list[Choice]:
    """Choices for the lobby's and the table's buttons, in a stable order."""
    return ordered_choices(language, actions, TABLE_ACTIONS, TABLE_ORDER)


# An action's numbers by what they mean, in the order the action string writes them
# (``seat`` writes a seat by name, ``steps`` a number of steps in the reader's language).
Words = Callable[[tuple[int, ...], Callable[[int], str], Callable[[int], str]], dict[str, str]]


def _none(
    numbers: tuple[int, ...], seat: Callable[[int], str], steps: Callable[[int], str]
) -> dict[str, str]:
    return {}


def _slot(
    numbers: tuple[int, ...], seat: Callable[[int], str], steps: Callable[[int], str]
) -> dict[str, str]:
    return {"slot": str(numbers[0])}


def _seat(
    numbers: tuple[int, ...], seat: Callable[[int], str], steps: Callable[[int], str]
) -> dict[str, str]:
    return {"player": seat(numbers[0])}


def _seat_slot(
    numbers: tuple[int, ...], seat: Callable[[int], str], steps: Callable[[int], str]
) -> dict[str, str]:
    return {"owner": seat(numbers[0]), "slot": str(numbers[1])}


def _two_seat_slots(
    numbers: tuple[int, ...], seat: Callable[[int], str], steps: Callable[[int], str]
) -> dict[str, str]:
    return {
        "owner": seat(numbers[0]),
        "slot": str(numbers[1]),
        "other": seat(numbers[2]),
        "other_slot": str(numbers[3]),
    }


def _rotation(
    numbers: tuple[int, ...], seat: Callable[[int], str], steps: Callable[[int], str]
) -> dict[str, str]:
    return {"owner": seat(numbers[0]), "steps": steps(numbers[1])}


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
    CALL_LEIFF: Label(N_("bot.leiff.action.leiff"), STYLE.danger),
    "draw": Label(N_("bot.leiff.action.draw"), STYLE.primary),
    "take": Label(N_("bot.leiff.action.take"), STYLE.primary),
    "discard": Label(N_("bot.leiff.action.discard"), STYLE.secondary),
    "decline": Label(N_("bot.leiff.action.decline"), STYLE.secondary),
    "next": Label(N_("bot.leiff.action.next"), STYLE.primary),
    "immune": Label(N_("bot.leiff.action.immune"), STYLE.success),
    "swap": Label(
        N_("bot.leiff.action.swap"), STYLE.success, _slot, "swap", N_("bot.leiff.menu.swap")
    ),
    "look": Label(
        N_("bot.leiff.action.look"), STYLE.primary, _slot, "look", N_("bot.leiff.menu.look")
    ),
    "peek": Label(
        N_("bot.leiff.action.look"), STYLE.primary, _slot, "peek", N_("bot.leiff.menu.peek")
    ),
    "peek_at": Label(
        N_("bot.leiff.action.peek_at"),
        STYLE.primary,
        _seat_slot,
        "peek",
        N_("bot.leiff.menu.peek"),
    ),
    "trade": Label(
        N_("bot.leiff.action.trade"),
        STYLE.primary,
        _two_seat_slots,
        "trade",
        N_("bot.leiff.menu.trade"),
    ),
    "slot_discard": Label(
        N_("bot.leiff.action.slot_discard"),
        STYLE.primary,
        _slot,
        "slot discard",
        N_("bot.leiff.menu.slot_discard"),
    ),
    "slot_give": Label(
        N_("bot.leiff.action.slot_give"),
        STYLE.primary,
        _seat,
        "slot give",
        N_("bot.leiff.menu.slot_give"),
    ),
    "rotate": Label(
        N_("bot.leiff.action.rotate"),
        STYLE.primary,
        _rotation,
        "rotate",
        N_("bot.leiff.menu.rotate"),
    ),
    "belle_link": Label(N_("bot.leiff.action.belle_link"), STYLE.primary),
    "belle_swap": Label(N_("bot.leiff.action.belle_swap"), STYLE.primary),
    "belle_show": Label(
        N_("bot.leiff.action.belle_show"),
        STYLE.primary,
        _slot,
        "belle show",
        N_("bot.leiff.menu.belle_show"),
    ),
    "enchant": Label(
        N_("bot.leiff.action.enchant"),
        STYLE.primary,
        _seat,
        "enchant",
        N_("bot.leiff.menu.enchant"),
    ),
    "spy": Label(N_("bot.leiff.action.spy"), STYLE.primary, _slot, "spy", N_("bot.leiff.menu.spy")),
    "give": Label(
        N_("bot.leiff.action.give"), STYLE.primary, _slot, "give", N_("bot.leiff.menu.give")
    ),
    "match": Label(
        N_("bot.leiff.action.match"), STYLE.secondary, _slot, "match", N_("bot.leiff.menu.match")
    ),
    "catch": Label(
        N_("bot.leiff.action.catch"),
        STYLE.secondary,
        _seat_slot,
        "catch",
        N_("bot.leiff.menu.catch"),
    ),
    "penalty": Label(
        N_("bot.leiff.action.penalty"),
        STYLE.danger,
        _seat,
        "penalty",
        N_("bot.leiff.menu.penalty"),
    ),
}
# The Klatschtante's rule is free text: its button opens a form (the rule typed there).
RULE_PROMPT = N_("bot.leiff.action.rule")
# A card of the reader's own, in their own menus, is "your slot 2", not "<their name>'s
# slot 2" (an 8 looks at any card, a 9 swaps any two).
YOUR_SLOT = {
    "peek_at": N_("bot.leiff.action.look"),
    "trade": N_("bot.leiff.action.trade_yours"),
    "trade_with": N_("bot.leiff.action.trade_with_yours"),
    "trade_first": N_("bot.leiff.action.trade_first_yours"),
}


# Actions on one of the player's own slots, the first the one shown beside the slot (a
# section's one button) when a slot has several; the others stay with the other controls.
SLOT_KINDS = ("swap", "look", "peek", "give", "belle_show", "slot_discard", "match")
# Beside its slot ("**Slot 2** · [7]") an action needs no slot number: a shorter label.
BESIDE: dict[str, str] = {
    "swap": N_("bot.leiff.beside.swap"),
    "look": N_("bot.leiff.beside.look"),
    "peek": N_("bot.leiff.beside.look"),
    "give": N_("bot.leiff.beside.give"),
    "belle_show": N_("bot.leiff.beside.belle_show"),
    "slot_discard": N_("bot.leiff.beside.slot_discard"),
    "match": N_("bot.leiff.beside.match"),
}


def own_slot(action: str) -> tuple[int, int] | None:
    """(slot, rank in :data:`SLOT_KINDS`) of an action on one of the player's own slots,
    None for any other action."""
    parsed = _parsed(action)
    if parsed is None or parsed.kind not in SLOT_KINDS or not parsed.numbers:
        return None
    return parsed.numbers[0], SLOT_KINDS.index(parsed.kind)


def _parsed(action: str) -> Action | None:
    try:
        return parse_action(action)
    except IllegalMove:
        return None


def leiff_choice(
    language: str, action: str, seat_names: Sequence[str], reader: int | None = None
) -> Choice:
    """How one Leiff action reads in ``language`` (families with many members become a
    select menu); the ``reader``'s own cards are "your slot N"."""
    return _leiff_choice(language, action, tuple(seat_names), reader)


# A hand message lists a dozen or more actions and is redrawn after most actions at its
# table, with the same few labels each time: each is worded once (a Choice is immutable).
@functools.lru_cache(maxsize=4096)
def _leiff_choice(
    language: str, action: str, seat_names: tuple[str, ...], reader: int | None
) -> Choice:

    def seat(number: int) -> str:
        if 0 <= number < len(seat_names):
            return seat_names[number]
        return translate(language, "bot.leiff.seat", seat=number)

    def steps(count: int) -> str:
        return translate_plural(language, "bot.leiff.steps", "bot.leiff.steps.plural", count)

    parsed = _parsed(action)
    if parsed is not None and parsed.kind == "rule":
        return Choice(PROMPT + "rule", translate(language, RULE_PROMPT), STYLE.primary)
    label = LABELS.get(parsed.kind) if parsed is not None else None
    if parsed is None or label is None:
        verb = action.split()[0] if action.split() else action
        return Choice(action, action[:80], STYLE.secondary, verb, f"{verb}…")
    text = translate(
        language,
        _own_text(label.text, parsed, reader),
        **_own_words(label.words(parsed.numbers, seat, steps), parsed, reader),
    )
    menu = translate(language, label.menu) if label.menu else ""
    return Choice(action, text, label.style, label.family, menu)


def _own_text(text: str, parsed: Action, reader: int | None) -> str:
    """The label of an action on the reader's own card, or ``text``."""
    numbers = parsed.numbers
    if reader is None or parsed.kind not in ("peek_at", "trade"):
        return text
    if numbers[0] == reader:
        return YOUR_SLOT[parsed.kind]
    if parsed.kind == "trade" and numbers[2] == reader:
        return YOUR_SLOT["trade_with"]
    return text


def _own_words(words: dict[str, str], parsed: Action, reader: int | None) -> dict[str, str]:
    """The words of an action on the reader's own card: their name is not said."""
    if reader is None or parsed.kind not in ("peek_at", "trade"):
        return words
    if parsed.numbers[0] == reader:
        return {key: value for key, value in words.items() if key != "owner"}
    if parsed.kind == "trade" and parsed.numbers[2] == reader:
        return {key: value for key, value in words.items() if key != "other"}
    return words


def leiff_choices(
    language: str,
    actions: Sequence[str],
    seat_names: Sequence[str],
    *,
    trade_from: str | None = None,
    reader: int | None = None,
) -> list[Choice]:
    """Choices for a player's Leiff actions; the free-text rule appears once, as a prompt.

    A 9 lets its player swap any two cards of any two players: 96 choices at four players,
    240 at six, more than the five menus of 25 a message holds beside everything else. When
    they do not fit one menu, the player picks the first card (one choice per card,
    ``TRADE_FIRST``), then, with ``trade_from`` (that card), the second one from the swaps
    of that card, or goes back to the whole hand. The ``reader``'s own cards read "your
    slot N".
    """
    trades = [a for a in actions if _is_trade(a)]
    if trade_from is not None:
        chosen = [a for a in trades if a.split()[1] == trade_from]
        back = Choice(TRADE_BACK, translate(language, "bot.leiff.action.trade_back"))
        return [leiff_choice(language, a, seat_names, reader) for a in chosen] + [back]
    two_steps = len(trades) > OPTIONS_PER_SELECT
    choices: list[Choice] = []
    seen: set[str] = set()
    for action in actions:
        if two_steps and _is_trade(action):
            choice = _first_pick(language, action.split()[1], seat_names, reader)
        else:
            choice = leiff_choice(language, action, seat_names, reader)
        if choice.action in seen:
            continue
        seen.add(choice.action)
        choices.append(choice)
    return choices


def _is_trade(action: str) -> bool:
    return action.startswith("trade ")


def _first_pick(
    language: str, card: str, seat_names: Sequence[str], reader: int | None = None
) -> Choice:
    """The first card of a 9's swap ("seat.slot"), as a choice of its own."""
    seat, _, slot = card.partition(".")
    number = int(seat)
    if number == reader:
        text = translate(language, YOUR_SLOT["trade_first"], slot=slot)
    else:
        text = ""
    owner = (
        seat_names[number]
        if 0 <= number < len(seat_names)
        else translate(language, "bot.leiff.seat", seat=number)
    )
    return Choice(
        TRADE_FIRST + card,
        text or translate(language, "bot.leiff.action.trade_first", owner=owner, slot=slot),
        STYLE.primary,
        "trade first",
        translate(language, "bot.leiff.menu.trade_first"),
    )
