"""The three strengths of the board-game AI and the one call that picks a move.

A level is a thinking-time ceiling plus a search strength. The budget (iterations or
positions) is what normally ends a search, which keeps a seeded search reproducible; the
time limit is a guarantee for the player waiting in the channel (hard never thinks longer
than 5 s).

=======  ==========  =============================================================
level    time limit  what it does
=======  ==========  =============================================================
easy     0.5 s       a short Monte Carlo search (60 iterations) that may overlook moves
normal   1.5 s       scans every move once, then searches the best (600 iterations);
                     in Lefe's narrow end-game positions it reads ahead with alpha-beta
hard     4.5 s       alpha-beta three plies deep: assumes you find your best replies
                     (Dalen: a Monte Carlo search that also scans every reply)
=======  ==========  =============================================================

Each game's spec tunes the levels for its own shape (``spec.ai.levels``, a
:class:`engine.ai.settings.LevelTuning` per level name); why each was chosen is in
docs/ai.md. Normal and hard count a drawn end as 0.4 of a win for themselves
(``DRAW_VALUE``), so they play on rather than settle; easy counts it as ½.

``scale`` (benchmark and tests only) multiplies both the budget and the time limit, so a
benchmark can play many games at proportionally reduced strength.
"""

from __future__ import annotations

import dataclasses
import random
import time
import zlib
from collections.abc import Mapping
from dataclasses import dataclass

from engine.ai import endsolver
from engine.ai.alphabeta import AlphaBetaSearcher
from engine.ai.mcts import Searcher, SearchResult
from engine.ai.model import search_root
from engine.ai.settings import (
    DRAW_VALUE,
    AlphaBetaSettings,
    AnySettings,
    LevelTuning,
    SearchSettings,
)
from engine.ai.tactics import guarded_choice
from engine.board import BoardState
from engine.registry import board_game_names, game_names, get_board_game, get_spec
from engine.spec import GameSpec

HARD_TIME_CEILING = 5.0  # seconds: the promise for the slowest level
# The tactical guard may think until this multiple of the level's time limit (capped).
GUARD_SHARE = 1.25
GUARD_MIN_SECONDS = 0.25


@dataclass(frozen=True)
class Level:
    """One named strength: its search settings and a line for help texts.

    ``guarded`` levels run the search's answer through the tactical guard
    (:func:`engine.ai.tactics.guarded_choice`): a win in one is always played and a move
    the opponent answers with a win is avoided when another move is not. Only the lowest
    level plays without it, so that a newcomer can beat it.
    """

    name: str
    description: str
    settings: AnySettings
    guarded: bool = True

    @property
    def time_limit(self) -> float:
        return self.settings.time_limit


LEVELS: dict[str, Level] = {
    "beginner": Level(
        "beginner",
        "plays almost at random: a first game's opponent",
        SearchSettings(max_iterations=8, time_limit=0.3, scan_depth=0),
        guarded=False,
    ),
    "easy": Level(
        "easy",
        "thinks briefly and overlooks many moves, but never misses a win in one",
        SearchSettings(max_iterations=60, time_limit=0.5, scan_depth=0),
    ),
    "normal": Level(
        "normal",
        "looks at every move, then reads the promising ones a few turns ahead",
        SearchSettings(max_iterations=600, time_limit=1.5, draw_value=DRAW_VALUE),
    ),
    "hard": Level(
        "hard",
        "reads three moves deep and assumes you find your best replies",
        AlphaBetaSettings(max_depth=3, max_nodes=20_000, time_limit=3.0, draw_value=DRAW_VALUE),
    ),
    "master": Level(
        "master",
        "reads a move deeper than hard where 1.6 s allow, remembering positions it has read",
        AlphaBetaSettings(max_depth=4, max_nodes=40_000, time_limit=1.6, draw_value=DRAW_VALUE),
    ),
}
LEVEL_NAMES: tuple[str, ...] = tuple(LEVELS)

DEFAULT_LEVEL = "normal"


def get_level(name: str) -> Level:
    """The level called ``name`` (case-insensitive); ValueError listing the levels otherwise."""
    key = name.strip().lower() if isinstance(name, str) else name
    if key not in LEVELS:
        raise ValueError(f"unknown level {name!r}; the levels are: {', '.join(LEVEL_NAMES)}")
    return LEVELS[key]


