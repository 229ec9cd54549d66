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

Per-game settings live in ``GAME_ADJUSTMENTS`` and ``NARROW_ADJUSTMENTS``; why each was
chosen is in docs/ai.md. Normal and hard count a drawn end as 0.4 of a win for themselves
(``DRAW_VALUE``), so they play on rather than settle; easy counts it as ½.

``scale`` (benchmark and tests only) multiplies both the budget and the time limit, so a
benchmark can play many games at proportionally reduced strength.
"""

from __future__ import annotations

import dataclasses
import random
import zlib
from dataclasses import dataclass
from typing import Any

from engine import BOARD_GAMES, get_game
from engine.ai.alphabeta import AlphaBetaSearcher, AlphaBetaSettings
from engine.ai.mcts import Searcher, SearchResult, SearchSettings

AnySettings = SearchSettings | AlphaBetaSettings

HARD_TIME_CEILING = 5.0  # seconds: the promise for the slowest level
# normal and hard count a drawn end as 0.4 of a win for themselves: against most opponents
# the bot is the stronger side, and playing on wins more than settling (Lefe above all).
DRAW_VALUE = 0.4


@dataclass(frozen=True)
class Level:
    """One named strength: its search settings and a line for help texts."""

    name: str
    description: str
    settings: AnySettings

    @property
    def time_limit(self) -> float:
        return self.settings.time_limit


LEVELS: dict[str, Level] = {
    "easy": Level(
        "easy",
        "thinks briefly and overlooks many moves",
        SearchSettings(max_iterations=60, time_limit=0.5, scan_depth=0),
    ),
    "normal": Level(
        "normal",
        "looks at every move, then reads the promising ones a few turns ahead",
        SearchSettings(max_iterations=600, time_limit=1.5, draw_value=DRAW_VALUE),
    ),
    "hard": Level(
        "hard",
        "reads three moves deep and assumes you find your best replies (up to ~5 s a move)",
        AlphaBetaSettings(max_depth=3, max_nodes=20_000, time_limit=4.5, draw_value=DRAW_VALUE),
    ),
}
LEVEL_NAMES: tuple[str, ...] = tuple(LEVELS)

# Per-game settings, where a game's shape calls for them (each chosen on benchmark games,
# see docs/ai.md):
# - Les offers up to a thousand two-stone moves early on: hard reads only the 24 best of
#   its first look three plies deep.
# - Dalen's evaluator counts threatened flips, which swing wildly from ply to ply; there
#   averaging over the replies (Monte Carlo, exploring little) beat three-ply minimax.
# - Lublache has the slowest engine (a legal-move list costs milliseconds): normal stops
#   at 300 iterations, about half a second, and hard reads the ten best root moves three
#   plies deep.
GAME_ADJUSTMENTS: dict[tuple[str, str], dict[str, Any] | AnySettings] = {
    ("lublache", "normal"): {"max_iterations": 300},
    ("les", "hard"): AlphaBetaSettings(
        max_depth=3, max_nodes=5_000, time_limit=4.5, root_width=24, draw_value=DRAW_VALUE
    ),
    ("dalen", "hard"): SearchSettings(
        max_iterations=1000,
        time_limit=4.5,
        scan_depth=2,
        exploration=0.2,
        draw_value=DRAW_VALUE,
    ),
    ("lublache", "hard"): AlphaBetaSettings(
        max_depth=3, max_nodes=3_000, time_limit=4.5, root_width=10, draw_value=DRAW_VALUE
    ),
}
# Narrow positions: when the side to move has at most ``below`` moves, the level reads
# them with other settings. Lefe's games are decided in their last placements, where a
# one-ply look cannot see that the leader's forced placements will merge its own trees:
# there normal reads ahead with alpha-beta, as deep as 4,000 positions allow (up to eight
# plies, well under a second), and hard, which must never read less than normal, as deep
# as 12,000 allow.
NARROW_ADJUSTMENTS: dict[tuple[str, str], tuple[int, AnySettings]] = {
    ("lefe", "normal"): (
        16,
        AlphaBetaSettings(max_depth=8, max_nodes=4_000, time_limit=1.5, draw_value=DRAW_VALUE),
    ),
    ("lefe", "hard"): (
        16,
        AlphaBetaSettings(max_depth=10, max_nodes=12_000, time_limit=4.5, draw_value=DRAW_VALUE),
    ),
}
DEFAULT_LEVEL = "normal"


def get_level(name: str) -> Level:
    """The level called ``name`` (case-insensitive); ValueError listing the levels otherwise."""
    key = name.strip().lower() if isinstance(name, str) else name
    if key not in LEVELS:
        raise ValueError(f"unknown level {name!r}; the levels are: {', '.join(LEVEL_NAMES)}")
    return LEVELS[key]


def level_settings(
    level: str | Level,
    *,
    scale: float = 1.0,
    game: str | None = None,
    moves: int | None = None,
) -> AnySettings:
    """The search settings of a level (for ``game``, in a position offering ``moves``
    moves when known), budget and time times ``scale``."""
    chosen = get_level(level) if isinstance(level, str) else level
    settings: AnySettings = chosen.settings
    adjustment = GAME_ADJUSTMENTS.get((game or "", chosen.name))
    if isinstance(adjustment, dict):
        settings = dataclasses.replace(settings, **adjustment)
    elif adjustment is not None:
        settings = adjustment
    narrow = NARROW_ADJUSTMENTS.get((game or "", chosen.name))
    if narrow is not None and moves is not None and moves <= narrow[0]:
        settings = narrow[1]
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
    state: Any,
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
    moves = None
    if (state.game.name, name.strip().lower()) in NARROW_ADJUSTMENTS:
        moves = len(state.legal_moves())
    settings = level_settings(level, scale=scale, game=state.game.name, moves=moves)
    if time_limit is not None:
        settings = dataclasses.replace(settings, time_limit=time_limit)
    settings = dataclasses.replace(settings, time_limit=min(settings.time_limit, HARD_TIME_CEILING))
    if seed is None:
        seed = position_seed(state.to_json(), name)
    searcher = (
        AlphaBetaSearcher(settings)
        if isinstance(settings, AlphaBetaSettings)
        else Searcher(settings)
    )
    return searcher.search(state, random.Random(seed))


def choose_move(
    state: Any,
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
    if game not in BOARD_GAMES:
        raise ValueError(
            f"{game!r} is not a board game; the board games are: {', '.join(BOARD_GAMES)}"
        )
    state = get_game(game).from_json(state_json)
    if seed is None:
        seed = position_seed(state_json, level)
    return choose_move(state, level, seed=seed)
