"""Game-specific knowledge for the board-game search: leaf evaluators and move ordering.

The search (:mod:`engine.ai.mcts`) is generic. What it gains from knowing a game lives
here, kept apart so that the search stays correct for any game on the board mould and a
bad heuristic can only make the AI weaker, never make it play an illegal move:

* an *evaluator* ``(state, colour) -> [0, 1]``: the estimated chance that ``colour`` wins
  the unfinished position ``state``, used where the search stops looking ahead;
* an *orderer* ``(state, moves, rng) -> moves``: the legal moves, most promising first,
  so that progressive widening tries those first.

Each game's spec names its evaluator and orderer (:class:`engine.spec.BoardAI`);
:func:`evaluator_for` and :func:`orderer_for` read them from there. Every evaluator reads
only the state's public surface (the live ``score``, ``stones``,
``grid.neighbours``, ``to_move``, Lublache's ``loops()``), never the rule internals; where
it needs a rule (where a Lefe stone may go, when a Dalen tree is stagnant, which cells a
Lublache loop closes to its owner) it applies the rule as the rule page
states it, so a mistake there weakens the play but cannot make a move illegal.
"""

from __future__ import annotations

import functools
import math
import random
from collections.abc import Sequence
from dataclasses import dataclass

from engine.ai.models.dalen import DalenPosition
from engine.ai.models.les import LesPosition, search_model
from engine.hexgrid import HexGrid
from engine.les_holes import compare_holes
from engine.spec import Evaluator, MoveOrderer, Position


def _logistic(x: float) -> float:
    # clamp: math.exp overflows far before the value stops being 0 or 1 anyway
    x = max(-30.0, min(30.0, x))
    return 1.0 / (1.0 + math.exp(-x))


def _opponent(state: Position, colour: str) -> str:
    first, second = state.game.colors
    return second if colour == first else first


def score_evaluator(scale: float) -> Evaluator:
    """Logistic of the live score difference: a lead of ``scale`` points is worth ~73 %."""

    def evaluate(state: Position, colour: str) -> float:
        score = state.score
        return _logistic((score[colour] - score[_opponent(state, colour)]) / scale)

    return evaluate


def neutral_evaluator(state: Position, colour: str) -> float:
    """No opinion: every unfinished position is a coin flip (pure rollout search)."""
    return 0.5


@functools.lru_cache(maxsize=16)
def _touching_pairs(grid: HexGrid) -> tuple[tuple[tuple[int, int], ...], ...]:
    """Per cell of ``grid``, the pairs of its neighbours that are neighbours of each other."""
    neighbours = grid.neighbours
    return tuple(
        tuple((a, b) for i, a in enumerate(nbs) for b in nbs[i + 1 :] if b in neighbours[a])
        for nbs in neighbours
    )


def _cell_owners(state: Position) -> list[str | None]:
    """The colour on every cell of the board (None when empty), from the public ``stones``."""
    owners: list[str | None] = [None] * state.grid.cell_count
    index = state.grid.index
    for name, colour in state.stones.items():
        cell = index(name)
        assert cell is not None  # a stone is always on a cell of its board
        owners[cell] = colour
    return owners


def lefe_mobility(state: Position) -> dict[str, int]:
    """Lefe: how many empty cells each colour may place on (the rule is public: a stone's
    friendly neighbours must not touch each other). The game ends when either count is 0.
    """
    owners = _cell_owners(state)
    pairs = _touching_pairs(state.grid)
    counts = dict.fromkeys(state.game.colors, 0)
    for cell, owner in enumerate(owners):
        if owner is not None:
            continue
        for colour in counts:
            if not any(owners[a] == colour and owners[b] == colour for a, b in pairs[cell]):
                counts[colour] += 1
    return counts


# How many points of lead make the win near certain, by how many placements the more
# cramped player has left: the game ends on the current points when someone runs out, and
# until then points change hands (trees merge, lone stones get captured). Tuned by hand on
# benchmark games (see docs/ai.md).
_LEFE_CERTAIN_SCALE = 0.6
_LEFE_SCALE_PER_PLACEMENT = 0.08


