"""Les: dig holes, groups of empty points bordered only by your stones (RULINGS §5).

Les is played on the points of a triangular grid, which have the same names and adjacency
as the cells of the other games (:mod:`engine.hexgrid`). Seat A first sets up four stones,
then seat B picks a colour. A turn is two placements: one on an empty point next to both a
friendly and an enemy stone, then, while any empty point has no stone next to it, one on
such an isolated point. The player to move who has no first placement ends the game, and
holes are counted.

Phases, kept in ``extra``: ``{"phase": "setup", "step": 1..4}`` (step 4 also keeps the
``anchor``, the second black stone), ``{"phase": "choose"}``, ``{"phase": "play"}``.
"""

from __future__ import annotations

import re
from typing import Any

from engine.ai.heuristics import LesPairs, les_evaluator, les_master_evaluator
from engine.ai.models.les import search_model
from engine.ai.settings import DRAW_VALUE, AlphaBetaSettings, LevelTuning
from engine.board import EMPTY, FIRST, SECOND, BoardGame, BoardState, LastTurn, Outcome
from engine.errors import IllegalMove
from engine.les_holes import (
    compare_holes,
    final_outcome,
    hole_cells,
    neighbour_sets,
    owned_holes,
    two_steps_away,
)
from engine.phrases import Phrase, Text
from engine.reports import ScoreSummary
from engine.spec import BoardAI, BoardShape, Drawing, GameSpec, Notation, SpecialMove, plain_move

BLACK, WHITE = FIRST, SECOND
SIDES = ("black", "white")

SETUP_STONES = 4
_SETUP_HEADER = Text(
    "les.setup.header", "Set-up: {player} places stone {step} of {stones} ({colour})."
)
_SETUP_HINT = Text("les.setup.hint", "Les set-up: stone {step} of {stones} ({colour}).")
_CHOOSE_HEADER = Text("les.choose.header", "{player} chooses to play black or white.")
_CHOOSE_HINT = Text("les.choose.hint", "Choose your side: black or white (black moves first).")
_PAIR = Text("les.move.pair", "{first} then {second}")
_SCORE_PART = Text("les.score.part", "holes owned")
_BIGGER = Text("les.score.bigger", "bigger holes: {colour}")
_MORE_STONES = Text("les.score.more_stones", "more stones around holes: {colour}")
_SCORE = Text("les.score", "{colour} {count} hole", plural="{colour} {count} holes")

# a turn: one or two cells, separated by "+", ",", "&" or spaces
_TURN = re.compile(r"([a-z]+\s*\d+)(?:(?:\s*[+,&]\s*|\s+)([a-z]+\s*\d+))?")


