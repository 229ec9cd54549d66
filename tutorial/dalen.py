"""The Dalen tutorial: trees and leaves, where a stone may go, stagnant trees and flips,
passing, the pie rule, the end (a real finished game) and the variant."""

from __future__ import annotations

from i18n import N_
from tutorial.boards import (
    BoardExample,
    Empty,
    Ends,
    Offers,
    Placements,
    Plays,
    Position,
    Refused,
    Scores,
    Trees,
    WithOptions,
)
from tutorial.common import board_page, pie_page, practice_page
from tutorial.pages import Page

GAME = "dalen"

PAGES = (
    board_page(GAME),
    Page(
        N_("tutorial.dalen.trees.title"),
        N_("tutorial.dalen.trees.body"),
        BoardExample(
            Position(GAME, "dark: c3 d4 d5 e4 h6 / light: b5 f5 g5 g6", "dark"),
            (Trees(leaves="c3 d5 e4 f5 g6", counts={"dark": (3, 0), "light": (2, 0)}),),
            caption=N_("tutorial.caption.leaves"),
        ),
    ),
    Page(
        N_("tutorial.dalen.placement.title"),
        N_("tutorial.dalen.placement.body"),
        BoardExample(
            Position(GAME, "dark: c3 c4 e3 f5 f6 f7 / light: d6 e6 h3", "dark"),
            (
                Placements(illegal="b3 d4"),
                Refused("b3", "dalen_two_leaves", stones="c3 c4"),
                Refused("d4", "dalen_two_leaves", stones="c3 c4"),
            ),
        ),
    ),
    Page(
        N_("tutorial.dalen.stagnant.title"),
        N_("tutorial.dalen.stagnant.body"),
        BoardExample(
            Position(GAME, "dark: f3 f4 h3 i2", "dark"),
            (
                Refused("g3", "dalen_two_leaves", stones="f3 f4 h3"),
                Refused("g4", "dalen_two_leaves", stones="f4 h3"),
                Refused("h2", "dalen_two_leaves", stones="h3 i2"),
                Refused("i3", "dalen_two_leaves", stones="h3 i2"),
            ),
            focus="f3 f4 g3 g4 h2 h3 i2 i3",
            caption=N_("tutorial.dalen.stagnant.caption"),
        ),
    ),
    Page(
        N_("tutorial.dalen.flip.title"),
        N_("tutorial.dalen.flip.body"),
        BoardExample(
            Position(GAME, "dark: f3 f4 h3 / light: c7 h4 i1", "dark"),
            (Plays("i2", flipped="h4 i1"),),
            focus="f3 f4 g3 g4 h2 h3 h4 i1 i2 i3",
        ),
    ),
    Page(
        N_("tutorial.dalen.pass.title"),
        N_("tutorial.dalen.pass.body"),
        # a real game (seeded random play): dark has no legal placement left
        BoardExample(
            Position(
                GAME,
                "dark: a1 a2 a5 b1 b4 b6 c2 c5 c6 c7 d1 d2 d3 d5 d6 e1 e2 e3 e4 e5 e6 e8 e9 f1"
                " f2 f3 f4 f5 f6 f7 f8 g1 g2 g3 g4 g5 g7 h1 h2 i1"
                " / light: a3 b2 c1 c3 c4 d4 d7 d8 e7 g6 h3 h4 h5 h6 i2 i3 i4 i5",
                "dark",
            ),
            (
                Offers("pass", only=True),
                Refused("a4", "dalen_two_leaves", stones="a5 b4"),
                Refused("b3", "dalen_two_leaves", stones="a2 b4"),
                Refused("b5", "dalen_two_leaves", stones="a5 b4"),
            ),
            caption=N_("tutorial.caption.must_pass"),
        ),
    ),
    pie_page(GAME),
    Page(
        N_("tutorial.dalen.end.title"),
        N_("tutorial.dalen.end.body"),
        # the end of a real game: dark cannot place on e8 and passes, then light passes too
        BoardExample(
            Position(
                GAME,
                "dark: a1 b1 c1 c2 d1 d2 d3 d4 d5 d6 e1 e3 e4 e7 f1 f5 f8 g1 g2 g3 g4 g6 g7 h2"
                " h5 h6 i1 i2 i3 i4 i5"
                " / light: a2 a3 a4 a5 b2 b3 b4 b5 b6 c3 c4 c5 c6 c7 d7 d8 e2 e5 e6 e9 f2 f3 f4"
                " f6 f7 g5 h1 h3 h4",
                "dark",
                moves="pass pass",
            ),
            (Empty("e8"), Ends("dark", "dalen_win_passed"), Scores({"dark": 31, "light": 29})),
        ),
    ),
    Page(
        N_("tutorial.dalen.variant.title"),
        N_("tutorial.dalen.variant.body"),
        BoardExample(
            Position(GAME, "dark: d6 / light: e6 g3", "dark", options={"variant": True}),
            (Plays("e7", flipped="e6"), WithOptions({"variant": False}, Plays("e7"))),
            focus="c6 d6 e6 e7 d7 f6",
        ),
    ),
    practice_page(GAME),
)
