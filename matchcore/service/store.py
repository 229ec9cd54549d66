"""The match store: the service's one way to read, lock and commit a match.

:class:`MatchStore` holds the repository, the clocks, the per-match and per-user locks,
the claims on background work and the cache of parsed engine states. Every other part of
the service changes a match the same way: :meth:`MatchStore.match` (lock, load, deadline
and version checks), :func:`matchcore.service.steps.begin` and ``Step.log`` (the new record and
its action-log rows), then :meth:`MatchStore.commit` (one transaction, ratings included).
"""

from __future__ import annotations

import secrets
import time
from collections.abc import AsyncIterator, Awaitable, Callable, Sequence
from contextlib import asynccontextmanager

from engine import get_game, get_spec
from engine.board import BoardState
from engine.leiff.state import LeiffState
from engine.spec import GameKind
from matchcore.service import bots
from matchcore.service.errors import (
    MatchOver,
    NotFound,
    ServiceError,
    StaleVersion,
    TooLate,
)
from matchcore.service.fresh import FreshRecords, ReadAgain
from matchcore.service.guild_settings import Choices, GuildSettings
from matchcore.service.locks import KeyedLocks
from matchcore.service.ratings import Placing, RatingBook
from matchcore.service.results import RatingChange, Update
from matchcore.service.season_calendar import CLOSE_GRACE_SECONDS, Season, season_at
from matchcore.service.state_cache import DEFAULT_STATE_CACHE_SIZE, StateCache
from matchcore.service.steps import (
    CLAIM_SECONDS,
    RATING_ATTEMPTS,
    GameState,
    Step,
    late_reason,
    process_identity,
    server_seconds,
)
from matchcore.service.time_controls import LIVE, TimeControl, control_of
from matchcore.storage import (
    ACTIVE_STATUSES,
    CHANNEL,
    MatchRecord,
    RatingConflict,
    Repository,
    VersionConflict,
    VsBotResult,
)

# How long settings read from the database are used before they are read again (a change
# made by this process is used at once).
SETTINGS_SECONDS = 10.0

# Told of a committed action: the record as stored and its engine state (None: a lobby).
CommitListener = Callable[[MatchRecord, GameState | None], None]

# What applies a passed deadline (the clocks' part): the match as stored and the time.
DeadlineJudge = Callable[[MatchRecord, float], Awaitable[Update | None]]


