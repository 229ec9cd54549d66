"""How the actions of a board match and of a challenge read on their buttons.

The service hands the bot canonical action strings; this module only decides how they look
(label, colour, order). It never decides what is legal.
"""

from __future__ import annotations

from collections.abc import Sequence

import discord

from bot.common.components import Choice, ordered_choices

STYLE = discord.ButtonStyle
KEEP = "~keep"  # the pie rule's "keep": its button only explains that a move keeps

ACTIONS: dict[str, tuple[str, discord.ButtonStyle]] = {
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
    KEEP: ("Keep colours", STYLE.secondary),
}

# Order in which the actions appear on a message (most important first).
ORDER = [
    "accept",
    "decline",
    "swap",
    KEEP,
    "black",
    "white",
    "pass",
    "accept_draw",
    "decline_draw",
    "rematch",
    "offer_draw",
    "resign",
    "cancel",
]


def board_choices(actions: Sequence[str]) -> list[Choice]:
    """Choices for board-match and challenge actions, in a stable, sensible order."""
    return ordered_choices(actions, ACTIONS, ORDER)
