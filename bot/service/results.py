"""What service calls return: plain values describing what changed and what to show.

The service never renders and never talks to Discord. An :class:`Update` says which texts go
to the channel or to one user, which pictures must be drawn for whom (with the engine
state or view to draw from), which actions apply now with the version to carry, and whom
to mention.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from engine.board import BoardState
from engine.leiff.views import LeiffView


@dataclass(frozen=True)
class Event:
    """Something that happened, as JSON-able data (``kind`` e.g. "move", "timeout")."""

    kind: str
    data: dict[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class Message:
    """A text for the match channel (``to=None``) or for one user only (``to=user_id``)."""

    text: str
    to: int | None = None


@dataclass(frozen=True)
class Picture:
    """A picture the bot must (re)draw.

    ``kind``: "board" (board games; ``state`` is the engine state), "table" (Leiff, the
    spectator's ``view``) or "hand" (Leiff, one player's ``view``). ``for_user=None`` is the
    channel; otherwise only that user may see it.
    """

    kind: str
    match_id: int
    version: int
    for_user: int | None = None
    state: BoardState | None = None
    view: LeiffView | None = None


@dataclass(frozen=True)
class Buttons:
    """Actions that apply now: on the shared channel message (``for_user=None``) or on one
    user's private message. Pass an action back unchanged together with ``version``."""

    for_user: int | None
    actions: tuple[str, ...]
    version: int


@dataclass(frozen=True)
class SeatInfo:
    seat: int
    user_id: int | None
    colour: str | None
    removed: bool
    timeouts: int
    is_bot: bool = False
    bot_level: str | None = None  # the AI level of a bot seat


@dataclass(frozen=True)
class MatchInfo:
    """A snapshot of a match (or Leiff lobby) for the bot to show."""

    id: int
    guild_id: int
    channel_id: int
    thread_id: int | None
    game: str
    status: str
    version: int
    seats: tuple[SeatInfo, ...]
    host_id: int | None
    to_act: tuple[int, ...]
    deadline_at: float | None
    warn_at: float | None
    options: dict[str, Any]
    result: dict[str, Any] | None
    score_text: str
    rated: bool
    vs_bot: bool
    draw_offer_by: int | None
    messages: dict[str, int]
    # The level of the bot opponent (the strongest bot seat at a Leiff table), if any.
    bot_level: str | None = None
    # A bot seat must act now: call ``advance_bots(match_id)`` (tick does it as well).
    bot_to_act: bool = False

    @property
    def user_ids(self) -> tuple[int, ...]:
        return tuple(s.user_id for s in self.seats if s.user_id is not None)

    @property
    def human_ids(self) -> tuple[int, ...]:
        """The seated people: bot seats (the bot's own id, Leiff pseudo ids) left out."""
        return tuple(s.user_id for s in self.seats if s.user_id is not None and not s.is_bot)


@dataclass(frozen=True)
class ChallengeInfo:
    id: int
    guild_id: int
    channel_id: int
    thread_id: int | None
    challenger_id: int
    target_id: int | None  # None: an open seek
    game: str
    size: int | None
    options: dict[str, Any]
    status: str
    created_at: float
    expires_at: float
    match_id: int | None
    rematch_of: int | None
    message_id: int | None = None  # the channel message showing it, once posted


@dataclass(frozen=True)
class RatingChange:
    user_id: int
    game: str
    before_mu: float
    before_sigma: float
    after_mu: float
    after_sigma: float

    @property
    def before_ordinal(self) -> float:
        return self.before_mu - 3.0 * self.before_sigma

    @property
    def after_ordinal(self) -> float:
        return self.after_mu - 3.0 * self.after_sigma


@dataclass(frozen=True)
class LeaderboardRow:
    rank: int
    user_id: int
    ordinal: float
    mu: float
    sigma: float
    games: int
    wins: int
    losses: int
    draws: int
    streak: int


@dataclass(frozen=True)
class VsBotStats:
    """A player's record against the bot in one game at one level (never rated)."""

    game: str
    level: str
    games: int
    wins: int
    losses: int
    draws: int


@dataclass(frozen=True)
class PlayerStats:
    """A player's rating and record among humans in one game; ``vs_bot`` holds their
    separate record against the bot in that game, one entry per level played. A game
    played only against the bot has ``games == 0`` and the starting rating."""

    game: str
    mu: float
    sigma: float
    ordinal: float
    games: int
    wins: int
    losses: int
    draws: int
    streak: int
    best_streak: int
    vs_bot: tuple[VsBotStats, ...] = ()


@dataclass(frozen=True)
class Update:
    """Everything one service call (or one tick) changed, as plain values."""

    kind: str
    match_id: int | None = None
    challenge_id: int | None = None
    version: int | None = None
    guild_id: int | None = None
    channel_id: int | None = None
    thread_id: int | None = None
    events: tuple[Event, ...] = ()
    messages: tuple[Message, ...] = ()
    pictures: tuple[Picture, ...] = ()
    buttons: tuple[Buttons, ...] = ()
    mentions: tuple[int, ...] = ()
    rating_changes: tuple[RatingChange, ...] = ()
    match: MatchInfo | None = None
    challenge: ChallengeInfo | None = None

    def texts_for(self, user_id: int | None) -> list[str]:
        """Texts for the channel (``None``) or for one user only."""
        return [m.text for m in self.messages if m.to == user_id]
