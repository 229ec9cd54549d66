"""What service calls return: plain values describing what changed and what to show.

The service never renders and never talks to Discord. An :class:`Update` says which texts go
to the channel or to one user, which pictures must be drawn for whom (with the engine
state or view to draw from), which actions apply now with the version to carry, and whom
to mention.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Protocol

from engine.board import BoardState
from engine.leiff.views import LeiffView
from engine.phrases import Phrase
from matchcore.records import MatchResult
from matchcore.service.rating_scale import display_rating, is_provisional
from matchcore.service.texts import ENGINE_PHRASE, ENGINE_TEXT, ENGLISH, RESULT, english


@dataclass(frozen=True)
class Event:
    """Something that happened: ``kind`` a code, ``data`` its parameters.

    ``to`` is who may read it: None for the channel (everyone), a user id for that user
    alone (a Leiff player's own news). An event with ``said=True`` is a line to show: its
    kind is a code of :mod:`matchcore.service.texts` and its data the parameters (see there);
    the others are plain facts ("move", "result", "timeout", ...) for whoever needs them.
    """

    kind: str
    data: dict[str, object] = field(default_factory=dict)
    to: int | None = None
    said: bool = False


class Note(Protocol):
    """A line the Discord layer adds to an update (the service never makes one): who reads
    it (``to``, None for the channel) and its words in a language."""

    @property
    def to(self) -> int | None: ...

    def words(self, language: str) -> str: ...


def say(code: str, /, to: int | None = None, **params: object) -> Event:
    """A line to show: a code of :mod:`matchcore.service.texts` with its parameters."""
    if code not in ENGLISH and code not in (ENGINE_PHRASE, ENGINE_TEXT, RESULT):
        raise ValueError(f"unknown service text code {code!r}")
    return Event(code, dict(params), to, said=True)


@dataclass(frozen=True)
class Message:
    """A line in English for the match channel (``to=None``) or for one user only
    (``to=user_id``): :attr:`Update.messages` gives the said events this way."""

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
    # a whole-game clock's time left to the seat as of its last own move (None per move)
    clock_left: float | None = None
    # until when the seat's player is on vacation in this daily match (their clock stops)
    away_until: float | None = None


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
    options: dict[str, object]
    result: MatchResult | None
    score_text: str
    rated: bool
    vs_bot: bool
    draw_offer_by: int | None
    messages: dict[str, int]
    # The level of the bot opponent (the strongest bot seat at a Leiff table), if any.
    bot_level: str | None = None
    # A bot seat must act now: call ``advance_bots(match_id)`` (tick does it as well).
    bot_to_act: bool = False
    # When the match started and, once it is over, when it ended (Unix seconds).
    created_at: float | None = None
    finished_at: float | None = None
    # The time control's code (matchcore.service.time_controls: "move:259200" is three
    # days a move); None: the server's time per move.
    time_control: str | None = None
    # A board game's live score as the engine's phrases, for a front end to word in its
    # member's language (``score_text`` is the same in English, for logs and plain text).
    score_phrases: tuple[Phrase, ...] = ()

    @property
    def user_ids(self) -> tuple[int, ...]:
        return tuple(s.user_id for s in self.seats if s.user_id is not None)

    @property
    def human_ids(self) -> tuple[int, ...]:
        """The seated people: bot seats (the bot's own id, Leiff pseudo ids) left out."""
        return tuple(s.user_id for s in self.seats if s.user_id is not None and not s.is_bot)


@dataclass(frozen=True)
class TableReplay:
    """A finished Leiff table as everybody saw it, round by round: the table's view for
    the channel at each round's end (every hand revealed then), the last one the table as
    it ended. Never a player's own view: nothing here was hidden from the table."""

    match: MatchInfo
    rounds: tuple[LeiffView, ...]


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
    options: dict[str, object]
    status: str
    created_at: float
    expires_at: float
    match_id: int | None
    rematch_of: int | None
    message_id: int | None = None  # the channel message showing it, once posted
    time_control: str | None = None  # the code of the match's time control


@dataclass(frozen=True)
class RatingChange:
    user_id: int
    game: str
    before_mu: float
    before_sigma: float
    after_mu: float
    after_sigma: float

    @property
    def before_rating(self) -> int:
        """The rating shown before the match (see :mod:`matchcore.service.rating_scale`)."""
        return display_rating(self.before_mu)

    @property
    def after_rating(self) -> int:
        return display_rating(self.after_mu)

    @property
    def after_provisional(self) -> bool:
        return is_provisional(self.after_sigma)


@dataclass(frozen=True)
class LeaderboardRow:
    rank: int
    user_id: int
    rating: int  # as shown (matchcore.service.rating_scale), the order of the list
    provisional: bool  # shown with "?"
    mu: float
    sigma: float
    games: int
    wins: int
    losses: int
    draws: int
    streak: int
    # how often they finished in each place, best place first: ((1, 3), (2, 1), ...)
    places: tuple[tuple[int, int], ...] = ()
    pool: str = "live"  # the rating pool: "live" or "daily"


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
    played only against the bot has ``games == 0`` and the starting rating. ``places``
    and ``last_place`` say where they finished (what a game of more than two sides shows
    instead of wins and losses)."""

    game: str
    mu: float
    sigma: float
    rating: int  # as shown (matchcore.service.rating_scale)
    provisional: bool  # shown with "?"
    games: int
    wins: int
    losses: int
    draws: int
    streak: int
    best_streak: int
    vs_bot: tuple[VsBotStats, ...] = ()
    # how often they finished in each place of a rated match, best place first, and their
    # place in the last one: (place, field), "2nd of 4"
    places: tuple[tuple[int, int], ...] = ()
    last_place: tuple[int, int] | None = None
    pool: str = "live"  # the rating pool: "live" or "daily" (matchcore.service.time_controls)


@dataclass(frozen=True)
class HistoryEntry:
    """One finished match in a member's history (``/history``): the match, and how it went
    for that member: ``outcome`` is "win", "loss", "draw" or, at a table of more than two
    places, "placed" with ``place`` of ``field`` ("2nd of 4"; a first place is a "win"
    with its place too)."""

    match: MatchInfo
    outcome: str
    place: int | None = None
    field: int | None = None


@dataclass(frozen=True)
class HistoryPage:
    """One page of a member's finished matches, the most recently finished first: page
    ``page`` (from 0) of ``pages``, ``total`` matches in all."""

    entries: tuple[HistoryEntry, ...]
    page: int
    pages: int
    total: int


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
    pictures: tuple[Picture, ...] = ()
    buttons: tuple[Buttons, ...] = ()
    mentions: tuple[int, ...] = ()
    rating_changes: tuple[RatingChange, ...] = ()
    match: MatchInfo | None = None
    challenge: ChallengeInfo | None = None
    # The channel's lines form one message (a board match, a lobby): Update.messages joins
    # them, as the Discord layer shows them one under the other.
    one_paragraph: bool = False
    # Lines the Discord layer adds before the service's (anything with ``to`` and
    # ``words(language)``); the service never sets them.
    notes: tuple[Note, ...] = ()

    @property
    def said(self) -> tuple[Event, ...]:
        """The events that are lines to show, in order."""
        return tuple(event for event in self.events if event.said)

    @property
    def messages(self) -> tuple[Message, ...]:
        """The said events in English (for logs and tests; the Discord layer words them in
        the reader's language): one message per line, or the channel's lines as one."""
        lines = [Message(english(e.kind, e.data), e.to) for e in self.said]
        if not self.one_paragraph:
            return tuple(lines)
        channel = [line.text for line in lines if line.to is None and line.text]
        private = tuple(line for line in lines if line.to is not None)
        return ((Message("\n".join(channel)),) if channel else ()) + private

    def texts_for(self, user_id: int | None) -> list[str]:
        """Texts for the channel (``None``) or for one user only, in English."""
        return [m.text for m in self.messages if m.to == user_id]