def lefe_evaluator(state: Position, colour: str) -> float:
    """Lefe: the points the position would score now, trusted more the nearer the end.

    Either player running out of placements ends the game on the current points, so a
    lead is worth more the fewer placements the more cramped player has left: ahead, the
    search steers towards ending the game; level or behind, it keeps the game open.
    (Counting only the trailing player's placements instead was tried: no better over 50
    games against a random player, 46 wins against 47.)
    """
    score = state.score
    lead = score[colour] - score[_opponent(state, colour)]
    if lead == 0:
        return 0.5
    return lefe_value(lead, min(lefe_mobility(state).values()))


def lefe_value(lead: int, placements_left: int) -> float:
    """Lefe: the chance a ``lead`` in points wins when the more cramped player has
    ``placements_left`` placements (:func:`lefe_evaluator`'s formula, shared with the
    search's model, :mod:`engine.ai.models.lefe`, which counts both its own way)."""
    if lead == 0:
        return 0.5
    scale = _LEFE_CERTAIN_SCALE + _LEFE_SCALE_PER_PLACEMENT * placements_left
    return _logistic(lead / scale)


def _trees(
    owners: Sequence[str | None], neighbours: tuple[tuple[int, ...], ...]
) -> tuple[list[int], list[list[int]]]:
    """Label every stone with its tree: (label per cell, -1 when empty; members per tree).

    Any per-cell colouring works: Les claims are grouped with it too."""
    labels = [-1] * len(owners)
    members: list[list[int]] = []
    for start, owner in enumerate(owners):
        if owner is None or labels[start] != -1:
            continue
        label = len(members)
        labels[start] = label
        group = [start]
        for stone in group:  # grows while it is walked: a breadth-first flood fill
            for nb in neighbours[stone]:
                if labels[nb] == -1 and owners[nb] == owner:
                    labels[nb] = label
                    group.append(nb)
        members.append(group)
    return labels, members


def dalen_threats(state: Position) -> dict[str, int]:
    """Dalen: per colour, the enemy stones its stagnant trees would flip on its next turn.

    A tree is stagnant when none of the empty cells next to it is a legal placement for
    its owner (legal: touching at most one of the owner's leaves, a leaf being a stone
    with exactly one friendly neighbour); it turns every touching enemy tree with no more
    leaves than itself. Those stones are as good as lost for the enemy unless the enemy
    moves first and changes the picture. The variant's stagnation rule is not modelled
    (0 threats there).
    """
    return dalen_pressure(state)[0]


def dalen_pressure(state: Position) -> tuple[dict[str, int], dict[str, float]]:
    """Dalen: per colour, (the threats of :func:`dalen_threats`, the exposure it holds).

    Exposure: enemy trees touching one of the colour's trees that has at least their
    leaves but can still grow. Such a tree flips them the moment it stops growing, and as
    the board fills every tree stops; the fewer cells it has left to grow into, the
    sooner. Each exposed enemy tree counts its stones once, times ``1 / (1 + g)`` for
    the fewest growth cells ``g`` among the trees that expose it (a stagnant one, g = 0,
    is a threat and counted there instead). A big army in one tree with few leaves next
    to an enemy tree with as many is what lost the games against random players
    (docs/ai.md, Dalen's end).
    """
    if isinstance(state, DalenPosition):  # the search's model: the same, from its masks
        return state.pressure()
    colours = state.game.colors
    threats = dict.fromkeys(colours, 0)
    exposure = dict.fromkeys(colours, 0.0)
    if state.options.get("variant", False):
        return threats, exposure
    owners = _cell_owners(state)
    neighbours = state.grid.neighbours
    labels, members = _trees(owners, neighbours)
    degree = [
        sum(1 for nb in neighbours[cell] if owners[nb] == owner) if owner is not None else 0
        for cell, owner in enumerate(owners)
    ]
    leaves = [sum(1 for stone in group if degree[stone] == 1) for group in members]

    def legal_for(cell: int, colour: str) -> bool:
        return sum(1 for nb in neighbours[cell] if owners[nb] == colour and degree[nb] == 1) <= 1

    doomed: dict[str, set[int]] = {colour: set() for colour in colours}
    # per colour: exposed enemy tree -> the fewest growth cells of a tree exposing it
    exposed: dict[str, dict[int, int]] = {colour: {} for colour in colours}
    for tree, group in enumerate(members):
        owner = owners[group[0]]
        assert owner is not None
        touching: set[int] = set()
        growth: set[int] = set()
        for stone in group:
            for nb in neighbours[stone]:
                other = owners[nb]
                if other is None:
                    growth.add(nb)
                elif other != owner:
                    touching.add(labels[nb])
        victims = {t for t in touching if leaves[t] <= leaves[tree]}
        if not victims:
            continue
        room = sum(1 for cell in growth if legal_for(cell, owner))
        if room == 0:
            doomed[owner] |= victims
            continue
        seen = exposed[owner]
        for victim in victims:
            seen[victim] = min(room, seen.get(victim, room))
    for colour in colours:
        threats[colour] = sum(len(members[tree]) for tree in doomed[colour])
        # fsum: the exact sum, whatever the order the trees were met in (the model's differs)
        exposure[colour] = math.fsum(
            len(members[tree]) / (1 + room)
            for tree, room in exposed[colour].items()
            if tree not in doomed[colour]
        )
    return threats, exposure


