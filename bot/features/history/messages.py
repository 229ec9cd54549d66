"""The history feature's messages: a page of ``/history`` and a page of a replay.

Both are private answers laid out as one Components v2 box (:mod:`bot.common.layout`), and
every control carries what its click needs in its custom id, so pages keep turning after a
restart: a history page's buttons ``lb|h|<member>|<page>|<game or *>``, its menu's options
``~replay:<match>``; a replay page's ``lb|r|<match>|<move>|<what>`` (the move shown after
the click, from 0, the empty board).
"""

from __future__ import annotations

import io
from abc import ABC, abstractmethod
from dataclasses import dataclass
from typing import Any

import discord

from bot.common.components import Choice, FixedComponents, button_dict, select_dict
from bot.common.custom_ids import (
    ALL_GAMES,
    HISTORY,
    OPEN_REPLAY,
    PICK,
    REPLAY,
    REPLAY_EXPORT,
    REPLAY_FIRST,
    REPLAY_GIF,
    REPLAY_LAST,
    REPLAY_NEXT,
    REPLAY_PRACTICE,
    REPLAY_PREVIOUS,
    ComponentId,
)
from bot.common.layout import Box, LayoutContext, Picture, Raw, Text, layout_payload
from i18n import N_, translate

ACCENT = 0x5B6B8C  # a slate blue: looking back, not a match in play
EXPORT_SHOWN = 1800  # a record up to this long is shown in the answer too, not only as a file
MOVES_SHOWN = 40  # moves of the list around the one shown (a long Les game has 150)


@dataclass(frozen=True)
class HistoryLine:
    """One finished match as a line of the page, and as an option of its menu (None: no
    replay)."""

    text: str
    option: str | None
    match_id: int


@dataclass(frozen=True)
class HistoryMessage:
    """A page of a member's history."""

    language: str
    title: str
    lines: tuple[HistoryLine, ...]
    member_id: int
    game: str | None
    page: int
    pages: int
    total: int

    def components(self) -> FixedComponents:
        language = self.language
        action = self.game or ALL_GAMES
        texts = [f"### {self.title}"]
        if self.lines:
            texts.append("\n".join(line.text for line in self.lines))
            texts.append(
                "-# "
                + translate(
                    language,
                    "bot.history.counter",
                    page=self.page + 1,
                    pages=self.pages,
                    total=self.total,
                )
            )
        else:
            texts.append(translate(language, "bot.history.none"))
        rows: list[dict[str, Any]] = []
        if self.pages > 1:
            turn = [
                button_dict(
                    ComponentId(HISTORY, self.member_id, max(self.page - 1, 0), action),
                    translate(language, "bot.history.newer"),
                    discord.ButtonStyle.secondary,
                    self.page == 0,
                ),
                button_dict(
                    ComponentId(HISTORY, self.member_id, self.page + 1, action),
                    translate(language, "bot.history.older"),
                    discord.ButtonStyle.primary,
                    self.page + 1 >= self.pages,
                ),
            ]
            rows.append({"type": 1, "components": turn})
        options = [
            Choice(f"{OPEN_REPLAY}{line.match_id}", line.option)
            for line in self.lines
            if line.option is not None
        ]
        if options:
            menu = select_dict(
                ComponentId(HISTORY, self.member_id, self.page, PICK),
                options,
                translate(language, "bot.history.open_replay"),
                False,
            )
            rows.append({"type": 1, "components": [menu]})
        blocks = (Box((*(Text(t) for t in texts), Raw(tuple(rows))), accent=ACCENT),)
        context = LayoutContext(HISTORY, self.member_id, self.page, language=language)
        return FixedComponents(layout_payload(blocks, context), v2=True)

    def send_kwargs(self) -> dict[str, Any]:
        return {"view": self.components()}

    def edit_kwargs(self) -> dict[str, Any]:
        return {"content": None, "embed": None, "attachments": [], "view": self.components()}


