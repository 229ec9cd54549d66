"""Lublache: close loops, flip what you control, and win by running out of moves (RULINGS §6).

Which loops a position has comes from the construction in :mod:`engine.loops`. A turn:

1. place on an empty cell that touches no stone of a loop you own;
2. in every loop the new stone closes that you control (at least half the stones are
   yours), flip the enemy stones, except those lying on a loop the opponent owns;
3. remove your own stones next to a closed loop you now own, except those lying on any
   single-colour loop;
4. the move is illegal if the new stone now lies on a loop the opponent controls and could
   still own (none of your stones on it lies on a loop you own).

The player to move with no legal placement wins. The pie rule comes from the shared mould.

Table choices where the ruling leaves room (see docs/lublache-loops.md): control and
protection for the flips are judged on the board just after the stone is placed, and all
flips are applied together; a loop split evenly is controlled by both players.
"""

from __future__ import annotations

import weakref
from collections.abc import Iterator
from operator import itemgetter
from typing import NamedTuple

from engine.ai.heuristics import lublache_evaluator
from engine.ai.models.lublache import lublache_model
from engine.ai.settings import DRAW_VALUE, AlphaBetaSettings, LevelTuning, SearchSettings
from engine.board import EMPTY, SWAP, SWAP_MOVE, BoardGame, BoardState, LoopView, Outcome, other
from engine.errors import IllegalMove
from engine.loops import Loop, LoopFinder, may_close_a_cycle, stone_groups
from engine.lublache_turn import EndsOnEnemyLoop, place_stone, single_coloured
from engine.phrases import Phrase, Text
from engine.spec import BoardAI, Drawing, GameSpec, Notation


class _Turn(NamedTuple):
    """The board after one legal placement, with what happened on the way (a named tuple:
    a move list makes one per empty cell, so it must be cheap to build)."""

    cells: bytes
    closed: tuple[Loop, ...]
    flipped: tuple[int, ...]
    removed: tuple[int, ...]


_FORBIDDEN_KEYS = {1: "forbidden1", 2: "forbidden2"}  # cache keys, not built per call
_STONE = {1: b"\x01", 2: b"\x02"}
_SCORE_PART = Text("lublache.score.part", "loops owned")
_SCORE = Text("lublache.score", "{colour} owns {count} loop", plural="{colour} owns {count} loops")


