"""Turn notices (issue 35): a DM when a daily match waits for a member who asked for them
(``/prefs``), and a reminder before its deadline.

:meth:`TurnNotices.due` is called by the front end after each clock tick. It finds the
notices due: a **turn** notice once a daily match has waited for the member
:data:`NOTICE_AFTER_SECONDS` (a player still at the board answers first, and gets none), a
**reminder** once the match's warning time came (a quarter of the time left). Each is
claimed in the database before it is given out (one row per match, member, kind and
turn: the deadline the turn counts down to), so a turn never gets two of a kind, across
restarts and processes; a turn notice and a reminder due together go out as one. The
notices of one member are grouped into one :class:`TurnNotice` ("3 matches wait for
you"). None for a member who turned them off, is on vacation there, or whose turn it is
not (any more); none in live matches. A notice claimed by a process that dies before
sending it is not sent again (never two rather than surely one).
"""

from __future__ import annotations

from dataclasses import dataclass

from matchcore.service.describe import Describer
from matchcore.service.results import MatchInfo
from matchcore.service.store import MatchStore

# A turn notice goes out when the match has waited this long for the member.
NOTICE_AFTER_SECONDS = 120.0
# Candidates looked at per kind and call (soonest deadline first).
CANDIDATES = 200
# The notices are looked for at most this often (the service's clock).
EVERY_SECONDS = 30.0


@dataclass(frozen=True)
class TurnNotice:
    """One DM to send: the member's matches that wait for them (soonest deadline first),
    and whether it reminds of a deadline near (``reminder``) or says a turn came."""

    user_id: int
    matches: tuple[MatchInfo, ...]
    reminder: bool = False


class TurnNotices:
    """Finds and claims the turn notices due."""

    def __init__(self, store: MatchStore, describe: Describer) -> None:
        self.store = store
        self.describe = describe
        self._last_look = float("-inf")

    async def due(self, now: float | None = None) -> list[TurnNotice]:
        """The notices due now, claimed: one per member at most."""
        now = self.store.clock() if now is None else now
        if now - self._last_look < EVERY_SECONDS:
            return []
        self._last_look = now
        waiting: dict[int, dict[int, MatchInfo]] = {}
        reminded: set[int] = set()
        for kind, due_at in (("reminder", now), ("turn", now - NOTICE_AFTER_SECONDS)):
            repo = self.store.repo
            for match_id, user_id in await repo.turn_notice_candidates(kind, due_at, CANDIDATES):
                info = await self._waiting_for(match_id, user_id, now)
                if info is None or info.deadline_at is None:
                    continue
                if await repo.claim_turn_notice(match_id, user_id, kind, info.deadline_at, now):
                    waiting.setdefault(user_id, {})[match_id] = info
                    if kind == "reminder":
                        reminded.add(user_id)
        return [
            TurnNotice(
                user_id,
                tuple(sorted(matches.values(), key=lambda m: (m.deadline_at or 0.0, m.id))),
                reminder=user_id in reminded,
            )
            for user_id, matches in sorted(waiting.items())
        ]

    async def _waiting_for(self, match_id: int, user_id: int, now: float) -> MatchInfo | None:
        """The daily match, when it waits for the member (not away) now."""
        record = await self.store.repo.get_match(match_id)
        if record is None or record.status != "running" or record.deadline_at is None:
            return None
        seat = record.seat_of(user_id)
        if seat is None or seat.is_bot or seat.removed:
            return None
        if seat.away_until is not None and seat.away_until > now:
            return None
        if not (await self.store.time_control(record)).daily:
            return None
        info = self.describe.info(record, self.store.state(record))
        return info if user_id in info.to_act else None
