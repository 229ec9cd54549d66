"""The ladder's fixed reference player: the ``hard`` level as it stood at commit 15655db.

Progress is measured against a player that does not move. This package freezes what
``hard`` was when the ladder was built: the searchers, the evaluators and move orderings
are copies of ``engine/ai/`` at that commit (``mcts.py``, ``alphabeta.py``,
``heuristics.py``, ``settings.py`` beside this file), and the per-game settings below
copy each game's ``hard`` tuning from its spec at that commit. Nothing here reads
``engine.ai`` or a spec's ``ai`` field, so improving the levels, the evaluators or the
searches leaves the reference where it is (a test checks the imports). Only a change to
a game's rules can move it, as it would move any player. Never tune it; never offer it to
players. A stronger yardstick, when one is wanted, is a second frozen player beside this
one, not an edit of this one.

How hard was configured at 15655db (docs/ai.md, Levels):

* Lefe: alpha-beta, 3 plies, 20,000 positions; with at most 16 moves to choose from,
  alpha-beta up to 10 plies within 12,000 positions; captures first.
* Dalen: Monte Carlo, 1,000 iterations, replies scanned, UCB constant 0.2.
* Les: alpha-beta, 3 plies over the 24 best root moves, 5,000 positions.
* Lublache: alpha-beta, 3 plies over the 10 best root moves, 3,000 positions.

All with a 4.5 s ceiling (never above 5 s) and a drawn end worth 0.4 to the reference.
"""

from __future__ import annotations

import dataclasses
import random
from dataclasses import dataclass

from bench.reference.alphabeta import AlphaBetaSearcher
from bench.reference.heuristics import (
    captures_first,
    dalen_evaluator,
    lefe_evaluator,
    les_evaluator,
    lublache_evaluator,
    shuffled,
)
from bench.reference.mcts import Searcher, SearchResult
from bench.reference.settings import DRAW_VALUE, AlphaBetaSettings, SearchSettings
from engine.board import BoardState
from engine.spec import Evaluator, MoveOrderer

REFERENCE = "reference"
FROZEN_AT = "15655db"
TIME_CEILING = 5.0  # seconds, as hard's at that commit

AnySettings = SearchSettings | AlphaBetaSettings


@dataclass(frozen=True)
class FrozenHard:
    """Hard in one game: its settings, evaluator and ordering (and its narrow reading)."""

    settings: AnySettings
    evaluator: Evaluator
    orderer: MoveOrderer = shuffled
    narrow_below: int = 0  # positions with at most this many moves are read with ``narrow``
    narrow: AnySettings | None = None


_BASE_HARD = AlphaBetaSettings(max_depth=3, max_nodes=20_000, time_limit=4.5, draw_value=DRAW_VALUE)

FROZEN_HARD: dict[str, FrozenHard] = {
    "lefe": FrozenHard(
        _BASE_HARD,
        lefe_evaluator,
        captures_first,
        narrow_below=16,
        narrow=AlphaBetaSettings(
            max_depth=10, max_nodes=12_000, time_limit=4.5, draw_value=DRAW_VALUE
        ),
    ),
    "dalen": FrozenHard(
        SearchSettings(
            max_iterations=1000,
            time_limit=4.5,
            scan_depth=2,
            exploration=0.2,
            draw_value=DRAW_VALUE,
        ),
        dalen_evaluator,
    ),
    "les": FrozenHard(
        AlphaBetaSettings(
            max_depth=3, max_nodes=5_000, time_limit=4.5, root_width=24, draw_value=DRAW_VALUE
        ),
        les_evaluator,
    ),
    "lublache": FrozenHard(
        AlphaBetaSettings(
            max_depth=3, max_nodes=3_000, time_limit=4.5, root_width=10, draw_value=DRAW_VALUE
        ),
        lublache_evaluator,
    ),
}


def reference_games() -> tuple[str, ...]:
    """The games the reference can play (those whose hard level was frozen)."""
    return tuple(FROZEN_HARD)


def reference_settings(game: str, *, moves: int | None = None, scale: float = 1.0) -> AnySettings:
    """The reference's settings in ``game`` for a position offering ``moves`` moves (when
    known), budget and time times ``scale``, as ``engine.ai.levels.level_settings`` did."""
    frozen = FROZEN_HARD[game]
    settings = frozen.settings
    if frozen.narrow is not None and moves is not None and moves <= frozen.narrow_below:
        settings = frozen.narrow
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


def reference_search(
    state: BoardState, *, seed: int, scale: float = 1.0, time_limit: float | None = None
) -> SearchResult:
    """The reference's move in ``state`` (a board game it knows, not over), with the search's
    figures. ``time_limit`` overrides the ceiling (tests: a budget-bound, exact search)."""
    game = state.game.spec.name
    if game not in FROZEN_HARD:
        raise ValueError(f"the reference plays only {', '.join(FROZEN_HARD)}, not {game!r}")
    frozen = FROZEN_HARD[game]
    moves = len(state.legal_moves()) if frozen.narrow is not None else None
    settings = reference_settings(game, moves=moves, scale=scale)
    if time_limit is not None:
        settings = dataclasses.replace(settings, time_limit=time_limit)
    else:
        settings = dataclasses.replace(settings, time_limit=min(settings.time_limit, TIME_CEILING))
    searcher: AlphaBetaSearcher | Searcher = (
        AlphaBetaSearcher(settings, evaluator=frozen.evaluator, orderer=frozen.orderer)
        if isinstance(settings, AlphaBetaSettings)
        else Searcher(settings, evaluator=frozen.evaluator, orderer=frozen.orderer)
    )
    return searcher.search(state, random.Random(seed))
