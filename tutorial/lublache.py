"""The Lublache tutorial: loops, control and ownership, where a stone may go, flips,
protected stones, removals, the closing that is not allowed, the pie rule and the end (a
real finished game)."""

from __future__ import annotations

from i18n import N_
from tutorial.boards import (
    BoardExample,
    Ends,
    Loops,
    Placements,
    Plays,
    Position,
    Refused,
)
from tutorial.common import board_page, pie_page, practice_page
from tutorial.pages import Page

GAME = "lublache"
# the six cells round d4, in the engine's walking order: every example closes this ring
RING = "c3 c4 d5 e5 e4 d3"
NEAR_RING = "b2 b3 b4 c2 c5 d2 d4 d6 e3 e6 f3 f4 f5"  # the empty cells touching it (and d4)

PAGES = (
    board_page(GAME),
    Page(
        N_("tutorial.lublache.loops.title"),
        N_("tutorial.lublache.loops.body"),
        BoardExample(
            Position(GAME, "black: c3 c4 d5 e4 / white: e5 d3 h3 h4 g5 f5 f4 g3", "black"),
            (Loops(((RING, None), ("f4 f5 g5 h4 h3 g3", "white"))),),
            caption=N_("tutorial.lublache.loops.caption"),
        ),
    ),
    Page(
        N_("tutorial.lublache.placement.title"),
        N_("tutorial.lublache.placement.body"),
        BoardExample(
            Position(GAME, f"black: {RING} / white: g3 g4 b6", "black"),
            (
                Placements(illegal=NEAR_RING),
                Refused("f4", "lublache_own_loop", loop=RING, stones="e4 e5"),
            ),
        ),
    ),
    Page(
        N_("tutorial.lublache.flip.title"),
        N_("tutorial.lublache.flip.body"),
        BoardExample(
            Position(GAME, "black: c3 c4 d5 / white: e5 e4 g4 h2", "black"),
            (Plays("d3", flipped="e4 e5", closes=(RING,)),),
            focus="c3 c4 d3 d4 d5 e4 e5",
        ),
    ),
    Page(
        N_("tutorial.lublache.protected.title"),
        N_("tutorial.lublache.protected.body"),
        BoardExample(
            Position(GAME, "black: e5 e4 h2 / white: c3 b4 b5 c6 d6 c4 d5 g3", "black"),
            (
                Loops((("b4 b5 c6 d6 d5 c4", "white"),)),
                Plays("d3", flipped="c3", closes=(RING,)),
            ),
            focus="b4 b5 c5 c6 d6 c3 c4 d3 d4 d5 e4 e5",
        ),
    ),
    Page(
        N_("tutorial.lublache.removal.title"),
        N_("tutorial.lublache.removal.body"),
        BoardExample(
            Position(GAME, "black: c3 c4 d5 e5 e4 d4 f4 / white: g3 f2 b5", "black"),
            (Plays("d3", removed="d4 f4", closes=(RING,)),),
            focus="c3 c4 d3 d4 d5 e4 e5 f4",
        ),
    ),
    Page(
        N_("tutorial.lublache.enemy.title"),
        N_("tutorial.lublache.enemy.body"),
        BoardExample(
            Position(GAME, "black: g3 g4 b6 / white: c3 c4 d5 e5 e4", "black"),
            (Refused("d3", "lublache_enemy_loop", loop=RING),),
            caption=N_("tutorial.lublache.enemy.caption"),
        ),
    ),
    pie_page(GAME),
    Page(
        N_("tutorial.lublache.end.title"),
        N_("tutorial.lublache.end.body"),
        # the end of a real game (seeded random play): after white's c7, black is stuck
        BoardExample(
            Position(
                GAME,
                "black: a3 a4 b3 b5 c1 c2 c4 c5 d1 d3 d4 d6 e1 e3 e4 e7 e8 f1 f2 f5 f6 f8 g1 g4"
                " g6 g7 h1 h4 i1 i2 i3 i5 / white: a1 e9 g3 i4",
                "white",
                moves="c7",
            ),
            (Ends("black", "lublache_stuck_wins"),),
        ),
    ),
    practice_page(GAME),
)
