"""Standings and their tie-breaks: Buchholz and Sonneborn–Berger.

- **Buchholz**: the sum of the final scores of everyone a player met (a bye adds nothing).
  It rewards a player whose opponents were strong.
- **Sonneborn–Berger**: the scores of the opponents a player beat, plus half those of the
  opponents they drew with. Among equal scores it favours wins against the strong.

Both are in half points, like the scores (Sonneborn–Berger in quarter points: twice the
half-point sum, so it stays an int). Ties left after both are broken by rating, then by
who joined first.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass


@dataclass(frozen=True)
class Game:
    """A played two-player game: the seats and each seat's half points (2, 1, 0)."""

    players: tuple[int, int]
    points: tuple[int, int]


@dataclass(frozen=True)
class Standing:
    rank: int
    player: int
    score: int
    buchholz: int
    sonneborn_berger: int


def buchholz(scores: Mapping[int, int], games: Sequence[Game]) -> dict[int, int]:
    out = dict.fromkeys(scores, 0)
    for game in games:
        a, b = game.players
        out[a] = out.get(a, 0) + scores.get(b, 0)
        out[b] = out.get(b, 0) + scores.get(a, 0)
    return out


def sonneborn_berger(scores: Mapping[int, int], games: Sequence[Game]) -> dict[int, int]:
    """In quarter points: the sum over games of opponent's score × own half points."""
    out = dict.fromkeys(scores, 0)
    for game in games:
        (a, b), (pa, pb) = game.players, game.points
        out[a] = out.get(a, 0) + scores.get(b, 0) * pa
        out[b] = out.get(b, 0) + scores.get(a, 0) * pb
    return out


def standings(
    scores: Mapping[int, int],
    games: Sequence[Game],
    order: Sequence[int] = (),
    *,
    tiebreaks: bool = True,
) -> list[Standing]:
    """Everyone ranked: score, then (``tiebreaks``) Buchholz and Sonneborn–Berger, then
    ``order`` (e.g. by rating, then by joining). Equal on everything: the same rank."""
    bh = buchholz(scores, games) if tiebreaks else dict.fromkeys(scores, 0)
    sb = sonneborn_berger(scores, games) if tiebreaks else dict.fromkeys(scores, 0)
    position = {player: index for index, player in enumerate(order)}
    ranked = sorted(
        scores,
        key=lambda p: (-scores[p], -bh[p], -sb[p], position.get(p, len(position)), p),
    )
    out: list[Standing] = []
    for index, player in enumerate(ranked):
        key = (scores[player], bh[player], sb[player])
        if out and (out[-1].score, out[-1].buchholz, out[-1].sonneborn_berger) == key:
            rank = out[-1].rank
        else:
            rank = index + 1
        out.append(Standing(rank, player, scores[player], bh[player], sb[player]))
    return out