# The side to move cashes its threats before the opponent can react; the opponent's are
# only half counted, since the mover may defuse them (or lose the stones anyway).
_DALEN_OPPONENT_THREAT_WEIGHT = 0.5
# How much of an exposed tree counts as lost (see dalen_pressure), and the logistic's
# scale: a stone difference of this many stones, plus this share of the stones on the
# board, is a 73 % chance. With a fixed scale of 4 stones, a lead of 40 or more read 1.00
# whatever the move, and the leader played blind exactly where its army, one big tree,
# was about to turn over (docs/ai.md, Dalen: the leader's blindness); the scale growing
# with the stones keeps a 60-stone lead with 120 on the board at 0.94 and 20 at 0.71.
_DALEN_EXPOSURE_WEIGHT = 1.0
_DALEN_SCALE = 4.0
_DALEN_SCALE_PER_STONE = 0.15


def dalen_evaluator(state: Position, colour: str) -> float:
    """Dalen: stones on the board decide the game (and none left loses at once), counting
    the flips already threatened by stagnant trees as good as made, and trees exposed to
    a bigger-leaved enemy tree as partly lost; a difference weighs less the more stones
    are on the board (a big army can still turn over)."""
    score = state.score
    opponent = _opponent(state, colour)
    x: float = score[colour] - score[opponent]
    threats, exposure = dalen_pressure(state)
    mover = state.to_move
    for side, sign in ((colour, 1), (opponent, -1)):
        weight = 1.0 if side == mover else _DALEN_OPPONENT_THREAT_WEIGHT
        # a flip moves stones from one army to the other: it counts twice in the difference
        x += sign * 2 * weight * threats[side]
        x += sign * 2 * _DALEN_EXPOSURE_WEIGHT * exposure[side]
    stones = score[colour] + score[opponent]
    return _logistic(x / (_DALEN_SCALE + _DALEN_SCALE_PER_STONE * stones))


def shuffled(state: Position, moves: list[str], rng: random.Random) -> list[str]:
    """No preference: a seeded shuffle, so widening explores without a fixed bias."""
    moves = list(moves)
    rng.shuffle(moves)
    return moves


def captures_first(state: Position, moves: list[str], rng: random.Random) -> list[str]:
    """Lefe: a capture removes a whole enemy tree, usually the biggest swing available."""
    moves = shuffled(state, moves, rng)
    return [m for m in moves if "x" in m] + [m for m in moves if "x" not in m]


