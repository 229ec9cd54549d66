"""What every part of the match service shares: locks, loading, committing, describing.

:class:`ServiceCore` holds the repository, the clock and the per-match locks and caches;
the call groups (challenges, board matches, Leiff tables, clocks, bots, standings) are
mixins over it that :class:`bot.service.service.MatchService` puts together. A change goes
through ``_match`` (lock and version check), ``_begin`` / ``_log`` (the new record and its
action-log rows) and ``_commit`` (one transaction, ratings included), and is described by
``_board_update`` / ``_leiff_update`` / ``_lobby_update``.
"""

from __future__ import annotations

import asyncio
import os
import secrets
import socket
import time
from collections.abc import AsyncIterator, Awaitable, Callable, Sequence
from contextlib import asynccontextmanager
from dataclasses import dataclass, field, replace
from typing import Any

from bot.service import board_logic, bots, leiff_logic
from bot.service.board_logic import mention
from bot.service.errors import (
    ChannelNotAllowed,
    InvalidOptions,
    LobbyError,
    MatchOver,
    NotFound,
    NotInMatch,
    StaleVersion,
    TooLate,
    TooManyMatches,
)
from bot.service.guild_settings import GuildSettings
from bot.service.ratings import DEFAULT_MU, DEFAULT_SIGMA, Placing, rate
from bot.service.results import (
    Buttons,
    ChallengeInfo,
    Event,
    MatchInfo,
    Message,
    Picture,
    RatingChange,
    SeatInfo,
    Update,
)
from bot.storage import (
    ACTIVE_STATUSES,
    ActionRecord,
    ChallengeRecord,
    MatchRecord,
    RatingConflict,
    RatingRecord,
    Repository,
    SeatRecord,
    VersionConflict,
    VsBotResult,
)
from engine import BOARD_GAMES, IllegalMove, get_game
from engine.leiff import parse_action

LEIFF = "leiff"
# The warning goes out when this share of the time allowed is left.
WARNING_FRACTION = 0.25
# Bound on default actions applied in a row for removed players (a safety net: each one
# moves the game on, so a real game never comes near it).
MAX_AUTOMATIC_ACTIONS = 500
# Log entries of the service's own actions start with this mark; engine actions are logged
# exactly as the engine wrote them, so the log replays from the initial state.
SERVICE_MARK = "!"
# Bound on bot actions one advance_bots call applies (a safety net: a bot turn ends with a
# human to act, the next-round deal the humans give, or the end of the game).
MAX_BOT_ACTIONS = 500

# The AI's move for a board position: (state JSON, game, level) -> canonical move text.
AIMove = Callable[[str, str, str], Awaitable[str]]
# How long a process's claim on a match's background work (a timeout, a warning, bot turns)
# holds without renewal: longer than the slowest bot move (5 s search plus the AI pool's
# grace), short enough that work left by a killed process is taken over soon after.
CLAIM_SECONDS = 30.0
# Times a match's result is rated again when another result of its players landed first.
RATING_ATTEMPTS = 5


def process_identity() -> str:
    """A name for this process's claims, unique across machines and restarts."""
    return f"{socket.gethostname()}:{os.getpid()}:{secrets.token_hex(4)}"


@dataclass
class _Step:
    """An accepted change in progress: the new record, its log rows and what to say."""

    record: MatchRecord
    actions: list[ActionRecord]
    lines: list[str]  # said before what the engine reports
    closing: list[str] = field(default_factory=list)  # said after it (the result)