def _changed(settings: AnySettings, changes: Mapping[str, float]) -> AnySettings:
    """``settings`` with some fields replaced (checked: replace() refuses unknown ones)."""
    fields: dict[str, object] = dict(changes)
    return dataclasses.replace(settings, **fields)  # type: ignore[arg-type]  # a mapping's keys cannot be matched to fields; replace() refuses a wrong one


def _spec_of(game: str | GameSpec | None) -> GameSpec | None:
    if game is None or isinstance(game, GameSpec):
        return game
    return get_spec(game) if game.strip().lower() in game_names() else None


def level_settings(
    level: str | Level,
    *,
    scale: float = 1.0,
    game: str | GameSpec | None = None,
    moves: int | None = None,
) -> AnySettings:
    """The search settings of a level (for ``game``, in a position offering ``moves``
    moves when known), budget and time times ``scale``."""
    chosen = get_level(level) if isinstance(level, str) else level
    settings: AnySettings = chosen.settings
    spec = _spec_of(game)
    tuning = None if spec is None else spec.ai.levels.get(chosen.name)
    if tuning is not None:
        if tuning.settings is not None:
            settings = tuning.settings
        if tuning.changes:
            settings = _changed(settings, tuning.changes)
        if tuning.narrow is not None and moves is not None and moves <= tuning.narrow_below:
            settings = tuning.narrow
    return _scaled(settings, scale)


def _scaled(settings: AnySettings, scale: float) -> AnySettings:
    """``settings`` with budget and time times ``scale``."""
    if scale == 1.0:
        return settings
    if scale <= 0:
        raise ValueError("scale must be positive")
    if isinstance(settings, AlphaBetaSettings):
        return dataclasses.replace(
            settings,
            max_nodes=max(1, round(settings.max_nodes * scale)),
            time_limit=settings.time_limit * scale,
        )
    return dataclasses.replace(
        settings,
        max_iterations=max(1, round(settings.max_iterations * scale)),
        time_limit=settings.time_limit * scale,
    )


def position_seed(state_json: str, level: str) -> int:
    """A seed derived from the position and level: the same question gets the same answer."""
    return zlib.crc32(f"{level}\n{state_json}".encode())


