"""The one error type the engine raises for a move or action a player may not make."""

from __future__ import annotations


class IllegalMove(ValueError):
    """A move or action that the rules forbid.

    ``str(error)`` is a sentence written for players ("f6 is taken", "it is light's turn"),
    safe to show in a channel: it never contains hidden information.
    """
