"""How the actions of a board match and of a challenge read on their buttons.

The service hands the bot canonical action strings; this module only decides how they look
(label — a message id, worded in the reader's language —, colour, order). It never decides
what is legal.
"""

from __future__ import annotations

from collections.abc import Sequence

import discord

from bot.common.components import Choice, ordered_choices
from bot.common.custom_ids import ACTIVITY
from i18n import N_

STYLE = discord.ButtonStyle
KEEP = "~keep"  # the pie rule's "keep": its button only explains that a move keeps

ACTIONS: dict[str, tuple[str, discord.ButtonStyle]] = {
    "swap": (N_("bot.board.button.swap"), STYLE.primary),
    "pass": (N_("bot.board.button.pass"), STYLE.secondary),
    "black": (N_("bot.board.button.black"), STYLE.secondary),
    "white": (N_("bot.board.button.white"), STYLE.secondary),
    "resign": (N_("bot.board.button.resign"), STYLE.danger),
    "abort": (N_("bot.board.button.abort"), STYLE.danger),
    "offer_draw": (N_("bot.board.button.offer_draw"), STYLE.secondary),
    "accept_draw": (N_("bot.board.button.accept_draw"), STYLE.success),
    "decline_draw": (N_("bot.board.button.decline_draw"), STYLE.secondary),
    "ask_takeback": (N_("bot.board.button.ask_takeback"), STYLE.secondary),
    "accept_takeback": (N_("bot.board.button.accept_takeback"), STYLE.success),
    "decline_takeback": (N_("bot.board.button.decline_takeback"), STYLE.secondary),
    "rematch": (N_("bot.board.button.rematch"), STYLE.primary),
    "review": (N_("bot.board.button.review"), STYLE.secondary),
    "accept": (N_("bot.challenge.button.accept"), STYLE.success),
    "decline": (N_("bot.challenge.button.decline"), STYLE.danger),
    "cancel": (N_("bot.challenge.button.cancel"), STYLE.secondary),
    KEEP: (N_("bot.board.button.keep"), STYLE.secondary),
    ACTIVITY: (N_("bot.board.button.activity"), STYLE.primary),
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
    "accept_takeback",
    "decline_takeback",
    "rematch",
    "ask_takeback",
    "review",
    "offer_draw",
    "resign",
    "abort",
    "cancel",
    ACTIVITY,
]


def board_choices(language: str, actions: Sequence[str]) -> list[Choice]:
    """Choices for board-match and challenge actions, in a stable, sensible order."""
    return ordered_choices(language, actions, ACTIONS, ORDER)
