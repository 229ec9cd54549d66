"""The games as the Discord layer names them: display names and the slash commands' list."""

from __future__ import annotations

from discord import app_commands

from engine import get_spec, specs


def game_title(game: str) -> str:
    """A game's display name ("Lefe")."""
    try:
        return get_spec(game).title.english
    except Exception:
        return game.capitalize()


def game_choices() -> list[app_commands.Choice[str]]:
    """Every registered game, by its display name (the same in every language)."""
    return [app_commands.Choice(name=spec.title.english, value=spec.name) for spec in specs()]