def search_move(
    state: BoardState,
    level: str | Level = DEFAULT_LEVEL,
    *,
    seed: int | None = None,
    scale: float = 1.0,
    time_limit: float | None = None,
) -> SearchResult:
    """Search ``state`` at ``level`` and return the full result (move, iterations, time).

    ``seed`` defaults to one derived from the position, so repeated calls agree.
    ``time_limit`` overrides the level's time ceiling (never raising it above 5 s).
    """
    name = level if isinstance(level, str) else level.name
    spec = state.game.spec
    tuning = spec.ai.levels.get(name.strip().lower())
    # counting the moves costs a move list: only where the game reads narrow positions apart
    narrowing = tuning is not None and (
        tuning.narrow is not None or tuning.screen_below > 0 or tuning.playout_below > 0
    )
    moves = len(state.legal_moves()) if narrowing else None
    settings = level_settings(level, scale=scale, game=spec, moves=moves)
    if time_limit is not None:
        settings = dataclasses.replace(settings, time_limit=time_limit)
    settings = dataclasses.replace(settings, time_limit=min(settings.time_limit, HARD_TIME_CEILING))
    if seed is None:
        seed = position_seed(state.to_json(), name)
    started = time.perf_counter()
    # the seed came from the engine's state; everything below reads the game's search model
    state = search_root(state)
    allowed = settings.time_limit
    screening = (
        tuning is not None
        and moves is not None
        and tuning.screen_nodes > 0
        and moves <= tuning.screen_below
    )
    reading = None
    if moves is not None and tuning is not None and tuning.solve_nodes:
        reading = _end_reading(state, settings, tuning, moves, scale)
        if reading is not None and reading.complete and reading.best == endsolver.WIN:
            move = reading.moves[0]
            elapsed = time.perf_counter() - started
            return SearchResult(move, reading.read, elapsed, 1.0, ranking=[move])
        # the search below reads on with the time the exact reading left, less what a
        # narrow position's screen keeps (below)
        kept = allowed * tuning.narrow_keep if reading is not None and screening else 0.0
        left = settings.time_limit - (time.perf_counter() - started) - kept
        settings = dataclasses.replace(settings, time_limit=max(left, settings.time_limit / 4))
    # proven lost everywhere: the level's averaging search picks among the lost moves
    # (below), where it has one
    broad = level_settings(level, scale=scale, game=spec)
    if tuning is not None and tuning.lost_settings is not None:
        broad = _scaled(tuning.lost_settings, scale)
    lost = reading is not None and reading.complete and reading.best == endsolver.LOSS
    lost = lost and not isinstance(broad, AlphaBetaSettings)
    if not lost:
        if (
            tuning is not None
            and tuning.screen_keep > 0
            and moves is not None
            and tuning.narrow_below < moves <= tuning.screen_below
        ):
            # a position the screen reads: the search leaves it its share of the clock
            kept = settings.time_limit * (1 - tuning.screen_keep)
            settings = dataclasses.replace(settings, time_limit=kept)
        searcher = (
            AlphaBetaSearcher(settings)
            if isinstance(settings, AlphaBetaSettings)
            else Searcher(settings)
        )
        result = searcher.search(state, random.Random(seed))
    proven_lost = lost or (
        moves is not None and isinstance(settings, AlphaBetaSettings) and result.value <= 0.0
    )
    if proven_lost and not isinstance(broad, AlphaBetaSettings):
        # A narrow position's reading proved every move lost against best play. Minimax
        # then plays any move; the level's own search, which averages over the replies,
        # picks the one a careless opponent is least likely to punish, within the time
        # the level has left.
        left = max(allowed - (time.perf_counter() - started), allowed / 4)
        own = broad.time_limit if time_limit is None else time_limit  # a caller's clock too
        broad = dataclasses.replace(broad, time_limit=min(own, left))
        result = Searcher(broad).search(state, random.Random(seed))
        until = started + allowed * min(1.0 if tuning is None else tuning.swindle_time, GUARD_SHARE)
        if tuning is not None and tuning.swindle_nodes > 0:
            result = _swindled(state, result, tuning, scale, deadline=until)
        # with both, the chance is read in the swindle's order (Lublache's normal)
        if tuning is not None and (tuning.chance_nodes > 0 or tuning.chance_playouts > 0):
            result = _chanced(state, result, tuning, scale, seed, deadline=until)
    if (
        tuning is not None
        and tuning.playouts > 0
        and moves is not None
        and moves <= tuning.playout_below
        and (
            moves > tuning.narrow_below
            # a narrow position the exact reading could not finish (Lefe: the cramped side
            # facing twice its placements), where the playouts choose among the moves not
            # proven lost (the reading's verdicts are applied below)
            or (tuning.playout_narrow and reading is not None and not reading.complete)
        )
    ):
        # bounded by their count: the clock (the swindle's, at most the guard's share) is
        # only a safety net, so the same position and seed give the same move on any
        # machine (docs/ai.md, Dalen, fourteenth round)
        until = started + allowed * min(tuning.swindle_time, GUARD_SHARE)
        result = _played_out(state, result, tuning, seed, deadline=until)
    if reading is not None:
        result = _within_reading(result, reading)
    if screening and tuning is not None and not (reading is not None and reading.complete):
        if proven_lost:
            result = _screened(state, result, tuning, scale, deadline=started + allowed)
        else:
            until = started + allowed * min(tuning.swindle_time, GUARD_SHARE)
            result = _screened_for_chance(
                state, result, tuning, scale, seed, deadline=started + allowed, until=until
            )
    chosen = get_level(level) if isinstance(level, str) else level
    if not chosen.guarded:
        return result
    # The guard's own clock: a quarter of the level's time on top (at least a quarter of a
    # second, so that a level scaled down for a benchmark still guards), within the ceiling.
    allowance = max(allowed * GUARD_SHARE, allowed + GUARD_MIN_SECONDS)
    deadline = started + min(allowance, HARD_TIME_CEILING)
    move = guarded_choice(state, result.ranking or [result.move], deadline=deadline)
    if move == result.move:
        return result
    return dataclasses.replace(
        result, move=move, elapsed=time.perf_counter() - started, value=result.value
    )


@dataclass(frozen=True)
class _EndReading:
    """What the exact reading of a narrow position found (:mod:`engine.ai.endsolver`)."""

    complete: bool  # every move's value is known (otherwise only ``lost`` is)
    best: float  # WIN, DRAW or LOSS, when complete
    moves: list[str]  # the moves that reach ``best``, when complete
    lost: frozenset[str]  # moves proven lost, complete or not
    read: int  # positions read


