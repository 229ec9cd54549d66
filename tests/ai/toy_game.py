"""A tiny game on the board mould, for tactics tests whose right answer is obvious.

Three in a row: players alternate placing a stone on the side-3 hexagon; three of your
stones in a straight line win, a full board is a draw. It uses only the mould's hooks, so
the search meets it exactly as it meets the real games.
"""

from __future__ import annotations

from typing import Any

from engine.board import EMPTY, BoardGame, BoardState, Outcome
from engine.errors import IllegalMove
from engine.hexgrid import AXIAL_DIRECTIONS
from engine.phrases import Text
from engine.spec import GameSpec


def lines_of(state: BoardState) -> list[tuple[int, int, int]]:
    """Every straight line of three cells, as cell indices."""
    grid = state.grid
    lines = []
    for index, (q, r) in enumerate(grid.coords):
        for dq, dr in AXIAL_DIRECTIONS[::2]:  # one of each opposite pair of directions
            b = grid.index_of_coord(q + dq, r + dr)
            c = grid.index_of_coord(q + 2 * dq, r + 2 * dr)
            if b is not None and c is not None:
                lines.append((index, b, c))
    return lines


class ThreeState(BoardState):
    def _legal_moves(self) -> list[str]:
        return [self.grid.names[i] for i, c in enumerate(self.cells) if c == EMPTY]

    def _apply(self, text: str) -> BoardState:
        index = self._parse_cell(text)
        if self.cells[index] != EMPTY:
            raise IllegalMove("cell_taken", cell=text)
        cells = bytearray(self.cells)
        cells[index] = self.mover or 1
        return self._placed(self.grid.names[index], bytes(cells), placed=(index,))

    def _outcome_now(self) -> Outcome | None:
        for a, b, c in lines_of(self):
            if self.cells[a] and self.cells[a] == self.cells[b] == self.cells[c]:
                return Outcome(self.game.colour_name(self.cells[a]), "three in a row")
        if EMPTY not in self.cells:
            return Outcome(None, "the board is full")
        return None

    @property
    def score(self) -> dict[str, Any]:
        return dict.fromkeys(self.game.colors, 0)


class ThreeInRow(BoardGame):
    spec = GameSpec(
        name="three",
        title=Text("game.three.title", "Three in a row"),
        summary=Text("game.three.summary", "Three of your stones in a straight line win."),
        colours=("red", "blue"),
        sizes=(3,),
        default_size=3,
    )
    state_class = ThreeState


def _line_off_centre(state: BoardState) -> tuple[int, int, int]:
    grid = state.grid
    return next(line for line in lines_of(state) if grid.centre not in line)


def red_wins_in_one() -> tuple[BoardState, str]:
    """Red, to move, holds two cells of a line away from the centre: the third wins."""
    game = ThreeInRow()
    state = game.new()
    grid = state.grid
    a, b, c = _line_off_centre(state)
    position = game.position(
        stones={grid.names[a]: "red", grid.names[b]: "red", grid.names[grid.centre]: "blue"},
        to_move="red",
    )
    return position, grid.names[c]


def blue_threatens_three() -> tuple[BoardState, str]:
    """Red, to move, must take the cell that would complete blue's line."""
    game = ThreeInRow()
    state = game.new()
    grid = state.grid
    a, b, c = _line_off_centre(state)
    corner = next(
        i for i in range(grid.cell_count) if i not in (a, b, c, grid.centre) and grid.on_edge[i]
    )
    position = game.position(
        stones={grid.names[a]: "blue", grid.names[b]: "blue", grid.names[corner]: "red"},
        to_move="red",
    )
    return position, grid.names[c]
