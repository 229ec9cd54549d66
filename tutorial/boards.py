"""Tutorial examples of the board games: a real position, what the page says about it, and
the picture that shows it.

A :class:`BoardExample` is a position built with the engine's own API (``position()`` or
``new()`` and moves) and a list of *claims*: what the page says is true of it ("these are
the cells where dark may play", "e5 is refused because c3 and c4 touch", "d4xf5 removes the
tree f5 g5", "this loop is white's", "dark scores 3"). A claim does two things:

- ``problems(state)`` asks the engine and says where it disagrees (nothing when it agrees);
  every page's claims are checked by the tests, so a page whose example stops matching the
  rules fails;
- ``marks(state)`` is what it draws (:class:`render.annotations.Annotations`): the picture is
  made from the claims as written, so what the page shows is exactly what was checked.

A claim about a move (:class:`Plays`) turns the picture into a before/after pair.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Protocol

from PIL import Image

from engine import IllegalMove, get_board_game
from engine.board import BoardState
from i18n import outcome_reason, translate
from render.annotations import (
    Annotations,
    Figure,
    board_panel,
    figure,
    hint_cells,
    panel_width,
)
from render.board import score_line


def cells(text: str) -> tuple[str, ...]:
    """Cell names written with spaces between them: ``"c3 c4 e5"``."""
    return tuple(text.split())


@dataclass(frozen=True)
class Position:
    """How an example position is built: ``stones`` as ``"dark: c3 c4 / light: f4"`` for a
    position past the opening (``to_move`` moves next), or none for a new game; then
    ``moves`` (spaces between them) are played from it."""

    game: str
    stones: str = ""
    to_move: str | None = None
    size: int = 5
    moves: str = ""
    options: Mapping[str, bool | int] = field(default_factory=dict)

    def stone_map(self) -> dict[str, str]:
        found: dict[str, str] = {}
        for group in self.stones.split("/"):
            if not group.strip():
                continue
            colour, _, names = group.partition(":")
            for name in cells(names):
                found[name] = colour.strip()
        return found

    def build(self) -> BoardState:
        game = get_board_game(self.game)
        if self.stones:
            state = game.position(self.size, self.stone_map(), self.to_move, **self.options)
        else:
            state = game.new(self.size, **self.options)
        for move in self.moves.split():
            state = state.play(move)
        return state


class Claim(Protocol):
    """One thing a page says about its position (see the module docstring)."""

    def problems(self, state: BoardState) -> list[str]: ...
    def marks(self, state: BoardState) -> Annotations: ...


def _differs(what: str, declared: object, engine: object) -> list[str]:
    return [] if declared == engine else [f"{what}: the page says {declared}, the engine {engine}"]


@dataclass(frozen=True)
class Placements:
    """Where the player to move may put a stone (Les: the first stone of a turn): exactly
    ``legal``, or every empty cell but ``illegal``. Drawn as a dot on each of them."""

    legal: str | None = None
    illegal: str | None = None

    def declared(self, state: BoardState) -> tuple[str, ...]:
        if self.legal is not None:
            wanted = set(cells(self.legal))
        else:
            taken = set(state.stones)
            wanted = {n for n in state.grid.names if n not in taken} - set(
                cells(self.illegal or "")
            )
        return tuple(name for name in state.grid.names if name in wanted)

    def problems(self, state: BoardState) -> list[str]:
        engine = hint_cells(state, state.legal_moves())
        return _differs("the cells where a stone may go", self.declared(state), engine)

    def marks(self, state: BoardState) -> Annotations:
        return Annotations(may=self.declared(state))


@dataclass(frozen=True)
class Refused:
    """``cell`` is refused with the engine's ``code``, about ``stones`` (and ``loop``, cells
    in the engine's walking order). Drawn as a no-entry sign, rings and a band."""

    cell: str
    code: str
    stones: str = ""
    loop: str = ""

    def problems(self, state: BoardState) -> list[str]:
        try:
            state.play(self.cell)
        except IllegalMove as error:
            found = _differs(f"why {self.cell} is refused", self.code, error.code)
            if self.stones:
                stones = tuple(error.params.get("stones", ()))
                found += _differs(
                    f"the stones {self.cell} is refused for", cells(self.stones), stones
                )
            if self.loop:
                loop = tuple(error.params.get("loop", ()))
                found += _differs(f"the loop {self.cell} is refused for", cells(self.loop), loop)
            return found
        return [f"the page says {self.cell} is refused, but the engine allows it"]

    def marks(self, state: BoardState) -> Annotations:
        return Annotations(
            may_not=(self.cell,),
            about=cells(self.stones),
            loops=(cells(self.loop),) if self.loop else (),
        )