def _end_reading(
    state: BoardState, settings: AnySettings, tuning: LevelTuning, moves: int, scale: float
) -> _EndReading | None:
    """A narrow position read to the end exactly within the tuning's positions and its share
    of the level's time (half unless the tuning says otherwise); None when the position has
    more moves than the tuning reads whole (``narrow_below``, or ``solve_below`` when
    more)."""
    if moves > max(tuning.narrow_below, tuning.solve_below):
        return None
    budget = max(1, round(tuning.solve_nodes * scale))
    partial: dict[str, float] = {}
    limit = settings.time_limit * tuning.solve_share
    solved = endsolver.solve(state, max_nodes=budget, time_limit=limit, partial=partial)
    values, read = solved if solved is not None else (partial, budget)
    lost = frozenset(move for move, value in values.items() if value == endsolver.LOSS)
    if solved is None:
        return _EndReading(False, endsolver.LOSS, [], lost, read)
    best = max(values.values())
    reaching = [move for move, value in values.items() if value == best]
    return _EndReading(True, best, reaching, lost, read)


def _within_reading(result: SearchResult, reading: _EndReading) -> SearchResult:
    """``result``, unless the exact reading proved its move worse than another: then the
    move the search ranked highest among the best the reading found (complete: the
    drawing moves, when the best is a draw) or among those not proven lost (incomplete)."""
    if reading.complete and result.move not in reading.moves:
        better = [m for m in result.ranking or [] if m in reading.moves] or reading.moves
        return dataclasses.replace(result, move=better[0], value=0.5, ranking=better)
    if not reading.complete and result.move in reading.lost:
        better = [m for m in result.ranking or [] if m not in reading.lost]
        if better:
            return dataclasses.replace(result, move=better[0], ranking=better)
    return result


def _screened(
    state: BoardState,
    result: SearchResult,
    tuning: LevelTuning,
    scale: float,
    deadline: float,
    lost: set[str] | None = None,
) -> SearchResult:
    """``result`` with its choices read to the end one at a time, best ranked first, each
    within the tuning's ``screen_nodes`` positions (``solve_nodes`` in all, until
    ``deadline``): a move proven lost gives way to the next, a move proven won is played,
    and the first move whose reading did not finish (or is a draw) stands. ``lost``, when
    given, receives the moves proven lost.

    Above the moves a level reads whole, the moves a search likes best are the ones worth
    reading: proving a move lost needs one winning reply of the opponent, often a small
    reading, where proving the whole position needs every line (docs/ai.md, Dalen).
    """
    ranking = result.ranking or [result.move]
    mover = state.to_move
    each = max(1, round(tuning.screen_nodes * scale))
    left = max(1, round(tuning.solve_nodes * scale))
    lost = set() if lost is None else lost
    won: str | None = None
    known = endsolver.known_positions()  # the moves' refutations often share their lines
    for move in ranking:
        remaining = deadline - time.perf_counter()
        if left <= 0 or remaining <= 0:
            break
        after = state.play(move)
        if after.outcome is not None:
            winner = after.outcome.winner
            if winner is not None and winner != mover:
                lost.add(move)
                continue
            won = move if winner == mover else None
            break
        budget = min(each, left)
        solved = endsolver.solve(after, max_nodes=budget, time_limit=remaining, known=known)
        if solved is None:  # not proven either way within its share: it stands
            break
        replies, read = solved
        left -= read
        best_reply = max(replies.values())
        if best_reply == endsolver.WIN:
            lost.add(move)
            continue
        won = move if best_reply == endsolver.LOSS else None
        break
    if won is not None:
        return dataclasses.replace(
            result, move=won, value=1.0, ranking=[won, *(m for m in ranking if m != won)]
        )
    kept = [move for move in ranking if move not in lost]
    if not lost or not kept:  # nothing proven lost, or every move ranked: it stands
        return result
    return dataclasses.replace(result, move=kept[0], ranking=kept)


