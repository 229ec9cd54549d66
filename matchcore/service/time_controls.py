"""Time controls: how long a player has to act in one match, and the rating pool it counts in.

A match carries its time control as a short code, chosen with ``/play`` (the server's time
per move when none is chosen) and stored on the match row:

- ``move:<seconds>``: so long for every move (or Leiff turn), restarted after each one;
  a day or more is a **daily** match, less a **live** one;
- ``game:<seconds>+<increment>``: a whole-game clock (board games only): each player has
  ``seconds`` for the whole game, and ``increment`` more after each of their moves; the
  time left is kept per seat (``SeatRecord.clock_left``). Always live.

Live and daily matches are rated apart: their ratings and places carry the pool
(:data:`LIVE`, :data:`DAILY`). Pure values, no storage.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from matchcore.service.errors import InvalidOptions
from matchcore.service.texts import Duration, Said
from matchcore.storage import SeatRecord

LIVE = "live"
DAILY = "daily"
POOLS = (LIVE, DAILY)
DAY = 86400
# The longest clock anything may choose (the server's per-move time is checked too).
MAX_SECONDS = 14 * DAY
MIN_SECONDS = 60
MAX_INCREMENT = 600

# What /play offers, live then daily.
LIVE_CONTROLS = ("move:60", "move:180", "move:600", "game:600+5")
DAILY_CONTROLS = ("move:86400", "move:172800", "move:259200", "move:604800")
OFFERED = LIVE_CONTROLS + DAILY_CONTROLS


@dataclass(frozen=True)
class TimeControl:
    """A match's time control: ``per_move`` seconds a move, or a whole-game clock of
    ``base`` seconds each with ``increment`` seconds added after each own move."""

    per_move: int = 0
    base: int = 0
    increment: int = 0

    @classmethod
    def per_move_of(cls, seconds: int | float) -> TimeControl:
        return cls(per_move=int(seconds))

    @classmethod
    def parse(cls, code: str) -> TimeControl:
        """The control a code names; ``InvalidOptions("time_control")`` when it names none."""
        kind, _, rest = code.strip().partition(":")
        try:
            if kind == "move":
                control = cls(per_move=int(rest))
            elif kind == "game":
                base, _, increment = rest.partition("+")
                control = cls(base=int(base), increment=int(increment or 0))
            else:
                raise ValueError(code)
        except ValueError:
            raise InvalidOptions("time_control_unknown") from None
        control.check()
        return control

    def check(self) -> None:
        seconds = self.base if self.whole_game else self.per_move
        if not MIN_SECONDS <= seconds <= MAX_SECONDS or not 0 <= self.increment <= MAX_INCREMENT:
            raise InvalidOptions("time_control_unknown")
        if self.whole_game and self.per_move:
            raise InvalidOptions("time_control_unknown")

    @property
    def whole_game(self) -> bool:
        return self.base > 0

    @property
    def daily(self) -> bool:
        return not self.whole_game and self.per_move >= DAY

    @property
    def pool(self) -> str:
        """The rating pool its matches count in."""
        return DAILY if self.daily else LIVE

    @property
    def code(self) -> str:
        if self.whole_game:
            return f"game:{self.base}+{self.increment}"
        return f"move:{self.per_move}"

    def said(self) -> Said:
        """The control in words: "3 days per move", "10 min + 5 s a move"."""
        if self.whole_game:
            return Said(
                "time_control_game",
                {"time": Duration(self.base), "increment": Duration(self.increment)},
            )
        return Said("time_control_move", {"time": Duration(self.per_move)})


def pool_of(code: str | None, fallback_seconds: int | float) -> str:
    """The pool of a stored code (None: a match on the server's per-move time)."""
    return control_of(code, fallback_seconds).pool


def control_of(code: str | None, fallback_seconds: int | float) -> TimeControl:
    """The control a stored code names; None (or a code no longer read) falls back to
    ``fallback_seconds`` per move, the server's time."""
    if code:
        try:
            return TimeControl.parse(code)
        except InvalidOptions:
            pass
    return TimeControl.per_move_of(fallback_seconds)


def checked_pool(pool: str | None) -> str:
    """A pool asked for by name (None: live); ``InvalidOptions`` for another word."""
    if pool is None:
        return LIVE
    if pool not in POOLS:
        raise InvalidOptions("pool_unknown")
    return pool


def chosen(code: str | None, server_seconds: int, *, table: bool) -> TimeControl:
    """The control a new game plays with: the one chosen (its code checked), else the
    server's time per move. A table (Leiff) has no whole-game clock."""
    if code is None:
        return TimeControl.per_move_of(server_seconds)
    control = TimeControl.parse(code)
    if table and control.whole_game:
        raise InvalidOptions("time_control_table")
    return control


def starting_seats(control: TimeControl, seats: tuple[SeatRecord, ...]) -> tuple[SeatRecord, ...]:
    """The seats of a new match: under a whole-game clock each has the whole time."""
    if not control.whole_game:
        return seats
    return tuple(seat.evolve(clock_left=float(control.base)) for seat in seats)


def after_move(
    control: TimeControl,
    seats: tuple[SeatRecord, ...],
    mover: int,
    deadline_at: float | None,
    now: float,
) -> tuple[SeatRecord, ...]:
    """The seats after ``mover`` moved at ``now``: under a whole-game clock the mover keeps
    what was left of their time (their deadline less now) plus the increment. A seat
    that moved without a deadline (a bot) keeps its time."""
    if not control.whole_game or deadline_at is None:
        return seats
    left = max(0.0, deadline_at - now) + control.increment
    return tuple(s.evolve(clock_left=left) if s.seat == mover else s for s in seats)


def period_of(control: TimeControl, seats: tuple[SeatRecord, ...], to_move: int | None) -> float:
    """The seconds the seat ``to_move`` has for its move: the time per move, or what is
    left of its whole-game clock."""
    if control.whole_game:
        for seat in seats:
            if seat.seat == to_move and seat.clock_left is not None:
                return seat.clock_left
        return float(control.base)
    return float(control.per_move)


def clock_starts(seats: tuple[SeatRecord, ...], waiting: Iterable[int | None], now: float) -> float:
    """When the clock of a turn that begins now starts: now, or, when a seat it waits for is
    on vacation in this match (``SeatRecord.away_until``), the end of that vacation."""
    starts = now
    wanted = set(waiting)
    for seat in seats:
        if seat.seat in wanted and seat.away_until is not None and seat.away_until > starts:
            starts = seat.away_until
    return starts
