"""The games' rules, pure Python: no Discord, no Pillow, no I/O.

Public surface (see ENGINE_API in the shared docs): ``get_game(name)`` returns a rules object
that makes immutable states; ``IllegalMove`` is the error raised for a forbidden move.
"""

from __future__ import annotations

import importlib
from typing import Any

from engine.errors import IllegalMove

# name -> "module:Class" of the rules object; imported on first use
_GAMES: dict[str, str] = {
    "lefe": "engine.lefe:Lefe",
    "dalen": "engine.dalen:Dalen",
    "les": "engine.les:Les",
    "lublache": "engine.lublache:Lublache",
    "leiff": "engine.leiff:Leiff",
}
BOARD_GAMES: tuple[str, ...] = ("lefe", "dalen", "lublache", "les")
GAME_NAMES: tuple[str, ...] = (*BOARD_GAMES, "leiff")

_instances: dict[str, Any] = {}


class UnknownGame(KeyError):
    """Raised by :func:`get_game` for a name that is not one of our games."""

    def __str__(self) -> str:
        return f"unknown game {self.args[0]!r}; the games are: {', '.join(GAME_NAMES)}"


def get_game(name: str) -> Any:
    """The rules object of a game: ``"lefe"``, ``"dalen"``, ``"les"``, ``"lublache"``, ``"leiff"``."""
    key = name.strip().lower() if isinstance(name, str) else name
    if key not in _GAMES:
        raise UnknownGame(name)
    game = _instances.get(key)
    if game is None:
        module_name, class_name = _GAMES[key].split(":")
        game = getattr(importlib.import_module(module_name), class_name)()
        _instances[key] = game
    return game


__all__ = ["BOARD_GAMES", "GAME_NAMES", "IllegalMove", "UnknownGame", "get_game"]