class LublacheState(BoardState):
    """One Lublache position."""

    # ---- analysis, cached per state ------------------------------------------------------
    def _finder(self) -> LoopFinder:
        finder = self._cache.get("finder")
        if finder is None:
            finder = LoopFinder(self.size, self.cells)
            self._cache["finder"] = finder
        return finder

    def _forbidden_for(self, colour: int) -> frozenset[int]:
        """Empty cells next to a stone of a loop ``colour`` owns: closed to that colour."""
        key = _FORBIDDEN_KEYS[colour]
        forbidden = self._cache.get(key)
        if forbidden is None:
            neighbours, cells = self.grid.neighbours, self.cells
            found: set[int] = set()
            for loop in self._finder().all_loops():
                if single_coloured(cells, loop) == colour:
                    for stone in loop:
                        found.update(nb for nb in neighbours[stone] if cells[nb] == EMPTY)
            forbidden = frozenset(found)
            self._cache[key] = forbidden
        return forbidden

    def _next_to_owned_loop(self, cell: int, colour: int) -> bool:
        """Whether the empty ``cell`` is in :meth:`_forbidden_for` ``colour``, without
        working the whole set out when it is not known yet: a replay asks about one cell
        of each position, and the loops through its six neighbours are at hand."""
        forbidden = self._cache.get(_FORBIDDEN_KEYS[colour])
        if forbidden is not None:
            return cell in forbidden
        cells = self.cells
        stones = [nb for nb in self.grid.neighbours[cell] if cells[nb] != EMPTY]
        return any(
            single_coloured(cells, loop) == colour for loop in self._finder().loops_touching(stones)
        )

    def _stone_groups(self) -> list[int]:
        groups = self._cache.get("groups")
        if groups is None:
            groups = self._cache["groups"] = stone_groups(
                self.size, self.cells, self._finder().occupied_bits()
            )
        return groups

    def _turn_at(self, cell: int) -> _Turn | IllegalMove:
        """The fate of the mover's stone on the empty ``cell``, worked out once."""
        known: dict[int, _Turn | IllegalMove] = self._cache.setdefault("turn_at", {})
        turn = known.get(cell)
        if turn is None:
            turn = self._evaluate(cell)
            known[cell] = turn
        return turn

    def _turns(self) -> dict[int, _Turn | IllegalMove]:
        """Every empty cell's fate for the player to move: the turn, or why it is illegal."""
        turns = self._cache.get("turns")
        if turns is None:
            turns = {}
            mover = self.mover
            if mover is not None:
                known: dict[int, _Turn | IllegalMove] = self._cache.setdefault("turn_at", {})
                forbidden, groups = self._forbidden_for(mover), self._stone_groups()
                cells, size = self.cells, self.size
                for cell, code in enumerate(cells):
                    if code != EMPTY:
                        continue
                    turn = known.get(cell)
                    if turn is None:
                        # the quick cases of _evaluate() first, without a call per cell
                        if cell in forbidden or may_close_a_cycle(size, groups, cell):
                            turn = self._evaluate(cell)
                        else:
                            turn = _Turn(
                                cells[:cell] + _STONE[mover] + cells[cell + 1 :], (), (), ()
                            )
                        known[cell] = turn
                    turns[cell] = turn
            self._cache["turns"] = turns
        return turns

    def _has_a_placement(self) -> bool:
        """Whether the player to move has any legal placement, looking no further than the
        first one found: cells where no loop can form (no two of their neighbours that
        could be joined round through stones) are tried first, as they need no loop work
        and are legal unless next to an owned loop."""
        mover = self.mover if self.mover is not None else 1
        forbidden = self._forbidden_for(mover)
        empty = [cell for cell, code in enumerate(self.cells) if code == EMPTY]
        groups = self._stone_groups()
        for cell in empty:
            if cell not in forbidden and not may_close_a_cycle(self.size, groups, cell):
                return True
        return any(isinstance(self._turn_at(cell), _Turn) for cell in empty)

    def _evaluate(self, cell: int) -> _Turn | IllegalMove:
        """Play the mover's stone on the empty ``cell``: the resulting turn, or the reason
        (for players) why the rules forbid it."""
        return self._worked_out(cell)[0]

    def _worked_out(self, cell: int) -> tuple[_Turn | IllegalMove, LoopFinder | None]:
        """:meth:`_evaluate`, and the loop finder of the board after the turn when the
        loops had to be worked out for it (None on the quick paths, where none was made)."""
        mover = self.mover if self.mover is not None else 1
        if self._next_to_owned_loop(cell, mover):
            return IllegalMove("lublache_own_loop", cell=self.grid.names[cell]), None
        if not may_close_a_cycle(self.size, self._stone_groups(), cell):
            # no loop can pass through the new stone: it closes nothing and ends on nothing
            cells = self.cells
            return _Turn(cells[:cell] + _STONE[mover] + cells[cell + 1 :], (), (), ()), None
        grid = self.grid
        placed = place_stone(grid.neighbours, self.cells, self._finder(), mover, cell)
        if isinstance(placed, EndsOnEnemyLoop):
            return IllegalMove(
                "lublache_enemy_loop",
                cell=grid.names[cell],
                colour=self.game.colour_name(other(mover)),
                loop=tuple(grid.names[stone] for stone in placed.loop),  # for a picture of why
            ), None
        turn = _Turn(
            cells=placed.cells,
            closed=placed.closed,
            flipped=placed.flipped,
            removed=placed.removed,
        )
        return turn, placed.finder

    # ---- rule hooks -------------------------------------------------------------------------
    def _legal_moves(self) -> list[str]:
        names = self.grid.names
        return [names[cell] for cell, turn in self._turns().items() if isinstance(turn, _Turn)]

    def _apply(self, text: str) -> BoardState:
        cell = self._parse_cell(text)
        name = self.grid.names[cell]
        if self.cells[cell] != EMPTY:
            raise IllegalMove("cell_taken", cell=name)
        known: dict[int, _Turn | IllegalMove] = self._cache.setdefault("turn_at", {})
        turn = known.get(cell)
        finder = None
        if turn is None:
            # a move played without the move list (a replay, a stored match read again):
            # the finder that worked the turn out is the new board's
            turn, finder = self._worked_out(cell)
            known[cell] = turn
        if isinstance(turn, IllegalMove):
            # the refusal is cached with the turns: raise a fresh copy, not the shared one
            params = dict(turn.params)
            if turn.code == "lublache_own_loop":
                params.update(self._own_loop_next_to(cell))
            raise IllegalMove(turn.code, **params)
        successor = self._placed(
            name,
            turn.cells,
            placed=(cell,),
            flipped=turn.flipped,
            removed=turn.removed,
            loops=turn.closed,
        )
        groups = self._cache.get("groups")
        if groups is not None and not turn.removed:
            # one more stone and no fewer (flips keep the stones where they are): the
            # groups it touches become one
            touching = {groups[nb] for nb in self.grid.neighbours[cell] if groups[nb] >= 0}
            label = min(touching) if touching else max(groups) + 1
            if len(touching) > 1:
                joined = [label if group in touching else group for group in groups]
            else:
                joined = groups.copy()  # a new group, or a stone added to one
            joined[cell] = label
            successor._cache["groups"] = joined
        # the position before (if it is still about when the new one's loops are read, as in
        # a replay) and the stones that changed colour, came or went this turn
        changed = frozenset((cell, *turn.flipped, *turn.removed))
        successor._cache["views_before"] = (weakref.ref(self), changed)
        if finder is None:
            # the new board's loops are mostly those of this one: carry them over
            finder = self._finder().with_stone(cell)
            if turn.removed:
                finder = finder.without_stones(turn.removed)
        successor._cache["finder"] = finder
        return successor

    def _own_loop_next_to(self, cell: int) -> dict[str, tuple[str, ...]]:
        """What a picture of the "touches your own loop" refusal marks (worked out only when
        a move is refused, not for every cell of a move list): ``loop``, the first loop of
        the mover's that the cell touches, and ``stones``, every stone of the mover's loops
        next to the cell."""
        mover = self.game.colour_name(self.mover if self.mover is not None else 1)
        names = self.grid.names
        near = [names[nb] for nb in sorted(self.grid.neighbours[cell])]  # notation order
        touched = [
            view for view in self.loops() if view.owner == mover and set(near) & set(view.cells)
        ]
        on_loops = {name for view in touched for name in view.cells}
        stones = tuple(name for name in near if name in on_loops)
        return {"loop": touched[0].cells if touched else (), "stones": stones}

    def _outcome_now(self) -> Outcome | None:
        if self.mover is None:
            return None
        if self._has_a_placement():
            return None
        colour = self.game.colour_name(self.mover)
        return Outcome.because(colour, "lublache_stuck_wins", colour=colour)

    def history(self) -> Iterator[BoardState]:
        """Every position of the match in order (a replay), the same as the mould's.

        Whether a position is over (its player to move has no legal placement) is the
        costly part of settling it, and a position followed by a move has its answer
        already: the move, played, was a legal placement of that player. So each position
        is settled only when no move follows it, or when the next move fails (and then it
        is settled and played as the mould does, to give the same position and the same
        refusal).
        """
        state = self.initial_state()
        for move in self.moves:
            plain = isinstance(move, str) and move == move.strip().lower() and move != SWAP
            if not plain or not move or state.outcome is not None:
                following = state.play(move)  # the mould's way, settled
            else:
                try:
                    following = state._apply(move)  # not settled yet: the next move tells
                except IllegalMove:
                    state = state._settled()
                    yield state
                    state.play(move)  # raises as the mould's replay would
                    raise  # unreachable: the move was refused just above
            yield state
            state = following
        yield state._settled()

    # ---- what pictures, bots and help texts read ------------------------------------------
    def loops(self) -> list[LoopView]:
        """Every loop on the board, in a stable order, with its owner and controllers."""
        cached = self._cache.get("loop_views")
        if cached is not None:
            return list(cached)
        names, colours = self.grid.names, self.game.colors
        # a loop of the position before whose stones kept their colours reads the same (a
        # replay asks every position in turn)
        before: dict[Loop, LoopView] = {}
        changed: frozenset[int] = frozenset()
        carried = self._cache.pop("views_before", None)
        if carried is not None:
            previous = carried[0]()
            if previous is not None:
                before, changed = previous._cache.get("views_by_loop") or {}, carried[1]
        by_loop: dict[Loop, LoopView] = {}
        cells = self.cells
        for loop in self._finder().all_loops():
            view = before.get(loop)
            if view is None or not changed.isdisjoint(loop):
                # the stones' colours read once: the owner holds them all, a controller at
                # least half (see engine.lublache_turn: single_coloured and controls)
                pick = itemgetter(*loop)  # a loop has six cells or more: tuples come back
                stones = pick(cells)
                counts = (stones.count(1), stones.count(2))
                length = len(loop)
                view = LoopView(
                    cells=pick(names),
                    owner=next(
                        (
                            colour
                            for colour, count in zip(colours, counts, strict=True)
                            if count == length
                        ),
                        None,
                    ),
                    controllers=tuple(
                        colour
                        for colour, count in zip(colours, counts, strict=True)
                        if 2 * count >= length
                    ),
                )
            by_loop[loop] = view
        views = list(by_loop.values())
        self._cache["loop_views"] = tuple(views)
        self._cache["views_by_loop"] = by_loop
        return views

    def closed_loops(self, move: str) -> list[tuple[str, ...]]:
        """The loops a legal placement would close (cell names in walking order)."""
        cell = self._parse_cell(move)
        if self.mover is None or self.cells[cell] != EMPTY:
            return []
        turn = self._turn_at(cell)
        if not isinstance(turn, _Turn):
            return []
        names = self.grid.names
        return [tuple(names[x] for x in loop) for loop in turn.closed]

    @property
    def score(self) -> dict[str, int]:
        """Loops owned per colour."""
        owned = dict.fromkeys(self.game.colors, 0)
        for loop in self._finder().all_loops():
            code = single_coloured(self.cells, loop)
            if code != EMPTY:
                owned[self.game.colour_name(code)] += 1
        return owned

    def score_phrases(self) -> list[Phrase]:
        return [_SCORE(colour=colour, count=count) for colour, count in self.score.items()]

    def _score_parts(self) -> tuple[Phrase, ...]:
        return (_SCORE_PART(),)


