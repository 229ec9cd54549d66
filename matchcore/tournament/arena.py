"""Arena (lichess style): pair whoever is free at once, score with streaks.

Pairing: the free players (not playing, not paused, not withdrawn), strongest score first,
are paired with the nearest free score, never with the opponent of their last game while
anyone else is free; a lone player waits for the next to finish. When nobody is playing
and nobody else can be paired, no game will free anyone (two players alone, or the last
two of a thinned arena): those left waiting only for that rule meet their last opponent
again rather than stall until the end. Linear after the sort, so pairing 500 free players at the start takes
milliseconds.

The end: a game counts if it ended by the arena's end time; games under way then are
played out but count for nothing (lichess's rule; see ``progress.record``).

Scoring (in half points): a win 4, a draw 2, a loss 0 (win 2, draw 1 in whole points);
after two wins in a row a player is *on fire*: every game they win or draw while on fire
counts double, until a game they do not win.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

WIN, DRAW, LOSS = "win", "draw", "loss"
_BASE = {WIN: 4, DRAW: 2, LOSS: 0}


@dataclass(frozen=True)
class ArenaEntrant:
    """A free player as the pairing sees them."""

    player: int
    score: int
    last_opponent: int | None = None
    rating: float = 0.0


def arena_points(outcomes: Sequence[str]) -> tuple[list[int], bool]:
    """The half points of each game in order, and whether the player is on fire now."""
    points = []
    wins_in_a_row = 0
    for outcome in outcomes:
        on_fire = wins_in_a_row >= 2
        points.append(_BASE[outcome] * (2 if on_fire else 1))
        wins_in_a_row = wins_in_a_row + 1 if outcome == WIN else 0
    return points, wins_in_a_row >= 2


def pair_arena(
    free: Sequence[ArenaEntrant], *, rematch: bool = False
) -> tuple[list[tuple[int, int]], list[int]]:
    """Pairs of free players, closest scores together, and those left waiting.
    ``rematch``: nobody is playing; then, if nobody else could be paired either (no game
    will free anyone), the players left waiting only because each one's partner would be
    their last opponent are paired with each other all the same.

    Colours are not chosen here: the caller gives the first colour to whoever had it less.
    """
    waiting = sorted(free, key=lambda e: (-e.score, -e.rating, e.player))
    pairs: list[tuple[int, int]] = []
    left: list[int] = []
    while waiting:
        first = waiting.pop(0)
        partner = next((i for i, other in enumerate(waiting) if not _rematch(first, other)), None)
        if partner is None:
            left.append(first.player)  # nobody free but their last opponent: wait
            continue
        pairs.append((first.player, waiting.pop(partner).player))
    if rematch and not pairs:
        # in score order, as the rest; one left over (an odd number free) still waits
        pairs.extend(zip(left[0::2], left[1::2], strict=False))
        left = left[len(left) - len(left) % 2 :]
    return pairs, left


def _rematch(a: ArenaEntrant, b: ArenaEntrant) -> bool:
    return a.last_opponent == b.player or b.last_opponent == a.player
