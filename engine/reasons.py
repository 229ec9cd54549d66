"""Why a game ended, as codes with parameters: the ``Outcome.reason`` of every game.

Like an :class:`~engine.errors.IllegalMove`, an outcome says *why* with a stable code
(``lefe_win_stuck``) and parameters (``colour="dark", high=5, low=3``); ``reason`` is the
English sentence from :data:`REASONS`, and the edges show the catalogue's
``outcome.<code>`` in the reader's language. A parameter named ``colour`` or ending in
``_colour`` holds a colour name (the edges translate it too).
"""

from __future__ import annotations

from typing import Any

from engine.errors import fill

REASONS: dict[str, str | tuple[str, str]] = {
    # ---- a match the players ended outside the rules (its last picture, BoardState.ended) --
    "ended_resigned": "{colour} wins: {loser_colour} resigned",
    "ended_time": "{colour} wins: {loser_colour} ran out of time",
    "ended_agreed": "draw by agreement",
    "ended_aborted": "aborted: nobody wins or loses",
    # ---- Dalen ------------------------------------------------------------------------------
    "dalen_wiped_out": "{colour} wins: {loser_colour} has no stones left",
    "dalen_draw_passed": (
        "draw: both players passed with {count} stone each",
        "draw: both players passed with {count} stones each",
    ),
    "dalen_win_passed": "{colour} wins {high}–{low}: both players passed",
    # ---- Lefe -------------------------------------------------------------------------------
    "lefe_draw_both_stuck": "draw {high}–{low}: neither player has a legal placement",
    "lefe_draw_stuck": "draw {high}–{low}: {stuck_colour} has no legal placement",
    "lefe_win_both_stuck": "{colour} wins {high}–{low}: neither player has a legal placement",
    "lefe_win_stuck": "{colour} wins {high}–{low}: {stuck_colour} has no legal placement",
    # ---- Les --------------------------------------------------------------------------------
    "les_draw_no_holes": "draw: nobody owns a hole; {stuck_colour} has no legal placement",
    "les_draw_alike": (
        "draw: {count} hole each, alike in size and border; {stuck_colour} has no legal placement",
        "draw: {count} holes each, alike in size and border; {stuck_colour} has no legal placement",
    ),
    "les_win_more_holes": "{colour} wins {high}–{low} on holes: {stuck_colour} has no legal placement",
    "les_win_bigger_holes": (
        "{colour} wins on bigger holes ({count} hole each): {stuck_colour} has no legal placement",
        "{colour} wins on bigger holes ({count} holes each): {stuck_colour} has no legal placement",
    ),
    "les_win_more_stones": (
        "{colour} wins on more stones around holes ({count} hole each): {stuck_colour} has no "
        "legal placement",
        "{colour} wins on more stones around holes ({count} holes each): {stuck_colour} has no "
        "legal placement",
    ),
    # ---- Lublache ---------------------------------------------------------------------------
    "lublache_stuck_wins": "{colour} wins: it has no legal placement left",
    # ---- Leiff ------------------------------------------------------------------------------
    "leiff_target_reached": "a total reached {target}, and {best} is the lowest total",
}


def reason(code: str, params: dict[str, Any]) -> str:
    """The English sentence of an outcome ``code``; an unknown code is a programming error."""
    if code not in REASONS:
        raise ValueError(f"unknown outcome code {code!r}: add it to engine.reasons.REASONS")
    return fill(REASONS[code], params)
