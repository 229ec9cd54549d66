"""The common mould of the four board games: rules objects, immutable states, the pie rule.

A :class:`BoardGame` knows a game's configuration (name, colours, sizes, options, rules
summary) and makes states. A :class:`BoardState` is one immutable position: ``play()``
returns a new state and never changes the old one. Subclasses supply the rules through a
handful of hooks (``_legal_moves``, ``_apply``, ``_outcome_now``, ``score``); this module
supplies everything they share: move normalisation, the pie rule's ``swap``, seats and
colours, the "last turn" record for pictures, the game-over checks and a byte-stable JSON
form that rebuilds the state exactly and can replay every position of the match.

Stones are stored as ``bytes`` with one entry per cell index (see :mod:`engine.hexgrid`):
0 empty, 1 the first colour, 2 the second colour.

A board game's metadata (name, title, colours, sizes, options, pie rule) comes from its
:class:`engine.spec.GameSpec`: a subclass sets ``spec`` and the class attributes that
``ENGINE_API`` names (``game.name``, ``game.colors``, ...) are filled in from it. States
also follow the protocol every game shares (:class:`engine.protocols.State`):
``legal_actions(seat)``, ``play(seat, move)``, ``view(seat)``.
"""

from __future__ import annotations

import json
from abc import ABC, abstractmethod
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from typing import Any, ClassVar, Self, overload

from engine.errors import IllegalMove
from engine.hexgrid import HexGrid, hex_grid
from engine.phrases import Phrase, Text
from engine.reports import LastTurn, LoopView, Outcome, ScoreSummary
from engine.spec import GameSpec, Setup, SpecialMove

__all__ = [
    "EMPTY",
    "FIRST",
    "PASS",
    "PASS_MOVE",
    "SECOND",
    "SWAP",
    "SWAP_MOVE",
    "BoardGame",
    "BoardState",
    "LastTurn",
    "LoopView",
    "Outcome",
    "other",
]

EMPTY, FIRST, SECOND = 0, 1, 2
SWAP = "swap"
PASS = "pass"
SEATS = (0, 1)  # seat 0 started the match (seat A), seat 1 accepted it (seat B)


# The special moves the mould itself knows; a game's spec lists those it uses.
SWAP_MOVE = SpecialMove(
    SWAP,
    button=Text("move.swap.button", "Swap colours"),
    announce=Text("move.swap.announce", "{player} swaps: they now play {colour}."),
)
PASS_MOVE = SpecialMove(
    PASS,
    button=Text("move.pass.button", "Pass"),
    announce=Text("move.pass.announce", "{player} passes."),
)

_SWAP_HINT = Text("move.swap.hint", "You may play swap to take the first colour.")
_SCORE = Text("score.plain", "{colour} {value}")


def other(colour_code: int) -> int:
    return 3 - colour_code


