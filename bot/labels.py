"""Button labels for action strings: how each action reads on a button or in a menu.

The service hands the bot canonical action strings; this module only decides how they look
(label, colour, which family they are grouped in). It never decides what is legal.
"""

from __future__ import annotations

from collections.abc import Sequence

import discord

from bot.ui.components import Choice
from bot.ui.custom_ids import PROMPT

STYLE = discord.ButtonStyle

# Actions the service itself defines, on board-game, challenge and lobby messages.
SERVICE_ACTIONS: dict[str, tuple[str, discord.ButtonStyle]] = {
    "swap": ("Swap colours", STYLE.primary),
    "pass": ("Pass", STYLE.secondary),
    "black": ("Play black", STYLE.secondary),
    "white": ("Play white", STYLE.secondary),
    "resign": ("Resign", STYLE.danger),
    "offer_draw": ("Offer a draw", STYLE.secondary),
    "accept_draw": ("Accept the draw", STYLE.success),
    "decline_draw": ("Decline the draw", STYLE.secondary),
    "rematch": ("Rematch", STYLE.primary),
    "accept": ("Accept", STYLE.success),
    "decline": ("Decline", STYLE.danger),
    "cancel": ("Withdraw", STYLE.secondary),
    "join": ("Join", STYLE.success),
    "leave": ("Leave", STYLE.secondary),
    "start": ("Start", STYLE.primary),
    "~keep": ("Keep colours", STYLE.secondary),
    "~hand": ("Show my hand", STYLE.primary),
    "~addbot": ("Add bot seat", STYLE.secondary),
    "~rmbot": ("Remove bot", STYLE.secondary),
}

# Order in which service actions appear on a message (most important first).
ORDER = [
    "accept",
    "decline",
    "join",
    "leave",
    "start",
    "~addbot",
    "~rmbot",
    "swap",
    "~keep",
    "black",
    "white",
    "pass",
    "accept_draw",
    "decline_draw",
    "rematch",
    "offer_draw",
    "resign",
    "cancel",
    "~hand",
]


def service_choices(actions: Sequence[str]) -> list[Choice]:
    """Choices for board-game, challenge and lobby actions, in a stable, sensible order."""
    rank = {name: index for index, name in enumerate(ORDER)}
    unique = list(dict.fromkeys(actions))
    unique.sort(key=lambda action: rank.get(action, len(ORDER)))
    choices = []
    for action in unique:
        label, style = SERVICE_ACTIONS.get(action, (action.capitalize(), STYLE.secondary))
        choices.append(Choice(action, label, style))
    return choices


def _seat_slot(token: str, seat_names: Sequence[str]) -> str:
    """ "2.4" -> "cat's slot 4" (the slot numbers under each player's cards)."""
    seat, _, slot = token.partition(".")
    return f"{_seat(seat, seat_names)}'s slot {slot}"


def _seat(token: str, seat_names: Sequence[str]) -> str:
    try:
        return seat_names[int(token)]
    except (ValueError, IndexError):
        return f"seat {token}"


def leiff_choice(action: str, seat_names: Sequence[str]) -> Choice:
    """How one Leiff action reads (families with many members become a select menu)."""
    words = action.split()
    verb = words[0] if words else action
    rest = words[1:]
    s = seat_names
    if verb == "leiff":
        return Choice(action, "Call Leiff!", STYLE.danger)
    if verb == "draw":
        return Choice(action, "Draw", STYLE.primary)
    if verb == "take":
        return Choice(action, "Take the discard", STYLE.primary)
    if verb == "discard":
        return Choice(action, "Discard it", STYLE.secondary)
    if verb == "decline":
        return Choice(action, "Skip the effect", STYLE.secondary)
    if verb == "next":
        return Choice(action, "Deal the next round", STYLE.primary)
    if verb == "immune":
        return Choice(action, "Become immune (Kellner)", STYLE.success)
    if verb == "swap" and rest:
        return Choice(action, f"Put it in slot {rest[0]}", STYLE.success, "swap", "Put it in slot…")
    if verb == "look" and rest:
        return Choice(
            action, f"Look at your slot {rest[0]}", STYLE.primary, "look", "Look at a slot…"
        )
    if verb == "peek" and rest:
        if "." in rest[0]:
            label = f"Look at {_seat_slot(rest[0], s)}"
        else:
            label = f"Look at your slot {rest[0]}"
        return Choice(action, label, STYLE.primary, "peek", "Look at a card…")
    if verb == "trade" and len(rest) == 2:
        label = f"Swap {_seat_slot(rest[0], s)} with {_seat_slot(rest[1], s)}"
        return Choice(action, label, STYLE.primary, "trade", "Swap two cards…")
    if verb == "slot" and rest[:1] == ["discard"] and len(rest) == 2:
        return Choice(
            action,
            f"Throw away your slot {rest[1]}",
            STYLE.primary,
            "slot discard",
            "Throw away a slot…",
        )
    if verb == "slot" and rest[:1] == ["give"] and len(rest) == 2:
        return Choice(
            action,
            f"{_seat(rest[1], s)} draws a card",
            STYLE.primary,
            "slot give",
            "Make a player draw…",
        )
    if verb == "rotate" and len(rest) == 2:
        return Choice(
            action,
            f"Turn {_seat(rest[0], s)}'s hand {rest[1]} step{'' if rest[1] == '1' else 's'} "
            "clockwise",
            STYLE.primary,
            "rotate",
            "Reorder a hand…",
        )
    if verb == "rule":
        return Choice(PROMPT + "rule", "Write the table rule…", STYLE.primary)
    if verb == "belle" and rest[:1] == ["link"]:
        return Choice(action, "Drink with your right neighbour", STYLE.primary)
    if verb == "belle" and rest[:1] == ["swap"]:
        return Choice(action, "Swap hands with your left neighbour", STYLE.primary)
    if verb == "belle" and rest[:1] == ["show"] and len(rest) == 2:
        return Choice(
            action,
            f"Show your slot {rest[1]} to everyone",
            STYLE.primary,
            "belle show",
            "Show a slot…",
        )
    if verb == "enchant" and rest:
        return Choice(
            action, f"Enchant {_seat(rest[0], s)}", STYLE.primary, "enchant", "Enchant a player…"
        )
    if verb == "spy" and rest:
        return Choice(
            action, f"Look at the Magier's slot {rest[0]}", STYLE.primary, "spy", "Spy on a slot…"
        )
    if verb == "give" and rest:
        return Choice(action, f"Give your slot {rest[0]}", STYLE.primary, "give", "Give a card…")
    if verb == "match" and rest:
        return Choice(
            action,
            f"Match your slot {rest[0]}",
            STYLE.secondary,
            "match",
            "Match one of your cards…",
        )
    if verb == "catch" and rest:
        return Choice(
            action,
            f"Catch {_seat_slot(rest[0], s)}",
            STYLE.secondary,
            "catch",
            "Catch someone's card…",
        )
    if verb == "penalty" and rest:
        return Choice(
            action,
            f"Penalty for {_seat(rest[0], s)}",
            STYLE.danger,
            "penalty",
            "Give a table-talk penalty…",
        )
    return Choice(action, action[:80], STYLE.secondary, verb, f"{verb}…")


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
