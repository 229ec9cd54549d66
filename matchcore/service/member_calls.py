"""The match service's calls about members: their preferences, vacations and turn DMs.

A part of :class:`matchcore.service.service.MatchService`'s facade, kept apart so the
facade stays small; it reaches the parts the facade builds (``prefs``, ``vacations``,
``notices``, ``lookups``).
"""

from __future__ import annotations

from dataclasses import replace

from matchcore.records import MemberPreferences
from matchcore.service.lookups import Lookups
from matchcore.service.preferences import UNCHANGED, Preferences
from matchcore.service.turn_notices import TurnNotice, TurnNotices
from matchcore.service.vacations import VacationChange, Vacations


class MemberCalls:
    """Preferences, vacations and turn notices (see docs/service.md)."""

    prefs: Preferences
    vacations: Vacations
    notices: TurnNotices
    lookups: Lookups

    async def preferences(self, user_id: int) -> MemberPreferences:
        return await self.prefs.preferences(user_id)

    async def set_preferences(
        self,
        user_id: int,
        *,
        hints: object = UNCHANGED,
        theme: object = UNCHANGED,
        turn_dms: object = UNCHANGED,
    ) -> MemberPreferences:
        return await self.prefs.set_preferences(
            user_id, hints=hints, theme=theme, turn_dms=turn_dms
        )

    async def set_vacation(self, user_id: int, days: int) -> VacationChange:
        change = await self.vacations.set_vacation(user_id, days)
        updates = tuple([await self.lookups.current(match_id) for match_id in change.moved])
        return replace(change, updates=updates)

    async def turn_notices(self, now: float | None = None) -> list[TurnNotice]:
        return await self.notices.due(now)

    async def hints_on(self, user_id: int, game: str) -> bool:
        return await self.prefs.hints_on(user_id, game)
