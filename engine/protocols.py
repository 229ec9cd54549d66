"""The typed seams between the engine and what uses it: a game, a state, a view.

Every game — the board games on the mould of :mod:`engine.board` and Leiff alike — is a
:class:`Game` that starts :class:`State` objects, and every state follows one protocol:
who may act (``actors``), what a seat may do (``legal_actions``), doing it
(``play(seat, action)``), and what a seat may know (``view``). A service can drive any
game through these alone and leave the rest to the game's :class:`engine.spec.GameSpec`.

A view is what one seat (or, for ``None``, a spectator) may see: for a board game, where
nothing is hidden, the state itself as a :class:`BoardView` (what a board picture reads);
for Leiff, a JSON-able :class:`engine.leiff.views.LeiffView`.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Protocol

from engine.board import LastTurn, LoopView
from engine.hexgrid import HexGrid
from engine.leiff.views import LeiffView
from engine.phrases import Phrase
from engine.spec import GameSpec


@dataclass(frozen=True)
class Setup:
    """How one match starts: seats, board side (board games), options and the seed of any
    shuffle (Leiff). Each game checks it the way its own ``new`` does."""

    players: int = 2
    size: int | None = None
    options: Mapping[str, bool | int] = field(default_factory=dict)
    seed: int | str = 0


class Ended(Protocol):
    """A finished game's outcome; each game adds who won in its own terms."""

    @property
    def reason(self) -> str: ...


class BoardOutcome(Ended, Protocol):
    @property
    def winner(self) -> str | None: ...  # a colour, or None for a draw


class BoardRules(Protocol):
    """What a board view tells of its game."""

    @property
    def spec(self) -> GameSpec: ...
    @property
    def title(self) -> str: ...
    @property
    def colors(self) -> tuple[str, str]: ...
    @property
    def uses_pie(self) -> bool: ...


class BoardView(Protocol):
    """One board position as a picture reads it (:func:`render.render_board`)."""

    @property
    def game(self) -> BoardRules: ...
    @property
    def size(self) -> int: ...
    @property
    def grid(self) -> HexGrid: ...
    @property
    def cells(self) -> bytes: ...  # per cell index: 0 empty, 1 first colour, 2 second
    @property
    def last_turn(self) -> LastTurn: ...
    @property
    def outcome(self) -> BoardOutcome | None: ...
    @property
    def to_move(self) -> str | None: ...
    @property
    def seat_to_move(self) -> int | None: ...
    @property
    def colours_assigned(self) -> bool: ...
    @property
    def move_number(self) -> int: ...
    @property
    def ply(self) -> int: ...
    @property
    def swapped(self) -> bool: ...
    @property
    def start(self) -> Mapping[str, object] | None: ...
    def seat_colour(self, seat: int) -> str: ...
    def seat_of(self, colour: str) -> int: ...
    def score_text(self) -> str: ...
    def opening_prompt(self) -> Phrase | None: ...
    def loops(self) -> list[LoopView]: ...


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
