"""Tactical guards for the board-game search: a win in one is played, a loss in one avoided.

A search that values positions by averages or by an evaluator can still walk into a
reply that ends the game (a Dalen lone stone flipped by a stagnant tree, the last
placement of a Lublache player handed to the opponent). The guards below read exactly
one move further than the position, over the engine's public surface only, so they are
exact where they answer:

* :func:`winning_move`: a move that ends the game at once as a win for the mover;
* :func:`loses_at_once`: the position after one of our moves gives the opponent a move
  that wins at once (a *refuted* move);
* :func:`guarded_choice`: the first move of a search's ranking that is not refuted, when
  there is one (when every move is refuted, the search's own choice stands).

Every level above the lowest runs its search's answer through :func:`guarded_choice`;
the lowest plays as it searched, so a newcomer can beat it.

A position may say how soon its game can end at the earliest (``fewest_plies_to_end()``,
a lower bound: Les's search model counts its first placements left, and a move takes at
most one of them); when that is more than two plies, nothing within the guards' reach can
end the game, and :func:`guarded_choice` answers at once what its look would have answered.
"""

from __future__ import annotations

import time
from collections.abc import Sequence

from engine.board import BoardState


def ends_within(state: BoardState, plies: int) -> bool:
    """False when ``state`` says its game cannot end within ``plies`` plies (its
    ``fewest_plies_to_end()`` is more); True otherwise, including when it does not say."""
    bound = getattr(state, "fewest_plies_to_end", None)
    return bound is None or bound() <= plies


def wins_for(state: BoardState, colour: str) -> bool:
    """True when the game in ``state`` is over and ``colour`` won it."""
    return state.outcome is not None and state.outcome.winner == colour


def winning_move(state: BoardState, moves: Sequence[str] | None = None) -> str | None:
    """The first of ``moves`` (default: every legal move) that wins the game at once."""
    mover = state.to_move
    if mover is None:
        return None
    for move in state.legal_moves() if moves is None else moves:
        if wins_for(state.play(move), mover):
            return move
    return None


def loses_at_once(after: BoardState, colour: str, deadline: float = float("inf")) -> bool:
    """True when ``after`` (the position after a move of ``colour``) is lost at once: the
    game is over and ``colour`` did not win it by a decision, or the opponent is to move and
    has a move that wins.

    A draw is not a loss. When the clock passes ``deadline`` the replies not yet looked at
    are taken to be harmless (a guard that runs out of time must not refuse every move).
    """
    if after.outcome is not None:
        winner = after.outcome.winner
        return winner is not None and winner != colour
    opponent = after.to_move
    if opponent is None or opponent == colour:
        return False
    for reply in after.legal_moves():
        if wins_for(after.play(reply), opponent):
            return True
        if time.perf_counter() >= deadline:
            return False
    return False


def guarded_choice(
    state: BoardState,
    ranking: Sequence[str],
    *,
    deadline: float = float("inf"),
    max_checks: int = 8,
) -> str:
    """The move to play in ``state`` from a search's ``ranking`` (best first, non-empty).

    A move that wins at once comes first of all. Otherwise the ranking's first move that
    does not lose at once, looking at no more than ``max_checks`` of them before
    ``deadline``; when all of those lose, every legal move is looked at for one that
    does not; when none is found, the ranking's first move stands.
    """
    if not ranking:
        raise ValueError("a ranking needs at least one move")
    mover = state.to_move
    assert mover is not None  # a position whose game runs
    if not ends_within(state, 2):
        # no move of ours ends the game, nor any reply to one: nothing wins or loses at
        # once, so the look below would take the ranking's first move
        return ranking[0]
    win = winning_move(state)
    if win is not None:
        return win
    checked: set[str] = set()
    for move in ranking[:max_checks]:
        if time.perf_counter() >= deadline and checked:
            return ranking[0]
        checked.add(move)
        if not loses_at_once(state.play(move), mover, deadline):
            return move
    # Everything the search liked best loses at once: any move that does not is better.
    for move in state.legal_moves():
        if move in checked:
            continue
        if time.perf_counter() >= deadline:
            break
        if not loses_at_once(state.play(move), mover, deadline):
            return move
    return ranking[0]
