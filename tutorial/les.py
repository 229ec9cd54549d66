"""The Les tutorial: points and lines, the set-up and the choice of side, the two stones of a
turn, holes, and the end and score of a real game."""

from __future__ import annotations

from i18n import N_
from tutorial.boards import (
    BoardExample,
    Ends,
    Holes,
    Neighbours,
    Offers,
    Placements,
    Plays,
    Position,
    Scores,
    Seconds,
)
from tutorial.common import practice_page
from tutorial.pages import Page

GAME = "les"
SET_UP = "e5 e6 c3"  # black, white next to it, the second black: the fourth stone is next

# The end of a real game (seeded random play): black's h1, and white has no legal first
# placement. Seat B chose black.
_LAST_MOVE = Position(
    GAME,
    "black: a2 a3 b4 b6 c5 d5 d6 d7 e8 e9 f4 f8 g2 g3 g6 h3 h4 h5 h6 i1"
    " / white: a1 b2 b3 c4 d2 d4 e1 e4 e5 e6 e7 f2 f3 f5 f6 f7 g1 g4 g5 g7",
    "black",
    moves="h1",
)
_HOLES = (
    ("black", "a4 a5 b5 c6 c7 d8"),
    ("black", "h2 i2 i3 i4 i5"),
    ("white", "b1 c1 c2 c3 d1 d3 e2 e3 f1"),
)

PAGES = (
    Page(
        N_("tutorial.les.board.title"),
        N_("tutorial.les.board.body"),
        BoardExample(
            Position(GAME),
            (Neighbours("e5", of="d4 d5 e4 e6 f4 f5"),),
            caption=N_("tutorial.caption.neighbours"),
        ),
    ),
    Page(
        N_("tutorial.les.setup.title"),
        N_("tutorial.les.setup.body"),
        BoardExample(
            Position(GAME, moves=SET_UP),
            (Placements(legal="a1 a2 a3 b1 b4 c1 c5 d2 d5 e3 e4"),),
            caption=N_("tutorial.les.setup.caption"),
        ),
    ),
    Page(
        N_("tutorial.les.choose.title"),
        N_("tutorial.les.choose.body"),
        BoardExample(
            Position(GAME, moves=f"{SET_UP} e3"),
            (Offers("black white", only=True),),
            caption=N_("tutorial.les.choose.caption"),
        ),
    ),
    Page(
        N_("tutorial.les.first.title"),
        N_("tutorial.les.first.body"),
        BoardExample(
            Position(GAME, moves=f"{SET_UP} e3 white"),
            (Placements(legal="d3 d5 e4 f5"),),
        ),
    ),
    Page(
        N_("tutorial.les.second.title"),
        N_("tutorial.les.second.body"),
        # the middle of a real game: only f7 and g7 have no stone next to them
        BoardExample(
            Position(
                GAME,
                "black: a2 a3 b4 b6 d7 e9 f4 g3 h3 h4 h5 i1 / white: b2 b3 c4 d2 e1 e5 f2 f5 g4 g5",
                "white",
            ),
            (
                Seconds("e4", points="f7 g7"),
                Offers("g6 e4+f7 e4+g7", absent="e4 g6+f7"),
                Plays("e4+f7"),
            ),
            focus="e4 e5 f5 f6 f7 g6 g7",
        ),
    ),
    Page(
        N_("tutorial.les.holes.title"),
        N_("tutorial.les.holes.body"),
        BoardExample(_LAST_MOVE, (Holes(_HOLES), Scores({"black": 2, "white": 1}))),
    ),
    Page(
        N_("tutorial.les.end.title"),
        N_("tutorial.les.end.body"),
        BoardExample(_LAST_MOVE, (Ends("black", "les_win_more_holes"),)),
    ),
    practice_page(GAME),
)
