"""Rows's tutorial: its pages, in its own folder, found through its spec (``tutorial=``).

Its words are :class:`engine.phrases.Text` messages carrying their English: the catalogues
do not know a game registered at test time, so its pages read in English in every language
until a catalogue has them. The pages several games share (the pie rule, the practice game)
come from the catalogues and read in the reader's language.
"""

from __future__ import annotations

from engine.phrases import Text
from tutorial.boards import BoardExample, Placements, Plays, Position
from tutorial.common import pie_page, practice_page
from tutorial.pages import Page

GAME = "rows"

PAGES = (
    Page(
        Text("tutorial.rows.placing.title", "Placing a stone"),
        Text(
            "tutorial.rows.placing.body",
            "In {game}, red and blue take turns putting one stone on any empty point.",
        ),
        BoardExample(
            Position(GAME, "red: c3 / blue: d4", "red", size=4), (Placements(illegal=""),)
        ),
    ),
    Page(
        Text("tutorial.rows.row.title", "A row wins"),
        Text(
            "tutorial.rows.row.body",
            "Four stones of one colour in a straight row win the game: red plays d2 and wins.",
        ),
        BoardExample(
            Position(GAME, "red: a2 b2 c2 / blue: a1 c3 e4", "red", size=4), (Plays("d2"),)
        ),
    ),
    pie_page(GAME),
    practice_page(GAME),
)
