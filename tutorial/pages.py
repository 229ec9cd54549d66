"""What a tutorial page is: a title, a body and an example, all as data.

The words are message ids (``tutorial.<game>.<page>.title`` / ``.body``, or a
``tutorial.common.*`` page several games share), translated through the catalogues, or,
for a game whose words are not in the catalogues yet (one registered from a folder of its
own), :class:`engine.phrases.Text` messages that carry their English; the
example is a real engine position (:mod:`tutorial.boards`) or Leiff state
(:mod:`tutorial.cards`) that draws the page's picture and checks itself against the engine.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Protocol

from PIL import Image

from engine.phrases import Text
from i18n import phrase, translate


class Example(Protocol):
    """A page's example: it draws the picture and says where the engine disagrees."""

    def problems(self) -> list[str]: ...
    def named_cells(self) -> set[str]: ...
    def picture(self, language: str, theme: str) -> Image.Image: ...


@dataclass(frozen=True)
class Page:
    """One rule of one game: its title and body (message ids), its example, and whether it
    is the page that offers a practice game against the bot at ``practice_level``."""

    title: str | Text
    body: str | Text
    example: Example
    practice: bool = False

    @property
    def key(self) -> str:
        """The page's stable name ("placement"), from its title's id: file names use it."""
        code = self.title.code if isinstance(self.title, Text) else self.title
        return code.split(".")[-2]


def words(language: str, message: str | Text, **params: Any) -> str:
    """A page's title or body in ``language``: a message id from the catalogues, or a
    :class:`~engine.phrases.Text` (its English while no catalogue has it)."""
    if isinstance(message, Text):
        return phrase(language, message(**params))
    return translate(language, message, **params)


PRACTICE_LEVEL = "easy"  # the practice game's bot level (the last page of every tutorial)
