"""How Leiff actions look on buttons and in menus: their colours and their layout.

What an action says comes from :mod:`wording.leiff_actions`, which the web table's buttons
use too (one source for the words: the label, a message id worded in the reader's language
with the action's seats and slots filled in, seats by name; the family of actions it shares
a menu with when there are many, with the menu's placeholder). This module adds what is the
Discord layer's own: each kind's colour (:data:`STYLES`), the free-text rule as a button
that opens a form, a 9's swap in two picks when its swaps do not fit one menu, and the
channel's lobby and table buttons (:data:`TABLE_ACTIONS`). Nothing here decides what is
legal.
"""

from __future__ import annotations

import functools
from collections.abc import Sequence

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
from engine.leiff import CALL_LEIFF
from i18n import N_, translate
from wording.leiff_actions import (
    ACTION_TEXTS,
    RULE_PROMPT,
    SLOT_KINDS,
    YOUR_SLOT,
    action_words,
    parsed_action,
)

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


# Each kind's colour (by the parsed action's kind, engine.leiff.actions); any other kind
# the words know is blue. Red warns (calling Leiff ends the round, a penalty costs cards),
# green keeps a card, grey is the quiet choice or a guess out of turn.
STYLES: dict[str, discord.ButtonStyle] = {
    CALL_LEIFF: STYLE.danger,
    "discard": STYLE.secondary,
    "decline": STYLE.secondary,
    "immune": STYLE.success,
    "swap": STYLE.success,
    "match": STYLE.secondary,
    "catch": STYLE.secondary,
    "penalty": STYLE.danger,
}


def own_slot(action: str) -> tuple[int, int] | None:
    """(slot, rank in :data:`SLOT_KINDS`) of an action on one of the player's own slots,
    None for any other action."""
    parsed = parsed_action(action)
    if parsed is None or parsed.kind not in SLOT_KINDS or not parsed.numbers:
        return None
    return parsed.numbers[0], SLOT_KINDS.index(parsed.kind)


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
    parsed = parsed_action(action)
    if parsed is not None and parsed.kind == "rule":
        return Choice(PROMPT + "rule", translate(language, RULE_PROMPT), STYLE.primary)
    words = action_words(language, action, seat_names, reader)
    if parsed is None or parsed.kind not in ACTION_TEXTS:
        return Choice(action, words.label, STYLE.secondary, words.family, words.menu)
    style = STYLES.get(parsed.kind, STYLE.primary)
    return Choice(action, words.label, style, words.family, words.menu)


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