class LesState(BoardState):
    """One Les position, opening phases included."""

    # ---- phases and seats --------------------------------------------------------------
    @classmethod
    def _initial_extra(cls, game: BoardGame, fresh_game: bool) -> dict[str, Any]:
        return {"phase": "setup", "step": 1} if fresh_game else {"phase": "play"}

    @property
    def phase(self) -> str:
        return str(self.extra.get("phase", "play"))

    @property
    def seat_to_move(self) -> int | None:
        if self.outcome is not None or self.mover is None:
            return None
        if self.phase == "setup":
            return 0  # seat A sets up all four stones
        if self.phase == "choose":
            return 1  # seat B picks a side
        return super().seat_to_move

    @property
    def colours_assigned(self) -> bool:
        return self.phase == "play"

    def opening_prompt(self) -> Phrase | None:
        if self.phase == "setup":
            step = int(self.extra.get("step", 1))
            return _SETUP_HEADER(0, step=step, stones=SETUP_STONES, colour=str(self.to_move))
        if self.phase == "choose":
            return _CHOOSE_HEADER(1)
        return None

    def opening_hint(self) -> Phrase | None:
        if self.phase == "setup":
            step = int(self.extra.get("step", 1))
            return _SETUP_HINT(0, step=step, stones=SETUP_STONES, colour=str(self.to_move))
        if self.phase == "choose":
            return _CHOOSE_HINT(1)
        return None

    def _not_your_turn(self) -> IllegalMove:
        if self.phase == "setup":
            return IllegalMove("les_setting_up")
        if self.phase == "choose":
            return IllegalMove("les_choosing_side")
        return super()._not_your_turn()

    # ---- analysis, cached per state -----------------------------------------------------
    def _first_placements(self) -> list[int]:
        """Empty points next to at least one friendly and one enemy stone (the mover's)."""
        firsts = self._cache.get("firsts")
        if firsts is None:
            cells = self.cells
            mover = self.mover
            neighbours = self.grid.neighbours
            firsts = []
            for point, value in enumerate(cells):
                if value != EMPTY:
                    continue
                friend = foe = False
                for nb in neighbours[point]:
                    stone = cells[nb]
                    if stone == mover:
                        friend = True
                    elif stone:
                        foe = True
                if friend and foe:
                    firsts.append(point)
            self._cache["firsts"] = firsts
        return firsts

    def _isolated(self) -> frozenset[int]:
        """Empty points with no stone next to them."""
        isolated = self._cache.get("isolated")
        if isolated is None:
            cells = self.cells
            neighbours = self.grid.neighbours
            isolated = frozenset(
                point
                for point, value in enumerate(cells)
                if value == EMPTY and not any(cells[nb] for nb in neighbours[point])
            )
            self._cache["isolated"] = isolated
        return isolated

    def _setup_targets(self) -> list[int]:
        """Points where the current set-up stone may go."""
        cells = self.cells
        step = int(self.extra["step"])
        grid = self.grid
        if step == 1:
            return list(range(grid.cell_count))
        if step == 2:
            black = cells.index(BLACK)
            return [nb for nb in grid.neighbours[black] if cells[nb] == EMPTY]
        ring = two_steps_away(self.size)
        if step == 3:
            return [
                point
                for point in range(grid.cell_count)
                if cells[point] == EMPTY and any(cells[far] == EMPTY for far in ring[point])
            ]
        anchor = grid.index(str(self.extra["anchor"]))
        assert anchor is not None
        return [far for far in ring[anchor] if cells[far] == EMPTY]

    # ---- rule hooks ----------------------------------------------------------------------
    def _legal_moves(self) -> list[str]:
        names = self.grid.names
        phase = self.phase
        if phase == "setup":
            return [names[p] for p in self._setup_targets()]
        if phase == "choose":
            return list(SIDES)
        isolated = self._isolated()
        near = neighbour_sets(self.size)
        moves: list[str] = []
        for first in self._first_placements():
            seconds = isolated - near[first]
            if seconds:
                prefix = names[first] + "+"
                moves.extend([prefix + names[second] for second in seconds])
            else:
                moves.append(names[first])
        return moves

    def _apply(self, text: str) -> BoardState:
        phase = self.phase
        if phase == "choose":
            return self._choose_side(text)
        match = _TURN.fullmatch(text)
        if match is None:
            example = "e5" if phase == "setup" else "e5+b2"
            raise IllegalMove("les_bad_notation", text=text, example=example)
        if phase == "setup":
            if match[2] is not None:
                raise IllegalMove("les_setup_one_stone")
            return self._setup_stone(self._parse_cell(match[1].replace(" ", "")))
        first = self._parse_cell(match[1].replace(" ", ""))
        second = None if match[2] is None else self._parse_cell(match[2].replace(" ", ""))
        return self._turn(first, second)

    def _choose_side(self, text: str) -> BoardState:
        if text not in SIDES:
            raise IllegalMove("les_choose_side")
        return self._next(
            swapped=text == "black",  # seat B playing black means seat A plays white
            mover=BLACK,
            ply=self.ply + 1,
            moves=(*self.moves, text),
            last_turn=LastTurn(move=text),
            extra={"phase": "play"},
        )

    def _setup_stone(self, point: int) -> BoardState:
        names = self.grid.names
        step = int(self.extra["step"])
        if self.cells[point] != EMPTY:
            raise IllegalMove("cell_taken", cell=names[point])
        if point not in self._setup_targets():
            if step == 2:
                black = names[self.cells.index(BLACK)]
                raise IllegalMove("les_first_white", cell=black)
            if step == 3:
                raise IllegalMove("les_no_room_for_second_white", cell=names[point])
            anchor = self.extra["anchor"]
            raise IllegalMove("les_second_white", cell=anchor)
        cells = bytearray(self.cells)
        cells[point] = self.mover or BLACK
        if step < 4:
            extra: dict[str, Any] = {"phase": "setup", "step": step + 1}
            if step == 3:
                extra["anchor"] = names[point]
            next_mover = WHITE if step % 2 else BLACK
        else:
            extra = {"phase": "choose"}
            next_mover = BLACK
        return self._placed(
            names[point], bytes(cells), next_mover=next_mover, placed=(point,), extra=extra
        )

    def _turn(self, first: int, second: int | None) -> BoardState:
        names = self.grid.names
        firsts = self._first_placements()
        isolated = self._isolated()
        if second is not None and first not in firsts and second in firsts:
            # the player wrote the isolated point first; the pair can only mean one turn
            first, second = second, first
        if self.cells[first] != EMPTY:
            raise IllegalMove("cell_taken", cell=names[first])
        if first not in firsts:
            raise IllegalMove("les_not_between_colours", cell=names[first])
        seconds = isolated - neighbour_sets(self.size)[first]
        if second is None:
            if seconds:
                example = names[min(seconds)]
                raise IllegalMove("les_second_stone_due", cell=names[first], example=example)
        else:
            if not seconds:
                raise IllegalMove("les_no_second_stone", cell=names[first])
            if self.cells[second] != EMPTY:
                raise IllegalMove("cell_taken", cell=names[second])
            if second not in seconds:
                raise IllegalMove("les_second_not_isolated", cell=names[second])
        cells = bytearray(self.cells)
        cells[first] = self.mover or BLACK
        placed: tuple[int, ...] = (first,)
        move = names[first]
        if second is not None:
            cells[second] = self.mover or BLACK
            placed = (first, second)
            move = f"{names[first]}+{names[second]}"
        return self._placed(move, bytes(cells), placed=placed)

    def _owned_holes(self) -> dict[int, list[tuple[int, int]]]:
        owned = self._cache.get("owned_holes")
        if owned is None:
            owned = self._cache["owned_holes"] = owned_holes(self.cells, self.grid.neighbours)
        return owned

    def _outcome_now(self) -> Outcome | None:
        if self.phase != "play" or self.mover is None or self._first_placements():
            return None
        return final_outcome(self.game, self.mover, self._owned_holes())

    @property
    def score(self) -> dict[str, int]:
        """Holes each colour owns right now."""
        owned = self._owned_holes()
        return {self.game.colors[0]: len(owned[BLACK]), self.game.colors[1]: len(owned[WHITE])}

    def score_phrases(self) -> list[Phrase]:
        return [_SCORE(colour=colour, count=count) for colour, count in self.score.items()]

    def holes(self) -> list[tuple[str, tuple[str, ...]]]:
        names = self.grid.names
        return [
            (self.game.colour_name(owner), tuple(names[i] for i in points))
            for owner, points in hole_cells(self.cells, self.grid.neighbours)
        ]

    def score_summary(self) -> ScoreSummary:
        """Holes owned; when both own as many, the tie-break that would decide now."""
        owned = self._owned_holes()
        winner, criterion = compare_holes(owned[BLACK], owned[WHITE])
        colours = self.game.colors
        leader = colours[winner - 1] if winner else None
        parts: list[Phrase] = [_SCORE_PART()]
        if leader is not None and criterion == "bigger holes":
            parts.append(_BIGGER(colour=leader))
        elif leader is not None and criterion == "more stones around holes":
            parts.append(_MORE_STONES(colour=leader))
        return ScoreSummary(tuple(self.score.items()), leader, tuple(parts))


