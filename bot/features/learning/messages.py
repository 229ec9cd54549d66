"""The learning feature's messages: ``/help`` and one tutorial page, with their buttons.

Both are Components v2 (:mod:`bot.common.layout`): one box with a leaf-green accent.
``/help`` holds the introduction, a line per game with its **Learn** button beside it (a
section), the commands to start with and the rest; a tutorial page holds its title, its
words, its picture (a media gallery), its counter and its buttons.

Every button is one of the shared dynamic components (:mod:`bot.common.components`) with a
custom id of the tutorial scope: ``lb|t|<page>|0|<game>`` shows that page of the game's
tutorial, so a click on a page sent before a restart is served like any other. The words
come from :mod:`tutorial` and the catalogues, in the reader's language.
"""

from __future__ import annotations

import io
from dataclasses import dataclass
from typing import Any

import discord

from bot.common.components import Choice, FixedComponents, button_dict
from bot.common.custom_ids import OPEN, PRACTICE, TUTORIAL, ComponentId
from bot.common.layout import (
    Box,
    Divider,
    LayoutContext,
    Picture,
    Raw,
    Section,
    Text,
    layout_payload,
)
from engine import get_spec
from i18n import phrase, translate
from tutorial import HelpText, TutorialPage

ACCENT = 0x3E7D45  # a leaf green, the same on every page and on /help


def game_title(game: str, language: str) -> str:
    return phrase(language, get_spec(game).title())


def help_message(text: HelpText, language: str) -> dict[str, Any]:
    """``/help`` in one box: the introduction, each game in a line with its **Learn**
    button beside it, the commands to start with, then how matches end, where the rest is
    and how ratings read."""
    learn = dict(text.buttons)
    games: list[Text | Section] = []
    for game, title, line in text.games:
        words = f"**{title}**: {line}"
        if game in learn:
            button = Choice(OPEN + game, learn[game], discord.ButtonStyle.primary)
            games.append(Section((words,), button))
        else:
            games.append(Text(words))
    commands = "\n".join([f"**{text.commands_heading}**", *(f"- {c}" for c in text.commands)])
    blocks = (
        Box(
            (
                Text(f"## {text.title}\n{text.intro}"),
                Divider(),
                Text(f"**{text.games_heading}**"),
                *games,
                Divider(),
                Text(commands),
                Text("\n\n".join((text.ending, text.more, text.ratings))),
            ),
            accent=ACCENT,
        ),
    )
    # every Learn button opens page 1 of its game: one target for all of them
    context = LayoutContext(TUTORIAL, 1, 0, language=language)
    return {"view": FixedComponents(layout_payload(blocks, context), v2=True)}


def rules_url(docs_url: str | None, game: str) -> str | None:
    """Where the game's rules page is published (``docs/rules/<game>.md``), if anywhere."""
    if not docs_url:
        return None
    return f"{docs_url.rstrip('/')}/rules/{game}.md"


@dataclass(frozen=True)
class PageMessage:
    """One tutorial page as a message: one box of its title, words, picture, counter and
    buttons."""

    page: TutorialPage
    picture: bytes
    docs_url: str | None = None

    def file(self) -> discord.File:
        return discord.File(io.BytesIO(self.picture), filename=self.page.filename)

    def buttons(self) -> list[dict[str, Any]]:
        """The page's rows: Previous and Next, then the practice game and the rules page."""
        page, language = self.page, self.page.language
        # Previous and Next name the page they lead to (page 0 and count + 1 are never
        # clickable: those buttons are disabled), so the two ids always differ.
        turn = [
            button_dict(
                ComponentId(TUTORIAL, page.number - 1, 0, page.game),
                translate(language, "bot.learning.previous"),
                discord.ButtonStyle.secondary,
                page.number == 1,
            ),
            button_dict(
                ComponentId(TUTORIAL, page.number + 1, 0, page.game),
                translate(language, "bot.learning.next"),
                discord.ButtonStyle.primary,
                page.number == page.count,
            ),
        ]
        more = []
        if page.practice and page.practice_button:
            more.append(
                button_dict(
                    ComponentId(TUTORIAL, 0, 0, PRACTICE + page.game),
                    page.practice_button,
                    discord.ButtonStyle.success,
                    False,
                )
            )
        url = rules_url(self.docs_url, page.game)
        if url is not None:
            label = translate(language, "bot.learning.rules_page")
            more.append({"type": 2, "style": 5, "label": label[:80], "url": url})
        rows = [{"type": 1, "components": turn}]
        if more:
            rows.append({"type": 1, "components": more})
        return rows

    def components(self) -> FixedComponents:
        page = self.page
        blocks = (
            Box(
                (
                    Text(f"### {game_title(page.game, page.language)} · {page.title}"),
                    Text(page.body),
                    Picture(page.title),
                    Text(f"-# {page.counter}"),
                    Raw(tuple(self.buttons())),
                ),
                accent=ACCENT,
            ),
        )
        context = LayoutContext(TUTORIAL, page.number, 0, filename=page.filename)
        return FixedComponents(layout_payload(blocks, context), v2=True)

    def send_kwargs(self) -> dict[str, Any]:
        return {"file": self.file(), "view": self.components()}

    def edit_kwargs(self) -> dict[str, Any]:
        """The clicked page turned into this one (its picture replaced; a page sent as an
        embed before Components v2 loses its content and embed, as Discord wants)."""
        return {
            "content": None,
            "embed": None,
            "attachments": [self.file()],
            "view": self.components(),
        }