@dataclass(frozen=True)
class Plays:
    """``move`` is legal and places, captures, flips and removes what the page says, and
    closes the ``closes`` loops (each in the engine's walking order). The picture becomes a
    before/after pair: before, the cell where the stone goes is ringed and the stones the
    move takes, turns or removes are marked; after, the board shows the move's own marks."""

    move: str
    captured: str = ""
    flipped: str = ""
    removed: str = ""
    closes: tuple[str, ...] = ()
    leaves_after: str = ""  # the leaves on the board after the move (ringed after)

    def after(self, state: BoardState) -> BoardState:
        return state.play(self.move)

    def problems(self, state: BoardState) -> list[str]:
        try:
            after = self.after(state)
        except IllegalMove as error:
            return [f"the page plays {self.move}, which the engine refuses: {error}"]
        last = after.last_turn
        found = (
            _differs(f"what {self.move} captures", set(cells(self.captured)), set(last.captured))
            + _differs(f"what {self.move} flips", set(cells(self.flipped)), set(last.flipped))
            + _differs(f"what {self.move} removes", set(cells(self.removed)), set(last.removed))
            + _differs(
                f"the loops {self.move} closes",
                sorted(cells(loop) for loop in self.closes),
                sorted(last.loops),
            )
        )
        if self.leaves_after:
            found += Trees(self.leaves_after).problems(after)
        return found

    def placed(self, state: BoardState) -> tuple[str, ...]:
        return hint_cells(state, [part for part in self.move.split("+")])

    def marks(self, state: BoardState) -> Annotations:
        return Annotations(
            here=self.placed(state),
            about=cells(self.captured) + cells(self.flipped) + cells(self.removed),
        )

    def after_marks(self) -> Annotations:
        return Annotations(
            about=cells(self.leaves_after), loops=tuple(cells(loop) for loop in self.closes)
        )


@dataclass(frozen=True)
class Trees:
    """The leaves on the board are exactly ``leaves`` (ringed), and each colour's trees have
    the leaf counts ``counts`` (largest first)."""

    leaves: str
    counts: Mapping[str, tuple[int, ...]] = field(default_factory=dict)

    def problems(self, state: BoardState) -> list[str]:
        trees = state.trees()  # type: ignore[attr-defined]  # a game with trees (Lefe, Dalen): the claim is made for those
        engine_leaves = {leaf for tree in trees for leaf in tree.leaves}
        found = _differs("the leaves", set(cells(self.leaves)), engine_leaves)
        for colour, counts in self.counts.items():
            engine = sorted((len(t.leaves) for t in trees if t.colour == colour), reverse=True)
            found += _differs(f"{colour}'s leaf counts", list(counts), engine)
        return found

    def marks(self, state: BoardState) -> Annotations:
        return Annotations(about=cells(self.leaves))


@dataclass(frozen=True)
class Neighbours:
    """``cell``'s neighbours are ``of`` (shaded round the ringed cell)."""

    cell: str
    of: str

    def problems(self, state: BoardState) -> list[str]:
        grid = state.grid
        index = grid.index(self.cell)
        engine = set() if index is None else {grid.names[nb] for nb in grid.neighbours[index]}
        return _differs(f"the neighbours of {self.cell}", set(cells(self.of)), engine)

    def marks(self, state: BoardState) -> Annotations:
        return Annotations(here=(self.cell,), shade=cells(self.of))


@dataclass(frozen=True)
class Offers:
    """The player to move may play ``moves`` (``only``: and nothing else), and not ``absent``."""

    moves: str
    only: bool = False
    absent: str = ""  # moves that are not legal

    def problems(self, state: BoardState) -> list[str]:
        legal = set(state.legal_moves())
        wanted = set(cells(self.moves))
        if self.only:
            found = _differs("the moves", wanted, legal)
        else:
            missing = wanted - legal
            found = (
                [f"the page offers {sorted(missing)}, which the engine does not"] if missing else []
            )
        allowed = legal & set(cells(self.absent))
        if allowed:
            found.append(f"the page says {sorted(allowed)} may not be played, the engine allows it")
        return found

    def marks(self, state: BoardState) -> Annotations:
        return Annotations()