# The side to move with at most this many placements: the end is read exactly first, with
# most of the level's time (the heuristic hardly tells the winner there, and the exact
# reading costs 1-2 ms a position, several hundred to a few thousand for such a
# position; docs/ai.md).
_ENDGAME_MOVES = 10
_SOLVE_SHARE = 0.85
# Above that, up to this many placements, master's chosen moves are read to the end one at
# a time (engine.ai.levels._screened): a move proven lost gives way to the next. The games
# master and hard lost to the reference were decided with 15 or more placements left, too
# many to read whole, but a losing choice is often proven lost by a small reading (one
# winning reply), and master's reading of those positions stops at its fourth ply well
# within its clock (docs/ai.md, Lublache's sixth round).
_SCREEN_MOVES = 16
# Hard and master keep this share of their time for the screen (in narrow positions too,
# where the whole reading then takes half instead of _SOLVE_SHARE): the whole reading
# reads the moves in board order and, in a position too big for it, spends its time on the
# first few, while the screen reads the search's choice alone and often proves it lost in
# a few hundred positions. Hard's loss to the random player (game 8 of the sixth round's
# line) was its choice at nine placements, proven lost alone in 1,478 positions, which the whole
# reading never reached (docs/ai.md, Lublache's seventh round).
_SCREEN_KEEP = 0.35
_SCREENED_SOLVE_SHARE = 0.5

