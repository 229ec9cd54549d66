"""The learning feature's messages: ``/help`` and one tutorial page, with their buttons.

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

from bot.common.components import ActionButton
from bot.common.custom_ids import OPEN, PRACTICE, TUTORIAL, ComponentId
from engine import get_spec
from i18n import phrase, translate
from tutorial import HelpText, TutorialPage

EMBED_COLOUR = discord.Colour(0x3E7D45)  # a leaf green, the same on every page


def game_title(game: str, language: str) -> str:
    return phrase(language, get_spec(game).title())


def help_message(text: HelpText) -> dict[str, Any]:
    """``/help``: the text as an embed and one button per game's tutorial."""
    embed = discord.Embed(title=text.title, description=text.markdown(), colour=EMBED_COLOUR)
    view = discord.ui.View(timeout=None)
    for game, label in text.buttons:
        view.add_item(
            ActionButton(
                ComponentId(TUTORIAL, 1, 0, OPEN + game),
                label=label,
                style=discord.ButtonStyle.primary,
            )
        )
    return {"embed": embed, "view": view}


def rules_url(docs_url: str | None, game: str) -> str | None:
    """Where the game's rules page is published (``docs/rules/<game>.md``), if anywhere."""
    if not docs_url:
        return None
    return f"{docs_url.rstrip('/')}/rules/{game}.md"


@dataclass(frozen=True)
class PageMessage:
    """One tutorial page as a message: embed, picture and buttons."""

    page: TutorialPage
    picture: bytes
    docs_url: str | None = None

    def embed(self) -> discord.Embed:
        page = self.page
        embed = discord.Embed(
            title=f"{game_title(page.game, page.language)} · {page.title}",
            description=page.body,
            colour=EMBED_COLOUR,
        )
        embed.set_image(url=f"attachment://{page.filename}")
        embed.set_footer(text=page.counter)
        return embed

    def file(self) -> discord.File:
        return discord.File(io.BytesIO(self.picture), filename=self.page.filename)

    def view(self) -> discord.ui.View:
        page, language = self.page, self.page.language
        view = discord.ui.View(timeout=None)
        # Previous and Next name the page they lead to (page 0 and count + 1 are never
        # clickable: those buttons are disabled), so the two ids always differ.
        view.add_item(
            ActionButton(
                ComponentId(TUTORIAL, page.number - 1, 0, page.game),
                label=translate(language, "bot.learning.previous"),
                disabled=page.number == 1,
                row=0,
            )
        )
        view.add_item(
            ActionButton(
                ComponentId(TUTORIAL, page.number + 1, 0, page.game),
                label=translate(language, "bot.learning.next"),
                style=discord.ButtonStyle.primary,
                disabled=page.number == page.count,
                row=0,
            )
        )
        if page.practice and page.practice_button:
            view.add_item(
                ActionButton(
                    ComponentId(TUTORIAL, 0, 0, PRACTICE + page.game),
                    label=page.practice_button,
                    style=discord.ButtonStyle.success,
                    row=1,
                )
            )
        url = rules_url(self.docs_url, page.game)
        if url is not None:
            view.add_item(
                discord.ui.Button(
                    label=translate(language, "bot.learning.rules_page"),
                    style=discord.ButtonStyle.link,
                    url=url,
                    row=1,
                )
            )
        return view

    def send_kwargs(self) -> dict[str, Any]:
        return {"embed": self.embed(), "file": self.file(), "view": self.view()}

    def edit_kwargs(self) -> dict[str, Any]:
        """The clicked page turned into this one (its picture replaced)."""
        return {
            "content": None,
            "embed": self.embed(),
            "attachments": [self.file()],
            "view": self.view(),
        }