@dataclass(frozen=True)
class Loops:
    """The loops on the board, each as ``(cells in walking order, owner or None)``. Loops
    nobody owns get a band (owned loops are shaded by the board picture itself)."""

    loops: tuple[tuple[str, str | None], ...]

    def problems(self, state: BoardState) -> list[str]:
        engine = sorted((view.cells, view.owner or "") for view in state.loops())
        declared = sorted((cells(loop), owner or "") for loop, owner in self.loops)
        return _differs("the loops", declared, engine)

    def marks(self, state: BoardState) -> Annotations:
        return Annotations(loops=tuple(cells(loop) for loop, owner in self.loops if not owner))


@dataclass(frozen=True)
class Holes:
    """The holes owned (Les's), each as ``(owner, its points)``, tinted in the owner's
    colour. The position's own ``holes()`` are compared by owner and size."""

    holes: tuple[tuple[str, str], ...]

    def problems(self, state: BoardState) -> list[str]:
        engine = sorted((owner, len(points)) for owner, points in state.holes())
        declared = sorted((owner, len(cells(points))) for owner, points in self.holes)
        return _differs("the holes owned (owner, size)", declared, engine)

    def marks(self, state: BoardState) -> Annotations:
        return Annotations(owned=tuple((owner, cells(points)) for owner, points in self.holes))


@dataclass(frozen=True)
class Seconds:
    """Les: after the first stone on ``first``, the second stone must go on one of
    ``points`` (the empty points with no stone next to them; shaded)."""

    first: str
    points: str

    def problems(self, state: BoardState) -> list[str]:
        prefix = f"{self.first}+"
        engine = {m[len(prefix) :] for m in state.legal_moves() if m.startswith(prefix)}
        return _differs(
            f"the points for a second stone after {self.first}", set(cells(self.points)), engine
        )

    def marks(self, state: BoardState) -> Annotations:
        return Annotations(shade=cells(self.points))


@dataclass(frozen=True)
class Empty:
    """The empty cells are exactly ``cells`` (shaded): the last cells of a full board."""

    cells: str

    def problems(self, state: BoardState) -> list[str]:
        empty = {name for name in state.grid.names if name not in state.stones}
        return _differs("the empty cells", set(cells(self.cells)), empty)

    def marks(self, state: BoardState) -> Annotations:
        return Annotations(shade=cells(self.cells))


@dataclass(frozen=True)
class Scores:
    """The live score is ``score`` (the engine's own ``score``: Lefe points, Dalen stones,
    Les holes, Lublache loops owned)."""

    score: Mapping[str, int]

    def problems(self, state: BoardState) -> list[str]:
        return _differs("the score", dict(self.score), state.score)

    def marks(self, state: BoardState) -> Annotations:
        return Annotations()


@dataclass(frozen=True)
class Ends:
    """The game is over: ``winner`` (None for a draw) wins for the reason ``code``."""

    winner: str | None
    code: str

    def problems(self, state: BoardState) -> list[str]:
        outcome = state.outcome
        if outcome is None:
            return ["the page says the game is over, but the engine plays on"]
        return _differs("the winner", self.winner, outcome.winner) + _differs(
            "why the game ended", self.code, outcome.code
        )

    def marks(self, state: BoardState) -> Annotations:
        return Annotations()


@dataclass(frozen=True)
class WithOptions:
    """``claim`` holds of the same stones with other match ``options`` (a page that shows
    what an option changes says what happens without it too)."""

    options: Mapping[str, bool | int]
    claim: Claim

    def problems(self, state: BoardState) -> list[str]:
        other = state.game.position(state.size, state.stones, state.to_move, **self.options)
        return [f"with {dict(self.options)}: {problem}" for problem in self.claim.problems(other)]

    def marks(self, state: BoardState) -> Annotations:
        return Annotations()


_CELL_FIRST = re.compile(r"[a-z]+\d+\b")


def sentence(text: str) -> str:
    """A caption starts with a capital, even when it starts with a colour ("dark plays"),
    unless it starts with a cell's name ("e5 and its neighbours")."""
    if _CELL_FIRST.match(text):
        return text
    return text[:1].upper() + text[1:]