# Easy: the whole reading from 6 placements, its choice alone screened from 8, and a lost
# end played for the opponent's mistakes (engine.ai.levels._swindled); the clock, not the
# positions, ends those readings (about 1 ms a position), and easy's clock is 0.3 s here
# (its 60 iterations take 10-50 ms) so that its slowest moves stay few and short.
_EASY_SECONDS = 0.3
_EASY_ENDGAME_MOVES = 6
_EASY_SOLVE_NODES = 1_000
_EASY_SCREEN_MOVES = 8
_EASY_SCREEN_NODES = 400
_EASY_SWINDLE_NODES = 2_000
# Normal's clock in Lublache (the level's 1.5 s less what the guard may add to a move
# whose readings end on the clock).
_NORMAL_SECONDS = 1.4
# Normal's lost ends: proven lost against best play, they are still won against the random
# player most of the time, and which lost move is played decides how often (its four lost
# games of the twelfth round's line were thrown away there). The exact chance takes 2,000
# to 4,000 positions a move at six placements (about a millisecond each), beyond the time
# left; the swindle's share of the replies, a few hundred positions a move, tracks it
# there. The Monte Carlo search that orders the moves gets 60 iterations (300 before), and
# the readings run to the guard's allowance, 1.25 times the clock.
_NORMAL_LOST_ITERATIONS = 60
_NORMAL_SWINDLE_NODES = 8_000
_NORMAL_CHANCE_NODES = 3_000
_NORMAL_LOST_TIME = 1.25
# Hard's clock: master's reading (four plies, lazy legality) within 3.0 s where master has
# 1.6 s.
_HARD_SECONDS = 3.0


