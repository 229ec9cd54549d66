"""What a game is, described once: the :class:`GameSpec` every other part of the house reads.

After OpenSpiel's ``GameType`` and python-chess's variant classes: a spec is plain data
about one game — its name and display texts, players, colours, board sizes and options,
its notation and how its moves are phrased, what the AI knows about it and how its board is
drawn. Each game module defines its spec beside its rules class; :mod:`engine.registry`
holds them all. The renderer, the AI (and, next, the match service and the bot) ask the
spec instead of comparing a game's name.

The protocols :class:`BoardView` (what a board picture reads of a position) and
:class:`Position` (what the AI's evaluators read) live here too: a spec names the
evaluator of its positions, and a position names its game's spec, so the two are described
together, and the mould of :mod:`engine.board` fulfils them.

Everything here is data, a protocol or a pure function: no rules, no Pillow, no Discord.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any, Protocol

from engine.ai.settings import LevelTuning
from engine.hexgrid import HexGrid
from engine.phrases import Phrase, Text
from engine.reports import LastTurn, LoopView, ScoreSummary


class GameKind(StrEnum):
    BOARD = "board"  # two seats, stones on a hex board, perfect information
    CARDS = "cards"  # Leiff: 2-6 seats, hidden hands, per-seat views


class BoardShape(StrEnum):
    CELLS = "cells"  # hexagon cells (Lefe, Dalen, Lublache)
    POINTS = "points"  # the points and lines of a triangular grid (Les)


@dataclass(frozen=True)
class OptionSpec:
    """One match option: its name, default, allowed values and what it means."""

    name: str
    default: bool | int
    label: Text
    choices: tuple[bool | int, ...] = ()  # () allows any value of the default's type
    # chosen by the players of one match (``/play`` offers it); False: the server decides
    per_match: bool = True


@dataclass(frozen=True)
class SpecialMove:
    """A move that is a word rather than a cell (``swap``, ``pass``, ``black``): it gets a
    button of its own, and the match announces it in words of its own."""

    move: str
    button: Text
    # "{player} swaps: they now play {colour}." — ``colour`` is the mover's colour after it
    announce: Text


_PLAIN_MOVE = Text("move.plain", "{move}")


def plain_move(move: str) -> Phrase:
    """A move that reads as it is written (``e5``)."""
    return _PLAIN_MOVE(move=move)


@dataclass(frozen=True)
class Completion:
    """How a move written short is completed when the rules need more: a Lefe cell whose
    placement must capture one of several trees. ``complete(text, legal_moves)`` gives the
    legal moves the player may have meant; the player is asked to pick one."""

    complete: Callable[[str, Sequence[str]], list[str]]
    question: Text  # "{move} can capture more than one tree: which one?"
    placeholder: Text  # "Capture which tree?"


@dataclass(frozen=True)
class Notation:
    """How moves are written and read out."""

    examples: tuple[str, ...] = ()  # canonical moves, the plainest first
    special_moves: tuple[SpecialMove, ...] = ()
    # a canonical move as a menu reads it ("e5, capturing the tree at g6")
    describe: Callable[[str], Phrase] = plain_move
    completion: Completion | None = None


@dataclass(frozen=True)
class Setup:
    """How one match starts: seats, board side (board games), options and the seed of any
    shuffle (Leiff). Each game checks it the way its own ``new`` does."""

    players: int = 2
    size: int | None = None
    options: Mapping[str, bool | int] = field(default_factory=dict)
    seed: int | str = 0


class BoardRules(Protocol):
    """What a board position tells of its game."""

    @property
    def spec(self) -> GameSpec: ...
    @property
    def title(self) -> str: ...
    @property
    def colors(self) -> tuple[str, str]: ...
    @property
    def uses_pie(self) -> bool: ...


class BoardOutcome(Protocol):
    @property
    def winner(self) -> str | None: ...  # a colour, or None for a draw
    @property
    def reason(self) -> str: ...  # in English
    @property
    def code(self) -> str | None: ...  # the reason as a code (None if stored before codes)
    @property
    def params(self) -> Mapping[str, object]: ...
    def to_dict(self) -> dict[str, object]: ...


class BoardView(Protocol):
    """One board position as a picture reads it (:func:`render.render_board`). Nothing of
    a board game is hidden, so a board state is its own view."""

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
    def score_phrases(self) -> list[Phrase]: ...  # the live score, one phrase a colour
    def opening_prompt(self) -> Phrase | None: ...
    def loops(self) -> list[LoopView]: ...
    def holes(self) -> list[tuple[str, tuple[str, ...]]]: ...  # (owner colour, empty cells)
    def score_summary(self) -> ScoreSummary | None: ...  # None: no live score shown


class Position(BoardView, Protocol):
    """A board position as the AI's evaluators read it: the view, the live score and the
    stones by cell name."""

    @property
    def score(self) -> dict[str, int]: ...
    @property
    def stones(self) -> dict[str, str]: ...
    @property
    def options(self) -> Mapping[str, object]: ...


# (position, colour) -> the estimated chance in [0, 1] that ``colour`` wins
Evaluator = Callable[[Position, str], float]
# (position, moves, rng) -> the same moves, the most promising first
MoveOrderer = Callable[[Position, list[str], random.Random], list[str]]
# (engine state) -> the same position as a search-side model (engine.ai.model.SearchPosition)
SearchModel = Callable[[Any], Any]


@dataclass(frozen=True)
class BoardAI:
    """What the board-game AI knows of a game (see docs/ai.md).

    Without an evaluator the search has no opinion on unfinished positions and relies on
    reading ahead; without an orderer it tries moves in a seeded random order. ``levels``
    maps a level name (``"hard"``) to how this game tunes it.
    """

    evaluator: Evaluator | None = None
    orderer: MoveOrderer | None = None
    levels: Mapping[str, LevelTuning] = field(default_factory=dict)
    # A faster search-side copy of a position (see engine/ai/model.py): when set, every
    # level searches the copy instead of the engine's state; its moves, outcomes and scores
    # must equal the engine's (each game's model has differential tests against it).
    model: SearchModel | None = None


@dataclass(frozen=True)
class Drawing:
    """How the renderer draws a board game's board."""

    board: BoardShape = BoardShape.CELLS
    owned_loops: bool = False  # shade and outline every single-coloured loop (state.loops())
    owned_holes: bool = False  # shade every hole a colour owns (state.holes())