class PicturePage(ABC):
    """A replay page: one picture and its controls, sent as a new message or put in place
    of the page before (a subclass gives ``picture``, ``filename`` and ``components``)."""

    picture: bytes

    @property
    @abstractmethod
    def filename(self) -> str:
        """The attachment's name."""

    @abstractmethod
    def components(self) -> FixedComponents:
        """The page's buttons and menus."""

    def file(self) -> discord.File:
        return discord.File(io.BytesIO(self.picture), filename=self.filename)

    def send_kwargs(self) -> dict[str, Any]:
        return {"file": self.file(), "view": self.components()}

    def edit_kwargs(self) -> dict[str, Any]:
        return {
            "content": None,
            "embed": None,
            "attachments": [self.file()],
            "view": self.components(),
        }


@dataclass(frozen=True)
class ReplayMessage(PicturePage):
    """One position of a finished board match: its title, the picture, the move played to
    reach it with the moves around it, and the controls."""

    language: str
    match_id: int
    title: str
    moves: tuple[str, ...]
    ply: int  # the position after this many moves
    picture: bytes
    result: str  # the result in words, shown on the last page

    @property
    def filename(self) -> str:
        return f"replay-{self.match_id}-{self.ply}.png"

    def move_list(self) -> str:
        """The moves around the one shown, numbered, the last one played in bold."""
        if not self.moves:
            return ""
        start = max(0, min(self.ply - MOVES_SHOWN // 2, len(self.moves) - MOVES_SHOWN))
        end = min(len(self.moves), start + MOVES_SHOWN)
        parts = []
        for number in range(start + 1, end + 1):
            text = f"{number}. {self.moves[number - 1]}"
            parts.append(f"**{text}**" if number == self.ply else text)
        before = "… " if start > 0 else ""
        after = " …" if end < len(self.moves) else ""
        return before + " ".join(parts) + after

    def components(self) -> FixedComponents:
        language, ply, last = self.language, self.ply, len(self.moves)
        if ply == 0:
            where = translate(language, "bot.replay.start", count=last)
        else:
            where = translate(
                language, "bot.replay.position", ply=ply, count=last, move=self.moves[ply - 1]
            )
        texts = [f"### {self.title}", where]
        if ply == last and self.result:
            texts.append(self.result)
        listed = self.move_list()
        if listed:
            texts.append("-# " + listed)

        return replay_page(language, self.match_id, ply, last, texts, self.filename, practice=True)


def replay_page(
    language: str,
    match_id: int,
    at: int,
    last: int,
    texts: list[str],
    filename: str,
    *,
    practice: bool,
) -> FixedComponents:
    """A replay's page ``at`` of ``0..last`` (a board's move, a table's round): its ``texts``
    (the title, then the line that describes the picture), the picture, and two rows of
    buttons: the steps, then the GIF and the record (and, on a board, practice from here)."""

    def button(action: str, target: int, label: str, off: bool, style: Any) -> dict[str, Any]:
        return button_dict(
            ComponentId(REPLAY, match_id, target, action), translate(language, label), style, off
        )

    grey, blue = discord.ButtonStyle.secondary, discord.ButtonStyle.primary
    steps = [
        button(REPLAY_FIRST, 0, N_("bot.replay.first"), at == 0, grey),
        button(REPLAY_PREVIOUS, max(at - 1, 0), N_("bot.replay.previous"), at == 0, grey),
        button(REPLAY_NEXT, min(at + 1, last), N_("bot.replay.next"), at >= last, blue),
        button(REPLAY_LAST, last, N_("bot.replay.last"), at >= last, grey),
    ]
    more = [
        button(REPLAY_GIF, at, N_("bot.replay.gif"), False, grey),
        button(REPLAY_EXPORT, at, N_("bot.replay.export"), False, grey),
    ]
    if practice:
        success = discord.ButtonStyle.success
        more.append(button(REPLAY_PRACTICE, at, N_("bot.replay.practice"), False, success))
    rows = ({"type": 1, "components": steps}, {"type": 1, "components": more})
    blocks = (
        Box(
            (
                *(Text(t) for t in texts[:2]),
                Picture(texts[1]),
                *(Text(t) for t in texts[2:]),
                Raw(rows),
            ),
            accent=ACCENT,
        ),
    )
    context = LayoutContext(REPLAY, match_id, at, filename=filename)
    return FixedComponents(layout_payload(blocks, context), v2=True)