class BoardGame:
    """Rules object of one board game. Subclasses set ``spec`` and ``state_class``.

    The class attributes below are the spec's rules metadata, filled in when the subclass
    is defined (a subclass may still override one, e.g. to allow more sizes in a test).
    """

    spec: ClassVar[GameSpec]
    name: ClassVar[str]
    title: ClassVar[str]
    colors: ClassVar[tuple[str, str]]
    sizes: ClassVar[tuple[int, ...]]
    default_size: ClassVar[int]
    summary: ClassVar[str]
    uses_pie: ClassVar[bool] = True
    # option name -> default value; options are validated by validate_options()
    option_defaults: ClassVar[dict[str, Any]] = {}
    # option name -> its allowed values, for the options that list them
    option_choices: ClassVar[dict[str, tuple[bool | int, ...]]] = {}
    state_class: ClassVar[type[BoardState]]

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        spec = cls.__dict__.get("spec")
        if spec is None:
            return
        first, second = spec.colours
        cls.name = spec.name
        cls.title = spec.title.english
        cls.colors = (first, second)
        cls.sizes = spec.sizes
        cls.default_size = spec.default_size
        cls.summary = spec.summary.english
        cls.uses_pie = spec.uses_pie
        cls.option_defaults = spec.option_defaults
        cls.option_choices = {o.name: o.choices for o in spec.options if o.choices}

    # ---- making states -------------------------------------------------------------
    def validate_size(self, size: int | None) -> int:
        if size is None:
            return self.default_size
        if not isinstance(size, int) or isinstance(size, bool) or size not in self.sizes:
            sizes = [str(s) for s in self.sizes]
            allowed = ", ".join(sizes[:-1]) + " or " + sizes[-1] if len(sizes) > 1 else sizes[0]
            raise ValueError(f"{self.title} is played on boards of side {allowed}, not {size}")
        return size

    def validate_options(self, options: Mapping[str, Any] | None) -> dict[str, Any]:
        merged = dict(self.option_defaults)
        for key, value in (options or {}).items():
            if key not in self.option_defaults:
                known = ", ".join(sorted(self.option_defaults)) or "none"
                raise ValueError(f"{self.title} has no option {key!r} (options: {known})")
            expected = type(self.option_defaults[key])
            if not isinstance(value, expected):
                raise ValueError(f"option {key!r} must be a {expected.__name__}")
            allowed = self.option_choices.get(key)
            if allowed and value not in allowed:
                listed = ", ".join(str(choice) for choice in allowed)
                raise ValueError(f"option {key!r} must be one of {listed}, not {value!r}")
            merged[key] = value
        return merged

    def start(self, setup: Setup) -> BoardState:
        """A fresh match from a setup, as every game makes one (:class:`engine.protocols.Game`)."""
        if setup.players != 2:
            raise ValueError(f"{self.title} is played by two players, not {setup.players}")
        return self.new(setup.size, **setup.options)

    def new(self, size: int | None = None, **options: Any) -> BoardState:
        """A fresh match on an empty board, opening rules included."""
        size = self.validate_size(size)
        opts = self.validate_options(options)
        grid = hex_grid(size)
        return self.state_class._initial(self, size, opts, bytes(grid.cell_count), FIRST, None)

    def position(
        self,
        size: int | None = None,
        stones: Mapping[str, str] | None = None,
        to_move: str | None = None,
        **options: Any,
    ) -> BoardState:
        """A mid-game position past the opening, exactly as given.

        If the game's end rule already applies, the returned state's ``outcome`` is set.
        """
        size = self.validate_size(size)
        opts = self.validate_options(options)
        grid = hex_grid(size)
        cells = bytearray(grid.cell_count)
        canonical: dict[int, str] = {}
        for name, colour in (stones or {}).items():
            index = grid.index(name)
            if index is None:
                raise ValueError(f"{name!r} is not a cell of the {size}-board")
            cells[index] = self.colour_code(colour)
            canonical[index] = colour
        mover = self.colour_code(to_move if to_move is not None else self.colors[0])
        start = {
            "stones": {grid.names[i]: canonical[i] for i in sorted(canonical)},
            "to_move": self.colors[mover - 1],
        }
        return self.state_class._initial(self, size, opts, bytes(cells), mover, start)

    def from_json(self, text: str | bytes | Mapping[str, Any]) -> BoardState:
        """Rebuild a state from :meth:`BoardState.to_json` output."""
        data = json.loads(text) if isinstance(text, str | bytes) else dict(text)
        if data.get("game") != self.name:
            raise ValueError(f"this JSON holds a {data.get('game')!r} match, not {self.name!r}")
        return self.state_class._from_dict(self, data)

    # ---- colours -------------------------------------------------------------------
    def colour_code(self, colour: str) -> int:
        try:
            return self.colors.index(colour.strip().lower()) + 1
        except (ValueError, AttributeError):
            raise ValueError(
                f"{colour!r} is not a colour of {self.title} ({' or '.join(self.colors)})"
            ) from None

    def colour_name(self, code: int) -> str:
        return self.colors[code - 1]

    def __repr__(self) -> str:
        return f"<{type(self).__name__} {self.name}>"


