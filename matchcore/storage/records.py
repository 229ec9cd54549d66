"""Plain records the repository stores and returns: matches, seats, actions, challenges, ratings.

They are frozen dataclasses with no behaviour beyond small conveniences, so any storage
back end can produce them and the service can compare them (a reloaded match equals the
one that was saved).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, ClassVar, Protocol, TypeVar

from matchcore.records import MatchResult


class _Dataclass(Protocol):
    """A dataclass instance (typeshed's ``DataclassInstance``, which the core may not import)."""

    __dataclass_fields__: ClassVar[dict[str, Any]]


R = TypeVar("R", bound=_Dataclass)

MATCH_STATUSES = ("lobby", "running", "finished", "aborted")
ACTIVE_STATUSES = ("lobby", "running")
CHALLENGE_STATUSES = ("open", "accepted", "declined", "cancelled", "expired")
VS_BOT_OUTCOMES = ("win", "loss", "draw")


def evolved(record: R, changes: dict[str, Any]) -> R:
    """``dataclasses.replace(record, **changes)`` for these records, at a fraction of its
    cost: the service evolves a match record several times per move, and ``replace``
    passes every one of its two dozen fields through ``__init__``. The records have no
    ``__post_init__`` and no field outside ``__init__``, so copying the fields and setting
    the changed ones is the same record; a name that is no field is refused as ``replace``
    refuses it."""
    fields = record.__dataclass_fields__
    for name in changes:
        if name not in fields:
            raise TypeError(f"{type(record).__name__} has no field {name!r}")
    copied: R = object.__new__(type(record))
    state = copied.__dict__
    state.update(record.__dict__)
    state.update(changes)
    return copied


@dataclass(frozen=True)
class SeatRecord:
    """One seat of a match: who sits there (None for a bot) and how they are doing."""

    seat: int
    user_id: int | None
    is_bot: bool = False
    colour: str | None = None
    timeouts: int = 0  # timeouts in a row (reset when the player acts)
    removed: bool = False
    bot_level: str | None = None  # the AI level of a bot seat ("easy", "normal", "hard")
    # A whole-game clock's time left to this seat, in seconds, as of its last own move
    # (or the start); None under a per-move clock.
    clock_left: float | None = None
    # Until when this seat's player is on vacation in this daily match (their clock stops
    # meanwhile); None, or a time passed: not away.
    away_until: float | None = None

    def evolve(self, **changes: Any) -> SeatRecord:
        return evolved(self, changes)


@dataclass(frozen=True)
class MatchRecord:
    """A match or a Leiff lobby as stored, with its seats and the message ids the bot keeps."""

    id: int
    guild_id: int
    channel_id: int
    game: str
    status: str
    created_at: float
    updated_at: float
    thread_id: int | None = None
    options: dict[str, Any] = field(default_factory=dict)
    state: str | None = None  # engine JSON; None for a lobby not yet started
    version: int = 0
    host_id: int | None = None
    vs_bot: bool = False
    rated: bool = True
    finished_at: float | None = None
    deadline_at: float | None = None
    warn_at: float | None = None
    warned: bool = False
    draw_offer_seat: int | None = None
    result: MatchResult | None = None
    rematch_of: int | None = None
    seats: tuple[SeatRecord, ...] = ()
    messages: dict[str, int] = field(default_factory=dict)
    # A bot seat is to act in the stored position (the service sets it on every commit),
    # so the clock finds leftover bot turns without loading every match with a bot.
    bot_due: bool = False
    # The time control's code (matchcore/service/time_controls.py), "move:259200" for
    # three days a move; None: the server's time per move.
    time_control: str | None = None

    def evolve(self, **changes: Any) -> MatchRecord:
        return evolved(self, changes)

    def seat_of(self, user_id: int | None) -> SeatRecord | None:
        for seat in self.seats:
            if seat.user_id == user_id:
                return seat
        return None

    def user_of(self, seat_number: int) -> int | None:
        for seat in self.seats:
            if seat.seat == seat_number:
                return seat.user_id
        return None

    @property
    def user_ids(self) -> tuple[int, ...]:
        return tuple(s.user_id for s in self.seats if s.user_id is not None)


@dataclass(frozen=True)
class ChallengeRecord:
    """A challenge to one user, or an open seek when ``target_id`` is None."""

    id: int
    guild_id: int
    channel_id: int
    challenger_id: int
    game: str
    status: str
    created_at: float
    expires_at: float
    target_id: int | None = None
    thread_id: int | None = None
    size: int | None = None
    options: dict[str, Any] = field(default_factory=dict)
    match_id: int | None = None
    rematch_of: int | None = None
    message_id: int | None = None  # the channel message that shows it (to edit on expiry)
    time_control: str | None = None  # the code of the match's time control (None: the server's)

    def evolve(self, **changes: Any) -> ChallengeRecord:
        return evolved(self, changes)


@dataclass(frozen=True)
class VsBotResult:
    """One human's result in a finished match against bot seats: ``outcome`` is
    ``"win"``, ``"loss"``, ``"draw"`` or ``"placed"`` (a place other than first at a table
    of more than two: a game, neither won nor lost); stored by adding it to the running
    totals."""

    guild_id: int
    game: str
    level: str
    user_id: int
    outcome: str
    at: float


@dataclass(frozen=True)
class VsBotRecord:
    """A human's record against the bot in one game at one level on one server."""

    guild_id: int
    game: str
    level: str
    user_id: int
    games: int
    wins: int
    losses: int
    draws: int
    updated_at: float


@dataclass(frozen=True)
class PlacementRecord:
    """Where a person finished in a rated match: ``place`` of ``field`` ("2nd of 4"; a
    board game is 1 or 2 of 2, a draw 1 of 2 for both). Partners share their team's place;
    equal places tie. Kept for every rated match, so that a record can say places rather
    than wins and losses where a game has more than two sides (Leiff)."""

    match_id: int
    guild_id: int
    game: str
    user_id: int
    place: int
    field: int
    finished_at: float
    pool: str = "live"  # the rating pool of the match: "live" or "daily"


@dataclass(frozen=True)
class RatingRecord:
    """A player's rating and record in one game on one server in one rating pool (``pool``
    "live" or "daily": live and daily matches are rated apart, issue 35):
    ``mu`` and ``sigma`` are the rating model's own; the number players read is made from
    them when shown (``matchcore.service.rating_scale``)."""

    guild_id: int
    game: str
    user_id: int
    mu: float
    sigma: float
    updated_at: float
    pool: str = "live"
    games: int = 0
    wins: int = 0
    losses: int = 0
    draws: int = 0
    streak: int = 0
    best_streak: int = 0

    def evolve(self, **changes: Any) -> RatingRecord:
        return evolved(self, changes)


TOURNAMENT_STATUSES = ("upcoming", "running", "finished", "cancelled")


@dataclass(frozen=True)
class TournamentRecord:
    """A tournament as stored: where it lives, what it plays, its state (players, pairings,
    results: ``matchcore.tournament.model.TournamentState`` as JSON) and its version."""

    id: int
    guild_id: int
    channel_id: int
    creator_id: int
    game: str
    format: str
    status: str
    state: str
    created_at: float
    updated_at: float
    thread_id: int | None = None
    options: dict[str, Any] = field(default_factory=dict)
    rated: bool = True
    paused: bool = False
    version: int = 0
    starts_at: float | None = None  # None: when the creator says
    ends_at: float | None = None  # an arena's end (set when it starts)
    due_at: float | None = None
    finished_at: float | None = None
    messages: dict[str, int] = field(default_factory=dict)

    def evolve(self, **changes: Any) -> TournamentRecord:
        return evolved(self, changes)