def les_claims(state: Position) -> tuple[dict[str, int], dict[str, int]]:
    """Les: per colour, the regions it has staked out and the empty points in them.

    An empty point whose stone neighbours are all one colour is that colour's *claimed*
    point: the other side may not place there (a first placement must touch both
    colours) until it gets a stone next to it, and the owner may not place there either.
    Claimed points of one colour that touch each other form a *claim*, the raw material of
    a hole: a hole whose every point touches a stone is exactly a claim cut off from the
    other empty points. Returns (claims per colour, claimed points per colour); claims
    include such holes.

    Les's search model (:class:`engine.ai.models.les.LesPosition`) keeps these counts
    itself, updated move by move, and is asked for them instead; any other position is
    read from its cells.
    """
    if isinstance(state, LesPosition):
        return state.claims()
    cells = state.cells
    neighbours = state.grid.neighbours
    # per point, the colour code claiming it (0: a stone, contested or isolated): the
    # colours of a point's stone neighbours as bits (1 | 2), one colour only claims
    claimed = bytearray(len(cells))
    for point, value in enumerate(cells):
        if value:
            continue
        bits = 0
        for nb in neighbours[point]:
            bits |= cells[nb]
        if bits == 1 or bits == 2:
            claimed[point] = bits
    points = [0, claimed.count(1), claimed.count(2)]
    claims = [0, 0, 0]
    for start, owner in enumerate(claimed):
        if not owner:
            continue
        claims[owner] += 1
        claimed[start] = 0  # a point grouped into its claim is cleared: read once
        stack = [start]
        while stack:
            point = stack.pop()
            for nb in neighbours[point]:
                if claimed[nb] == owner:
                    claimed[nb] = 0
                    stack.append(nb)
    first, second = state.game.colors
    return {first: claims[1], second: claims[2]}, {first: points[1], second: points[2]}


# A claim still open to the board is worth half a hole (it may be split, or joined to
# another, before it closes); each claimed point a little, as hole sizes break ties.
# Chosen on benchmark games (see docs/ai.md).
_LES_OPEN_CLAIM_WEIGHT = 0.5
_LES_POINT_WEIGHT = 0.02


def les_evaluator(state: Position, colour: str) -> float:
    """Les: holes owned (what the final count compares first), plus the claims that are
    on their way to becoming holes, so the search has a sense of direction long before
    the first hole closes."""
    score = state.score
    opponent = _opponent(state, colour)
    claims, points = les_claims(state)
    x: float = score[colour] - score[opponent]
    x += _LES_OPEN_CLAIM_WEIGHT * (
        (claims[colour] - score[colour]) - (claims[opponent] - score[opponent])
    )
    x += _LES_POINT_WEIGHT * (points[colour] - points[opponent])
    return _logistic(x)


# Master's evaluator (les_master_evaluator): with the holes level, the side that wins the
# tie-breaks as they stand is half a hole ahead, as far ahead as one open claim puts it.
_LES_TIE_BREAK_WEIGHT = 0.5


def les_settled(state: Position) -> int | None:
    """Les: the result that no play can change any more, as the colour code of the winner
    (0: a draw), or None while it can still change.

    Once no empty point is left without a stone next to it (the two-stone turns are over),
    a stone only adds its colour to the points next to it, so no new claimed point can
    appear: an owned hole stays as it is, and only an open claim (claimed points not yet
    cut off as a hole) can still become one. So with neither side holding an open claim,
    the holes owned now are the final ones and the engine's comparison of them
    (:func:`engine.les_holes.compare_holes`: holes owned, then the bigger holes, then the
    stones around them) is the result: a win, or a draw (nobody owning a hole, or the holes
    alike). And a side whose holes beat the other's while the other has no open claim left
    has won whatever happens to its own claims: its holes can only grow in number."""
    model = state if isinstance(state, LesPosition) else LesPosition.of(state)  # type: ignore[arg-type]  # a Les state of the ordinary turns (the search's leaves are)
    return _les_settled(model)


def _les_settled(model: LesPosition) -> int | None:
    black, white = model.owned_holes()
    _, claims = model.holes_and_claims()
    open_black, open_white = claims[0] - len(black), claims[1] - len(white)
    if (open_black and open_white) or model.isolated_points():
        return None
    winner, _ = compare_holes(list(black), list(white))
    if (winner == 1 and not open_white) or (winner == 2 and not open_black):
        return winner
    if not open_black and not open_white:
        return 0
    return None