def describe_move(move: str) -> Phrase:
    """``e5+b2`` reads "e5 then b2"; other moves read as written."""
    first, plus, second = move.partition("+")
    return _PAIR(first=first, second=second) if plus else plain_move(move)


# each message code written out, so that extraction for the catalogues finds it
_SIDE_BUTTONS = {
    "black": Text("les.move.black.button", "Play black"),
    "white": Text("les.move.white.button", "Play white"),
}


def _side(colour: str) -> SpecialMove:
    return SpecialMove(
        colour,
        button=_SIDE_BUTTONS[colour],
        announce=Text("les.move.side.announce", "{player} chooses {colour}."),
    )


# Master reads the 24 best root moves as deep as its 1.6 s allow (the positions are only a
# safety net). In two-stone turns it reads only the 8 best first stones, each with its 4
# best isolated points, every stone valued alone once (engine.ai.heuristics.LesPairs), so
# the opening reads three plies where every pair allowed two. A first placement touching
# no claimed and no isolated point changes nothing but the moves left, so one such point
# stands for all of them (LesPosition.quiet_points): from the middle game on that halves
# the moves read, and near the end leaves a handful, read up to 20 plies deep. Its
# evaluator reads the holes in the order the game is decided (the tie-breaks after the
# holes), and a result that can no longer change as that result (les_master_evaluator;
# docs/ai.md).
_MASTER = AlphaBetaSettings(
    max_depth=20,
    max_nodes=400_000,
    time_limit=1.6,
    root_width=24,
    draw_value=DRAW_VALUE,
    orderer=LesPairs(firsts=8, seconds=4, one_quiet=True),
    evaluator=les_master_evaluator,
)
_MASTER_EXACT_MOVES = 14