# How a match its players ended outside the rules ended: the outcome code of its last
# picture (BoardState.ended).
ENDED = {
    "resigned": "ended_resigned",
    "time": "ended_time",
    "agreed": "ended_agreed",
    "aborted": "ended_aborted",
}


@dataclass(frozen=True, eq=False)
class BoardState(ABC):
    """One immutable position of a board game.

    Subclasses implement the rule hooks (the abstract methods). They may keep game-specific JSON-able values in
    ``extra`` (a dict never mutated after construction) and lazily cached, derived data in
    ``_cache`` (never serialised: it must be recomputable from the other fields).
    """

    game: BoardGame
    size: int
    options: Mapping[str, Any]
    cells: bytes
    mover: int | None  # colour code to move; None once the game is over
    ply: int  # moves played since the start of this record (opening included)
    swapped: bool  # True when seat A plays the second colour
    start: Mapping[str, Any] | None  # None for a new game, else the position() arguments
    moves: tuple[str, ...]
    last_turn: LastTurn
    outcome: Outcome | None
    extra: Mapping[str, Any] = field(default_factory=dict)
    _cache: dict[str, Any] = field(default_factory=dict, repr=False, compare=False)

    # ---- construction ---------------------------------------------------------------
    @classmethod
    def _initial(
        cls,
        game: BoardGame,
        size: int,
        options: Mapping[str, Any],
        cells: bytes,
        mover: int,
        start: Mapping[str, Any] | None,
    ) -> BoardState:
        state = cls(
            game=game,
            size=size,
            options=dict(options),
            cells=cells,
            mover=mover,
            ply=0,
            swapped=False,
            start=start,
            moves=(),
            last_turn=LastTurn(),
            outcome=None,
            extra=cls._initial_extra(game, start is None),
        )
        return state._settled()

    @classmethod
    def _initial_extra(cls, game: BoardGame, fresh_game: bool) -> dict[str, Any]:
        """Game-specific fields of a starting state (e.g. the Les opening phase)."""
        return {}

    def _next(self, **changes: Any) -> BoardState:
        """A copy with some fields changed and an empty cache."""
        fields: dict[str, Any] = {
            "game": self.game,
            "size": self.size,
            "options": self.options,
            "cells": self.cells,
            "mover": self.mover,
            "ply": self.ply,
            "swapped": self.swapped,
            "start": self.start,
            "moves": self.moves,
            "last_turn": self.last_turn,
            "outcome": self.outcome,
            "extra": self.extra,
        }
        fields.update(changes)
        return type(self)(**fields)

    def _settled(self) -> BoardState:
        """Apply the end rule: set the outcome if the game is over now."""
        if self.outcome is not None:
            return self
        outcome = self._outcome_now()
        if outcome is None:
            return self
        return self._next(outcome=outcome, mover=None)

    # ---- public surface ----------------------------------------------------------------
    @property
    def grid(self) -> HexGrid:
        return hex_grid(self.size)

    @property
    def to_move(self) -> str | None:
        """The colour whose turn it is, or None once the game is over."""
        if self.outcome is not None or self.mover is None:
            return None
        return self.game.colour_name(self.mover)

    @property
    def stones(self) -> dict[str, str]:
        """A fresh dict of cell name -> colour for every stone on the board."""
        names, colours = self.grid.names, self.game.colors
        return {names[i]: colours[c - 1] for i, c in enumerate(self.cells) if c}

    def stone_at(self, cell: str) -> str | None:
        index = self.grid.index(cell)
        if index is None:
            raise ValueError(f"{cell!r} is not a cell of the {self.size}-board")
        code = self.cells[index]
        return self.game.colour_name(code) if code else None

    @property
    def is_over(self) -> bool:
        return self.outcome is not None

    def seat_colour(self, seat: int) -> str:
        """The colour seat 0 (who started the match) or seat 1 plays, after any swap."""
        first_colour_seat = 1 if self.swapped else 0
        return self.game.colors[0] if seat == first_colour_seat else self.game.colors[1]

    def seat_of(self, colour: str) -> int:
        return 0 if self.seat_colour(0) == colour else 1

    @property
    def seat_to_move(self) -> int | None:
        """Which seat must act now (0 or 1), or None once the game is over."""
        colour = self.to_move
        return None if colour is None else self.seat_of(colour)

    def legal_moves(self) -> list[str]:
        """Every canonical move the player to move may make now."""
        if self.outcome is not None:
            return []
        cached = self._cache.get("legal_moves")
        if cached is None:
            cached = list(self._legal_moves())
            if self._swap_allowed():
                cached.append(SWAP)
            self._cache["legal_moves"] = cached
        return list(cached)

    def is_legal(self, move: str) -> bool:
        try:
            self.play(move)
        except IllegalMove:
            return False
        return True

    @overload
    def play(self, move: str) -> BoardState: ...
    @overload
    def play(self, move: int, action: str) -> BoardState: ...
    def play(self, move: str | int, action: str | None = None) -> BoardState:
        """Return the state after ``move``; raise IllegalMove (changing nothing) if it is not legal.

        ``play(seat, move)``, as every game's state plays, first checks that it is that
        seat's turn (:meth:`play_as`).
        """
        if action is not None:
            if isinstance(move, bool) or not isinstance(move, int):
                raise IllegalMove("seat_not_a_number")
            return self.play_as(move, action)
        if not isinstance(move, str):
            raise IllegalMove("not_text")
        text = move.strip().lower()
        if not text:
            raise IllegalMove("no_move")
        if self.outcome is not None:
            raise IllegalMove("game_over")
        if text == SWAP:
            return self._play_swap()
        new = self._apply(text)
        return new._settled()

    def play_as(self, seat: int, move: str) -> BoardState:
        """Like :meth:`play`, but first checks that it is ``seat``'s turn."""
        if self.outcome is not None:
            raise IllegalMove("game_over")
        if seat != self.seat_to_move:
            raise self._not_your_turn()
        return self.play(move)

    def _not_your_turn(self) -> IllegalMove:
        """What ``play_as`` tells a seat that tries to move out of turn."""
        return IllegalMove("not_your_turn", colour=self.to_move)

    # ---- the protocol every game's state shares (engine.protocols.State) ---------------
    def actors(self) -> list[int]:
        """The seats that may act now: the seat to move, or none once the game is over."""
        seat = self.seat_to_move
        return [] if seat is None else [seat]

    def legal_actions(self, seat: int) -> list[str]:
        """The moves ``seat`` may make now (none while it is the other seat's turn)."""
        return self.legal_moves() if seat == self.seat_to_move else []

    def view(self, seat: int | None) -> Self:
        """What ``seat`` (None: a spectator) may know: everything, as nothing is hidden."""
        return self

    def ended(self, how: str, winner_seat: int | None) -> BoardState:
        """This position as the last picture of a match its players ended outside the
        rules, ``how`` (``"resigned"``, ``"time"``, ``"agreed"``, ``"aborted"``): its outcome
        says so, with the winner's colour, so that the picture says who won and that nobody
        is to move. Only pictures read it: the match's moves are as they were."""
        code = ENDED[how]
        if winner_seat is None:
            return self._next(outcome=Outcome.because(None, code), mover=None)
        colour, loser = self.seat_colour(winner_seat), self.seat_colour(1 - winner_seat)
        outcome = Outcome.because(colour, code, colour=colour, loser_colour=loser)
        return self._next(outcome=outcome, mover=None)

    def winning_seats(self) -> list[int]:
        """The seat that won; [] while the game runs and for a draw."""
        if self.outcome is None or self.outcome.winner is None:
            return []
        return [self.seat_of(self.outcome.winner)]

    # ---- what pictures and messages read besides the stones --------------------------
    @property
    def colours_assigned(self) -> bool:
        """Whether each seat knows its colour yet (not during the Les set-up)."""
        return True

    def opening_prompt(self) -> Phrase | None:
        """What the opening step being played asks for, for a picture's header; None once
        the ordinary turns run (or when the game has no opening steps)."""
        return None

    def opening_hint(self) -> Phrase | None:
        """A short hint for the player to move about the opening step, or None."""
        if self.outcome is None and self._swap_allowed():
            return _SWAP_HINT()
        return None

    def loops(self) -> list[LoopView]:
        """Every loop on the board, for games that have loops (Lublache); none otherwise."""
        return []

    @property
    def move_number(self) -> int:
        """1-based number of the move about to be played (counting every turn)."""
        return self.ply + 1

    # ---- the pie rule ------------------------------------------------------------------
    def _swap_allowed(self) -> bool:
        return self.game.uses_pie and self.start is None and self.ply == 1 and not self.swapped

    def _play_swap(self) -> BoardState:
        if not self.game.uses_pie:
            raise IllegalMove("no_swap", game=self.game.title)
        if not self._swap_allowed():
            raise IllegalMove("swap_second_move_only")
        # Seat B takes the first colour; the stone stays; it is the second colour's turn,
        # which now belongs to seat A.
        return self._next(
            swapped=True,
            ply=self.ply + 1,
            moves=(*self.moves, SWAP),
            last_turn=LastTurn(colour=self.to_move, move=SWAP),
        )._settled()

    # ---- helpers for subclasses -------------------------------------------------------
    def _parse_cell(self, text: str) -> int:
        index = self.grid.index(text)
        if index is None:
            raise IllegalMove("not_a_cell", text=text)
        return index

    def _placed(
        self,
        move: str,
        cells: bytes,
        *,
        next_mover: int | None = None,
        placed: tuple[int, ...] = (),
        captured: tuple[int, ...] = (),
        flipped: tuple[int, ...] = (),
        removed: tuple[int, ...] = (),
        loops: tuple[tuple[int, ...], ...] = (),
        extra: Mapping[str, Any] | None = None,
    ) -> BoardState:
        """The successor state after the mover plays ``move`` (already canonical)."""
        names = self.grid.names
        mover = self.mover if self.mover is not None else FIRST
        return self._next(
            cells=cells,
            mover=other(mover) if next_mover is None else next_mover,
            ply=self.ply + 1,
            moves=(*self.moves, move),
            last_turn=LastTurn(
                colour=self.game.colour_name(mover),
                move=move,
                placed=tuple(names[i] for i in placed),
                captured=tuple(names[i] for i in sorted(captured)),
                flipped=tuple(names[i] for i in sorted(flipped)),
                removed=tuple(names[i] for i in sorted(removed)),
                loops=tuple(tuple(names[i] for i in loop) for loop in loops),
            ),
            extra=self.extra if extra is None else extra,
        )

    # ---- rule hooks (subclasses) -----------------------------------------------------------
    @abstractmethod
    def _legal_moves(self) -> list[str]:
        """The canonical moves other than ``swap`` (the base adds it when allowed)."""

    @abstractmethod
    def _apply(self, text: str) -> BoardState:
        """Parse and apply a lower-cased, stripped move other than ``swap``."""

    @abstractmethod
    def _outcome_now(self) -> Outcome | None:
        """The outcome if the end rule applies to this position, else None."""

    @property
    @abstractmethod
    def score(self) -> dict[str, int]:
        """Score per colour if the game were scored now (Lefe points, Dalen stone counts,
        Les holes, ...); the AI's evaluators read it."""

    # ---- the live score as pictures and messages show it (optional hooks) ---------------
    def score_phrases(self) -> list[Phrase]:
        """The live score, one phrase per colour (a game words its own score); none for a
        game that shows no live score."""
        return [_SCORE(colour=colour, value=value) for colour, value in self.score.items()]

    def score_summary(self) -> ScoreSummary | None:
        """The live score as data: points, who leads, and what the points are made of
        (games say what their points count; by default only the points); None for a game
        that shows no live score (its pictures then have no score line)."""
        points = tuple(self.score.items())
        (first, a), (second, b) = points
        leader = first if a > b else second if b > a else None
        return ScoreSummary(points, leader, self._score_parts())

    def _score_parts(self) -> tuple[Phrase, ...]:
        return ()

    def holes(self) -> list[tuple[str, tuple[str, ...]]]:
        """Every hole a colour owns, as (owner colour, its empty cells), for games that
        have holes (Les); none otherwise."""
        return []

    def score_text(self) -> str:
        """One short line describing the live score, for headers and messages."""
        return " · ".join(phrase.english() for phrase in self.score_phrases())

    # ---- serialisation ---------------------------------------------------------------
    def to_dict(self) -> dict[str, Any]:
        return _state_dict(self)

    def to_json(self) -> str:
        """Byte-stable JSON: the same state always gives the same text (worked out once:
        the bot stores a new position and sends it to its picture workers)."""
        cached = self._cache.get("json")
        if cached is None:
            cached = json.dumps(
                self.to_dict(), sort_keys=True, separators=(",", ":"), ensure_ascii=False
            )
            self._cache["json"] = cached
        return str(cached)

    @classmethod
    def _from_dict(cls, game: BoardGame, data: Mapping[str, Any]) -> BoardState:
        return _state_from_dict(cls, game, data)

    def initial_state(self) -> BoardState:
        """The state this match started from (a new board, or the given position)."""
        if self.start is None:
            return self.game.new(self.size, **self.options)
        return self.game.position(
            self.size, self.start["stones"], self.start["to_move"], **self.options
        )

    def history(self) -> Iterator[BoardState]:
        """Every position of the match in order, from its start to this one (replays)."""
        state = self.initial_state()
        yield state
        for move in self.moves:
            state = state.play(move)
            yield state

    def __repr__(self) -> str:
        return (
            f"<{type(self).__name__} {self.game.name} n={self.size} ply={self.ply} "
            f"to_move={self.to_move} stones={len(self.stones)}>"
        )


