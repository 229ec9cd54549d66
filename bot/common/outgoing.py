"""One message to send or edit, and the small rules every message's text follows.

An :class:`Outgoing` is what a feature builds and :mod:`bot.delivery.delivery` sends: the
text, an optional picture, the choices that become buttons and menus (with the custom-id
scope, target and version they carry), the language it is written in (its menus'
placeholders follow it) and the users it may ping. Nothing else ever pings: the allowed
mentions list exactly ``pings``.

A message with a ``layout`` is sent as Components v2 (:mod:`bot.common.layout`): its words,
picture and controls are the blocks of the layout, and it carries no ``content`` (Discord
refuses both); ``content`` then only says in plain text what the blocks say.
"""

from __future__ import annotations

import dataclasses
import io
import re
from dataclasses import dataclass, field
from typing import Any

import discord

from bot.common.components import Choice, FixedComponents, components
from bot.common.custom_ids import BOARD
from bot.common.layout import Block, LayoutContext, layout_payload, texts_of
from i18n import DEFAULT_LANGUAGE
from matchcore.service.results import ChallengeInfo, MatchInfo, Update

MAX_TEXT = 2000  # Discord's limit for a message's text

# A match picture's file name: what it shows, the match and the version it was drawn for.
_PICTURE_NAME = re.compile(r"^([a-z]+)-(\d+)-v(\d+)\.png$")


def picture_name(kind: str, match_id: int, version: int) -> str:
    """The file name of a match's picture: ``board-12-v7.png``. Discord keeps it, so a
    message read back from a channel says which match and version it shows even when it
    carries no buttons (a board the bot is to answer): a start that finds it posted but
    not recorded does not post it again (:func:`bot.delivery.redelivery.recent_showing`)."""
    return f"{kind}-{match_id}-v{version}.png"


def version_named(filename: str, match_id: int) -> int | None:
    """The version of ``match_id`` a picture named by :func:`picture_name` shows, or None
    (another match's picture, or a name of another form)."""
    found = _PICTURE_NAME.match(filename)
    if found is None or int(found.group(2)) != match_id:
        return None
    return int(found.group(3))


@dataclass
class Outgoing:
    """One message to send or edit."""

    content: str
    image: bytes | None = None
    filename: str = "board.png"
    choices: list[Choice] = field(default_factory=list)
    scope: str = BOARD
    target: int = 0
    version: int = 0
    pings: tuple[int, ...] = ()
    language: str = DEFAULT_LANGUAGE
    # Components v2: the message as blocks (its text, picture and controls), or None for a
    # message of text with its picture and buttons under it
    layout: tuple[Block, ...] | None = None

    @property
    def is_v2(self) -> bool:
        return self.layout is not None

    def view(self) -> FixedComponents | None:
        """The message's buttons and menus (with a layout: all of the message), for
        discord.py's ``view`` argument."""
        if self.layout is not None:
            context = LayoutContext(
                self.scope,
                self.target,
                self.version,
                self.choices,
                self.filename if self.image is not None else None,
                self.language,
            )
            return FixedComponents(layout_payload(self.layout, context), v2=True)
        return components(
            self.scope, self.target, self.version, self.choices, language=self.language
        )

    def words(self) -> str:
        """What the message says, as text (a layout's text displays, else its content)."""
        view = self.view() if self.layout is not None else None
        if view is not None:
            return "\n".join(texts_of(view.rows))
        return self.content

    def allowed_mentions(self) -> discord.AllowedMentions:
        return discord.AllowedMentions(
            everyone=False,
            roles=False,
            replied_user=False,
            users=[discord.Object(user_id) for user_id in self.pings],
        )

    def file(self) -> discord.File | None:
        if self.image is None:
            return None
        return discord.File(io.BytesIO(self.image), filename=self.filename)

    def send_kwargs(self) -> dict[str, Any]:
        """Arguments for a new message (``send``, ``send_message``, ``followup.send``)."""
        kwargs: dict[str, Any] = {"allowed_mentions": self.allowed_mentions()}
        if self.layout is None:
            kwargs["content"] = self.content[:MAX_TEXT]
        view = self.view()
        if view is not None:
            kwargs["view"] = view
        file = self.file()
        if file is not None:
            kwargs["file"] = file
        return kwargs

    def edit_kwargs(self) -> dict[str, Any]:
        """Arguments for editing a message into this one (the old picture is replaced). A
        layout's edit sets the content to null, as Discord wants of a message becoming
        Components v2."""
        file = self.file()
        return {
            "content": None if self.layout is not None else self.content[:MAX_TEXT],
            "allowed_mentions": self.allowed_mentions(),
            "view": self.view(),
            "attachments": [file] if file is not None else [],
        }


def sentence(text: str) -> str:
    """Service texts start in lower case so they can be embedded; a message line starts upper."""
    text = text.strip()
    first_word = text.split(" ", 1)[0]
    if not text or any(ch.isdigit() or ch == "_" for ch in first_word):
        # a cell name ("c3 is taken") or a setting ("leiff_target must be …") keeps its case
        return text
    return text[:1].upper() + text[1:]


def full_sentence(text: str) -> str:
    """A refusal as a complete sentence: upper case first (see :func:`sentence`), and a full
    stop at the end unless it ends in one already (or in "?", "!", "…", a quote or a code
    span)."""
    text = sentence(text)
    if text and text[-1] not in ".?!…”`)":
        text += "."
    return text


def match_of(update: Update) -> MatchInfo:
    """The match an update is about, for the builders of match messages (which are only
    given updates that carry one)."""
    if update.match is None:
        raise ValueError(f"a {update.kind!r} update carries no match")
    return update.match


def challenge_of(update: Update) -> ChallengeInfo:
    """The challenge an update is about, for the challenge message's builder."""
    if update.challenge is None:
        raise ValueError(f"a {update.kind!r} update carries no challenge")
    return update.challenge


def only_for(update: Update, user_id: int) -> Update:
    """The update without anything addressed to other users (their hands, their news)."""
    return dataclasses.replace(
        update,
        events=tuple(e for e in update.events if e.to in (None, user_id)),
        notes=tuple(n for n in update.notes if n.to in (None, user_id)),
        pictures=tuple(p for p in update.pictures if p.for_user in (None, user_id)),
        buttons=tuple(b for b in update.buttons if b.for_user in (None, user_id)),
    )


def without_user(update: Update, user_id: int) -> Update:
    """The update without what is addressed to ``user_id`` alone (sent apart already)."""
    return dataclasses.replace(
        update,
        pictures=tuple(p for p in update.pictures if p.for_user != user_id),
        events=tuple(e for e in update.events if e.to != user_id),
        notes=tuple(n for n in update.notes if n.to != user_id),
        buttons=tuple(b for b in update.buttons if b.for_user != user_id),
    )
