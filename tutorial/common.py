"""Pages several games share: the board of the cell games, the pie rule, the practice game."""

from __future__ import annotations

from i18n import N_
from tutorial.boards import BoardExample, Neighbours, Offers, Placements, Position
from tutorial.pages import Page


def board_page(game: str) -> Page:
    """The hexagon board of cells and how cells are named (Lefe, Dalen, Lublache)."""
    return Page(
        N_("tutorial.common.board.title"),
        N_("tutorial.common.board.body"),
        BoardExample(
            Position(game),
            (Neighbours("e5", of="d4 d5 e4 e6 f4 f5"),),
            caption=N_("tutorial.caption.neighbours"),
        ),
    )


def pie_page(game: str) -> Page:
    """The pie rule: the second player may take over the first stone's colour."""
    return Page(
        N_("tutorial.common.pie.title"),
        N_("tutorial.common.pie.body"),
        BoardExample(
            Position(game, moves="e5"),
            (Offers("swap"),),
            caption=N_("tutorial.caption.pie"),
        ),
    )


def practice_page(game: str) -> Page:
    """The last page of a board game: a practice game against the bot, with move hints."""
    return Page(
        N_("tutorial.common.practice.title"),
        N_("tutorial.common.practice.body"),
        BoardExample(Position(game), (Placements(illegal=""),)),
        practice=True,
    )
