"""Lefe's points and end rule as plain functions of leaf counts and of who can still place.

Kept apart from the rules object (:mod:`engine.lefe`) because two readers of a position
share them: the engine's states, and the search's model of Lefe
(:mod:`engine.ai.models.lefe`), which must score and end its games exactly as the engine.
"""

from __future__ import annotations

from engine.reports import Outcome


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