SPEC = GameSpec(
    name="les",
    title=Text("game.les.title", "Les"),
    tagline=Text("game.les.tagline", "dig holes that only your stones border (2 players)"),
    tutorial="tutorial.les",
    summary=Text(
        "game.les.summary",
        "Black and white place stones on the points of a triangular grid. To start, the first "
        "player sets up a black stone next to a white one and another black stone two steps "
        "from another white one, and the second player picks a colour; black then moves first. "
        "Each turn you place a stone on an empty point touching both colours, then, while some "
        "empty point has no stone next to it, a second stone on such a point. When the player "
        "to move has no point touching both colours, the game ends. A hole is a group of "
        "connected empty points; you own it when only your stones border it. Most holes wins; "
        "ties go to the bigger holes, then to the holes with more stones around them.",
    ),
    colours=SIDES,
    sizes=(5, 6, 7, 8, 9),
    default_size=9,
    uses_pie=False,
    draws_possible=True,
    notation=Notation(
        examples=("e5+b2", "e5"),
        special_moves=tuple(_side(colour) for colour in SIDES),
        describe=describe_move,
    ),
    ai=BoardAI(
        evaluator=les_evaluator,
        model=search_model,
        # Les offers up to a thousand two-stone moves early on: hard reads only the 24 best
        # of its first look three plies deep. Master reads the same 24 as deep as its 1.6 s
        # allow (the positions are only a safety net): on the search's model three plies
        # cost 0.01-0.05 s from the middle game on, so it reads four or five plies there
        # and six to eight near the end, where holes close; its opening and its last 14
        # moves are read apart (_MASTER above; docs/ai.md). A fourth ply on the engine's
        # slower states (8747027) had scored no better over 15 games.
        levels={
            "hard": LevelTuning(
                settings=AlphaBetaSettings(
                    max_depth=3,
                    max_nodes=5_000,
                    time_limit=4.5,
                    root_width=24,
                    draw_value=DRAW_VALUE,
                )
            ),
            "master": LevelTuning(
                settings=_MASTER,
                # from 14 moves the rest of the game is read to the end exactly first
                # (engine.ai.endsolver: 3,000-13,000 positions, 0.1-0.3 s of CPU); a proven
                # win is played at once, a move proven worse than another is not
                narrow_below=_MASTER_EXACT_MOVES,
                narrow=_MASTER,
                solve_nodes=40_000,
                solve_share=0.5,
            ),
        },
    ),
    drawing=Drawing(board=BoardShape.POINTS, owned_holes=True),
)


class Les(BoardGame):
    """Rules object of Les."""

    spec = SPEC
    state_class = LesState
