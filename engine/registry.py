"""The one registry of games (after OpenSpiel's ``pyspiel.load_game``), with the five built in.

A game is registered as its rules object, which carries its :class:`engine.spec.GameSpec`;
:func:`get_game` and :func:`get_spec` look it up by name. A new game — a sixth board game
in the tests, say — needs nothing but its own module and a call to :func:`register`
(or the :func:`registered` context for a test).
"""

from __future__ import annotations

import importlib
from collections.abc import Iterable, Iterator
from contextlib import contextmanager

from engine.board import BoardGame
from engine.dalen import Dalen
from engine.lefe import Lefe
from engine.leiff.state import Leiff
from engine.les import Les
from engine.lublache import Lublache
from engine.protocols import Game
from engine.spec import GameSpec

_games: dict[str, Game] = {}


class UnknownGame(KeyError):
    """Raised by :func:`get_game` for a name that is not one of our games."""

    def __str__(self) -> str:
        return f"unknown game {self.args[0]!r}; the games are: {', '.join(game_names())}"


def register(game: Game) -> Game:
    """Add a game to the registry under its spec's name (which must be new)."""
    name = game.spec.name
    if game.name != name:
        raise ValueError(f"the rules object of {name!r} calls itself {game.name!r}")
    if name in _games:
        raise ValueError(f"a game called {name!r} is registered already")
    _games[name] = game
    return game


def unregister(name: str) -> None:
    """Remove a game again (tests that register a game of their own)."""
    del _games[name]


@contextmanager
def registered(game: Game) -> Iterator[Game]:
    """The game registered for the length of a ``with`` block."""
    register(game)
    try:
        yield game
    finally:
        unregister(game.spec.name)


def origin(game: Game) -> str:
    """Where a game's rules class is found (``"module:Class"``), for :func:`register_from`."""
    kind = type(game)
    return f"{kind.__module__}:{kind.__qualname__}"


def origins() -> tuple[str, ...]:
    """Every registered game's origin, in order: what another process (an AI or picture
    worker, started fresh) needs to register the same games."""
    return tuple(origin(game) for game in _games.values())


def register_from(path: str) -> Game:
    """Import ``"module:Class"``, make its rules object and register it, unless a game of
    that class is registered already (then that one is returned)."""
    module_name, _, class_name = path.partition(":")
    kind = getattr(importlib.import_module(module_name), class_name)
    for game in _games.values():
        if type(game) is kind:
            return game
    made: Game = kind()
    return register(made)


def register_all(paths: Iterable[str]) -> None:
    """Register the games of another process's :func:`origins` (a worker's initializer)."""
    for path in paths:
        register_from(path)


def _key(name: str) -> str:
    return name.strip().lower() if isinstance(name, str) else name


def get_game(name: str) -> Game:
    """The rules object of a game by name (any case, spaces ignored); :class:`UnknownGame`
    (a ``KeyError``) for any other name."""
    game = _games.get(_key(name))
    if game is None:
        raise UnknownGame(name)
    return game


def get_board_game(name: str) -> BoardGame:
    """The rules object of a board game; ``ValueError`` for Leiff, UnknownGame for others."""
    game = get_game(name)
    if not isinstance(game, BoardGame):
        raise ValueError(f"{game.name!r} is not a board game")
    return game


def get_spec(name: str) -> GameSpec:
    """The spec of a game by name."""
    return get_game(name).spec


def specs() -> tuple[GameSpec, ...]:
    """Every registered game's spec, in the order they were registered."""
    return tuple(game.spec for game in _games.values())


def game_names() -> tuple[str, ...]:
    return tuple(_games)


def board_game_names() -> tuple[str, ...]:
    return tuple(spec.name for spec in specs() if spec.is_board_game)


# the built-in games, in the order players see them listed
BUILT_IN: tuple[Game, ...] = (Lefe(), Dalen(), Lublache(), Les(), Leiff())
for _game in BUILT_IN:
    register(_game)
