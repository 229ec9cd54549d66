"""The core's own records that its front ends receive: an accepted action, a member's
preferences, a refusal of direct messages, a finished match's result.

The match service's protocol (:mod:`matchcore.service.protocol`) speaks in these and in its
result types (:mod:`matchcore.service.results`), never in the storage's rows: the storage
maps its rows to them (:mod:`matchcore.storage.mapping`) and keeps the rest of its records
(a match as stored, its seats, challenges, ratings) to itself and the service.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TypedDict


@dataclass(frozen=True)
class ActionRecord:
    """One accepted action: ``version`` is the match version it produced."""

    match_id: int
    version: int
    user_id: int | None  # None for the clock (timeouts) or the service itself
    seat: int | None
    action: str
    at: float


@dataclass(frozen=True)
class SignInRecord:
    """A signed-in browser as stored (a front end's session): the member it speaks for,
    the front end's own data about it (plain JSON), and when it expires (None: never)."""

    user_id: int
    data: dict[str, object]
    expires_at: float | None


@dataclass(frozen=True)
class DmFailure:
    """Discord refused a user's DMs (``code``, e.g. 50007) at ``failed_at``; ``noticed`` are
    the tables whose channel was told so while the refusal lasts (each is told once)."""

    user_id: int
    failed_at: float
    code: int | None = None
    noticed: frozenset[int] = frozenset()


@dataclass(frozen=True)
class MemberPreferences:
    """A member's own choices (the same on every server): ``hints`` on or off, or None
    for the default; ``theme`` of the pictures only they see, or None for the server's."""

    user_id: int
    hints: bool | None = None
    theme: str | None = None
    updated_at: float = 0.0
    # a DM when a daily match waits for them (None: off, the default)
    turn_dms: bool | None = None
    # on vacation until then (their daily clocks stop; None: not away)
    vacation_until: float | None = None


class SaidData(TypedDict):
    """Something the service said, as JSON (``matchcore.service.reasons.said_data``): a
    code and its parameters, a parameter that is itself said nested as ``{"said": ...}``."""

    code: str
    params: dict[str, object]


class MatchResult(TypedDict, total=False):
    """A finished match's result, stored as JSON with the match: the winners (user ids;
    None for a seat without one), whether it is a draw or was aborted, why in English
    (``reason``) and as a code (``why``, the service's reason, or ``outcome``, the engine's
    outcome as data; a result stored before codes has neither), and at a table of more
    than two each seat's place among ``field`` places. Its readers take every key as
    optional, as results stored by earlier releases may lack any of them."""

    winners: list[int | None]
    draw: bool
    aborted: bool
    reason: str
    why: SaidData
    outcome: dict[str, object]
    places: list[int]
    field: int
