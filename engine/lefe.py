"""Lefe: grow trees with many kinds of leaf counts, capture smaller trees (RULINGS §3).

A placement goes on an empty cell whose friendly neighbours do not touch each other. If it
raises the leaf count of the tree it ends up in above the best tree it joined, the mover must
remove one touching enemy tree that has fewer leaves. The game ends as soon as either player
has no legal placement; points are the number of distinct leaf counts among a player's
trees, plus one for the player whose trees have the most leaves.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from engine.ai.heuristics import captures_first
from engine.ai.models.lefe import LefeModel, evaluate
from engine.ai.settings import DRAW_VALUE, AlphaBetaSettings, LevelTuning, SearchSettings
from engine.board import EMPTY, SWAP_MOVE, BoardGame, BoardState, Outcome
from engine.errors import IllegalMove
from engine.lefe_scoring import (
    lefe_outcome,
    lefe_points,
    placement_leaves,
    touching_neighbour_pairs,
)
from engine.phrases import Phrase, Text
from engine.reports import TreeView
from engine.spec import BoardAI, Completion, GameSpec, Notation, plain_move
from engine.trees import Forest, build_forest, tree_views

# "e5", "e5xg6", with optional spaces around the parts
_MOVE = re.compile(r"([a-z]+)\s*(\d+)(?:\s*x\s*([a-z]+)\s*(\d+))?")


class LefeState(BoardState):
    """One Lefe position."""

    # ---- analysis, cached per state ------------------------------------------------
    def _forest(self) -> Forest:
        forest = self._cache.get("forest")
        if forest is None:
            forest = build_forest(self.cells, self.grid.neighbours, lone_stone_is_leaf=True)
            self._cache["forest"] = forest
        return forest

    def _enemy_trees_touching(self) -> list[set[int]]:
        """Per tree, the ids of the enemy trees it touches."""
        touching = self._cache.get("touching")
        if touching is None:
            forest = self._forest()
            labels, cells, neighbours = forest.labels, self.cells, self.grid.neighbours
            touching = [set() for _ in forest.members]
            for tree, group in enumerate(forest.members):
                colour = forest.owner[tree]
                found = touching[tree]
                for cell in group:
                    for nb in neighbours[cell]:
                        if cells[nb] and cells[nb] != colour:
                            found.add(labels[nb])
            self._cache["touching"] = touching
        return touching

    def _placement_problem(self, cell: int, colour: int) -> IllegalMove | None:
        """Why ``colour`` may not place at ``cell``, or None if it may."""
        cells = self.cells
        if cells[cell] != EMPTY:
            return IllegalMove("cell_taken", cell=self.grid.names[cell])
        names = self.grid.names
        touching = {
            stone
            for a, b in touching_neighbour_pairs(self.size)[cell]
            if cells[a] == colour and cells[b] == colour
            for stone in (a, b)
        }
        if touching:
            # the stones the refusal is about, for a picture that marks why (not in the text)
            stones = tuple(names[stone] for stone in sorted(touching))
            return IllegalMove("lefe_touching_pair", cell=names[cell], stones=stones)
        return None

    def _can_place(self, colour: int) -> bool:
        pairs = touching_neighbour_pairs(self.size)
        cells = self.cells
        for cell, pair_list in enumerate(pairs):
            if cells[cell] != EMPTY:
                continue
            if not any(cells[a] == colour and cells[b] == colour for a, b in pair_list):
                return True
        return False

    def _moves_by_cell(self) -> dict[int, list[str]]:
        """Per legal placement cell of the mover, its canonical moves (cached per state).

        One pass over the empty cells. A cell's leaf gain comes from the trees it joins and
        the few stones next to it (:func:`engine.lefe_scoring.placement_leaves`, the rule
        the search's model of Lefe reads too).
        """
        table: dict[int, list[str]] | None = self._cache.get("moves_by_cell")
        if table is not None:
            return table
        colour = self.mover
        assert colour is not None
        cells = self.cells
        grid = self.grid
        names, neighbours = grid.names, grid.neighbours
        pairs = touching_neighbour_pairs(self.size)
        forest = self._forest()
        labels, degree, tree_leaves, members = (
            forest.labels,
            forest.degree,
            forest.leaves,
            forest.members,
        )
        touching: list[set[int]] | None = None
        table = {}
        for cell in range(len(cells)):
            if cells[cell]:
                continue
            blocked = False
            for a, b in pairs[cell]:
                if cells[a] == colour and cells[b] == colour:
                    blocked = True
                    break
            if blocked:
                continue
            leaves, joined, enemies = placement_leaves(
                cells, neighbours[cell], colour, labels, degree
            )
            best_joined = 0
            for tree in joined:
                leaves += tree_leaves[tree]
                if tree_leaves[tree] > best_joined:
                    best_joined = tree_leaves[tree]
            name = names[cell]
            if leaves <= best_joined:
                table[cell] = [name]  # no leaf gain, no capture
                continue
            enemy_trees = set(enemies)
            if joined:
                if touching is None:
                    touching = self._enemy_trees_touching()
                for tree in joined:
                    enemy_trees |= touching[tree]
            firsts = sorted(members[tree][0] for tree in enemy_trees if tree_leaves[tree] < leaves)
            table[cell] = [f"{name}x{names[first]}" for first in firsts] if firsts else [name]
        self._cache["moves_by_cell"] = table
        return table

    def trees(self) -> list[TreeView]:
        """Every tree on the board with its leaves, for pictures and tutorials."""
        names = self.grid.names
        return tree_views(self._forest(), names, self.game.colors, lone_stone_is_leaf=True)

    # ---- rule hooks ----------------------------------------------------------------
    def _legal_moves(self) -> list[str]:
        moves: list[str] = []
        for choices in self._moves_by_cell().values():
            moves.extend(choices)
        return moves

    def capture_choices(self, cell: str) -> list[str]:
        """The canonical moves placing at ``cell``: one, several captures, or none if illegal."""
        index = self.grid.index(cell)
        if index is None or self.outcome is not None or self.mover is None:
            return []
        return list(self._moves_by_cell().get(index, ()))

    def _apply(self, text: str) -> BoardState:
        match = _MOVE.fullmatch(text)
        if match is None:
            raise IllegalMove("lefe_bad_notation", text=text)
        cell = self._parse_cell(match[1] + match[2])
        colour = self.mover
        assert colour is not None
        names = self.grid.names
        problem = self._placement_problem(cell, colour)
        if problem is not None:
            raise problem
        choices = self._moves_by_cell()[cell]
        capture_due = "x" in choices[0]
        forest = self._forest()
        captured: list[int] = []
        if match[3] is None:
            if capture_due:
                raise IllegalMove("lefe_capture_due", cell=names[cell], choices=tuple(choices))
        else:
            target = self._parse_cell(match[3] + match[4])
            if not capture_due:
                raise IllegalMove("lefe_nothing_to_capture", cell=names[cell])
            tree = forest.labels[target]
            wanted = f"{names[cell]}x{names[forest.members[tree][0]]}" if tree >= 0 else None
            if wanted not in choices:
                raise IllegalMove(
                    "lefe_not_capturable",
                    target=names[target],
                    cell=names[cell],
                    choices=tuple(choices),
                )
            captured = forest.members[tree]
        new_cells = bytearray(self.cells)
        new_cells[cell] = colour
        for stone in captured:
            new_cells[stone] = EMPTY
        move = names[cell] if not captured else f"{names[cell]}x{names[captured[0]]}"
        return self._placed(move, bytes(new_cells), placed=(cell,), captured=tuple(captured))

    def _outcome_now(self) -> Outcome | None:
        dark_stuck, light_stuck = not self._can_place(1), not self._can_place(2)
        if not (dark_stuck or light_stuck):
            return None
        return lefe_outcome(dark_stuck, light_stuck, self.score, self.game.colors)

    @property
    def score(self) -> dict[str, int]:
        """Points each player would get if the game were scored now."""
        forest = self._forest()
        dark_points, light_points = lefe_points(forest.leaf_counts(1), forest.leaf_counts(2))
        return {self.game.colors[0]: dark_points, self.game.colors[1]: light_points}

    def leaf_counts(self) -> dict[str, list[int]]:
        """Each player's per-tree leaf counts, largest first (for score explanations)."""
        forest = self._forest()
        return {
            name: sorted(forest.leaf_counts(code), reverse=True)
            for code, name in enumerate(self.game.colors, start=1)
        }

    def _score_parts(self) -> tuple[Phrase, ...]:
        """The two parts of a Lefe score: the distinct leaf counts of each colour, and who
        has the most leaves (the bonus point, decided as :func:`lefe_points` does)."""
        counts = self.leaf_counts()
        first, second = self.game.colors
        distinct = (len(set(counts[first])), len(set(counts[second])))
        points = lefe_points(counts[first], counts[second])
        bonus = (points[0] - distinct[0], points[1] - distinct[1])
        most = (
            _MOST(colour=first)
            if bonus[0]
            else _MOST(colour=second)
            if bonus[1]
            else _MOST_NOBODY()
        )
        return (_DISTINCT(first=distinct[0], second=distinct[1]), most)

    def score_phrases(self) -> list[Phrase]:
        counts = self.leaf_counts()
        phrases = []
        for colour, points in self.score.items():
            if counts[colour]:
                leaves = ", ".join(str(c) for c in counts[colour])
                phrases.append(_SCORE(colour=colour, points=points, leaves=leaves))
            else:
                phrases.append(_SCORE_NO_TREES(colour=colour, points=points))
        return phrases


_SCORE = Text("lefe.score", "{colour} {points} ({leaves})")
_DISTINCT = Text("lefe.score.distinct", "distinct leaf counts {first} vs {second}")
_MOST = Text("lefe.score.most", "most leaves: {colour}")
_MOST_NOBODY = Text("lefe.score.most_nobody", "most leaves: nobody")
_SCORE_NO_TREES = Text("lefe.score.no_trees", "{colour} {points} (no trees)")
_CAPTURE = Text("lefe.move.capture", "{cell}, capturing the tree at {tree}")
_CAPTURE_MOVE = re.compile(r"([a-z]+\d+)x([a-z]+\d+)")


def captures_of(cell: str, legal_moves: Sequence[str]) -> list[str]:
    """The legal captures that place at ``cell`` (the moves a bare cell may have meant)."""
    return sorted(move for move in legal_moves if move.startswith(f"{cell}x"))


def describe_move(move: str) -> Phrase:
    """``e5xg6`` reads "e5, capturing the tree at g6"; other moves read as written."""
    capture = _CAPTURE_MOVE.fullmatch(move)
    if capture is None:
        return plain_move(move)
    return _CAPTURE(cell=capture[1], tree=capture[2])


def _narrow(positions: int, seconds: float) -> AlphaBetaSettings:
    """Alpha-beta to the end of the game within ``positions`` and ``seconds``."""
    return AlphaBetaSettings(
        max_depth=40, max_nodes=positions, time_limit=seconds, draw_value=DRAW_VALUE
    )


SPEC = GameSpec(
    name="lefe",
    title=Text("game.lefe.title", "Lefe"),
    tagline=Text(
        "game.lefe.tagline",
        "grow trees with many different leaf counts, capture smaller trees (2 players)",
    ),
    tutorial="tutorial.lefe",
    summary=Text(
        "game.lefe.summary",
        "Dark and light take turns placing one stone on an empty cell; a new stone may not "
        "touch two of your own stones that touch each other. Same-coloured connected stones "
        "form a tree, and a stone with at most one friendly neighbour is a leaf. When your "
        "placement gives the tree it lands in more leaves than the best tree it joined, you "
        "must remove one enemy tree touching it that has fewer leaves than your tree now has. "
        "As soon as either player cannot place, the game is scored: one point for every "
        "different leaf count among your trees, plus one point for having the leafiest trees "
        "(compared biggest first). The second player may swap colours after the first stone.",
    ),
    colours=("dark", "light"),
    sizes=(5, 6, 7),
    default_size=6,
    uses_pie=True,
    draws_possible=True,
    notation=Notation(
        examples=("e5", "e5xg6"),
        special_moves=(SWAP_MOVE,),
        describe=describe_move,
        completion=Completion(
            captures_of,
            question=Text(
                "lefe.capture.question", "{move} can capture more than one tree: which one?"
            ),
            placeholder=Text("lefe.capture.placeholder", "Capture which tree?"),
        ),
    ),
    ai=BoardAI(
        # the search reads positions in flat arrays carried from move to move
        # (engine/ai/models/lefe.py: the same rules, its evaluator the same values)
        evaluator=evaluate,
        orderer=captures_first,
        model=LefeModel.from_state,
        # Lefe's games are decided in their last placements, where a one-ply look cannot
        # see that the leader's forced placements will merge its own trees. With at most
        # 16 moves left to choose from, every level but beginner first reads the rest of
        # the game exactly (engine.ai.endsolver: a proven win is played, a proven loss
        # avoided while another move is not proven lost), then reads on with alpha-beta as
        # deep as its positions allow (easy keeps its short Monte Carlo search). The
        # search's model (about 30,000 positions a CPU second) makes this affordable.
        levels={
            "easy": LevelTuning(
                narrow_below=16,
                narrow=SearchSettings(max_iterations=60, time_limit=0.5, scan_depth=0),
                solve_nodes=8_000,
                # no random playouts: tried in the tenth round, they saved no loss to the
                # random player that chance could not, cost easy its clock at p95 and
                # brought it nearer normal (docs/ai.md, Lefe, tenth and eleventh rounds)
            ),
            "normal": LevelTuning(
                narrow_below=16,
                narrow=_narrow(40_000, 1.5),
                solve_nodes=30_000,
                solve_share=0.3,
            ),
            "hard": LevelTuning(
                narrow_below=16,
                narrow=_narrow(100_000, 4.5),
                solve_nodes=80_000,
                solve_share=0.3,
            ),
            # master reads as deep as 1.6 s of the model allow: four plies in the middle
            # game, five late (three in the opening's 70-90 moves)
            "master": LevelTuning(
                changes={"max_depth": 6, "max_nodes": 80_000},
                narrow_below=16,
                narrow=_narrow(60_000, 1.6),
                solve_nodes=40_000,
                solve_share=0.3,
            ),
        },
    ),
)


class Lefe(BoardGame):
    """Rules object of Lefe."""

    spec = SPEC
    state_class = LefeState
