"""The one custom-id format of every button and select the bot sends.

A custom id carries everything needed to handle a click without any memory of the message:
what it acts on (a board match, a Leiff match, a challenge or a tutorial page), that thing's id, the match
version the component was drawn for, and the action string the service understands. Because
the id says it all, one dynamic handler serves clicks on messages sent before a restart.

Format: ``lb|<scope>|<target id>|<version>|<action>`` (Discord allows 100 characters).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

PREFIX = "lb"
MAX_CUSTOM_ID = 100

BOARD = "b"  # a board-game match: target is the match id
LEIFF = "f"  # a Leiff match or lobby: target is the match id
CHALLENGE = "c"  # a challenge or seek: target is the challenge id
# a tutorial page: target is the page to show (from 1), version 0, action the game's name
# (or PRACTICE/OPEN followed by it); the id is all a click needs, also after a restart
TUTORIAL = "t"
# a page of a member's /history: target is the member, version the page, action the game
# (or ALL_GAMES); its menu's options open a replay (OPEN_REPLAY followed by the match)
HISTORY = "h"
# a replay's page: target is the match, version the move shown (0: the empty board), action
# what the button does (REPLAY_* below): nothing about the page is kept between clicks
REPLAY = "r"
# a review's page: target is the match id, version the page (0: the graph)
REVIEW = "v"
# a puzzle: target is the puzzle id, version 0, action what to do (open it)
PUZZLE = "z"
# a tournament's announcement: target is the tournament id, version 0, action join / leave
TOURNAMENT = "n"
# a member's /prefs: target is the member, version 0, action reset (asked, then confirmed)
PREFS = "p"
SCOPES = (BOARD, LEIFF, CHALLENGE, TUTORIAL, HISTORY, REPLAY, REVIEW, PUZZLE, TOURNAMENT, PREFS)

# Actions the bot itself defines (everything else is passed to the service unchanged).
SHOW_HAND = "~hand"  # the "Show my hand" fallback for a player whose DMs are closed
PICK = "~pick"  # a select menu: the chosen option's value is the action
PROMPT = "~prompt:"  # a button that opens a modal to complete an action (Klatschtante's rule)
# a modal's own id: the action it completes, the text typed into it following after a space
# (so a form opened before a restart is still handled by the next process)
FORM = "~form:"
CAPTURE_PREFIX = "~cap:"  # Lefe: choose which tree a placement captures
ADD_BOT = "~addbot"  # a Leiff lobby: the host seats a bot
REMOVE_BOT = "~rmbot"  # a Leiff lobby: the host removes the last bot seat
OPEN = "~open:"  # /help: open a game's tutorial in a message of its own
PRACTICE = "~practice:"  # a tutorial's last page: a practice game against the bot
TRADE_FIRST = "~trade:"  # Leiff, a 9 at a big table: the first card of a swap is picked
TRADE_BACK = "~back"  # Leiff: from the second pick of a swap back to the whole hand
LEAVE_TABLE = "~quit"  # Leiff: a player asks to leave a running table (asked to confirm)
LEAVE_CONFIRMED = "~quit!"  # Leiff: the player confirmed: a bot plays their hand from now on
# Leiff, a finished table: open the table that plays it again, or sit down at it
PLAY_AGAIN = "~again"
# A board match: the player confirmed resigning, or aborting before their first move (the
# version the question was asked at travels with it: a board that moved on refuses it),
# or answered No (the question goes, the match goes on)
RESIGN_CONFIRMED = "~resign!"
ABORT_CONFIRMED = "~abort!"
PLAY_ON = "~playon"
# /history and replays (scopes HISTORY and REPLAY)
ALL_GAMES = "*"
OPEN_REPLAY = "~replay:"
REPLAY_FIRST = "~first"
REPLAY_PREVIOUS = "~prev"
REPLAY_NEXT = "~next"
REPLAY_LAST = "~last"
REPLAY_GIF = "~gif"
REPLAY_EXPORT = "~export"
REPLAY_PRACTICE = "~from"
# "Play on the board": launches the Activity (the web table inside Discord) in the channel
ACTIVITY = "~activity"

_HEAD = r"^lb\|(?P<scope>[bfcthrvznp])\|(?P<target>\d{1,20})\|(?P<version>\d{1,9})\|"
# Any of our ids (for decoding).
TEMPLATE = re.compile(_HEAD + r"(?P<action>.{1,80})$", re.DOTALL)
# Buttons and select menus get distinct templates because discord.py keeps one dynamic item
# class per template.
BUTTON_TEMPLATE = re.compile(_HEAD + r"(?P<action>(?!~pick).{1,80})$", re.DOTALL)
SELECT_TEMPLATE = re.compile(_HEAD + r"(?P<action>~pick.{0,75})$", re.DOTALL)


@dataclass(frozen=True)
class ComponentId:
    """A decoded custom id."""

    scope: str
    target: int
    version: int
    action: str

    def encode(self) -> str:
        text = f"{PREFIX}|{self.scope}|{self.target}|{self.version}|{self.action}"
        if self.scope not in SCOPES:
            raise ValueError(f"unknown scope {self.scope!r}")
        if len(text) > MAX_CUSTOM_ID or not TEMPLATE.match(text):
            raise ValueError(f"action {self.action!r} does not fit in a custom id")
        return text

    @classmethod
    def decode(cls, custom_id: str) -> ComponentId | None:
        """The parts of one of our custom ids, or None for anything else."""
        match = TEMPLATE.match(custom_id)
        if match is None:
            return None
        return cls(
            scope=match["scope"],
            target=int(match["target"]),
            version=int(match["version"]),
            action=match["action"],
        )


def make_id(scope: str, target: int, version: int, action: str) -> str:
    """Encode a custom id (raises ValueError if it would not fit)."""
    return ComponentId(scope, target, version, action).encode()