@dataclass(frozen=True)
class GameSpec:
    """One game, described once. Board games fill in the board fields; Leiff the player range."""

    name: str  # the registry key and the name in JSON, commands and buttons: "lefe"
    title: Text  # the display name: "Lefe"
    summary: Text  # one paragraph of rules, for help texts
    # what the game is in a line, for /help's list of games (None: the summary stands in)
    tagline: Text | None = None
    # the module holding its tutorial's pages (a ``PAGES`` tuple of ``tutorial.pages.Page``),
    # imported by the tutorial package when first read: the engine never imports it.
    # None: no tutorial (``/rules`` gives the summary instead)
    tutorial: str | None = None
    kind: GameKind = GameKind.BOARD
    players: tuple[int, int] = (2, 2)  # fewest and most seats
    colours: tuple[str, ...] = ()  # board games: the first colour moves first
    sizes: tuple[int, ...] = ()
    default_size: int = 0
    options: tuple[OptionSpec, ...] = ()
    uses_pie: bool = False  # the second move may be ``swap``
    draws_possible: bool = False  # the rules can end level, so players may agree a draw
    # a move (the play, the next legal moves, the JSON) may cost tens of milliseconds, as a
    # cold Lublache position on the 9-board does: a caller serving others meanwhile (an
    # event loop) should work it out aside, in a thread
    slow_moves: bool = False
    notation: Notation = field(default_factory=Notation)
    ai: BoardAI = field(default_factory=BoardAI)
    drawing: Drawing = field(default_factory=Drawing)

    def __post_init__(self) -> None:
        if not self.name.isidentifier() or self.name != self.name.lower():
            raise ValueError(f"a game's name is one lower-case word, not {self.name!r}")
        low, high = self.players
        if not 1 <= low <= high:
            raise ValueError(f"{self.name}: the player range {self.players} is empty")
        if self.kind is GameKind.BOARD:
            if self.players != (2, 2) or len(self.colours) != 2:
                raise ValueError(f"{self.name}: a board game has two seats and two colours")
            if self.default_size not in self.sizes:
                raise ValueError(f"{self.name}: the default size is not one of its sizes")

    @property
    def is_board_game(self) -> bool:
        return self.kind is GameKind.BOARD

    @property
    def option_defaults(self) -> dict[str, bool | int]:
        return {option.name: option.default for option in self.options}

    def special_move(self, move: str) -> SpecialMove | None:
        """The special move ``move`` is, if it is one of this game's."""
        return next((m for m in self.notation.special_moves if m.move == move), None)

    def describe_move(self, move: str) -> Phrase:
        """How a canonical move reads in a menu or a message ("e5 then b2")."""
        return self.notation.describe(move)
