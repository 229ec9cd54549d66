"""Vacations (issue 35): a member's daily clocks stop while they are away.

``set_vacation(user_id, days)`` starts one (or, with 0, ends it early). Each server gives
at most its ``vacation_days`` a year (counted per member in ``vacation_used``, the days
given back when a vacation ends early), so a member away for ten days on a server that
allows seven is away there for seven. In every running **daily** match of the member
(a day or more a move; live matches never stop) their seat keeps until when they are
away there (``SeatRecord.away_until``):

- a turn of theirs already running has its deadline (and warning) moved on by the time
  they are away, so the time left when they went is the time left when they come back;
- a turn that begins while they are away starts its clock when they are back
  (:func:`matchcore.service.time_controls.clock_starts`);
- ending it early moves those deadlines back by the time not used.

The board and ``/games`` show it (``SeatInfo.away_until``). Nothing here bumps a match's
version: the buttons on its board stay good.
"""

from __future__ import annotations

import datetime
from dataclasses import dataclass

from matchcore.records import MemberPreferences
from matchcore.service.describe import Describer
from matchcore.service.errors import InvalidSettings, ServiceError
from matchcore.service.preferences import Preferences
from matchcore.service.results import Update
from matchcore.service.steps import begin, replace_seat
from matchcore.service.store import MatchStore
from matchcore.storage import MatchRecord

DAY = 86400.0
MOST_DAYS = 365


@dataclass(frozen=True)
class VacationChange:
    """What a vacation set or ended changed: the member's preferences (their
    ``vacation_until``), until when each server lets them be away (guild id -> time), and
    the matches waiting for them whose deadlines moved (to show their boards again)."""

    preferences: MemberPreferences
    away_until: dict[int, float]
    moved: tuple[int, ...]
    updates: tuple[Update, ...] = ()  # the moved matches as they are now (the facade's)


def year_of(now: float) -> int:
    return datetime.datetime.fromtimestamp(now, datetime.UTC).year


class Vacations:
    """Starting and ending a member's vacation."""

    def __init__(self, store: MatchStore, describe: Describer, prefs: Preferences) -> None:
        self.store = store
        self.describe = describe
        self.prefs = prefs

    async def set_vacation(self, user_id: int, days: int) -> VacationChange:
        """Away for ``days`` from now (0: back now); a vacation under way ends first."""
        if not isinstance(days, int) or isinstance(days, bool) or not 0 <= days <= MOST_DAYS:
            raise InvalidSettings("vacation_days", most=MOST_DAYS)
        now = self.store.clock()
        moved = set(await self._end(user_id, now))
        until = now + days * DAY if days else None
        preferences = await self.prefs.set_preferences(user_id, vacation_until=until)
        granted: dict[int, float] = {}
        if until is not None:
            for record in await self._daily_matches(user_id):
                if record.guild_id not in granted:
                    granted[record.guild_id] = await self._grant(
                        record.guild_id, user_id, now, until
                    )
                end = granted[record.guild_id]
                if end > now and await self._shift(record.id, user_id, now, end - now, end):
                    moved.add(record.id)
        return VacationChange(preferences, granted, tuple(sorted(moved)))

    async def _daily_matches(self, user_id: int) -> list[MatchRecord]:
        daily = []
        for record in await self.store.repo.matches_of_user(user_id, ("running",)):
            seat = record.seat_of(user_id)
            if seat is None or seat.removed or seat.is_bot:
                continue
            if (await self.store.time_control(record)).daily:
                daily.append(record)
        return daily

    async def _grant(self, guild_id: int, user_id: int, now: float, until: float) -> float:
        """Until when the server lets the member be away (its days a year, less those
        given already), counted as given."""
        settings = await self.store.settings(guild_id)
        year = year_of(now)
        used = await self.store.repo.vacation_used(guild_id, user_id, year)
        given = max(0.0, min(until - now, settings.vacation_days * DAY - used))
        if given > 0:
            await self.store.repo.add_vacation_used(guild_id, user_id, year, given)
        return now + given

    async def _end(self, user_id: int, now: float) -> list[int]:
        """End a vacation under way: the time not used goes back to each server, and the
        deadlines it moved come back by as much."""
        moved = []
        given_back: set[int] = set()
        for record in await self._daily_matches(user_id):
            seat = record.seat_of(user_id)
            if seat is None or seat.away_until is None or seat.away_until <= now:
                continue
            unused = seat.away_until - now
            if record.guild_id not in given_back:
                given_back.add(record.guild_id)
                await self.store.repo.add_vacation_used(
                    record.guild_id, user_id, year_of(now), -unused
                )
            if await self._shift(record.id, user_id, now, -unused, None):
                moved.append(record.id)
        return moved

    async def _shift(
        self, match_id: int, user_id: int, now: float, seconds: float, away_until: float | None
    ) -> bool:
        """Mark the seat away until ``away_until`` (None: back) and, when the match waits
        for the member, move its deadline by ``seconds``; True when it waited."""
        try:
            # the deadline is left to the clock: a turn already lost on time stays lost
            async with self.store.match(match_id, None, judge_deadline=False) as record:
                seat = record.seat_of(user_id)
                late = record.deadline_at is not None and record.deadline_at <= now
                if record.status != "running" or seat is None or late:
                    return False
                state = self.store.state(record)
                waiting = user_id in self.describe.info(record, state).to_act
                step = begin(record, now)
                step.record = replace_seat(step.record, seat.seat, away_until=away_until)
                if waiting and record.deadline_at is not None:
                    step.record = step.record.evolve(
                        deadline_at=record.deadline_at + seconds,
                        warn_at=None if record.warn_at is None else record.warn_at + seconds,
                    )
                await self.store.commit(record, step, state)
                if waiting and record.deadline_at is not None:
                    # the turn's notices stay sent: a deadline moved is the same turn
                    await self.store.repo.move_turn_notices(
                        match_id, user_id, record.deadline_at, record.deadline_at + seconds
                    )
                return waiting
        except ServiceError:
            return False  # it ended meanwhile
