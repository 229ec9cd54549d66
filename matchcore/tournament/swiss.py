"""Swiss pairing as a maximum weight matching (networkx), not a greedy loop.

Every pair of players who may meet is an edge whose weight says how good the pairing is;
networkx's ``max_weight_matching`` with ``maxcardinality=True`` pairs everyone (after the
bye) and, among the pairings that do, picks the heaviest. The weight is built so that its
parts never trade against each other, most important first:

1. no repeat pairing where one can be avoided (a pair that met costs more than every
   other penalty of a whole round together);
2. score groups: players of equal score meet; a player who must float meets the nearest
   score (the squared difference in half points);
3. colour balance within one: a pair whose players are both due the same colour (their
   whites minus blacks are equal and not zero) costs a penalty;
4. within those, the higher half of a score group meets the lower (1 v 5, 2 v 6, ...), the
   Dutch system's fold, as a small tie-break.

The bye goes to the lowest-ranked player who has not had one (the last of the standings).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

import networkx as nx


@dataclass(frozen=True)
class SwissEntrant:
    """One player as the pairing sees them. ``rank`` orders the standings (0 = first);
    ``colours`` is +1 for every game with the first colour (white), -1 for the second."""

    player: int
    score: int
    rank: int
    opponents: frozenset[int] = frozenset()
    colours: tuple[int, ...] = ()
    had_bye: bool = False

    @property
    def balance(self) -> int:
        return sum(self.colours)


@dataclass(frozen=True)
class SwissRound:
    """A round's pairs, each (first colour, second colour), and the bye (or None)."""

    pairs: tuple[tuple[int, int], ...]
    bye: int | None = None
    repeats: int = 0
    notes: tuple[str, ...] = field(default=())


def colour_conflict(a: SwissEntrant, b: SwissEntrant) -> bool:
    """Both players are due the same colour: one of them would end two away from even."""
    return a.balance == b.balance and a.balance != 0


def _penalties(a: SwissEntrant, b: SwissEntrant) -> tuple[int, int, int]:
    return (
        int(b.player in a.opponents),
        (a.score - b.score) ** 2,
        int(colour_conflict(a, b)),
    )


def choose_bye(entrants: Sequence[SwissEntrant]) -> SwissEntrant | None:
    """The bye of an odd field: the lowest-ranked player without one (any, if all had)."""
    if len(entrants) % 2 == 0:
        return None
    ranked = sorted(entrants, key=lambda e: e.rank, reverse=True)
    return next((e for e in ranked if not e.had_bye), ranked[0])


def pair_swiss(entrants: Sequence[SwissEntrant]) -> SwissRound:
    """Pair one Swiss round (see the module's docstring for what the matching weighs)."""
    bye = choose_bye(entrants)
    field_ = [e for e in entrants if bye is None or e.player != bye.player]
    n = len(field_)
    if n == 0:
        return SwissRound((), None if bye is None else bye.player)
    # The scales: each part outweighs every lower part of a whole round together.
    max_score_gap = max(e.score for e in field_) - min(e.score for e in field_)
    fold_scale = n + 1
    colour_scale = fold_scale * (n * n + 1)
    score_scale = colour_scale * (n + 1)
    repeat_scale = score_scale * (n * (max_score_gap**2) + 1)
    base = repeat_scale * (n + 1)
    graph: nx.Graph[int] = nx.Graph()
    graph.add_nodes_from(e.player for e in field_)
    # The fold inside a score group: the top half meets the bottom half in order.
    by_group: dict[int, list[SwissEntrant]] = {}
    for entrant in sorted(field_, key=lambda e: e.rank):
        by_group.setdefault(entrant.score, []).append(entrant)
    fold_position = {}
    for group in by_group.values():
        half = len(group) // 2
        for index, entrant in enumerate(group):
            fold_position[entrant.player] = (index % max(half, 1), index >= half, len(group))
    for i, a in enumerate(field_):
        for b in field_[i + 1 :]:
            repeat, gap, conflict = _penalties(a, b)
            pa, pb = fold_position[a.player], fold_position[b.player]
            fold = 0 if (pa[0] == pb[0] and pa[1] != pb[1] and a.score == b.score) else 1
            weight = (
                base
                - repeat * repeat_scale
                - gap * score_scale
                - conflict * colour_scale
                - fold * fold_scale
            )
            graph.add_edge(a.player, b.player, weight=weight)
    matching = nx.max_weight_matching(graph, maxcardinality=True)
    by_player = {e.player: e for e in field_}
    pairs = []
    repeats = 0
    for x, y in matching:
        a, b = by_player[x], by_player[y]
        repeats += int(b.player in a.opponents)
        pairs.append(colours_for(a, b))
    pairs.sort(key=lambda pair: min(by_player[pair[0]].rank, by_player[pair[1]].rank))
    return SwissRound(tuple(pairs), None if bye is None else bye.player, repeats)


def colours_for(a: SwissEntrant, b: SwissEntrant) -> tuple[int, int]:
    """Who takes the first colour: the one with fewer of it so far, then the one who had
    the second colour last (the later game differing), then the higher ranked."""
    if a.balance != b.balance:
        return (a.player, b.player) if a.balance < b.balance else (b.player, a.player)
    for ca, cb in zip(reversed(a.colours), reversed(b.colours), strict=False):
        if ca != cb:
            return (a.player, b.player) if ca < cb else (b.player, a.player)
    return (a.player, b.player) if a.rank <= b.rank else (b.player, a.player)