def les_master_evaluator(state: Position, colour: str) -> float:
    """Les master: :func:`les_evaluator`'s holes, open claims and claimed points, read in
    the order the engine decides a game (RULINGS §5: holes owned; with as many holes each,
    the bigger holes; then the stones around them), and a result that can no longer change
    (:func:`les_settled`) valued as that result.

    With as many holes each and the result still open, the engine's tie-breaks on the
    holes as they stand count half a hole for the side they favour, on top of the claims
    and claimed points. Read on the search's model (made for the purpose from an engine
    state)."""
    model = state if isinstance(state, LesPosition) else LesPosition.of(state)  # type: ignore[arg-type]  # a Les state of the ordinary turns (the search's leaves are)
    me = 1 if colour == state.game.colors[0] else 2
    settled = _les_settled(model)
    if settled is not None:
        return 0.5 if settled == 0 else float(settled == me)
    holes = model.owned_holes()
    mine, theirs = holes[me - 1], holes[2 - me]
    _, claims = model.holes_and_claims()
    x: float = len(mine) - len(theirs)
    x += _LES_OPEN_CLAIM_WEIGHT * ((claims[me - 1] - len(mine)) - (claims[2 - me] - len(theirs)))
    x += _LES_POINT_WEIGHT * (claims[me + 1] - claims[4 - me])
    if mine and len(mine) == len(theirs):
        winner, _ = compare_holes(list(holes[0]), list(holes[1]))
        if winner:
            x += _LES_TIE_BREAK_WEIGHT if winner == me else -_LES_TIE_BREAK_WEIGHT
    return _logistic(x)


@dataclass(frozen=True)
class LesPairs:
    """Les master's move ordering: in a two-stone turn, only the likeliest pairs, best first.

    Early in a game a Les turn is two stones, a first placement and an isolated point, and
    a position offers up to a thousand such pairs: reading every one of them at every node
    kept master at two plies until about ply 45. The two stones of a pair seldom interact
    (the second is never next to the first), so each stone is valued alone, once (one
    position played and valued per first placement and per isolated point, a few dozen in
    all), and a pair is valued as the sum of its stones' gains. Only the ``firsts`` best
    first placements are kept, each paired with its ``seconds`` best isolated points; the
    search reads those, at the root and inside the tree, and nothing else. One-stone
    turns (the middle game on) are left whole, in the seeded shuffle's order.

    The stones are valued on the search's model (:class:`engine.ai.models.les.LesPosition`,
    made for the purpose when the search reads the engine's states), without making a
    position.
    """

    firsts: int = 8
    seconds: int = 4
    # one quiet point stands for all (LesPosition.quiet_points): they are the same move
    one_quiet: bool = False

    def __call__(self, state: Position, moves: list[str], rng: random.Random) -> list[str]:
        if not any("+" in move for move in moves):
            return shuffled(state, self._single(state, moves), rng)
        # an engine state (tests, the search without its model): the same look on its
        # model, so both give the same moves
        model = state if isinstance(state, LesPosition) else LesPosition.of(state)  # type: ignore[arg-type]  # a Les state of the ordinary turns: it has pairs
        mover = model.mover
        assert mover is not None  # a running game: it has moves
        firsts, isolated = model.lone_stone_points()
        points = firsts + isolated
        rng.shuffle(points)  # breaks ties between equal gains
        base = _les_x(*model.holes_and_claims(), mover)
        gain = {point: _les_x(*model.after_lone_stone(point), mover) - base for point in points}
        ranked = sorted(points, key=gain.__getitem__, reverse=True)
        contested = set(firsts)
        seconds = [point for point in ranked if point not in contested]
        names, near = model.names(), model.near()
        # the quiet first placements are one move (LesPosition.quiet_points): the best
        # ranked of them stands for them all
        quiet = model.quiet_points() if self.one_quiet else frozenset()
        firsts_kept: list[int] = []
        for point in ranked:
            if point in contested and (point not in quiet or not quiet & set(firsts_kept)):
                firsts_kept.append(point)
        kept: list[tuple[float, str]] = []
        for first in firsts_kept[: self.firsts]:
            close = near[first]
            partners = [second for second in seconds if second not in close][: self.seconds]
            if not partners:  # every isolated point touches it: a one-stone turn
                kept.append((gain[first], names[first]))
            kept.extend(
                (gain[first] + gain[second], f"{names[first]}+{names[second]}")
                for second in partners
            )
        kept.sort(key=lambda item: -item[0])
        return [move for _, move in kept]

    def _single(self, state: Position, moves: list[str]) -> list[str]:
        """One-stone turns with one quiet point (the first given) standing for every
        other once no isolated point is left
        (:meth:`LesPosition.one_quiet`): every move that can change a claim or a hole is
        kept."""
        if not self.one_quiet:
            return moves
        # the set-up and the choice of side (the engine's states) are left whole
        model = state if isinstance(state, LesPosition) else search_model(state)  # type: ignore[arg-type]  # a Les state
        if not isinstance(model, LesPosition):
            return moves
        return model.one_quiet(moves)


