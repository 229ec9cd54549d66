"""Seasons of a server's ratings: which season a moment falls in, and when it ends.

A server rates its games in seasons when its setting ``season`` is ``monthly`` or
``quarterly`` (``none``: no seasons). A season is named by a key that sorts by time and says
its kind: ``2026-11`` (November 2026) or ``2026-Q4`` (October to December 2026). Seasons
follow the calendar in UTC. Pure: no storage, no clock.
"""

from __future__ import annotations

import calendar
import re
from dataclasses import dataclass
from datetime import UTC, datetime

SEASON_KINDS = ("none", "monthly", "quarterly")
# A season is closed this long after its end: a result committed just after midnight whose
# match ended just before it still counts in the season it belongs to.
CLOSE_GRACE_SECONDS = 120.0

_MONTHLY = re.compile(r"^(\d{4})-(\d{2})$")
_QUARTERLY = re.compile(r"^(\d{4})-Q([1-4])$")


@dataclass(frozen=True)
class Season:
    """One season: its key, kind, year and number (the month 1-12 or the quarter 1-4), and
    its start and end as Unix seconds (the end is the next season's start)."""

    key: str
    kind: str
    year: int
    number: int
    starts_at: float
    ends_at: float


def _moment(year: int, month: int) -> float:
    return float(calendar.timegm((year, month, 1, 0, 0, 0)))


def _season(kind: str, year: int, number: int) -> Season:
    first_month = number if kind == "monthly" else 3 * (number - 1) + 1
    months = 1 if kind == "monthly" else 3
    end_year, end_month = divmod(first_month - 1 + months, 12)
    key = f"{year}-{number:02d}" if kind == "monthly" else f"{year}-Q{number}"
    return Season(
        key=key,
        kind=kind,
        year=year,
        number=number,
        starts_at=_moment(year, first_month),
        ends_at=_moment(year + end_year, end_month + 1),
    )


def season_at(kind: str, at: float) -> Season | None:
    """The season of kind ``kind`` that the moment ``at`` falls in (None for ``none``)."""
    if kind not in SEASON_KINDS:
        raise ValueError(f"no season kind {kind!r}")
    if kind == "none":
        return None
    moment = datetime.fromtimestamp(at, UTC)
    if kind == "monthly":
        return _season(kind, moment.year, moment.month)
    return _season(kind, moment.year, (moment.month - 1) // 3 + 1)


def season_of_key(key: str) -> Season | None:
    """The season a key names (None for a key that names none)."""
    found = _MONTHLY.match(key)
    if found and 1 <= int(found.group(2)) <= 12:
        return _season("monthly", int(found.group(1)), int(found.group(2)))
    found = _QUARTERLY.match(key)
    if found:
        return _season("quarterly", int(found.group(1)), int(found.group(2)))
    return None