def _screened_for_chance(
    state: BoardState,
    result: SearchResult,
    tuning: LevelTuning,
    scale: float,
    seed: int,
    deadline: float,
    until: float,
) -> SearchResult:
    """:func:`_screened` (until ``deadline``); where it proves every move lost and the
    level reads a lost end's chance, the move with the best chance against a careless
    opponent (:func:`_chanced`, until ``until``), as where the whole reading proves the
    position lost.

    Above the end reading the screen often proves the search's first move lost, and with
    the table of positions it keeps, the others in a few hundred positions each; the
    search's choice then stood, whatever the random player of issue 36 was likely to make
    of it (docs/ai.md, Dalen, thirteenth round).
    """
    lost: set[str] = set()
    screened = _screened(state, result, tuning, scale, deadline=deadline, lost=lost)
    chancing = tuning.chance_nodes > 0 or tuning.chance_playouts > 0
    if not chancing or not lost or not lost.issuperset(state.legal_moves()):
        return screened
    return _chanced(state, result, tuning, scale, seed, deadline=until)


def _played_out(
    state: BoardState, result: SearchResult, tuning: LevelTuning, seed: int, deadline: float
) -> SearchResult:
    """``result`` unless random playouts find its move much worse than another: every move
    is played out to the end ``tuning.playouts`` times, both sides choosing uniformly at
    random, and counted 1 for a win, ``playout_draw`` for a draw (½ unless the tuning says
    otherwise), 0 for a loss; a move more than ``playout_margin``
    below the best share gives way to the search's best ranked move within it. The count
    bounds the playouts; ``deadline`` is a safety net for a machine far slower than the
    count was chosen on: moves whose playouts did not all finish by it are left out (none
    finished: ``result``).

    A random opponent does not find the best reply, but the random player of issue 36
    turned big armies over all the same: one big tree with few leaves next to small enemy
    trees loses its leaves to its owner's forced placements as the board fills, whoever
    plays. The playouts see that structure (docs/ai.md, Dalen, ninth round).
    """
    mover = state.to_move
    rng = random.Random(seed)
    ranking = list(result.ranking or [result.move])
    moves = ranking + [move for move in state.legal_moves() if move not in ranking]
    shares: dict[str, float] = {}
    for move in moves:
        after = state.play(move)
        won = 0.0
        for _ in range(tuning.playouts):
            if time.perf_counter() > deadline:
                break
            end = after
            while end.outcome is None:
                end = end.play(rng.choice(end.legal_moves()))
            assert end.outcome is not None
            winner = end.outcome.winner
            won += 1.0 if winner == mover else tuning.playout_draw if winner is None else 0.0
        else:
            shares[move] = won / tuning.playouts
            continue
        break  # out of time: this move and the rest are left out
    if not shares:
        return result
    floor = max(shares.values()) - tuning.playout_margin
    kept = [move for move in moves if move in shares and shares[move] >= floor]
    if kept[0] == result.move:
        return result
    rest = [move for move in ranking if move not in kept]
    return dataclasses.replace(result, move=kept[0], ranking=kept + rest)


def _swindled(
    state: BoardState, result: SearchResult, tuning: LevelTuning, scale: float, deadline: float
) -> SearchResult:
    """In a position proven lost, the move after which the fewest of the opponent's replies
    keep the win: each reply's position read to the end (``swindle_nodes`` positions in
    all, until ``deadline``), counted 1 when the level then has a win, ½ for a draw or a
    reading cut short, 0 for a loss; the highest share is played, the search's ranking
    deciding among equals. Moves whose replies were not all read are left out (the search's
    choice stands when none was read whole). Where several moves share the highest, they
    are read one reply deeper where the positions and time allow: a reply that keeps the
    opponent's win then counts the best share the level's next move leaves it; with a
    ``swindle_margin``, the moves within it of the highest share are read deeper too.

    Every move loses against best play there, and minimax tells none apart; an opponent
    who may miss the win (a newcomer, the random player of issue 36) misses it most often
    after the move that leaves it the fewest winning replies (docs/ai.md, Dalen, eighth
    round).
    """
    ranking = list(result.ranking or [result.move])
    moves = ranking + [move for move in state.legal_moves() if move not in ranking]
    chances = _Chances(state, max(1, round(tuning.swindle_nodes * scale)), deadline)
    shares: dict[str, float] = {}
    for move in moves:
        share = chances.share(state.play(move), 1)
        if share is None:
            break  # out of positions or time: this move and the rest are left out
        shares[move] = share
    if not shares:
        return result
    best = max(shares.values())
    tied = [move for move in shares if shares[move] >= best - tuning.swindle_margin]
    if len(tied) > 1:
        deeper: dict[str, float] = {}
        for move in tied:
            share = chances.share(state.play(move), 2)
            if share is None:
                break
            deeper[move] = share
        if len(deeper) == len(tied):
            shares = deeper | {move: -1.0 for move in shares if move not in deeper}
            best = max(shares.values())
    if shares.get(result.move) == best:
        return result
    ranked = sorted(shares, key=lambda move: -shares[move])  # stable: the search's order
    return dataclasses.replace(result, move=ranked[0], ranking=ranked)


