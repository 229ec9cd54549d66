"""Lefe's placement rules, points and end rule, as plain functions.

Kept apart from the rules object (:mod:`engine.lefe`) because two readers of a position
share them: the engine's states, and the search's model of Lefe
(:mod:`engine.ai.models.lefe`), which must score, end its games and decide captures
exactly as the engine. A rule changed here changes for both.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import cache

from engine.hexgrid import hex_grid
from engine.reports import Outcome


@cache
def touching_neighbour_pairs(n: int) -> tuple[tuple[tuple[int, int], ...], ...]:
    """Per cell, the pairs of its neighbours that are neighbours of each other: a colour may
    not place on a cell where both stones of such a pair are its own."""
    grid = hex_grid(n)
    result = []
    for nbs in grid.neighbours:
        pairs = [(a, b) for i, a in enumerate(nbs) for b in nbs[i + 1 :] if b in grid.neighbours[a]]
        result.append(tuple(pairs))
    return tuple(result)


def placement_leaves(
    cells: Sequence[int],
    around: Sequence[int],
    colour: int,
    labels: Sequence[int],
    degree: Sequence[int],
) -> tuple[int, list[int], list[int]]:
    """What a ``colour`` stone on an empty cell next to the cells ``around`` does locally.

    ``labels`` gives each stone's tree, ``degree`` its number of friendly neighbours.
    Returns the change in leaves the stone brings about among itself and its friendly
    neighbours (it is a leaf unless it has two friends or more; a friendly leaf it
    touches gains a second friend and stops being one), the friendly trees it joins (each
    once, in the order met) and the enemy trees it touches (repeats left in). The tree
    the stone ends up in has that change plus the joined trees' leaves: only the stone
    and its friendly neighbours change their number of friends, so the count is local.
    This is the hot path of every Lefe move table, hence one loop and no sets.
    """
    friends = 0
    leaves = 0
    joined: list[int] = []
    enemies: list[int] = []
    for nb in around:
        value = cells[nb]
        if value == colour:
            friends += 1
            tree = labels[nb]
            if tree not in joined:
                joined.append(tree)
            if degree[nb] == 1:
                leaves -= 1  # a leaf gains a second friend and stops being one
        elif value:
            enemies.append(labels[nb])
    if friends <= 1:
        leaves += 1  # the new stone is a leaf itself
    return leaves, joined, enemies


def lefe_points(dark_leaves: list[int], light_leaves: list[int]) -> tuple[int, int]:
    """End-of-game points from each player's list of per-tree leaf counts."""
    dark_points, light_points = len(set(dark_leaves)), len(set(light_leaves))
    dark_sorted = sorted(dark_leaves, reverse=True)
    light_sorted = sorted(light_leaves, reverse=True)
    for dark_count, light_count in zip(dark_sorted, light_sorted, strict=False):
        if dark_count != light_count:
            if dark_count > light_count:
                dark_points += 1
            else:
                light_points += 1
            return dark_points, light_points
    # one list is a prefix of the other: whoever still has trees wins the comparison
    if len(dark_sorted) > len(light_sorted):
        dark_points += 1
    elif len(light_sorted) > len(dark_sorted):
        light_points += 1
    return dark_points, light_points


def lefe_outcome(
    dark_stuck: bool, light_stuck: bool, points: dict[str, int], colours: tuple[str, str]
) -> Outcome:
    """How the game ends when either player (or both) cannot place, scored on ``points``
    (the live score by colour name). Shared with the search's model of Lefe
    (:mod:`engine.ai.models.lefe`), which must end its games exactly as the engine does."""
    dark_points, light_points = points[colours[0]], points[colours[1]]
    both = dark_stuck and light_stuck
    stuck = colours[0] if dark_stuck else colours[1]
    high, low = max(dark_points, light_points), min(dark_points, light_points)
    if dark_points == light_points:
        if both:
            return Outcome.because(None, "lefe_draw_both_stuck", high=high, low=low)
        return Outcome.because(None, "lefe_draw_stuck", high=high, low=low, stuck_colour=stuck)
    winner = colours[0] if dark_points > light_points else colours[1]
    if both:
        return Outcome.because(winner, "lefe_win_both_stuck", colour=winner, high=high, low=low)
    return Outcome.because(
        winner, "lefe_win_stuck", colour=winner, high=high, low=low, stuck_colour=stuck
    )
