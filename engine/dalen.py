"""Dalen: stagnant trees turn touching enemy trees to their colour (RULINGS §4).

A placement goes on an empty cell next to at most one friendly leaf (a leaf being a stone
with exactly one friendly neighbour). After it, every tree of the mover that can no longer
grow (the variant: can no longer gain leaves) flips each touching enemy tree that has no
more leaves than it. A player whose stones have all been flipped loses; a player who cannot
place passes, and two passes in a row end the game in favour of the larger army.
"""

from __future__ import annotations

from engine.ai.heuristics import dalen_evaluator
from engine.ai.models.dalen import DalenPosition
from engine.ai.settings import DRAW_VALUE, AlphaBetaSettings, LevelTuning, SearchSettings
from engine.board import EMPTY, PASS, PASS_MOVE, SWAP_MOVE, BoardGame, BoardState, Outcome, other
from engine.errors import IllegalMove
from engine.phrases import Phrase, Text
from engine.reports import TreeView
from engine.spec import BoardAI, GameSpec, Notation, OptionSpec
from engine.trees import Forest, build_forest, leaves_after_placing, tree_views


class DalenState(BoardState):
    """One Dalen position. ``extra`` holds ``passes`` (passes in a row) and ``seen``
    (colours that have had stones on the board, needed for the annihilation rule)."""

    def _forest(self) -> Forest:
        forest = self._cache.get("forest")
        if forest is None:
            forest = build_forest(self.cells, self.grid.neighbours, lone_stone_is_leaf=False)
            self._cache["forest"] = forest
        return forest

    @property
    def variant(self) -> bool:
        return bool(self.options.get("variant", False))

    def _seen(self) -> list[str]:
        """Colours that have placed (or, in a given position, owned) at least one stone."""
        seen = self.extra.get("seen")
        if seen is not None:
            return list(seen)
        present = set(self.cells)
        return [name for code, name in enumerate(self.game.colors, start=1) if code in present]

    @staticmethod
    def _legal_for(
        cells: bytes | bytearray,
        forest: Forest,
        neighbours: tuple[tuple[int, ...], ...],
        cell: int,
        colour: int,
    ) -> bool:
        """Whether ``colour`` may place at empty ``cell``: next to at most one friendly leaf."""
        degree = forest.degree
        leaves_touched = 0
        for nb in neighbours[cell]:
            if cells[nb] == colour and degree[nb] == 1:
                leaves_touched += 1
                if leaves_touched > 1:
                    return False
        return True

    def _placements(self, colour: int) -> list[int]:
        cells = self.cells
        forest = self._forest()
        neighbours = self.grid.neighbours
        return [
            cell
            for cell in range(len(cells))
            if cells[cell] == EMPTY and self._legal_for(cells, forest, neighbours, cell, colour)
        ]

    def trees(self) -> list[TreeView]:
        """Every tree on the board with its leaves, for pictures and tutorials."""
        names = self.grid.names
        return tree_views(self._forest(), names, self.game.colors, lone_stone_is_leaf=False)

    # ---- rule hooks ------------------------------------------------------------------
    def _legal_moves(self) -> list[str]:
        assert self.mover is not None
        names = self.grid.names
        cells = self._placements(self.mover)
        return [names[c] for c in cells] if cells else [PASS]

    def _apply(self, text: str) -> BoardState:
        colour = self.mover
        assert colour is not None
        seen = self._seen()
        if text == PASS:
            if self._placements(colour):
                raise IllegalMove("dalen_pass_only_when_stuck")
            extra = {"passes": int(self.extra.get("passes", 0)) + 1, "seen": seen}
            return self._placed(PASS, self.cells, extra=extra)
        cell = self._parse_cell(text)
        names = self.grid.names
        if self.cells[cell] != EMPTY:
            raise IllegalMove("cell_taken", cell=names[cell])
        forest = self._forest()
        if not self._legal_for(self.cells, forest, self.grid.neighbours, cell, colour):
            # the leaves it touches, for a picture that marks why (not in the text)
            leaves = tuple(
                names[nb]
                for nb in sorted(self.grid.neighbours[cell])
                if self.cells[nb] == colour and forest.degree[nb] == 1
            )
            raise IllegalMove("dalen_two_leaves", cell=names[cell], stones=leaves)
        placed_cells = bytearray(self.cells)
        placed_cells[cell] = colour
        placed = bytes(placed_cells)
        forest = build_forest(placed, self.grid.neighbours, lone_stone_is_leaf=False)
        flipped = self._flips(placed, forest, colour)
        mover_name = self.game.colour_name(colour)
        if mover_name not in seen:
            seen = [c for c in self.game.colors if c in seen or c == mover_name]
        extra = {"passes": 0, "seen": seen}
        if flipped:
            for stone in flipped:
                placed_cells[stone] = colour
            new = self._placed(
                names[cell],
                bytes(placed_cells),
                placed=(cell,),
                flipped=tuple(flipped),
                extra=extra,
            )
        else:
            new = self._placed(names[cell], placed, placed=(cell,), extra=extra)
            new._cache["forest"] = forest  # the board did not change after the placement
        return new

    def _flips(self, cells: bytes, forest: Forest, colour: int) -> list[int]:
        """Stones of enemy trees flipped by the mover's stagnant trees on ``cells``."""
        neighbours = self.grid.neighbours
        labels, leaves = forest.labels, forest.leaves
        enemy = other(colour)
        doomed: set[int] = set()
        for tree, group in enumerate(forest.members):
            if forest.owner[tree] != colour:
                continue
            touching: set[int] = set()
            growth_cells: set[int] = set()
            for stone in group:
                for nb in neighbours[stone]:
                    value = cells[nb]
                    if value == enemy:
                        touching.add(labels[nb])
                    elif value == EMPTY:
                        growth_cells.add(nb)
            # only trees that could flip something need the (costlier) stagnation test
            victims = [t for t in touching if leaves[t] <= leaves[tree] and t not in doomed]
            if not victims:
                continue
            if self._is_stagnant(cells, forest, tree, growth_cells, colour):
                doomed.update(victims)
        flipped: list[int] = []
        for tree in doomed:
            flipped.extend(forest.members[tree])
        flipped.sort()
        return flipped

    def _is_stagnant(
        self, cells: bytes, forest: Forest, tree: int, growth_cells: set[int], colour: int
    ) -> bool:
        neighbours = self.grid.neighbours
        for cell in growth_cells:
            if not self._legal_for(cells, forest, neighbours, cell, colour):
                continue
            if not self.variant:
                return False  # the tree can grow
            new_leaves, _ = leaves_after_placing(
                forest, cells, neighbours, cell, colour, lone_stone_is_leaf=False
            )
            if new_leaves > forest.leaves[tree]:
                return False  # the tree can gain leaves
        return True

    def _outcome_now(self) -> Outcome | None:
        colours = self.game.colors
        counts = self.score
        for loser in self._seen():
            if counts[loser] == 0:
                winner = colours[1] if loser == colours[0] else colours[0]
                return Outcome.because(winner, "dalen_wiped_out", colour=winner, loser_colour=loser)
        if int(self.extra.get("passes", 0)) >= 2:
            dark, light = counts[colours[0]], counts[colours[1]]
            if dark == light:
                return Outcome.because(None, "dalen_draw_passed", count=dark)
            winner = colours[0] if dark > light else colours[1]
            high, low = max(dark, light), min(dark, light)
            return Outcome.because(winner, "dalen_win_passed", colour=winner, high=high, low=low)
        return None

    @property
    def score(self) -> dict[str, int]:
        """Stones on the board per colour."""
        cells = self.cells
        return {
            self.game.colors[0]: cells.count(1),
            self.game.colors[1]: cells.count(2),
        }

    def _score_parts(self) -> tuple[Phrase, ...]:
        return (_SCORE_PART(),)