# ---- serialisation (kept beside the class it reads and writes) ---------------------------
def _state_dict(self: BoardState) -> dict[str, Any]:
    """A state as the plain data of its JSON form (:meth:`BoardState.to_dict`)."""
    names = self.grid.names
    return {
        "format": 1,
        "game": self.game.name,
        "size": self.size,
        "options": dict(sorted(self.options.items())),
        "start": None
        if self.start is None
        else {"stones": dict(self.start["stones"]), "to_move": self.start["to_move"]},
        "moves": list(self.moves),
        "state": {
            "stones": {names[i]: self.game.colour_name(c) for i, c in enumerate(self.cells) if c},
            "to_move": None if self.mover is None else self.game.colour_name(self.mover),
            "ply": self.ply,
            "swapped": self.swapped,
            "last_turn": self.last_turn.to_dict(),
            "outcome": None if self.outcome is None else self.outcome.to_dict(),
            "extra": self.extra,
        },
    }


def _state_from_dict(cls: type[BoardState], game: BoardGame, data: Mapping[str, Any]) -> BoardState:
    """A state of class ``cls`` from the data :func:`_state_dict` gives."""
    size = game.validate_size(data["size"])
    grid = hex_grid(size)
    body = data["state"]
    cells = bytearray(grid.cell_count)
    for name, colour in body["stones"].items():
        index = grid.index(name)
        if index is None:
            raise ValueError(f"{name!r} is not a cell of the {size}-board")
        cells[index] = game.colour_code(colour)
    outcome = body.get("outcome")
    return cls(
        game=game,
        size=size,
        options=game.validate_options(data.get("options")),
        cells=bytes(cells),
        mover=None if body["to_move"] is None else game.colour_code(body["to_move"]),
        ply=int(body["ply"]),
        swapped=bool(body["swapped"]),
        start=data.get("start"),
        moves=tuple(data.get("moves", ())),
        last_turn=LastTurn.from_dict(body.get("last_turn") or {}),
        outcome=None if outcome is None else Outcome.from_dict(outcome),
        extra=json.loads(json.dumps(body.get("extra") or {})),
    )