class MatchStore:
    """Loading, locking and committing matches; shared by every part of the service."""

    def __init__(
        self,
        repo: Repository,
        ratings: RatingBook,
        *,
        clock: Callable[[], float] = time.time,
        seed_source: Callable[[], int] | None = None,
        bot_user_id: int | None = None,
        owner: str | None = None,
        lease_clock: Callable[[], float] = time.time,
        claim_seconds: float = CLAIM_SECONDS,
        state_cache_size: int = DEFAULT_STATE_CACHE_SIZE,
        choices: Choices,
    ) -> None:
        self.repo = repo
        # The theme and language ids settings may name (the front end's).
        self.choices = choices
        self.ratings = ratings
        self.clock = clock
        # Claims on background work are leases in real time shared by every process (the
        # match clock above may be a test's manual clock); ``owner`` names this process.
        self.owner = owner or process_identity()
        self.lease_clock = lease_clock
        self.claim_seconds = claim_seconds
        # The bot's own Discord user id: it sits in the bot's seat of board games against
        # it. Without it (given here or to start()), games against the bot are refused.
        self.bot_user_id = bot_user_id
        self.seed_source = seed_source or (lambda: secrets.randbits(62))
        # Set by the service once its clocks exist: applies a deadline an action finds passed.
        self.deadline_judge: DeadlineJudge | None = None
        # Per match id; each lock exists only while somebody holds or waits for it.
        self._locks: KeyedLocks[int] = KeyedLocks()
        # Per (guild, user): makes "check the cooldown and limits, then store" one step.
        # Lock order: a match lock may be taken before a user lock, never after.
        self._user_locks: KeyedLocks[tuple[int, int]] = KeyedLocks()
        # Parsed engine states of the matches used last, each valid for the version stored
        # beside it: a state is only ever used for the version just read from the database,
        # so another process moving the match on can never be answered from here. Bounded
        # (``state_cache_size``); a match whose lock is held is never let go.
        self.states = StateCache(state_cache_size, self._locks.locked)
        # What a lookup just read, for the action that follows it (one read a ``/move``).
        self.fresh = FreshRecords()
        # Servers' settings as last read, with when (monotonic seconds): every action reads
        # them (the move's clock, the reply's language and theme), and they change only
        # when an admin changes them. A change made here replaces the entry at once
        # (:meth:`settings_changed`); one made by another process (another shard's admin
        # cannot change this server's, but a second process on one database could) is
        # seen at most SETTINGS_SECONDS later.
        self._settings: dict[int, tuple[float, GuildSettings]] = {}
        self.settings_clock: Callable[[], float] = time.monotonic
        # Told of every match that finishes through this process (what is kept in memory
        # about its players, e.g. their finished games for the hints, is out of date).
        self.finished_listeners: list[Callable[[MatchRecord], None]] = []
        # Told of every action this process commits, right after its transaction (the
        # record as stored and its engine state): how a front end in this process shows a
        # move made through another at once. Until the outbox carries committed versions
        # across processes, this is the web table's in-process seam.
        self.commit_listeners: list[CommitListener] = []
        # Told of every match this process stores with a bot seat due to act (a commit, a
        # new match): the core plays the bot's turns then (``bot_turns.BotTurns``).
        self.bot_due_listeners: list[Callable[[MatchRecord], None]] = []
        # Outbox audiences of front ends other than the chat's, one row each per step
        # ("web:table"): each front end's sender drains its own (docs/service.md).
        self.extra_audiences: tuple[str, ...] = ()

    async def time_control(self, record: MatchRecord) -> TimeControl:
        """The match's time control: its own, or (a match stored without one) the server's
        time per move."""
        if record.time_control:
            return control_of(record.time_control, 0)
        settings = await self.settings(record.guild_id)
        return TimeControl.per_move_of(server_seconds(record, settings))

    async def settings(self, guild_id: int) -> GuildSettings:
        now = self.settings_clock()
        cached = self._settings.get(guild_id)
        if cached is not None and now - cached[0] < SETTINGS_SECONDS:
            return cached[1]
        settings = GuildSettings.from_stored(await self.repo.get_settings(guild_id), self.choices)
        self._settings[guild_id] = (now, settings)
        return settings

    def settings_changed(self, guild_id: int, settings: GuildSettings) -> None:
        """This process stored new settings for the server: use them from now on."""
        self._settings[guild_id] = (self.settings_clock(), settings)

    # ---- claims on background work (shared by every process on the database) ----------
    async def claim(self, match_id: int) -> bool:
        """Claim (or renew) this process's lease on the match's background work."""
        now = self.lease_clock()
        return await self.repo.claim_match(match_id, self.owner, now, now + self.claim_seconds)

    async def release(self, match_id: int) -> None:
        await self.repo.release_match(match_id, self.owner)

    # ---- locks -------------------------------------------------------------------------
    @asynccontextmanager
    async def lock(self, match_id: int) -> AsyncIterator[None]:
        async with self._locks.hold(match_id):
            yield

    @asynccontextmanager
    async def user_lock(self, guild_id: int, user_id: int) -> AsyncIterator[None]:
        async with self._user_locks.hold((guild_id, user_id)):
            yield

    @asynccontextmanager
    async def match(
        self,
        match_id: int,
        version: int | None,
        *,
        judge_deadline: bool = True,
        reuse: bool = False,
    ) -> AsyncIterator[MatchRecord]:
        """Hold the match's lock and yield its stored record after the deadline and version
        checks. ``judge_deadline=False`` is for bot turns only: a bot is never late (it
        acts before its clock could run out, and the tick plays its turns first).
        ``reuse``: the record a lookup read just before may stand in for the read
        (:mod:`matchcore.service.fresh`); an action refused on it (the commit finding the
        match moved on, or any other refusal but a deadline's) raises :class:`ReadAgain`:
        the caller tries again on the record as stored."""
        async with self.lock(match_id):
            record = self.fresh.take(match_id) if reuse else None
            reused = record is not None
            try:
                if record is None:
                    record = await self.load(match_id)
                if judge_deadline:
                    await self._judge_deadline(record)
                if version is not None and version != record.version:
                    # a click on a match that has ended since says so, not only that it moved
                    raise StaleVersion() if record.status in ACTIVE_STATUSES else MatchOver()
                yield record
            except TooLate:
                raise  # its timeout was committed: the kept record was current
            except ServiceError as error:
                # judged on a kept record another process may have moved on since (the
                # commit refused it, or it was refused as out of turn, illegal, over...):
                # the database's answer decides
                if reused:
                    raise ReadAgain() from error
                raise

    async def _judge_deadline(self, record: MatchRecord) -> None:
        """Like a challenge's expiry, a match's deadline is judged when an action arrives,
        not only when the clock ticks: after it, the timeout the tick would apply is applied
        and committed now, and the late action is refused (:class:`TooLate`)."""
        now = self.clock()
        if (
            record.status not in ACTIVE_STATUSES
            or record.deadline_at is None
            or record.deadline_at > now
            or self.deadline_judge is None
        ):
            return
        update = await self.deadline_judge(record, now)
        raise TooLate(late_reason(record, update), update=update)

    # ---- reading -----------------------------------------------------------------------
    async def load(self, match_id: int) -> MatchRecord:
        record = await self.repo.get_match(match_id)
        if record is None:
            raise NotFound("no_such_match")
        return record

    def state(self, record: MatchRecord) -> GameState | None:
        """The parsed engine state of the record's version (None for a lobby)."""
        if record.state is None:
            return None
        cached = self.states.get(record.id, record.version)
        if cached is not None:
            return cached
        state = get_game(record.game).from_json(record.state)
        if not isinstance(state, BoardState | LeiffState):
            raise TypeError(f"match {record.id}: {record.game} has no state the service knows")
        self.states.put(record.id, record.version, state)
        return state

    def board_state(self, record: MatchRecord) -> BoardState:
        """The position of a board match (a programming error for anything else)."""
        state = self.state(record)
        if not isinstance(state, BoardState):
            raise TypeError(f"match {record.id} is not a running board match")
        return state

    def table_state(self, record: MatchRecord) -> LeiffState:
        """The table of a started Leiff match (a programming error for anything else)."""
        state = self.state(record)
        if not isinstance(state, LeiffState):
            raise TypeError(f"match {record.id} is not a started Leiff table")
        return state

    def remember(self, record: MatchRecord, state: GameState) -> None:
        """Cache the state of a match just stored at ``record.version``."""
        self.states.put(record.id, record.version, state)

    def created(self, record: MatchRecord, state: GameState) -> None:
        """A new match was stored: cached, and its bot's turn asked for if it is due."""
        self.remember(record, state)
        if bots.bot_due(record, state):
            self._bot_due(record.evolve(bot_due=True))

    def _bot_due(self, record: MatchRecord) -> None:
        for listener in self.bot_due_listeners:
            listener(record)

    # ---- committing --------------------------------------------------------------------
    def audiences(self, record: MatchRecord) -> list[str]:
        """Who must be shown this version of the match (the outbox rows its commit writes):
        the channel; at a card table under way, each seated member's private view; and
        every audience another front end asked for (``extra_audiences``)."""
        audiences = [CHANNEL]
        if record.status != "lobby" and get_spec(record.game).kind is GameKind.CARDS:
            audiences.extend(
                str(seat.user_id)
                for seat in record.seats
                if not seat.is_bot and seat.user_id is not None and seat.user_id > 0
            )
        audiences.extend(self.extra_audiences)
        return audiences

    async def commit(
        self,
        original: MatchRecord,
        step: Step,
        state: GameState | None,
        placings: Sequence[Placing] = (),
    ) -> list[RatingChange]:
        """Store the step in one transaction (with ratings when it ended a rated match).

        Ratings are read, computed and stored with a check that nobody stored another
        result of these players meanwhile (any process); if somebody did, they are read
        and computed again.
        """
        for _ in range(RATING_ATTEMPTS - 1):
            try:
                return await self._commit_once(original, step, state, placings)
            except RatingConflict:
                continue
        return await self._commit_once(original, step, state, placings)

    async def _result_season(self, original: MatchRecord, record: MatchRecord) -> Season | None:
        """The season a result counts in: the one its match ended in (a clock that ran out
        ended it at its deadline, however late a tick applied it). A closed season's kept
        standings are final: a result that arrives after they were kept (its match ended
        in that season, the result at least CLOSE_GRACE_SECONDS after the season's end)
        counts in the all-time rating only (docs/service.md, "Seasons")."""
        ended = record.updated_at
        if original.deadline_at is not None:
            ended = min(ended, original.deadline_at)
        season = season_at((await self.settings(record.guild_id)).season, ended)
        if season is None or record.updated_at < season.ends_at + CLOSE_GRACE_SECONDS:
            return season  # not closed yet: nothing closes a season before its grace is over
        kept = {s.season for s in await self.repo.seasons(record.guild_id) if s.closed_at}
        return None if season.key in kept else season

    async def _commit_once(
        self,
        original: MatchRecord,
        step: Step,
        state: GameState | None,
        placings: Sequence[Placing],
    ) -> list[RatingChange]:
        # Whether a bot is to act now is stored with the match: the clock of any process
        # finds leftover bot turns by it.
        step.record = step.record.evolve(bot_due=bots.bot_due(step.record, state))
        record = step.record
        pool = (await self.time_control(record)).pool if placings else LIVE
        season = None
        if placings and record.rated and not record.vs_bot:
            season = await self._result_season(original, record)
        rated = await self.ratings.rate_result(record, placings, pool, season)
        bot_results: list[VsBotResult] = []
        if record.vs_bot and record.status == "finished" and original.status != "finished":
            bot_results = bots.vs_bot_results(record, record.updated_at)
        self.fresh.forget(record.id)
        try:
            await self.repo.commit_match(
                record,
                original.version,
                step.actions,
                rated.ratings,
                bot_results,
                previous_seats=original.seats,
                placements=rated.placements,
                outbox=self.audiences(record),
                history=rated.history,
                season_ratings=rated.season_ratings,
            )
        except VersionConflict:
            self.states.drop(original.id)
            raise StaleVersion() from None
        if state is not None and record.status in ACTIVE_STATUSES:
            self.states.put(record.id, record.version, state)
        else:
            self.states.drop(record.id)  # finished: parse again if ever asked
        if record.status == "finished" and original.status != "finished":
            for listener in self.finished_listeners:
                listener(record)
        for committed in self.commit_listeners:
            committed(record, state)
        if record.bot_due and record.status == "running":
            self._bot_due(record)
        return rated.changes
