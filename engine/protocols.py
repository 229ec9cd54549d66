"""The typed seams between the engine and what uses it: a game, a state, a view.

Every game — the board games on the mould of :mod:`engine.board` and Leiff alike — is a
:class:`Game` that starts :class:`State` objects, and every state follows one protocol:
who may act (``actors``), what a seat may do (``legal_actions``), doing it
(``play(seat, action)``), and what a seat may know (``view``). A service can drive any
game through these alone and leave the rest to the game's :class:`engine.spec.GameSpec`.

A view is what one seat (or, for ``None``, a spectator) may see: for a board game, where
nothing is hidden, the state itself as a :class:`BoardView` (what a board picture reads);
for Leiff, a JSON-able :class:`engine.leiff.views.LeiffView`. (:class:`BoardView` is defined
beside the spec, which it names.)
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Protocol

from engine.leiff.views import LeiffView
from engine.spec import BoardView, GameSpec, Setup


class Ended(Protocol):
    """A finished game's outcome; each game adds who won in its own terms."""

    @property
    def reason(self) -> str: ...


View = BoardView | LeiffView


class State(Protocol):
    """One moment of any game; ``play`` returns a new state and never changes this one."""

    @property
    def outcome(self) -> Ended | None: ...
    def actors(self) -> list[int]: ...
    def legal_actions(self, seat: int) -> list[str]: ...
    def play(self, seat: int, action: str, /) -> State: ...
    def view(self, seat: int | None) -> View: ...
    def winning_seats(self) -> list[int]: ...
    def to_json(self) -> str: ...


class Game(Protocol):
    """A rules object: it knows its spec and makes states."""

    @property
    def name(self) -> str: ...
    @property
    def spec(self) -> GameSpec: ...
    def start(self, setup: Setup) -> State: ...
    def from_json(self, text: str | bytes | Mapping[str, object]) -> State: ...
