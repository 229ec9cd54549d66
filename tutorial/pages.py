"""What a tutorial page is: a title, a body and an example, all as data.

The words are message ids (``tutorial.<game>.<page>.title`` / ``.body``, or a
``tutorial.common.*`` page several games share), translated through the catalogues; the
example is a real engine position (:mod:`tutorial.boards`) or Leiff state
(:mod:`tutorial.cards`) that draws the page's picture and checks itself against the engine.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Protocol

from PIL import Image


class Example(Protocol):
    """A page's example: it draws the picture and says where the engine disagrees."""

    def problems(self) -> list[str]: ...
    def named_cells(self) -> set[str]: ...
    def picture(self, language: str, theme: str) -> Image.Image: ...


@dataclass(frozen=True)
class Page:
    """One rule of one game: its title and body (message ids), its example, and whether it
    is the page that offers a practice game against the bot at ``practice_level``."""

    title: str
    body: str
    example: Example
    practice: bool = False

    @property
    def key(self) -> str:
        """The page's stable name ("placement"), from its title's id: file names use it."""
        return self.title.split(".")[-2]


PRACTICE_LEVEL = "easy"  # the practice game's bot level (the last page of every tutorial)