_SCORE_PART = Text("dalen.score.part", "stones on the board")

# Dalen's end: when the side to move has at most this many placements left, every level
# but the lowest reads the rest of the game with alpha-beta (to the end where its budget
# allows). A leader's army is most often one big tree by then, and a stagnant enemy tree
# with as many leaves flips all of it: the collapses that lost games against a random
# player (docs/ai.md) are seen only by reading to the end: first exactly (every line to
# its end, engine.ai.endsolver, within ``solve_nodes`` positions), then, when the game is
# still too big for that, by alpha-beta with the evaluator.
_ENDGAME_MOVES = 12
# Above that, up to this many placements, the moves a level's search likes best are read to
# the end one at a time (engine.ai.levels._screened): a move proven lost gives way to the
# next. The games lost to the random player were decided 13 to 15 placements before the
# end (docs/ai.md), where the whole position is too big to read but a losing move often
# is proven lost by a small reading.
_SCREEN_MOVES = 16
# Normal, hard and master screen from 20 placements: the first move's refutation read there
# (~20,000 positions in the games traced) leaves a table that proves the next moves lost in a
# few hundred positions each (engine.ai.endsolver.known_positions).
_SCREEN_MOVES_DEEP = 20
# Easy plays its moves out at random from this many placements down (above the end
# reading): the games it lost to the random player were decided at 13 to 26 placements.
_PLAYOUT_MOVES = 30


