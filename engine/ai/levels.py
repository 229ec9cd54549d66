"""The three strengths of the board-game AI and the one call that picks a move.

A level is a thinking-time ceiling plus a search strength (iterations, how widely it looks
at the root). The iteration cap is what normally ends a search, which keeps a seeded search
reproducible; the time limit is a guarantee for the player waiting in the channel (hard
never thinks longer than 5 s).

=======  ==========  ==========  =============================================
level    time limit  iterations  what it does
=======  ==========  ==========  =============================================
easy     0.5 s       60          a short search that looks at only a few moves
normal   1.5 s       600         scans every move once, then searches the best
hard     4.5 s       4000        also scans every reply to the moves it reads
=======  ==========  ==========  =============================================

Normal and hard count a drawn end as 0.4 of a win for themselves (``DRAW_VALUE``), so they
play on rather than settle; easy counts it as ½.

``scale`` (benchmark and tests only) multiplies both the iterations and the time limit, so
a benchmark can play many games at proportionally reduced strength.
"""

from __future__ import annotations

import dataclasses
import random
import zlib
from dataclasses import dataclass
from typing import Any

from engine import BOARD_GAMES, get_game
from engine.ai.mcts import Searcher, SearchResult, SearchSettings

HARD_TIME_CEILING = 5.0  # seconds: the promise for the slowest level
# normal and hard count a drawn end as 0.4 of a win for themselves: against most opponents
# the bot is the stronger side, and playing on wins more than settling (Lefe above all).
DRAW_VALUE = 0.4


@dataclass(frozen=True)
class Level:
    """One named strength: its search settings and a line for help texts."""

    name: str
    description: str
    settings: SearchSettings

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
        "also weighs every reply to the moves it reads, and thinks up to ~5 s a move",
        SearchSettings(max_iterations=4000, time_limit=4.5, scan_depth=2, draw_value=DRAW_VALUE),
    ),
}
LEVEL_NAMES: tuple[str, ...] = tuple(LEVELS)

# Per-game adjustments. The Lublache engine needs ~10 ms per move, so scanning every reply
# (~100 moves, ~1 s per node) would eat hard's whole budget on three or four moves; there
# hard keeps normal's shape and simply thinks three times as long.
GAME_ADJUSTMENTS: dict[tuple[str, str], dict[str, Any]] = {
    ("lublache", "hard"): {"scan_depth": 1},
}
DEFAULT_LEVEL = "normal"


def get_level(name: str) -> Level:
    """The level called ``name`` (case-insensitive); ValueError listing the levels otherwise."""
    key = name.strip().lower() if isinstance(name, str) else name
    if key not in LEVELS:
        raise ValueError(f"unknown level {name!r}; the levels are: {', '.join(LEVEL_NAMES)}")
    return LEVELS[key]


def level_settings(
    level: str | Level, *, scale: float = 1.0, game: str | None = None
) -> SearchSettings:
    """The search settings of a level (for ``game``), iterations and time times ``scale``."""
    chosen = get_level(level) if isinstance(level, str) else level
    settings = chosen.settings
    adjustment = GAME_ADJUSTMENTS.get((game or "", chosen.name))
    if adjustment:
        settings = dataclasses.replace(settings, **adjustment)
    if scale == 1.0:
        return settings
    if scale <= 0:
        raise ValueError("scale must be positive")
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
    settings = level_settings(level, scale=scale, game=state.game.name)
    if time_limit is not None:
        settings = dataclasses.replace(settings, time_limit=time_limit)
    settings = dataclasses.replace(settings, time_limit=min(settings.time_limit, HARD_TIME_CEILING))
    if seed is None:
        name = level if isinstance(level, str) else level.name
        seed = position_seed(state.to_json(), name)
    return Searcher(settings).search(state, random.Random(seed))


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
