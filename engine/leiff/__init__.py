"""Leiff, the card game: rules object, immutable states, views, events and a random player.

``get_game("leiff")`` returns :class:`Leiff`. The design for the rest of the bot, and the
choices the engine makes where the rules are silent, are in ``docs/leiff-engine.md``; the
rules for players in ``docs/rules/leiff.md``.
"""

from __future__ import annotations

from engine.leiff.actions import CALL_LEIFF, Action, parse_action
from engine.leiff.cards import DISPLAY_NAMES, Deck, card_value, display_name, load_default_deck
from engine.leiff.events import render_text
from engine.leiff.options import LeiffOptions
from engine.leiff.randomplayer import random_action
from engine.leiff.state import Leiff, LeiffState
from engine.leiff.table import Outcome

__all__ = [
    "CALL_LEIFF",
    "DISPLAY_NAMES",
    "Action",
    "Deck",
    "Leiff",
    "LeiffOptions",
    "LeiffState",
    "Outcome",
    "card_value",
    "display_name",
    "load_default_deck",
    "parse_action",
    "random_action",
    "render_text",
]