def _endgame(nodes: int, seconds: float) -> AlphaBetaSettings:
    return AlphaBetaSettings(
        max_depth=24, max_nodes=nodes, time_limit=seconds, draw_value=DRAW_VALUE
    )


SPEC = GameSpec(
    name="lublache",
    title=Text("game.lublache.title", "Lublache"),
    tagline=Text(
        "game.lublache.tagline", "close loops, and win by running out of moves first (2 players)"
    ),
    tutorial="tutorial.lublache",
    summary=Text(
        "game.lublache.summary",
        "Place stones to close loops: a closed loop where you hold at least half the stones "
        "turns the enemy stones in it to your colour, and one that becomes all yours clears "
        "your stones beside it. You may not play next to a loop you own, nor end your turn "
        "on a loop your opponent controls and could still own. The player who has no legal "
        "placement on their turn wins.",
    ),
    colours=("black", "white"),
    sizes=(5, 7, 9),
    default_size=7,
    uses_pie=True,
    slow_moves=True,  # a cold move list on the 9-board: tens of ms, more in the slow tail
    notation=Notation(examples=("e5",), special_moves=(SWAP_MOVE,)),
    ai=BoardAI(
        evaluator=lublache_evaluator,
        # the search reads its own copy of a position (the same rules, less bookkeeping)
        model=lublache_model,
        # The slowest engine (a legal-move list costs milliseconds): normal reads the ten
        # best root moves three plies deep within 1,500 positions, hard and master the
        # twelve best four plies deep within their clocks. With at most ten placements left to the side to move, the rest of
        # the game is read exactly first (engine.ai.endsolver), then by alpha-beta to the
        # end where the budget allows (see docs/ai.md, Lublache's end).
        levels={
            # Easy reads only the last few placements exactly, within its own clock: its
            # losses to the random player were moves that threw a won race away with four
            # to eight placements left (docs/ai.md, Lublache's ninth round).
            "easy": LevelTuning(
                changes={"time_limit": _EASY_SECONDS},
                narrow_below=_EASY_ENDGAME_MOVES,
                solve_nodes=_EASY_SOLVE_NODES,
                solve_share=_SOLVE_SHARE,
                screen_below=_EASY_SCREEN_MOVES,
                screen_nodes=_EASY_SCREEN_NODES,
                swindle_nodes=_EASY_SWINDLE_NODES,
            ),
            # Normal reads as hard does, on a smaller scale: alpha-beta over the ten best
            # root moves, its choices screened from 16 placements, the end read whole to
            # half its clock and the rest kept for the screen, as hard's (the whole
            # reading, in board order, spent the clock on the first moves and the
            # search's choice went unread: docs/ai.md, Lublache's fourteenth round); a
            # lost end is played by the Monte Carlo search, which averages over the
            # opponent's replies. Its clock is 1.4 s so that the screen, which reads to
            # the clock, and the guard after it stay within 1.5 s (docs/ai.md,
            # Lublache's eleventh and twelfth rounds).
            "normal": LevelTuning(
                settings=AlphaBetaSettings(
                    max_depth=3,
                    max_nodes=1_500,
                    time_limit=_NORMAL_SECONDS,
                    root_width=10,
                    draw_value=DRAW_VALUE,
                ),
                narrow_below=_ENDGAME_MOVES,
                narrow=_endgame(2_000, _NORMAL_SECONDS),
                solve_nodes=4_000,
                solve_share=_SCREENED_SOLVE_SHARE,
                screen_below=_SCREEN_MOVES,
                screen_nodes=1_500,
                narrow_keep=_SCREEN_KEEP,
                # a lost end, played for a careless opponent's mistakes until the guard's
                # allowance: a short Monte Carlo search orders the moves, the swindle
                # ranks them by the share of the replies that leave normal a win, and the
                # exact chance against a uniformly random opponent, read in that order,
                # decides among the moves it reads whole (docs/ai.md, Lublache's
                # thirteenth round)
                lost_settings=SearchSettings(
                    max_iterations=_NORMAL_LOST_ITERATIONS,
                    time_limit=_NORMAL_SECONDS,
                    draw_value=DRAW_VALUE,
                ),
                swindle_nodes=_NORMAL_SWINDLE_NODES,
                chance_nodes=_NORMAL_CHANCE_NODES,
                swindle_time=_NORMAL_LOST_TIME,
            ),
            # Hard reads as master does within its own clock, twice master's: four plies
            # over the twelve best root moves, each move's legality worked out when it
            # is reached (three plies over ten within 3,000 positions, the full move
            # lists, read the middle game in a twentieth of its clock and stood at 45 %
            # against normal), and plays a lost end for the opponent's mistakes as
            # normal does (docs/ai.md, Lublache's fourteenth and fifteenth rounds).
            "hard": LevelTuning(
                settings=AlphaBetaSettings(
                    max_depth=4,
                    max_nodes=30_000,
                    time_limit=_HARD_SECONDS,
                    root_width=12,
                    draw_value=DRAW_VALUE,
                    lazy_legality=True,
                ),
                narrow_below=_ENDGAME_MOVES,
                narrow=_endgame(8_000, _HARD_SECONDS),
                solve_nodes=6_000,
                solve_share=_SCREENED_SOLVE_SHARE,
                screen_below=_SCREEN_MOVES,
                screen_nodes=1_500,
                screen_keep=_SCREEN_KEEP,
                narrow_keep=_SCREEN_KEEP,
                # normal's lost ends (the Monte Carlo order, the swindle, the exact
                # chance against a random opponent) on hard's clock, the readings to
                # the guard's allowance
                lost_settings=SearchSettings(
                    max_iterations=_NORMAL_LOST_ITERATIONS,
                    time_limit=_HARD_SECONDS,
                    draw_value=DRAW_VALUE,
                ),
                swindle_nodes=_NORMAL_SWINDLE_NODES,
                chance_nodes=_NORMAL_CHANCE_NODES,
                swindle_time=_NORMAL_LOST_TIME,
            ),
            "master": LevelTuning(
                settings=AlphaBetaSettings(
                    max_depth=4,
                    max_nodes=30_000,
                    time_limit=1.6,
                    root_width=12,
                    draw_value=DRAW_VALUE,
                    # master reads to its clock: inner positions work out the legality of
                    # the moves they reach only, which reads the same values in a third
                    # less time (docs/ai.md, Lublache's ninth round)
                    lazy_legality=True,
                ),
                narrow_below=_ENDGAME_MOVES,
                narrow=_endgame(20_000, 1.6),
                # the whole reading's budget, and the screen's in all (1,500 a move)
                solve_nodes=3_000,
                solve_share=_SCREENED_SOLVE_SHARE,
                screen_below=_SCREEN_MOVES,
                screen_nodes=1_500,
                screen_keep=_SCREEN_KEEP,
                narrow_keep=_SCREEN_KEEP,
            ),
        },
    ),
    drawing=Drawing(owned_loops=True),
)


class Lublache(BoardGame):
    """Rules object of Lublache."""

    spec = SPEC
    state_class = LublacheState
