"""Members' own preferences: move hints and the theme of the pictures only they see.

A member's choices are the same on every server (a DM belongs to no server). Hints are on
by default while a member plays their first :data:`HINT_GAMES` games of a game (counting
finished matches of that game, on any server), and off after that, unless the member chose
with ``/prefs hints``. A theme chosen with ``/prefs theme`` is used for that member's DM and
private pictures; without one, those pictures use the server's theme.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from bot.service.errors import InvalidSettings
from bot.storage import MemberPreferences, Repository
from render.themes import list_themes

# Hints are on by default for a member's first this many games of each game.
HINT_GAMES = 3

UNCHANGED: Any = object()  # a preference left as it is by set_preferences


class Preferences:
    """Members' own preferences (the service's part that keeps them)."""

    def __init__(self, repo: Repository, clock: Callable[[], float]) -> None:
        self.repo = repo
        self.clock = clock

    async def preferences(self, user_id: int) -> MemberPreferences:
        """What the member chose (each field None where they chose nothing)."""
        stored = await self.repo.get_preferences(user_id)
        return stored or MemberPreferences(user_id)

    async def set_preferences(
        self, user_id: int, *, hints: Any = UNCHANGED, theme: Any = UNCHANGED
    ) -> MemberPreferences:
        """Change some of the member's preferences (None: back to the default)."""
        if hints is not UNCHANGED and hints is not None and not isinstance(hints, bool):
            raise InvalidSettings("hints_on_or_off")
        if theme is not UNCHANGED and theme is not None and theme not in list_themes():
            raise InvalidSettings("unknown_theme", themes=", ".join(list_themes()))
        current = await self.preferences(user_id)
        updated = MemberPreferences(
            user_id=user_id,
            hints=current.hints if hints is UNCHANGED else hints,
            theme=current.theme if theme is UNCHANGED else theme,
            updated_at=float(self.clock()),
        )
        await self.repo.put_preferences(updated)
        return updated

    async def hints_on(self, user_id: int, game: str) -> bool:
        """Whether the member's board pictures of ``game`` show move hints now."""
        # One read (the choice and the games together): this is asked for every board picture.
        chosen, finished = await self.repo.hints_facts(user_id, game)
        if chosen is not None:
            return chosen
        return finished < HINT_GAMES
