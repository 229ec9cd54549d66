"""Rows: a toy sixth board game, a spec and a rules class and nothing else.

Red and blue take turns placing a stone on an empty point; a straight row of ``line``
stones of one colour wins (loses, with ``misere``); a full board is a draw. The second
player may swap after the first stone. It is drawn on points and lines, like Les.

Nothing outside its folder knows it: registering it (``engine.registered(Rows())``) is all it
takes for the engine, the AI, the pictures, the match service and the Discord layer to play
it, and for ``/help`` and ``/rules`` to teach it from its tutorial (``tutorial.py`` beside
this file, which its spec names).
"""

from __future__ import annotations

from functools import cache

from engine.ai.settings import LevelTuning
from engine.board import EMPTY, SWAP_MOVE, BoardGame, BoardState, Outcome
from engine.errors import IllegalMove
from engine.hexgrid import AXIAL_DIRECTIONS, hex_grid
from engine.phrases import Text
from engine.spec import BoardAI, BoardShape, Drawing, GameSpec, Notation, OptionSpec

EVALUATED: list[str] = []  # the colours the AI asked the evaluator about (tests read it)


@cache
def rows_of(size: int, line: int) -> tuple[tuple[int, ...], ...]:
    """Every straight row of ``line`` points, as indices."""
    grid = hex_grid(size)
    rows = []
    for q, r in grid.coords:
        for dq, dr in AXIAL_DIRECTIONS[::2]:  # one of each pair of opposite directions
            row = [grid.index_of_coord(q + k * dq, r + k * dr) for k in range(line)]
            if None not in row:
                rows.append(tuple(row))
    return tuple(rows)


def open_rows(state: BoardState, colour: str) -> float:
    """A tiny evaluator: the share of rows still open to ``colour`` and not to the other."""
    EVALUATED.append(colour)
    own = state.game.colour_code(colour)
    scores = {own: 0, 3 - own: 0}
    for row in rows_of(state.size, int(state.options["line"])):
        present = {state.cells[i] for i in row} - {EMPTY}
        if len(present) == 1:
            scores[present.pop()] += 1
    total = scores[own] + scores[3 - own]
    return 0.5 if total == 0 else scores[own] / total


class RowsState(BoardState):
    def _legal_moves(self) -> list[str]:
        return [self.grid.names[i] for i, c in enumerate(self.cells) if c == EMPTY]

    def _apply(self, text: str) -> BoardState:
        index = self._parse_cell(text)
        if self.cells[index] != EMPTY:
            raise IllegalMove("cell_taken", cell=self.grid.names[index])
        cells = bytearray(self.cells)
        cells[index] = self.mover or 1
        return self._placed(self.grid.names[index], bytes(cells), placed=(index,))

    def _outcome_now(self) -> Outcome | None:
        for row in rows_of(self.size, int(self.options["line"])):
            code = self.cells[row[0]]
            if code and all(self.cells[i] == code for i in row):
                maker = self.game.colour_name(code)
                winner = self.game.colour_name(3 - code) if self.options["misere"] else maker
                return Outcome(winner, f"{winner} wins: {maker} made a row")
        return None if EMPTY in self.cells else Outcome(None, "draw: the board is full")

    @property
    def score(self) -> dict[str, int]:
        return {colour: self.cells.count(code) for code, colour in enumerate(self.game.colors, 1)}


class Rows(BoardGame):
    spec = GameSpec(
        name="rows",
        title=Text("game.rows.title", "Rows"),
        summary=Text("game.rows.summary", "Make a straight row of your stones to win."),
        tagline=Text("game.rows.tagline", "a straight row of your stones wins (2 players)"),
        tutorial="tests.sixth_game.tutorial",
        colours=("red", "blue"),
        sizes=(3, 4, 5),
        default_size=4,
        options=(
            OptionSpec("line", 4, Text("game.rows.option.line", "stones in a row"), (3, 4)),
            OptionSpec("misere", False, Text("game.rows.option.misere", "a row loses")),
        ),
        uses_pie=True,
        draws_possible=True,
        notation=Notation(examples=("c3",), special_moves=(SWAP_MOVE,)),
        ai=BoardAI(evaluator=open_rows, levels={"hard": LevelTuning(changes={"max_nodes": 3000})}),
        drawing=Drawing(board=BoardShape.POINTS),
    )
    state_class = RowsState