def _les_x(holes: tuple[int, int], claims: tuple[int, int, int, int], mover: int) -> float:
    """What :func:`les_evaluator` takes the logistic of, for the colour code ``mover``, from
    a model's counts (holes owned by black, by white; claims of black, of white, claimed
    points of black, of white)."""
    sign = 1 if mover == 1 else -1
    black = holes[0] + _LES_OPEN_CLAIM_WEIGHT * (claims[0] - holes[0])
    white = holes[1] + _LES_OPEN_CLAIM_WEIGHT * (claims[1] - holes[1])
    return sign * (black - white + _LES_POINT_WEIGHT * (claims[2] - claims[3]))


def lublache_closed_cells(state: Position) -> dict[str, int]:
    """Lublache: per colour, the empty cells it may no longer place on because they touch
    a stone of a loop it owns (the placement rule on the rule page). Closed cells are
    progress: the player who runs out of placements first wins."""
    counted = getattr(state, "closed_cells", None)
    if counted is not None:
        # the search's model keeps the owned loops at hand (engine/ai/models/lublache.py)
        closed_cells: dict[str, int] = counted()
        return closed_cells
    index = state.grid.index
    neighbours = state.grid.neighbours
    names = state.grid.names
    stones = state.stones
    closed: dict[str, set[int]] = {colour: set() for colour in state.game.colors}
    for loop in state.loops():
        if loop.owner is None:
            continue
        for name in loop.cells:
            cell = index(name)
            assert cell is not None  # a loop runs through cells of its board
            closed[loop.owner].update(neighbours[cell])
    return {
        colour: sum(1 for cell in cells if names[cell] not in stones)
        for colour, cells in closed.items()
    }


# Each empty cell closed to a player by its own loops is worth 0.08 of a loop owned: a
# loop of six typically closes a dozen cells, so a fresh loop counts about double, and a
# loop that closes many cells more than one squeezed into a crowded corner. Chosen on
# benchmark games (see docs/ai.md).
_LUBLACHE_CLOSED_CELL_WEIGHT = 0.08


def lublache_evaluator(state: Position, colour: str) -> float:
    """Lublache: loops owned, plus the empty cells they close to their owner. Owning
    loops forbids your own placements next to them, and running out of placements is how
    you win, so both count as progress."""
    score = state.score
    opponent = _opponent(state, colour)
    closed = lublache_closed_cells(state)
    return _logistic(
        score[colour]
        - score[opponent]
        + _LUBLACHE_CLOSED_CELL_WEIGHT * (closed[colour] - closed[opponent])
    )


def evaluator_for(state: Position) -> Evaluator:
    """The evaluator the spec of ``state``'s game names (the neutral one if none)."""
    return state.game.spec.ai.evaluator or neutral_evaluator


def orderer_for(state: Position) -> MoveOrderer:
    """The move ordering the spec of ``state``'s game names (a seeded shuffle if none)."""
    return state.game.spec.ai.orderer or shuffled
