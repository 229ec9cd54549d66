"""Les's master: a proven win is played, a forced loss avoided, the same seed the same move.

Master reads as deep as its time allows (up to eight plies). The positions come from
seeded random games on the 5-board, a few moves before the end, and every move's value
was read exactly (``engine.ai.endsolver``, each reply to the end): in each, one move (or
two) wins or saves the draw and every other loses. The searches run on a stopped clock
(``stopped_clock``), so only their budgets end them, however busy the machine.
"""

from __future__ import annotations

import random

import pytest

from engine.ai import endsolver
from engine.ai.levels import search_move
from engine.ai.model import search_root
from engine.board import BoardState
from engine.registry import get_board_game

GAME = get_board_game("les")
SCALE = 0.05  # a twentieth of master's positions: enough to read these ends through


def _random_game_position(seed: int, ply: int) -> BoardState:
    """The position at ``ply`` of the random game seeded ``seed`` on the 5-board."""
    rng = random.Random(seed)
    state = GAME.new(5)
    while state.ply < ply:
        state = state.play(rng.choice(state.legal_moves()))
    return state


def _exact_values(state: BoardState) -> dict[str, float]:
    """Every move's exact value for the side to move (WIN, DRAW or LOSS), each reply read
    to the end by the solver."""
    root = search_root(state)
    mover = root.to_move
    values: dict[str, float] = {}
    for move in root.legal_moves():
        after = root.play(move)
        if after.outcome is not None:
            winner = after.outcome.winner
            values[move] = endsolver.DRAW if winner is None else float(winner == mover)
            continue
        solved = endsolver.solve(after, max_nodes=200_000, time_limit=float("inf"))
        assert solved is not None, "these ends are small enough to read through"
        best = max(solved[0].values())
        values[move] = best if after.to_move == mover else 1.0 - best
    return values


# (seed, ply, the moves that reach the best value): each position's other moves lose
WON = [(10, 35, {"i2"}), (21, 35, {"c5"}), (25, 37, {"e2"}), (16, 42, {"h4"})]
SAVED = [(12, 41, {"h4"}), (12, 43, {"h4"}), (22, 36, {"c3", "f4"})]


@pytest.mark.parametrize(("seed", "ply", "winning"), WON)
def test_master_plays_the_one_proven_win(
    seed: int, ply: int, winning: set[str], stopped_clock: None
) -> None:
    state = _random_game_position(seed, ply)
    values = _exact_values(state)
    assert {move for move, value in values.items() if value == endsolver.WIN} == winning
    assert search_move(state, "master", seed=5, scale=SCALE).move in winning


@pytest.mark.parametrize(("seed", "ply", "drawing"), SAVED)
def test_master_avoids_the_forced_loss(
    seed: int, ply: int, drawing: set[str], stopped_clock: None
) -> None:
    state = _random_game_position(seed, ply)
    values = _exact_values(state)
    assert max(values.values()) == endsolver.DRAW
    assert {move for move, value in values.items() if value != endsolver.LOSS} == drawing
    assert search_move(state, "master", seed=5, scale=SCALE).move in drawing


def test_the_same_seed_gives_master_the_same_move_in_the_middle_game(stopped_clock: None) -> None:
    rng = random.Random(9)
    state = GAME.new(9)
    while state.ply < 70:
        state = state.play(rng.choice(state.legal_moves()))
    first = search_move(state, "master", seed=77, scale=SCALE)
    second = search_move(state, "master", seed=77, scale=SCALE)
    assert first.depth >= 4  # the reading goes past the three plies master had
    assert (first.move, first.value, first.iterations, first.depth) == (
        second.move,
        second.value,
        second.iterations,
        second.depth,
    )