def _ended(state: BoardState, mover: str | None) -> float:
    """An ended position's value for ``mover``: 1 for a win, ½ for a draw, 0 for a loss."""
    assert state.outcome is not None
    winner = state.outcome.winner
    return 1.0 if winner == mover else endsolver.DRAW if winner is None else 0.0


class _Chances:
    """:func:`_swindled`'s reading: the share of the opponent's replies that leave the side
    to move at the root a win, within a budget of positions shared by every reading."""

    def __init__(self, state: BoardState, nodes: int, deadline: float) -> None:
        self.mover = state.to_move
        self.left = nodes
        self.each = max(1, nodes // 8)  # one reply's reading: a big one may not take the rest
        self.deadline = deadline
        self.known = endsolver.known_positions()

    def share(self, after: BoardState, depth: int) -> float | None:
        """The share for ``after`` (the opponent to move); None when out of positions."""
        if after.outcome is not None:
            return _ended(after, self.mover)
        replies = after.legal_moves()
        total = 0.0
        for reply in replies:
            value = self._value(after.play(reply), depth)
            if value is None:
                return None
            total += value
        return total / len(replies)

    def _value(self, then: BoardState, depth: int) -> float | None:
        if then.outcome is not None:
            return _ended(then, self.mover)
        remaining = self.deadline - time.perf_counter()
        if self.left <= 0 or remaining <= 0:
            return None
        budget = min(self.each, self.left)
        solved = endsolver.solve(then, max_nodes=budget, time_limit=remaining, known=self.known)
        if solved is None:
            self.left -= budget
            return endsolver.DRAW  # not read to the end: either way
        values, read = solved
        self.left -= read
        best = max(values.values())
        if best > endsolver.LOSS or depth <= 1:
            return best
        # lost again: the best share one of the level's moves leaves, a reply deeper
        most = 0.0
        for move in then.legal_moves():
            share = self.share(then.play(move), depth - 1)
            if share is None:
                return None
            most = max(most, share)
        return most


def _chanced(
    state: BoardState,
    result: SearchResult,
    tuning: LevelTuning,
    scale: float,
    seed: int,
    deadline: float,
) -> SearchResult:
    """In a position proven lost, the move with the best chance of a win against an
    opponent who plays uniformly at random, the search's ranking deciding among equals.

    The chance is read exactly first (:class:`_Odds`, within ``tuning.chance_nodes``
    positions until ``deadline``); where that does not finish, each move is played out
    ``tuning.chance_playouts`` times (:func:`_chance_playouts`) and the highest share of
    won playouts is played. Moves whose playouts did not all finish by ``deadline`` are left
    out; when none finished, the search's choice stands. A tuning without playouts keeps
    the moves whose chance was read whole before the reading ran out, the search's choice
    first (Lublache's normal: docs/ai.md, Lublache, thirteenth round).

    Every move loses against best play there. The one-reply share of the swindle
    (:func:`_swindled`) often finds every move refuted by every reply, and reading deeper
    does not fit a level's clock; the random player of issue 36 then still misses the win
    most of the time, more or less often after one move than another (docs/ai.md, Dalen,
    twelfth round).
    """
    ranking = list(result.ranking or [result.move])
    moves = ranking + [move for move in state.legal_moves() if move not in ranking]
    odds = _Odds(state.to_move, max(1, round(tuning.chance_nodes * scale)), deadline)
    chances: dict[str, float] = {}
    if tuning.chance_nodes > 0:
        try:
            best = -1.0
            for move in moves:
                chance = odds.chance(odds.child(state, move), best)
                # a move that cannot beat the best before it was read only that far
                chances[move] = chance if chance > best else -1.0
                best = max(best, chance)
        except _OddsSpent:
            if tuning.chance_playouts > 0:
                chances = {}  # the playouts below read every move alike
            # without playouts, the moves read whole before the reading ran out stand
            # (the search's choice first: it gives way only to a better chance read)
    if not chances and tuning.chance_playouts > 0:
        chances = _chance_playouts(state, moves, tuning, seed, deadline)
    if not chances:
        return result
    best = max(chances.values())
    if chances.get(result.move) == best:
        return result
    ranked = sorted(chances, key=lambda move: -chances[move])  # stable: the search's order
    return dataclasses.replace(result, move=ranked[0], ranking=ranked)


class _OddsSpent(Exception):
    """Raised inside :class:`_Odds` when its positions or time are spent."""


class _Odds:
    """The exact chance that ``mover`` wins against a uniformly random opponent, ``mover``
    playing its best: an expectimax (the mover's best move, the opponent's replies
    averaged; a draw counts ½), with the moves that cannot beat the best found so far cut
    short (each reply's chance is at most 1) and a won position's other moves never read."""

    def __init__(self, mover: str | None, nodes: int, deadline: float) -> None:
        self.mover = mover
        self.left = nodes
        self.deadline = deadline
        self.known: dict[object, float] = {}  # exact chances only

    def child(self, state: BoardState, move: str) -> BoardState:
        self.left -= 1
        if self.left < 0 or time.perf_counter() > self.deadline:
            raise _OddsSpent
        return state.play(move)

    def _settled(self, state: BoardState) -> tuple[float | None, object]:
        """The chance already known for ``state`` (an ended position's value, or one read
        before; None when not known) and the key to keep it under."""
        if state.outcome is not None:
            return _ended(state, self.mover), None
        key = endsolver.position_key(state)
        return self.known.get(key), key

    def best(self, state: BoardState) -> float:
        """The chance with the mover to move."""
        known, key = self._settled(state)
        if known is not None:
            return known
        most = 0.0
        for move in state.legal_moves():
            most = max(most, self.chance(self.child(state, move), most))
            if most >= 1.0:
                break
        self.known[key] = most
        return most

    def chance(self, state: BoardState, floor: float) -> float:
        """The chance with the opponent to move, or a bound at most ``floor`` when it
        cannot be more than ``floor``."""
        known, key = self._settled(state)
        if known is not None:
            return known
        replies = state.legal_moves()
        count = len(replies)
        total = 0.0
        for done, reply in enumerate(replies, start=1):
            total += self.best(self.child(state, reply))
            if total + (count - done) <= floor * count:
                return (total + (count - done)) / count
        self.known[key] = total / count
        return total / count


def _chance_playouts(
    state: BoardState, moves: list[str], tuning: LevelTuning, seed: int, deadline: float
) -> dict[str, float]:
    """Each move's share of won playouts (a draw ½): the opponent plays uniformly at random,
    the level the win an exact reading of ``tuning.chance_read`` positions finds where it
    has at most ``tuning.chance_read_below`` moves (counted a win at once), a random move
    otherwise. Moves whose playouts did not all finish by
    ``deadline`` are left out, and the moves after them."""
    mover = state.to_move
    rng = random.Random(seed)
    known = endsolver.known_positions()
    shares: dict[str, float] = {}
    for move in moves:
        after = state.play(move)
        won = 0.0
        for _ in range(tuning.chance_playouts):
            remaining = deadline - time.perf_counter()
            if remaining <= 0:
                return shares
            end = after
            while end.outcome is None:
                replies = end.legal_moves()
                if end.to_move == mover and len(replies) <= tuning.chance_read_below:
                    solved = endsolver.solve(
                        end, max_nodes=tuning.chance_read, time_limit=remaining, known=known
                    )
                    if solved is not None and max(solved[0].values()) == endsolver.WIN:
                        break
                end = end.play(rng.choice(replies))
            won += 1.0 if end.outcome is None else _ended(end, mover)
        shares[move] = won / tuning.chance_playouts
    return shares


def choose_move(
    state: BoardState,
    level: str | Level = DEFAULT_LEVEL,
    *,
    seed: int | None = None,
    scale: float = 1.0,
) -> str:
    """The canonical move the AI plays in ``state`` (a board-game state whose game runs)."""
    return search_move(state, level, seed=seed, scale=scale).move


def choose_move_from_json(
    state_json: str, game: str, level: str = DEFAULT_LEVEL, seed: int | None = None
) -> str:
    """The worker-process entry point: rebuild the state from JSON and choose a move."""
    if game not in board_game_names():
        raise ValueError(
            f"{game!r} is not a board game; the board games are: {', '.join(board_game_names())}"
        )
    state = get_board_game(game).from_json(state_json)
    if seed is None:
        seed = position_seed(state_json, level)
    return choose_move(state, level, seed=seed)