def _merge(marks: Sequence[Annotations]) -> Annotations:
    def joined(name: str) -> tuple[str, ...]:
        seen: dict[str, None] = {}
        for mark in marks:
            seen.update(dict.fromkeys(getattr(mark, name)))
        return tuple(seen)

    return Annotations(
        may=joined("may"),
        may_not=joined("may_not"),
        about=joined("about"),
        here=joined("here"),
        loops=tuple(loop for mark in marks for loop in mark.loops),
        shade=joined("shade"),
        owned=tuple(owned for mark in marks for owned in mark.owned),
    )


PICTURE_WIDTH = 480  # pictures are drawn 480 pixels wide, like every board picture


@dataclass(frozen=True)
class BoardExample:
    """A page's position, its claims and how its picture is framed. ``focus`` (cells) draws
    a close-up of that part of the board (a before/after pair always closes up, on the
    cells its claims name unless ``focus`` says otherwise); ``caption`` is a message id for
    a single picture's caption (by default the caption says what the claims show)."""

    position: Position
    claims: tuple[Claim, ...]
    focus: str = ""
    caption: str | None = None

    def state(self) -> BoardState:
        return self.position.build()

    def problems(self) -> list[str]:
        try:
            state = self.state()
        except (IllegalMove, ValueError) as error:
            return [f"the position cannot be built: {error}"]
        return [problem for claim in self.claims for problem in claim.problems(state)]

    def named_cells(self) -> set[str]:
        """Every cell the example names (page texts may mention only these)."""
        state = self.state()
        named = set(self.position.stone_map()) | set(state.stones)
        for claim in self.claims:
            named |= claim.marks(state).cells()
            if isinstance(claim, Plays):
                named |= set(claim.after(state).stones)
                named |= {part for part in claim.move.replace("x", " ").replace("+", " ").split()}
        for move in self.position.moves.split():
            named |= set(move.replace("x", " ").replace("+", " ").split())
        named |= set(cells(self.focus))
        return named

    def picture(self, language: str, theme: str) -> Image.Image:
        return self.layout(language, theme).image

    def layout(self, language: str, theme: str) -> Figure:
        """The picture with where each cell went: one panel, or a before/after pair."""
        state = self.state()
        marks = _merge([claim.marks(state) for claim in self.claims])
        plays = next((claim for claim in self.claims if isinstance(claim, Plays)), None)
        if plays is None:
            panel = board_panel(
                state,
                marks,
                caption=sentence(self._caption(state, language)),
                focus=cells(self.focus),
                width=PICTURE_WIDTH,
                theme=theme,
                language=language,
            )
            return figure([panel], side_by_side=True, theme=theme)
        after = plays.after(state)
        focus = cells(self.focus) or tuple(marks.cells() | set(after.last_turn.removed))
        width = panel_width(PICTURE_WIDTH, 2)
        before_panel = board_panel(
            state,
            marks,
            caption=sentence(
                translate(
                    language, "tutorial.caption.plays", colour=state.to_move or "", move=plays.move
                )
            ),
            focus=focus,
            width=width,
            theme=theme,
            language=language,
        )
        after_panel = board_panel(
            after,
            plays.after_marks(),
            caption=sentence(translate(language, "tutorial.caption.after", move=plays.move)),
            focus=focus,
            width=width,
            theme=theme,
            language=language,
        )
        return figure([before_panel, after_panel], side_by_side=True, theme=theme)

    def marks(self) -> tuple[Annotations, Annotations | None]:
        """What the picture marks: on the position, and after the move shown (if one is)."""
        state = self.state()
        marks = _merge([claim.marks(state) for claim in self.claims])
        plays = next((claim for claim in self.claims if isinstance(claim, Plays)), None)
        return marks, None if plays is None else plays.after_marks()

    def _caption(self, state: BoardState, language: str) -> str:
        if self.caption is not None:
            return translate(language, self.caption, colour=state.to_move or "")
        if any(isinstance(claim, Ends) for claim in self.claims) and state.outcome is not None:
            return outcome_reason(language, state.outcome)
        if any(isinstance(claim, Scores) for claim in self.claims):
            return score_line(state, language)
        if any(isinstance(claim, Placements) for claim in self.claims) and state.to_move:
            return translate(language, "tutorial.caption.may_play", colour=state.to_move)
        return ""
