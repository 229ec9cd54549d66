"""The Lefe tutorial: trees and leaves, where a stone may go, leaf gain and capture, the pie
rule, the end and the score (a real finished game)."""

from __future__ import annotations

from i18n import N_
from tutorial.boards import (
    BoardExample,
    Ends,
    Offers,
    Placements,
    Plays,
    Position,
    Refused,
    Scores,
    Trees,
)
from tutorial.common import board_page, pie_page, practice_page
from tutorial.pages import Page

GAME = "lefe"

# The end of a real game (seeded random play on the 5-board): dark's f8 leaves dark itself
# without a legal placement, and the game is scored at once.
_LAST_MOVE = Position(
    GAME,
    "dark: a5 b1 b2 b3 b4 b5 d1 d2 d3 d6 d7 d8 e4 e5 e6 f2 f3 f6 g3 g4 g5 h1 h2 h5 i2 i5"
    " / light: a1 a2 c3 e1 e9 f1 f7 g1 g7 i3",
    to_move="dark",
    moves="f8",
)

PAGES = (
    board_page(GAME),
    Page(
        N_("tutorial.lefe.trees.title"),
        N_("tutorial.lefe.trees.body"),
        BoardExample(
            Position(GAME, "dark: c3 d4 d5 e4 h2 / light: b5 f5 g5 g6 f7 e7 e6", "dark"),
            (
                Trees(
                    leaves="c3 d5 e4 h2 b5",
                    counts={"dark": (3, 1), "light": (1, 0)},
                ),
            ),
            caption=N_("tutorial.caption.leaves"),
        ),
    ),
    Page(
        N_("tutorial.lefe.placement.title"),
        N_("tutorial.lefe.placement.body"),
        BoardExample(
            Position(GAME, "dark: c3 c4 g3 f5 e4 / light: e7 e8 h4", "dark"),
            (
                Placements(illegal="b3 d4"),
                Refused("b3", "lefe_touching_pair", stones="c3 c4"),
                Refused("d4", "lefe_touching_pair", stones="c3 c4"),
            ),
        ),
    ),
    Page(
        N_("tutorial.lefe.gain.title"),
        N_("tutorial.lefe.gain.body"),
        BoardExample(
            Position(GAME, "dark: c3 d4 e4", "dark"),
            (
                Trees(leaves="c3 e4", counts={"dark": (2,)}),
                Plays("d5", leaves_after="c3 d5 e4"),
            ),
        ),
    ),
    Page(
        N_("tutorial.lefe.capture.title"),
        N_("tutorial.lefe.capture.body"),
        BoardExample(
            Position(GAME, "dark: c3 d4 e4 / light: c6 d6 e3 f3 f4 g2", "dark"),
            (
                Offers("d5xc6", absent="d5 d5xe3"),
                Plays("d5xc6", captured="c6 d6"),
            ),
            focus="c3 d4 e4 d5 c6 d6 e3 f3 f4 g2",
        ),
    ),
    pie_page(GAME),
    Page(
        N_("tutorial.lefe.end.title"),
        N_("tutorial.lefe.end.body"),
        BoardExample(_LAST_MOVE, (Ends("dark", "lefe_win_stuck"),)),
    ),
    Page(
        N_("tutorial.lefe.score.title"),
        N_("tutorial.lefe.score.body"),
        BoardExample(
            _LAST_MOVE,
            (
                Trees(
                    leaves="a1 a2 a5 b1 c3 d1 d8 e1 e9 f2 f7 f8 g1 g7 h1 i2 i3 i5",
                    counts={"dark": (6, 2, 1), "light": (2, 2, 2, 1, 1, 1)},
                ),
                Scores({"dark": 4, "light": 2}),
            ),
        ),
    ),
    practice_page(GAME),
)