class ServiceCore:
    """State and helpers shared by every group of service calls."""

    def __init__(
        self,
        repo: Repository,
        *,
        clock: Callable[[], float] = time.time,
        seed_source: Callable[[], int] | None = None,
        bot_user_id: int | None = None,
        ai_move: AIMove | None = None,
        owner: str | None = None,
        lease_clock: Callable[[], float] = time.time,
        claim_seconds: float = CLAIM_SECONDS,
    ) -> None:
        self.repo = repo
        self.clock = clock
        # Claims on background work are leases in real time shared by every process (the
        # match clock above may be a test's manual clock); ``owner`` names this process.
        self.owner = owner or process_identity()
        self.lease_clock = lease_clock
        self.claim_seconds = claim_seconds
        # The bot's own Discord user id: it sits in the bot's seat of board games against
        # it. Without it (given here or to start()), games against the bot are refused.
        self.bot_user_id = bot_user_id
        # Default: the shared worker-process pool of bot/ai_pool.py (imported on first use).
        self._ai_move = ai_move
        # Per match: only one advance_bots runs at a time in this process (and the match's
        # claim in the database makes it one across processes).
        self._bot_locks: dict[int, asyncio.Lock] = {}
        self._seed_source = seed_source or (lambda: secrets.randbits(62))
        self._locks: dict[int, asyncio.Lock] = {}
        # Per (guild, user): makes "check the cooldown and limits, then store" one step.
        # Lock order: a match lock may be taken before a user lock, never after.
        self._user_locks: dict[tuple[int, int], asyncio.Lock] = {}
        # Parsed engine states by match id, valid for the version stored beside them: a
        # state is only ever used for the version just read from the database, so another
        # process moving the match on can never be answered from here.
        self._states: dict[int, tuple[int, Any]] = {}

    async def get_settings(self, guild_id: int) -> GuildSettings:
        return GuildSettings.from_stored(await self.repo.get_settings(guild_id))

    # ---- claims on background work (shared by every process on the database) ----------
    async def _claim(self, match_id: int) -> bool:
        """Claim (or renew) this process's lease on the match's background work."""
        now = self.lease_clock()
        return await self.repo.claim_match(match_id, self.owner, now, now + self.claim_seconds)

    async def _release(self, match_id: int) -> None:
        await self.repo.release_match(match_id, self.owner)

    # ===================================================================== internals
    @asynccontextmanager
    async def _lock(self, match_id: int) -> AsyncIterator[None]:
        lock = self._locks.setdefault(match_id, asyncio.Lock())
        async with lock:
            yield

    @asynccontextmanager
    async def _user_lock(self, guild_id: int, user_id: int) -> AsyncIterator[None]:
        lock = self._user_locks.setdefault((guild_id, user_id), asyncio.Lock())
        async with lock:
            yield

    @asynccontextmanager
    async def _match(
        self, match_id: int, version: int | None, *, judge_deadline: bool = True
    ) -> AsyncIterator[MatchRecord]:
        """Hold the match's lock and yield its stored record after the deadline and version
        checks. ``judge_deadline=False`` is for bot turns only: a bot is never late (it
        acts before its clock could run out, and the tick plays its turns first)."""
        async with self._lock(match_id):
            record = await self._load(match_id)
            if judge_deadline:
                await self._judge_deadline(record)
            if version is not None and version != record.version:
                raise StaleVersion()
            yield record

    async def _judge_deadline(self, record: MatchRecord) -> None:
        """Like a challenge's expiry, a match's deadline is judged when an action arrives,
        not only when the clock ticks: after it, the timeout the tick would apply is applied
        and committed now, and the late action is refused (:class:`TooLate`)."""
        now = self.clock()
        if (
            record.status not in ACTIVE_STATUSES
            or record.deadline_at is None
            or record.deadline_at > now
        ):
            return
        update = await self._timeout(record, now)
        raise TooLate(_late_reason(record, update), update)

    async def _timeout(self, record: MatchRecord, now: float) -> Update | None:
        """Apply a passed deadline (the clock's part of the service, :mod:`clocks`)."""
        raise NotImplementedError

    async def _load(self, match_id: int) -> MatchRecord:
        record = await self.repo.get_match(match_id)
        if record is None:
            raise NotFound("there is no such match")
        return record

    def _state(self, record: MatchRecord) -> Any:
        if record.state is None:
            return None
        cached = self._states.get(record.id)
        if cached is not None and cached[0] == record.version:
            return cached[1]
        state = get_game(record.game).from_json(record.state)
        self._states[record.id] = (record.version, state)
        return state

    @staticmethod
    def _begin(record: MatchRecord, now: float) -> _Step:
        return _Step(record=record.evolve(updated_at=now), actions=[], lines=[])

    @staticmethod
    def _log(step: _Step, user_id: int | None, seat: int | None, action: str, now: float) -> None:
        version = step.record.version + 1
        step.record = step.record.evolve(version=version)
        step.actions.append(
            ActionRecord(
                match_id=step.record.id,
                version=version,
                user_id=user_id,
                seat=seat,
                action=action,
                at=now,
            )
        )

    async def _commit(
        self,
        original: MatchRecord,
        step: _Step,
        state: Any,
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

    async def _commit_once(
        self,
        original: MatchRecord,
        step: _Step,
        state: Any,
        placings: Sequence[Placing],
    ) -> list[RatingChange]:
        ratings: list[RatingRecord] = []
        changes: list[RatingChange] = []
        # Whether a bot is to act now is stored with the match: the clock of any process
        # finds leftover bot turns by it.
        step.record = step.record.evolve(bot_due=self._bot_due(step.record, state))
        record = step.record
        if placings and record.rated and not record.vs_bot and len(placings) >= 2:
            users = [u for p in placings for u in p.user_ids]
            before = await self.repo.get_ratings(record.guild_id, record.game, users)
            ratings = rate(
                placings,
                before,
                guild_id=record.guild_id,
                game=record.game,
                pool="human",
                now=record.updated_at,
            )
            for new in ratings:
                old = before.get(new.user_id)
                changes.append(
                    RatingChange(
                        user_id=new.user_id,
                        game=record.game,
                        before_mu=old.mu if old else DEFAULT_MU,
                        before_sigma=old.sigma if old else DEFAULT_SIGMA,
                        after_mu=new.mu,
                        after_sigma=new.sigma,
                    )
                )
        bot_results: list[VsBotResult] = []
        if record.vs_bot and record.status == "finished" and original.status != "finished":
            bot_results = bots.vs_bot_results(record, record.updated_at)
        try:
            await self.repo.commit_match(
                record,
                original.version,
                step.actions,
                ratings,
                bot_results,
                previous_seats=original.seats,
            )
        except VersionConflict:
            self._states.pop(original.id, None)
            raise StaleVersion() from None
        if state is not None and record.status in ACTIVE_STATUSES:
            self._states[record.id] = (record.version, state)
        else:
            self._states.pop(record.id, None)  # finished: parse again if ever asked
        return changes

    @staticmethod
    def _seat(record: MatchRecord, user_id: int) -> SeatRecord:
        seat = record.seat_of(user_id)
        if seat is None:
            raise NotInMatch()
        return seat

    @staticmethod
    def _check_running(record: MatchRecord) -> None:
        if record.status == "lobby":
            raise LobbyError("the game has not started yet")
        if record.status != "running":
            raise MatchOver()

    @staticmethod
    def _check_lobby(record: MatchRecord) -> None:
        if record.game != LEIFF:
            raise LobbyError("this is not a Leiff table")
        if record.status == "running":
            raise LobbyError("the game has already started")
        if record.status != "lobby":
            raise MatchOver("this table is closed")

    @staticmethod
    def _check_channel(settings: GuildSettings, channel_id: int, thread_id: int | None) -> None:
        # A thread is allowed when its parent channel is; the thread id may be listed too.
        if not settings.allows_channel(channel_id) and not (
            thread_id is not None and settings.allows_channel(thread_id)
        ):
            raise ChannelNotAllowed()

    async def _check_match_limit(
        self, settings: GuildSettings, user_id: int, guild_id: int, who: str
    ) -> None:
        """``TooManyMatches`` when the user already plays the server's maximum. Only matches
        the user can still act in count: a Leiff table they left or were removed from
        (which may run on for hours without them) does not."""
        active = [
            record
            for record in await self.repo.matches_of_user(user_id, ACTIVE_STATUSES, guild_id)
            if not _seat_removed(record, user_id)
        ]
        limit = settings.max_matches_per_user
        if len(active) < limit:
            return
        if who != "you":
            raise TooManyMatches(
                f"{who} already has {_games(len(active))} running (the limit here is {limit})"
            )
        # Say where they are, so the player can finish or resign one of them.
        listed = ", ".join(_where(record, user_id) for record in active[:limit])
        raise TooManyMatches(
            f"you already have {_games(len(active))} running (the limit here is {limit}): {listed}"
        )

    @staticmethod
    def _board_options(
        game: str, size: int | None, options: dict[str, Any] | None
    ) -> tuple[str, int, dict[str, Any]]:
        name = _game_name(game)
        if name not in BOARD_GAMES:
            raise InvalidOptions("Leiff is played at a table: open one with the Leiff lobby")
        rules = get_game(name)
        try:
            checked_size = rules.validate_size(size)
            checked = rules.validate_options(options)
        except ValueError as error:
            raise InvalidOptions(str(error)) from None
        # Keep only options that differ from the defaults, so equal matches store alike.
        chosen = {k: v for k, v in checked.items() if v != rules.option_defaults.get(k)}
        return name, checked_size, chosen

    # ------------------------------------------------------------------- describing
    def _info(self, record: MatchRecord, state: Any) -> MatchInfo:
        to_act: tuple[int, ...] = ()
        score = ""
        if state is not None and record.status == "running":
            if record.game == LEIFF:
                removed = {s.seat for s in record.seats if s.removed}
                to_act = tuple(
                    u
                    for u in (
                        record.user_of(s) for s in leiff_logic.owners(state) if s not in removed
                    )
                    if u is not None
                )
            else:
                user = board_logic.user_to_move(record, state)
                to_act = () if user is None else (user,)
        if state is not None:
            if record.game == LEIFF:
                totals = state.view(None)["totals"]
                score = " · ".join(
                    f"{mention(record.user_of(seat))} {total}" for seat, total in enumerate(totals)
                )
            else:
                score = state.score_text()
        offer = record.draw_offer_seat
        return MatchInfo(
            id=record.id,
            guild_id=record.guild_id,
            channel_id=record.channel_id,
            thread_id=record.thread_id,
            game=record.game,
            status=record.status,
            version=record.version,
            seats=tuple(
                SeatInfo(
                    seat=s.seat,
                    user_id=s.user_id,
                    colour=s.colour,
                    removed=s.removed,
                    timeouts=s.timeouts,
                    is_bot=s.is_bot,
                    bot_level=s.bot_level,
                )
                for s in record.seats
            ),
            host_id=record.host_id,
            to_act=to_act,
            deadline_at=record.deadline_at,
            warn_at=None if record.warned else record.warn_at,
            options=dict(record.options),
            result=record.result,
            score_text=score,
            rated=record.rated,
            vs_bot=record.vs_bot,
            draw_offer_by=None if offer is None else record.user_of(offer),
            messages=dict(record.messages),
            bot_level=bots.level_of(record),
            bot_to_act=self._bot_due(record, state),
        )

    @staticmethod
    def _bot_due(record: MatchRecord, state: Any) -> bool:
        """Whether a bot seat would act now (what advance_bots would do first)."""
        if state is None or record.status != "running" or not bots.bot_seats(record):
            return False
        if record.game == LEIFF:
            return bots.leiff_bot_choice(record, state) is not None
        return (
            bots.board_bot_answers_draw(record) is not None
            or bots.board_bot_to_move(record, state) is not None
        )

    def _board_update(
        self, kind: str, record: MatchRecord, state: Any, lines: list[str], *, moved: bool = False
    ) -> Update:
        info = self._info(record, state)
        last = state.last_turn
        events = []
        if moved:
            events.append(Event("move", {"move": last.move, "colour": last.colour}))
        if record.result is not None:
            events.append(Event("result", dict(record.result)))
        return Update(
            kind=kind,
            match_id=record.id,
            version=record.version,
            guild_id=record.guild_id,
            channel_id=record.channel_id,
            thread_id=record.thread_id,
            events=tuple(events),
            messages=(Message("\n".join(line for line in lines if line)),) if lines else (),
            pictures=(Picture("board", record.id, record.version, None, state=state),),
            buttons=(Buttons(None, board_logic.channel_actions(record, state), record.version),),
            mentions=bots.humans_only(record, info.to_act),
            match=info,
        )

    def _leiff_update(
        self,
        kind: str,
        record: MatchRecord,
        before: Any,
        states: list[Any],
        lines: list[str],
        closing: Sequence[str] = (),
        *,
        only_user: int | None = None,
    ) -> Update:
        """``only_user``: private parts for that user only (None: for every player)."""
        final = states[-1] if states else self._state(record)
        messages = [Message(line) for line in lines]
        events = []
        for state in states:
            messages.extend(Message(text) for text in leiff_logic.public_texts(state, record))
            messages.extend(
                Message(text, to=user) for user, text in leiff_logic.private_texts(state, record)
            )
            events.extend(Event(k, d) for k, d in leiff_logic.public_events(state))
        messages.extend(Message(line) for line in closing)
        info = self._info(record, final)
        pictures = [Picture("table", record.id, record.version, None, view=final.view(None))]
        buttons = []
        for seat in record.seats:
            if seat.user_id is None or seat.is_bot:
                continue
            if only_user is not None and seat.user_id != only_user:
                continue
            if kind == "refresh" or leiff_logic.hand_changed(before, final, seat.seat):
                view = final.view(seat.seat)
                pictures.append(Picture("hand", record.id, record.version, seat.user_id, view=view))
                actions = (
                    ()
                    if seat.removed or record.status != "running"
                    else tuple(leiff_logic.controls(view, seat.seat))
                )
                # A private message carries its player's hand version, not the match's.
                version = leiff_logic.hand_version(view, seat.seat)
                buttons.append(Buttons(seat.user_id, actions, version))
        if record.result is not None:
            events.append(Event("result", dict(record.result)))
        # Ping whoever the table now waits for, once; dealing the next round pings nobody
        # (anyone may deal it, and nobody is late for it).
        waiting_changed = (
            before is None or leiff_logic.deadline_key(before) != leiff_logic.deadline_key(final)
        ) and final.waiting_for()["step"] != "next"
        return Update(
            kind=kind,
            match_id=record.id,
            version=record.version,
            guild_id=record.guild_id,
            channel_id=record.channel_id,
            thread_id=record.thread_id,
            events=tuple(events),
            messages=tuple(m for m in messages if m.text),
            pictures=tuple(pictures),
            buttons=tuple(buttons),
            mentions=bots.humans_only(record, info.to_act) if waiting_changed else (),
            match=info,
        )

    def _lobby_update(self, kind: str, record: MatchRecord, lines: list[str]) -> Update:
        info = self._info(record, None)
        actions = ("join", "leave", "start") if record.status == "lobby" else ()
        return Update(
            kind=kind,
            match_id=record.id,
            version=record.version,
            guild_id=record.guild_id,
            channel_id=record.channel_id,
            thread_id=record.thread_id,
            events=(Event(kind, {"players": list(info.user_ids), "host": record.host_id}),),
            messages=(Message("\n".join(lines)),) if lines else (),
            buttons=(Buttons(None, actions, record.version),),
            match=info,
        )

    @staticmethod
    def _challenge_info(challenge: ChallengeRecord) -> ChallengeInfo:
        return ChallengeInfo(
            id=challenge.id,
            guild_id=challenge.guild_id,
            channel_id=challenge.channel_id,
            thread_id=challenge.thread_id,
            challenger_id=challenge.challenger_id,
            target_id=challenge.target_id,
            game=challenge.game,
            size=challenge.size,
            options=dict(challenge.options),
            status=challenge.status,
            created_at=challenge.created_at,
            expires_at=challenge.expires_at,
            match_id=challenge.match_id,
            rematch_of=challenge.rematch_of,
            message_id=challenge.message_id,
        )

    @staticmethod
    def _challenge_text(challenge: ChallengeRecord) -> str:
        what = f"{_title(challenge.game)} on a {challenge.size}-board"
        if challenge.options:
            # An option switched on reads as its name ("variant"), any other as name and value.
            chosen = [
                key if value is True else f"{key} {value}"
                for key, value in sorted(challenge.options.items())
                if value is not False
            ]
            what += f" ({', '.join(chosen)})" if chosen else ""
        if challenge.target_id is None:
            return f"{mention(challenge.challenger_id)} is looking for an opponent: {what}."
        return f"{mention(challenge.challenger_id)} challenges {mention(challenge.target_id)} to {what}."

    def _challenge_update(self, kind: str, challenge: ChallengeRecord, lines: list[str]) -> Update:
        actions: tuple[str, ...] = ()
        if challenge.status == "open":
            actions = (
                ("accept", "cancel")
                if challenge.target_id is None
                else ("accept", "decline", "cancel")
            )
        mentions = (challenge.target_id,) if kind == "challenge" and challenge.target_id else ()
        return Update(
            kind=kind,
            challenge_id=challenge.id,
            match_id=challenge.match_id,
            guild_id=challenge.guild_id,
            channel_id=challenge.channel_id,
            thread_id=challenge.thread_id,
            events=(Event(kind, {"challenge_id": challenge.id}),),
            messages=tuple(Message(line) for line in lines),
            buttons=(Buttons(None, actions, 0),),
            mentions=mentions,
            challenge=self._challenge_info(challenge),
        )


# ============================================================================ helpers
def _apply_board_move(state: Any, seat: int, move: str) -> tuple[Any, str]:
    """The engine's part of a board move, run in a worker thread: the new state (with its
    legal moves already worked out, as the update lists the special ones) and its JSON."""
    new_state = state.play_as(seat, move)
    if new_state.outcome is None:
        new_state.legal_moves()  # cached on the state: later reads on the loop are free
    return new_state, new_state.to_json()


def _deadline(now: float, period: float) -> tuple[float, float]:
    deadline = now + period
    return deadline, deadline - period * WARNING_FRACTION


def _finished(record: MatchRecord, result: dict[str, Any], now: float) -> MatchRecord:
    return record.evolve(
        status="finished",
        result=result,
        finished_at=now,
        deadline_at=None,
        warn_at=None,
        warned=False,
        draw_offer_seat=None,
    )


def _replace_seat(record: MatchRecord, seat_number: int, **changes: Any) -> MatchRecord:
    return record.evolve(
        seats=tuple(s.evolve(**changes) if s.seat == seat_number else s for s in record.seats)
    )


def _with(update: Update, **changes: Any) -> Update:
    return replace(update, **changes)


def _seat_removed(record: MatchRecord, user_id: int) -> bool:
    seat = record.seat_of(user_id)
    return seat is not None and seat.removed


def _games(count: int) -> str:
    return "1 game" if count == 1 else f"{count} games"


def _where(record: MatchRecord, user_id: int) -> str:
    """A match as a player finds it: "Lefe vs <@2> (#12) in <#5>"."""
    place = f"<#{record.thread_id or record.channel_id}>"
    if record.game == LEIFF:
        what = "a Leiff lobby" if record.status == "lobby" else "a Leiff table"
        return f"{what} (#{record.id}) in {place}"
    opponents = [s.user_id for s in record.seats if s.user_id != user_id]
    against = f" vs {mention(opponents[0])}" if opponents else ""
    return f"{_title(record.game)}{against} (#{record.id}) in {place}"


def _late_reason(record: MatchRecord, update: Update | None) -> str:
    """Why an action that arrived after the deadline was refused, in words for anyone."""
    kind = update.kind if update is not None else ""
    if kind == "lobby_expired":
        return "too late: this table closed because nobody started the game in time"
    if kind == "match_aborted":
        return "too late: the first move was not made in time, so the match was cancelled"
    if record.game == LEIFF:
        if kind == "match_over":
            return (
                "too late: the time for that step ran out first; the clock played the "
                "default, and that ended the game"
            )
        return (
            "too late: the time for that step ran out first, so the clock played the "
            "default; look at the latest message"
        )
    return "too late: the time for that move ran out first, so the match is over"


def _out_of_turn(action: str) -> bool:
    """Whether a Leiff action is one anyone may make at any time (match, catch, penalty)."""
    try:
        return parse_action(action).out_of_turn
    except IllegalMove:
        return False


def _parses(action: str) -> bool:
    """Whether a Leiff action is well formed (the engine's parse error says what is wrong)."""
    try:
        parse_action(action)
    except IllegalMove:
        return False
    return True


def _game_name(game: str) -> str:
    try:
        return get_game(game).name
    except KeyError as error:
        raise InvalidOptions(str(error)) from None


def _title(game: str) -> str:
    return str(getattr(get_game(game), "title", game.capitalize()))


def _leiff_summary(options: dict[str, Any]) -> str:
    parts = [f"to {options.get('target', 50)} points"]
    for key, label in (
        ("teams", "teams"),
        ("specials", "special cards"),
        ("drinking", "drinking rules"),
        ("water", "water rules"),
    ):
        if options.get(key):
            parts.append(label)
    return ", ".join(parts)


def _duration(seconds: float) -> str:
    seconds = round(seconds)
    if seconds >= 3600:
        return f"{seconds // 3600} h {seconds % 3600 // 60:02d} min"
    if seconds >= 60:
        return f"{seconds // 60} min"
    return f"{seconds} s"
