"""Helpers shared by the AI tests: the positions of recorded games."""

from __future__ import annotations

from engine.board import BoardState
from engine.registry import get_board_game


def replayed(game: str, size: int, record: str) -> BoardState:
    """The position ``record``'s moves (separated by white space, in the game's notation)
    reach from a new board of ``game`` at ``size``."""
    state = get_board_game(game).new(size)
    for move in record.split():
        state = state.play(move)
    return state
