"""The seam for a faster search-side model of a board game's positions.

The engine's states are built for correctness and for every front end: immutable, with
names for cells and caches rebuilt per position. A search reads thousands of positions a
move, so a game may offer a leaner copy of the same position for the search alone
(``spec.ai.model``, a callable taking the engine's state). :func:`search_root` is where
every level switches to it; the searchers, the exact end reading and the tactical guard
then only ever call what :class:`SearchPosition` lists, and the moves they return are the
engine's own move texts, so the match never sees the model.

A model must agree with the engine position for position: the same legal moves in the
same order, the same outcome, mover and live score. Each game's model is checked against
the engine by differential tests over random playouts (``tests/ai/test_model_*.py``).
"""

from __future__ import annotations

from collections.abc import Hashable, Mapping
from typing import Any, Protocol

from engine.board import BoardState


class SearchPosition(Protocol):
    """What the searchers read of a position (an engine state satisfies it too)."""

    @property
    def to_move(self) -> str | None: ...
    @property
    def outcome(self) -> Any: ...  # engine.board.Outcome | None, compared by its fields
    @property
    def score(self) -> dict[str, int]: ...
    @property
    def mover(self) -> int: ...
    @property
    def ply(self) -> int: ...
    @property
    def cells(self) -> Hashable: ...  # the stones, hashable: half of a transposition key
    @property
    def extra(self) -> Mapping[str, Any]: ...
    def legal_moves(self) -> list[str]: ...
    def play(self, move: str) -> SearchPosition: ...


class LazyMoves(Protocol):
    """What a model may offer besides (Lublache's): a cheap superset of the legal moves,
    and playing one of them unless the rules refuse it. Alpha-beta with
    ``lazy_legality`` reads inner positions through these, so that the legality of a move
    (Lublache's end-of-turn test, most of a move list's cost) is worked out only for the
    moves it reaches before a cut-off."""

    def candidate_moves(self) -> list[str]: ...
    def play_if_legal(self, move: str) -> SearchPosition | None: ...


def search_root(state: BoardState) -> BoardState:
    """The position the search reads for ``state``: the game's model of it when the game
    offers one, else ``state`` itself. Typed as the engine state because a model stands in
    for one wherever the searchers read it (the surface above)."""
    model = state.game.spec.ai.model
    if model is None:
        return state
    root: BoardState = model(state)
    return root
