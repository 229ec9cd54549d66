"""The games' rules, pure Python: no Discord, no Pillow, no I/O.

Public surface (see ENGINE_API in the shared docs): ``get_game(name)`` returns a rules object
that makes immutable states; ``IllegalMove`` is the error raised for a forbidden move. Each
game is described once by its :class:`engine.spec.GameSpec`, held in
:mod:`engine.registry`; ``get_spec(name)`` returns it. Positions made inside ``with
seen_once():`` (a replay of a stored match) keep nothing for other positions (Lublache's
loop answers shared between positions are neither read nor filled).
"""

from __future__ import annotations

from engine.errors import IllegalMove
from engine.loops import unshared_answers as seen_once
from engine.registry import (
    UnknownGame,
    board_game_names,
    game_names,
    get_board_game,
    get_game,
    get_spec,
    origins,
    register,
    register_all,
    register_from,
    registered,
    specs,
)

# The built-in games, as fixed tuples for the bot and the service (which are to ask the
# registry instead); a game registered later is not in them.
BOARD_GAMES: tuple[str, ...] = board_game_names()
GAME_NAMES: tuple[str, ...] = game_names()

__all__ = [
    "BOARD_GAMES",
    "GAME_NAMES",
    "IllegalMove",
    "UnknownGame",
    "board_game_names",
    "game_names",
    "get_board_game",
    "get_game",
    "get_spec",
    "origins",
    "register",
    "register_all",
    "register_from",
    "registered",
    "seen_once",
    "specs",
]