def _endgame(nodes: int, seconds: float) -> AlphaBetaSettings:
    return AlphaBetaSettings(
        max_depth=24, max_nodes=nodes, time_limit=seconds, draw_value=DRAW_VALUE
    )


SPEC = GameSpec(
    name="dalen",
    title=Text("game.dalen.title", "Dalen"),
    tagline=Text(
        "game.dalen.tagline",
        "trees that cannot grow turn their neighbours to your colour (2 players)",
    ),
    tutorial="tutorial.dalen",
    summary=Text(
        "game.dalen.summary",
        "Dark and light take turns placing one stone on an empty cell that touches at most "
        "one leaf of their own (a leaf is a stone with exactly one friendly neighbour). "
        "Connected stones of one colour form a tree. After your placement, each of your trees "
        "that has no legal cell left to grow into is stagnant, and every enemy tree touching it "
        "with no more leaves than it turns to your colour. Lose all your stones and you lose; "
        "if neither player can place, the bigger army wins. In the variant a tree is stagnant "
        "when it can no longer gain leaves. The second player may swap colours after the "
        "first stone.",
    ),
    colours=("dark", "light"),
    sizes=(5, 6, 7, 8, 9),
    default_size=7,
    options=(
        OptionSpec(
            "variant",
            default=False,
            label=Text("game.dalen.option.variant", "capture when a tree cannot gain leaves"),
        ),
    ),
    uses_pie=True,
    draws_possible=True,
    notation=Notation(examples=("e5", "pass"), special_moves=(SWAP_MOVE, PASS_MOVE)),
    ai=BoardAI(
        evaluator=dalen_evaluator,
        # the search reads positions as bitboards (engine/ai/models/dalen.py), the same rules
        model=DalenPosition.from_state,
        # The evaluator counts threatened flips, which swing wildly from ply to ply: for
        # hard, averaging over the replies (Monte Carlo, exploring little) beat three-ply
        # minimax.
        levels={
            "easy": LevelTuning(
                narrow_below=_ENDGAME_MOVES,
                narrow=_endgame(2_000, 0.5),
                solve_nodes=8_000,
                # easy's readings end on their counts, its clock a safety net only, so that
                # its moves do not follow the machine's speed (docs/ai.md, Dalen, fourteenth
                # round): 8,000 positions take up to 0.17 CPU s, 0.4 s is the net
                solve_share=0.8,
                screen_below=_SCREEN_MOVES,
                screen_nodes=3_000,
                # a lost end: the move that leaves the fewest winning replies (docs/ai.md,
                # Dalen, eighth round); 24,000 positions take up to 0.37 CPU s (40,000
                # met the clock, 1.25 times easy's, in lost ends)
                swindle_nodes=24_000,
                # the moves within an eighth of the best share read a reply deeper too
                # (docs/ai.md, Dalen, eleventh round)
                swindle_margin=0.125,
                swindle_time=1.25,
                # from 30 placements down to the end reading, moves that random playouts
                # find much worse than the best give way (docs/ai.md, Dalen, ninth round);
                # 24 a move take up to 0.39 CPU s at 30 placements, the net 1.25 times
                # easy's clock
                playout_below=_PLAYOUT_MOVES,
                playouts=24,
            ),
            "normal": LevelTuning(
                narrow_below=_ENDGAME_MOVES,
                narrow=_endgame(6_000, 1.5),
                solve_nodes=30_000,
                screen_below=_SCREEN_MOVES_DEEP,
                screen_nodes=8_000,
                # a lost end: the move with the best chance against a careless opponent,
                # read exactly where small, played out otherwise (docs/ai.md, Dalen,
                # twelfth round)
                chance_nodes=6_000,
                chance_playouts=40,
                chance_read=200,
                swindle_time=1.25,
            ),
            "hard": LevelTuning(
                settings=SearchSettings(
                    max_iterations=1000,
                    time_limit=4.5,
                    scan_depth=2,
                    exploration=0.2,
                    draw_value=DRAW_VALUE,
                ),
                narrow_below=_ENDGAME_MOVES,
                narrow=_endgame(20_000, 4.0),
                # hard reads the end whole from 16 placements, up to 300,000 positions (about
                # 2.5 CPU s on the model; three quarters of its clock is the net), and
                # screens its choices up to 30,000 a move: its losses to the random player
                # were wins that took 150,000-200,000 positions to find, at 11 and 15
                # placements, where it read 25,000 (docs/ai.md, Dalen, fifteenth round)
                solve_below=_SCREEN_MOVES,
                solve_nodes=300_000,
                solve_share=0.75,
                screen_below=_SCREEN_MOVES_DEEP,
                screen_nodes=30_000,
                # a lost end: the move with the best chance against a careless opponent,
                # as normal plays it, within hard's clock
                chance_nodes=30_000,
                chance_playouts=40,
                chance_read=200,
            ),
            "master": LevelTuning(
                # 2,400 iterations: searched to its clock instead (20,000), master lost
                # three of three games against the reference where 2,400 won one
                # (docs/ai.md, seventh round); its spare time goes to the screen below
                settings=SearchSettings(
                    max_iterations=2400,
                    time_limit=1.6,
                    scan_depth=2,
                    exploration=0.2,
                    draw_value=DRAW_VALUE,
                ),
                narrow_below=_ENDGAME_MOVES,
                narrow=_endgame(12_000, 1.6),
                # the exact reader plays ~100,000 positions a CPU second on the model (a
                # loaded machine fewer): the whole reading within 60 % of master's time, the
                # screen in what the Monte Carlo search leaves of it (~0.3 s at 13-20
                # placements), up to 100,000 positions a move, 160,000 in all: the clock
                # ends it first. A move's refutation there may need 100,000 (sixth round)
                solve_nodes=160_000,
                solve_share=0.6,
                screen_below=_SCREEN_MOVES_DEEP,
                screen_nodes=100_000,
                # where it screens, the search stops at half the clock at the latest: the
                # rest is the screen's
                screen_keep=0.5,
            ),
        },
    ),
)


class Dalen(BoardGame):
    """Rules object of Dalen."""

    spec = SPEC
    state_class = DalenState
