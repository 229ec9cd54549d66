"""The bot levels' measured strength, as the ladder last fitted it (``make bench-ai``).

``data/ai-strength.json`` is written by ``python -m bench.ladder --report RECORD
--write-strength data/ai-strength.json`` from games at full strength and each game's
default size: per game and level, the fitted Elo (the frozen reference player, the bot's
first hard level, is 1500), its 95 % interval and the games behind it. A level or game the
ladder has not measured has no entry, and nothing is shown for it.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from functools import cache
from pathlib import Path

STRENGTH_PATH = Path(__file__).resolve().parents[1] / "data" / "ai-strength.json"


@dataclass(frozen=True)
class Strength:
    """One level's fitted rating in one game."""

    elo: int
    low: int
    high: int
    games: int


@cache
def _measured(path: Path) -> dict[str, dict[str, Strength]]:
    if not path.exists():
        return {}
    data = json.loads(path.read_text(encoding="utf-8"))
    return {
        game: {level: Strength(**fields) for level, fields in levels.items()}
        for game, levels in data.items()
    }


def measured_strength(game: str, level: str, path: Path | None = None) -> Strength | None:
    """``level``'s measured strength in ``game`` (from ``path``, by default
    :data:`STRENGTH_PATH`), or None when the ladder has none."""
    return _measured(path or STRENGTH_PATH).get(game, {}).get(level)
