"""Members' own preferences: move hints and the theme of the pictures only they see.

A member's choices are the same on every server (a DM belongs to no server). Hints are on
by default while a member plays their first :data:`HINT_GAMES` games of a game (counting
finished matches of that game, on any server), and off after that, unless the member chose
with ``/prefs hints``. A theme chosen with ``/prefs theme`` is used for that member's DM and
private pictures; without one, those pictures use the server's theme.

Both are asked for with nearly every update (the hints for every board picture, the theme
for every Leiff hand), and change rarely, so they are kept in memory like the servers'
settings (:data:`matchcore.service.store.SETTINGS_SECONDS`): a change made through this process
(``/prefs``, a game of the member finished here) is used at once, one made through another
process at most that many seconds later.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterable
from typing import Any

from matchcore.records import MemberPreferences
from matchcore.service.errors import InvalidSettings
from matchcore.service.guild_settings import Choices
from matchcore.service.store import SETTINGS_SECONDS
from matchcore.storage import Repository

# Hints are on by default for a member's first this many games of each game.
HINT_GAMES = 3

# Entries kept in memory before the out-of-date ones are dropped.
MAX_REMEMBERED = 20_000

UNCHANGED: Any = object()  # a preference left as it is by set_preferences


class Preferences:
    """Members' own preferences (the service's part that keeps them)."""

    def __init__(
        self,
        repo: Repository,
        clock: Callable[[], float],
        choices: Choices,
        cache_clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.repo = repo
        self.choices = choices
        self.clock = clock
        self.cache_clock = cache_clock
        # What was last read, with when (``cache_clock`` seconds; see the module docstring).
        self._chosen: dict[int, tuple[float, MemberPreferences]] = {}
        self._hint_facts: dict[tuple[int, str], tuple[float, bool | None, int]] = {}

    def _fresh(self, read_at: float) -> bool:
        return self.cache_clock() - read_at < SETTINGS_SECONDS

    def _prune(self) -> None:
        """Forget what is out of date anyway once many members were seen (bounded memory)."""
        if len(self._chosen) + len(self._hint_facts) < MAX_REMEMBERED:
            return
        self._chosen = {k: v for k, v in self._chosen.items() if self._fresh(v[0])}
        self._hint_facts = {k: v for k, v in self._hint_facts.items() if self._fresh(v[0])}

    async def preferences(self, user_id: int) -> MemberPreferences:
        """What the member chose (each field None where they chose nothing)."""
        cached = self._chosen.get(user_id)
        if cached is not None and self._fresh(cached[0]):
            return cached[1]
        now = self.cache_clock()
        stored = await self.repo.get_preferences(user_id) or MemberPreferences(user_id)
        self._prune()
        self._chosen[user_id] = (now, stored)
        return stored

    async def set_preferences(
        self,
        user_id: int,
        *,
        hints: Any = UNCHANGED,
        theme: Any = UNCHANGED,
        turn_dms: Any = UNCHANGED,
        vacation_until: Any = UNCHANGED,
    ) -> MemberPreferences:
        """Change some of the member's preferences (None: back to the default).
        ``vacation_until`` is the vacations' own (:mod:`matchcore.service.vacations`)."""
        if hints is not UNCHANGED and hints is not None and not isinstance(hints, bool):
            raise InvalidSettings("hints_on_or_off")
        if turn_dms is not UNCHANGED and turn_dms is not None and not isinstance(turn_dms, bool):
            raise InvalidSettings("turn_dms_on_or_off")
        if theme is not UNCHANGED and theme is not None and theme not in self.choices.themes:
            raise InvalidSettings("unknown_theme", themes=", ".join(self.choices.themes))
        # Changes apply to the choices as stored now, not as this process last read them.
        current = await self.repo.get_preferences(user_id) or MemberPreferences(user_id)
        updated = MemberPreferences(
            user_id=user_id,
            hints=current.hints if hints is UNCHANGED else hints,
            theme=current.theme if theme is UNCHANGED else theme,
            updated_at=float(self.clock()),
            turn_dms=current.turn_dms if turn_dms is UNCHANGED else turn_dms,
            vacation_until=(
                current.vacation_until if vacation_until is UNCHANGED else vacation_until
            ),
        )
        await self.repo.put_preferences(updated)
        self._chosen[user_id] = (self.cache_clock(), updated)
        self._forget_hint_facts(user_id)
        return updated

    async def hints_on(self, user_id: int, game: str) -> bool:
        """Whether the member's board pictures of ``game`` show move hints now."""
        cached = self._hint_facts.get((user_id, game))
        if cached is not None and self._fresh(cached[0]):
            _, chosen, finished = cached
        else:
            now = self.cache_clock()
            # One read (the choice and the games together), at most every SETTINGS_SECONDS.
            chosen, finished = await self.repo.hints_facts(user_id, game)
            self._prune()
            self._hint_facts[(user_id, game)] = (now, chosen, finished)
        if chosen is not None:
            return chosen
        return finished < HINT_GAMES

    def match_finished(self, user_ids: Iterable[int], game: str) -> None:
        """A match of ``game`` of these users finished (through this process): their
        count of finished games, and so perhaps their hints, changed."""
        for user_id in user_ids:
            self._hint_facts.pop((user_id, game), None)

    def _forget_hint_facts(self, user_id: int) -> None:
        for key in [key for key in self._hint_facts if key[0] == user_id]:
            del self._hint_facts[key]
