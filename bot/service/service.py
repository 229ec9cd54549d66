"""The match service: challenges, matches, Leiff lobbies, clocks, ratings and settings.

Every public call takes ids and plain values and returns an :class:`Update` (or plain
records) describing what changed; refusals raise a :class:`ServiceError` and change
nothing. Actions on one match run one at a time under a per-match lock, are checked
against the version the caller saw, and are committed (state, version, action log,
deadline, ratings) in one transaction before the call returns. The database repeats the
version check, so two processes sharing a database never both apply an action.
"""

from __future__ import annotations

import asyncio
import logging
import secrets
import time
from collections.abc import AsyncIterator, Awaitable, Callable, Sequence
from contextlib import asynccontextmanager
from dataclasses import dataclass, field, replace
from typing import Any

from bot.service import board_logic, bots, leiff_logic
from bot.service.board_logic import mention
from bot.service.errors import (
    ChallengeExpired,
    ChannelNotAllowed,
    Cooldown,
    Forbidden,
    IllegalAction,
    InvalidOptions,
    LobbyError,
    MatchOver,
    NotFound,
    NotInMatch,
    NotYourTurn,
    SelfChallenge,
    ServiceError,
    StaleVersion,
    TooManyMatches,
)
from bot.service.guild_settings import LEIFF_TARGETS, GuildSettings
from bot.service.ratings import DEFAULT_MU, DEFAULT_SIGMA, Placing, rate
from bot.service.results import (
    Buttons,
    ChallengeInfo,
    Event,
    LeaderboardRow,
    MatchInfo,
    Message,
    Picture,
    PlayerStats,
    RatingChange,
    SeatInfo,
    Update,
    VsBotStats,
)
from bot.storage import (
    ACTIVE_STATUSES,
    ActionRecord,
    ChallengeRecord,
    ChallengeTaken,
    MatchRecord,
    RatingRecord,
    Repository,
    SeatRecord,
    VersionConflict,
    VsBotResult,
)
from engine import BOARD_GAMES, IllegalMove, get_game
from engine.leiff import parse_action

log = logging.getLogger(__name__)

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


@dataclass(frozen=True)
class StartupState:
    """What :meth:`MatchService.start` found: the bot re-attaches its views to these."""

    matches: tuple[MatchInfo, ...]
    challenges: tuple[ChallengeInfo, ...]


@dataclass
class _Step:
    """An accepted change in progress: the new record, its log rows and what to say."""

    record: MatchRecord
    actions: list[ActionRecord]
    lines: list[str]  # said before what the engine reports
    closing: list[str] = field(default_factory=list)  # said after it (the result)


class MatchService:
    """The one entry point of the Discord layer for everything about games."""

    def __init__(
        self,
        repo: Repository,
        *,
        clock: Callable[[], float] = time.time,
        seed_source: Callable[[], int] | None = None,
        bot_user_id: int | None = None,
        ai_move: AIMove | None = None,
    ) -> None:
        self.repo = repo
        self.clock = clock
        # The bot's own Discord user id: it sits in the bot's seat of board games against
        # it. Without it (given here or to start()), games against the bot are refused.
        self.bot_user_id = bot_user_id
        # Default: the shared worker-process pool of bot/ai_pool.py (imported on first use).
        self._ai_move = ai_move
        # Per match: only one advance_bots runs at a time, so two bot moves never race.
        self._bot_locks: dict[int, asyncio.Lock] = {}
        self._seed_source = seed_source or (lambda: secrets.randbits(62))
        self._locks: dict[int, asyncio.Lock] = {}
        # Per (guild, user): makes "check the cooldown and limits, then store" one step.
        # Lock order: a match lock may be taken before a user lock, never after.
        self._user_locks: dict[tuple[int, int], asyncio.Lock] = {}
        # Parsed engine states by match id, valid for the version stored beside them.
        self._states: dict[int, tuple[int, Any]] = {}

    # ================================================================ start-up and lookups
    async def start(self, *, bot_user_id: int | None = None) -> StartupState:
        """Load every running match, lobby, open challenge and deadline from storage.

        ``bot_user_id`` (the bot's own user id, known once it has logged in) enables games
        against the bot, if it was not given to the constructor.
        """
        if bot_user_id is not None:
            self.bot_user_id = bot_user_id
        records = await self.repo.matches_with_status(ACTIVE_STATUSES)
        infos = []
        for record in records:
            state = self._state(record)  # parses now, so a broken row shows at start-up
            infos.append(self._info(record, state))
        challenges = await self.repo.open_challenges()
        return StartupState(
            matches=tuple(infos), challenges=tuple(self._challenge_info(c) for c in challenges)
        )

    async def get_match(self, match_id: int) -> MatchInfo:
        record = await self._load(match_id)
        return self._info(record, self._state(record))

    async def match_in_channel(
        self, guild_id: int, channel_id: int, user_id: int, thread_id: int | None = None
    ) -> MatchInfo | None:
        """The caller's running match or lobby in this channel or thread, most recent first."""
        place = thread_id if thread_id is not None else channel_id
        for record in await self.repo.matches_in_channel(guild_id, place, ACTIVE_STATUSES):
            if record.seat_of(user_id) is not None:
                return self._info(record, self._state(record))
        return None

    async def user_matches(self, user_id: int, guild_id: int | None = None) -> list[MatchInfo]:
        records = await self.repo.matches_of_user(user_id, ACTIVE_STATUSES, guild_id)
        return [self._info(r, self._state(r)) for r in records]

    async def action_log(self, match_id: int) -> list[ActionRecord]:
        await self._load(match_id)
        return await self.repo.actions(match_id)

    async def set_message(self, match_id: int, kind: str, message_id: int) -> None:
        await self._load(match_id)
        await self.repo.set_message(match_id, kind, message_id)

    async def set_thread(self, match_id: int, thread_id: int | None) -> None:
        await self._load(match_id)
        await self.repo.set_thread(match_id, thread_id)

    async def current(self, match_id: int) -> Update:
        """Pictures and buttons of the match as it is now (to redraw after a restart)."""
        record = await self._load(match_id)
        state = self._state(record)
        if state is None:  # a lobby, open or closed
            return self._lobby_update("refresh", record, [])
        if record.game == LEIFF:
            return self._leiff_update("refresh", record, None, [], [])
        return self._board_update("refresh", record, state, [])

    # ===================================================================== settings
    async def get_settings(self, guild_id: int) -> GuildSettings:
        return GuildSettings.from_stored(await self.repo.get_settings(guild_id))

    async def update_settings(
        self, guild_id: int, user_id: int, has_manage_guild: bool, **changes: Any
    ) -> GuildSettings:
        """Change some settings of a server (Manage Server only); all are checked first."""
        if not has_manage_guild:
            raise Forbidden(
                "changing the server's game settings needs the Manage Server permission"
            )
        updated = (await self.get_settings(guild_id)).with_changes(changes)
        await self.repo.put_settings(guild_id, updated.to_stored(), self.clock(), user_id)
        return updated

    # ======================================================================= challenges
    async def challenge(
        self,
        guild_id: int,
        channel_id: int,
        challenger_id: int,
        game: str,
        target_id: int | None = None,
        *,
        size: int | None = None,
        options: dict[str, Any] | None = None,
        thread_id: int | None = None,
        level: str | None = None,
    ) -> Update:
        """Challenge a user to a board game, or open a seek anyone may take (no target).

        Challenging the bot itself (``target_id`` = the bot's user id) starts the match at
        once at ``level`` (see :meth:`challenge_bot`).
        """
        if target_id is not None and target_id == self.bot_user_id:
            return await self.challenge_bot(
                guild_id,
                channel_id,
                challenger_id,
                game,
                level,
                size=size,
                options=options,
                thread_id=thread_id,
            )
        if level is not None:
            raise InvalidOptions("a level is only for games against the bot")
        async with self._user_lock(guild_id, challenger_id):
            return await self._challenge(
                guild_id, channel_id, challenger_id, game, target_id, size, options, thread_id
            )

    async def _challenge(
        self,
        guild_id: int,
        channel_id: int,
        challenger_id: int,
        game: str,
        target_id: int | None,
        size: int | None,
        options: dict[str, Any] | None,
        thread_id: int | None,
    ) -> Update:
        settings = await self.get_settings(guild_id)
        self._check_channel(settings, channel_id, thread_id)
        game_name, size, options = self._board_options(game, size, options)
        if target_id == challenger_id:
            raise SelfChallenge()
        now = self.clock()
        last = await self.repo.last_challenge_at(guild_id, challenger_id)
        cooldown = settings.challenge_cooldown_seconds
        if cooldown and last is not None and now - last < cooldown:
            raise Cooldown(cooldown - (now - last))
        await self._check_match_limit(settings, challenger_id, guild_id, "you")
        record = await self.repo.create_challenge(
            ChallengeRecord(
                id=0,
                guild_id=guild_id,
                channel_id=channel_id,
                thread_id=thread_id,
                challenger_id=challenger_id,
                target_id=target_id,
                game=game_name,
                size=size,
                options=options,
                status="open",
                created_at=now,
                expires_at=now + settings.challenge_expiry_seconds,
            )
        )
        return self._challenge_update("challenge", record, [self._challenge_text(record)])

    async def rematch(self, match_id: int, user_id: int) -> Update:
        """After a finished board game: challenge the opponent to the same game again.

        If the opponent already asked for a rematch, this accepts it instead.
        """
        async with self._lock(match_id):
            return await self._rematch(match_id, user_id)

    async def _rematch(self, match_id: int, user_id: int) -> Update:
        record = await self._load(match_id)
        if record.game == LEIFF:
            raise IllegalAction("for another game of Leiff, open a new table")
        seat = self._seat(record, user_id)
        if record.status != "finished":
            raise IllegalAction("a rematch can be asked for once the match is over")
        if record.vs_bot:
            return await self._rematch_bot(record, user_id)
        opponent = next(s.user_id for s in record.seats if s.seat != seat.seat)
        for open_challenge in await self.repo.open_challenges(record.guild_id):
            if open_challenge.rematch_of == match_id:
                if open_challenge.challenger_id == user_id:
                    raise IllegalAction("you already asked for a rematch")
                return await self.accept_challenge(open_challenge.id, user_id)
        settings = await self.get_settings(record.guild_id)
        await self._check_match_limit(settings, user_id, record.guild_id, "you")
        now = self.clock()
        challenge = await self.repo.create_challenge(
            ChallengeRecord(
                id=0,
                guild_id=record.guild_id,
                channel_id=record.channel_id,
                thread_id=record.thread_id,
                challenger_id=user_id,
                target_id=opponent,
                game=record.game,
                size=record.options.get("size"),
                options=dict(record.options.get("options", {})),
                status="open",
                created_at=now,
                expires_at=now + settings.challenge_expiry_seconds,
                rematch_of=match_id,
            )
        )
        text = f"{mention(user_id)} asks {mention(opponent)} for a rematch."
        return self._challenge_update("challenge", challenge, [text])

    async def accept_challenge(self, challenge_id: int, user_id: int) -> Update:
        """Take a challenge (the target) or a seek (anyone else): the match starts."""
        challenge = await self._open_challenge(challenge_id)
        async with self._user_lock(challenge.guild_id, user_id):
            return await self._accept(challenge_id, user_id)

    async def _accept(self, challenge_id: int, user_id: int) -> Update:
        challenge = await self._open_challenge(challenge_id)
        if challenge.challenger_id == user_id:
            raise SelfChallenge("you cannot accept your own challenge")
        if challenge.target_id is not None and challenge.target_id != user_id:
            raise Forbidden(f"this challenge is for {mention(challenge.target_id)}")
        settings = await self.get_settings(challenge.guild_id)
        await self._check_match_limit(settings, user_id, challenge.guild_id, "you")
        await self._check_match_limit(
            settings, challenge.challenger_id, challenge.guild_id, mention(challenge.challenger_id)
        )
        first, second = challenge.challenger_id, user_id
        if challenge.rematch_of is not None:
            previous = await self.repo.get_match(challenge.rematch_of)
            if previous is not None and previous.user_of(0) == challenge.challenger_id:
                first, second = second, first  # seats swap in a rematch
        game = get_game(challenge.game)
        state = game.new(challenge.size, **challenge.options)
        now = self.clock()
        deadline, warn_at = _deadline(now, settings.board_move_seconds)
        draft = MatchRecord(
            id=0,
            guild_id=challenge.guild_id,
            channel_id=challenge.channel_id,
            thread_id=challenge.thread_id,
            game=challenge.game,
            status="running",
            created_at=now,
            updated_at=now,
            options={"size": state.size, "options": dict(challenge.options)},
            state=state.to_json(),
            host_id=first,
            deadline_at=deadline,
            warn_at=warn_at,
            rematch_of=challenge.rematch_of,
            seats=(
                SeatRecord(seat=0, user_id=first, colour=state.seat_colour(0)),
                SeatRecord(seat=1, user_id=second, colour=state.seat_colour(1)),
            ),
        )
        try:
            record = await self.repo.accept_challenge(challenge.id, draft)
        except ChallengeTaken:
            raise ChallengeExpired() from None
        self._states[record.id] = (record.version, state)
        line = (
            f"{mention(first)} vs {mention(second)}: {game.title} on a {state.size}-board. "
            + board_logic.turn_text(record, state)
        )
        update = self._board_update("match_started", record, state, [line])
        return _with(update, challenge_id=challenge.id)

    # ======================================================================= vs the bot
    async def challenge_bot(
        self,
        guild_id: int,
        channel_id: int,
        user_id: int,
        game: str,
        level: str | None = None,
        *,
        size: int | None = None,
        options: dict[str, Any] | None = None,
        thread_id: int | None = None,
    ) -> Update:
        """Play a board game against the bot: it accepts at once, the match starts.

        The player takes seat 0 (moves first; in Les they lay the set-up stones and the bot
        chooses its side), the bot seat 1 at ``level`` (easy / normal / hard; default
        normal). Same checks as a challenge (channel, cooldown, match limit). The match is
        unrated (``vs_bot``): its result goes to :meth:`vs_bot_stats` only. Returns
        ``Update(kind="match_started")`` with ``challenge_id``.
        """
        async with self._user_lock(guild_id, user_id):
            return await self._start_vs_bot(
                guild_id, channel_id, thread_id, user_id, game, level, size, options
            )

    async def _start_vs_bot(
        self,
        guild_id: int,
        channel_id: int,
        thread_id: int | None,
        user_id: int,
        game: str,
        level: str | None,
        size: int | None,
        options: dict[str, Any] | None,
        rematch_of: int | None = None,
    ) -> Update:
        bot_id = self.bot_user_id
        if bot_id is None:
            raise InvalidOptions("the bot cannot play here: it was started without its user id")
        if user_id == bot_id:
            raise SelfChallenge()
        level_name = bots.check_level(level)
        settings = await self.get_settings(guild_id)
        self._check_channel(settings, channel_id, thread_id)
        game_name, size, options = self._board_options(game, size, options)
        now = self.clock()
        if rematch_of is None:  # rematches are exempt from the cooldown, as between humans
            last = await self.repo.last_challenge_at(guild_id, user_id)
            cooldown = settings.challenge_cooldown_seconds
            if cooldown and last is not None and now - last < cooldown:
                raise Cooldown(cooldown - (now - last))
        await self._check_match_limit(settings, user_id, guild_id, "you")
        # A challenge row keeps the cooldown and the history uniform with human challenges;
        # it is accepted in the same breath.
        challenge = await self.repo.create_challenge(
            ChallengeRecord(
                id=0,
                guild_id=guild_id,
                channel_id=channel_id,
                thread_id=thread_id,
                challenger_id=user_id,
                target_id=bot_id,
                game=game_name,
                size=size,
                options=options,
                status="open",
                created_at=now,
                expires_at=now + settings.challenge_expiry_seconds,
                rematch_of=rematch_of,
            )
        )
        rules = get_game(game_name)
        state = rules.new(size, **options)
        deadline, warn_at = _deadline(now, settings.board_move_seconds)
        draft = MatchRecord(
            id=0,
            guild_id=guild_id,
            channel_id=channel_id,
            thread_id=thread_id,
            game=game_name,
            status="running",
            created_at=now,
            updated_at=now,
            options={"size": state.size, "options": dict(options)},
            state=state.to_json(),
            host_id=user_id,
            vs_bot=True,
            rated=False,
            deadline_at=deadline,
            warn_at=warn_at,
            rematch_of=rematch_of,
            seats=(
                SeatRecord(seat=0, user_id=user_id, colour=state.seat_colour(0)),
                SeatRecord(
                    seat=1,
                    user_id=bot_id,
                    is_bot=True,
                    colour=state.seat_colour(1),
                    bot_level=level_name,
                ),
            ),
        )
        try:
            record = await self.repo.accept_challenge(challenge.id, draft)
        except ChallengeTaken:
            raise ChallengeExpired() from None
        # The bot never moves first (it is seat 1), so the human's clock runs from now.
        self._states[record.id] = (record.version, state)
        line = (
            f"{mention(user_id)} vs {mention(bot_id)} (level {level_name}): {rules.title} "
            f"on a {state.size}-board. " + board_logic.turn_text(record, state)
        )
        update = self._board_update("match_started", record, state, [line])
        return _with(update, challenge_id=challenge.id)

    async def _rematch_bot(self, record: MatchRecord, user_id: int) -> Update:
        """Another game against the bot at the same level, size and options, at once."""
        for active in await self.repo.matches_of_user(user_id, ACTIVE_STATUSES, record.guild_id):
            if active.rematch_of == record.id:
                raise IllegalAction("the rematch has already started")
        async with self._user_lock(record.guild_id, user_id):
            return await self._start_vs_bot(
                record.guild_id,
                record.channel_id,
                record.thread_id,
                user_id,
                record.game,
                bots.level_of(record),
                record.options.get("size"),
                dict(record.options.get("options", {})),
                rematch_of=record.id,
            )

    async def advance_bots(self, match_id: int) -> list[Update]:
        """Play every bot action due now in the match, in order, one Update each.

        Board games: the bot's move (searched in a worker process by the AI pool, so the
        event loop stays free) and its answer to a draw offer (it declines). Leiff: every
        bot seat's turn, pending choice, and sure match or catch, until a human must act.
        Each action goes through the same path as a human's (version check, commit before
        the Update is returned). Returns ``[]`` when no bot has anything to do. Safe to
        call after every update of any match; :meth:`tick` calls it too.
        """
        lock = self._bot_locks.setdefault(match_id, asyncio.Lock())
        updates: list[Update] = []
        async with lock:
            for _ in range(MAX_BOT_ACTIONS):
                try:
                    update = await self._bot_step(match_id)
                except StaleVersion:
                    continue  # a human acted while the bot was thinking: think again
                if update is None:
                    break
                updates.append(update)
        return updates

    async def _bot_step(self, match_id: int) -> Update | None:
        record = await self._load(match_id)
        if record.status != "running":
            return None
        state = self._state(record)
        if record.game == LEIFF:
            choice = bots.leiff_bot_choice(record, state)
            if choice is None:
                return None
            seat, action = choice
            async with self._match(match_id, record.version) as current:
                return await self._leiff_act(current, seat.user_id, action)
        answering = bots.board_bot_answers_draw(record)
        if answering is not None and answering.user_id is not None:
            async with self._match(match_id, record.version) as current:
                return await self._decline_draw(current, answering.user_id)
        seat = bots.board_bot_to_move(record, state)
        if seat is None or seat.user_id is None:
            return None
        level = seat.bot_level or bots.DEFAULT_BOT_LEVEL
        # The search runs outside the match lock: a human may resign meanwhile, and then
        # the version check below throws the stale move away.
        move = await self._choose_move(record.state or state.to_json(), record.game, level)
        async with self._match(match_id, record.version) as current:
            try:
                return await self._play_board(current, seat.user_id, move)
            except IllegalAction:
                # The AI promises legal moves; if it ever breaks that, the match goes on.
                log.error("the AI chose an illegal move %r in match %s", move, match_id)
                return await self._play_board(current, seat.user_id, state.legal_moves()[0])

    async def _choose_move(self, state_json: str, game: str, level: str) -> str:
        if self._ai_move is None:
            from bot import ai_pool  # the pool starts worker processes: only when needed

            self._ai_move = ai_pool.choose_move
        return await self._ai_move(state_json, game, level)

    async def decline_challenge(self, challenge_id: int, user_id: int) -> Update:
        challenge = await self._open_challenge(challenge_id)
        if challenge.target_id is None or challenge.target_id != user_id:
            raise Forbidden("only the challenged player can decline")
        closed = await self._close_challenge(challenge, "declined")
        text = f"{mention(user_id)} declines the challenge of {mention(challenge.challenger_id)}."
        return self._challenge_update("challenge_declined", closed, [text])

    async def cancel_challenge(self, challenge_id: int, user_id: int) -> Update:
        challenge = await self._open_challenge(challenge_id)
        if challenge.challenger_id != user_id:
            raise Forbidden("only the player who made the challenge can withdraw it")
        closed = await self._close_challenge(challenge, "cancelled")
        text = f"{mention(user_id)} withdraws the challenge."
        return self._challenge_update("challenge_cancelled", closed, [text])

    async def get_challenge(self, challenge_id: int) -> ChallengeInfo:
        challenge = await self.repo.get_challenge(challenge_id)
        if challenge is None:
            raise NotFound("there is no such challenge")
        return self._challenge_info(challenge)

    async def open_challenges(
        self, guild_id: int, user_id: int | None = None
    ) -> list[ChallengeInfo]:
        now = self.clock()
        found = []
        for challenge in await self.repo.open_challenges(guild_id):
            if challenge.expires_at <= now:
                continue
            if user_id is None or user_id in (challenge.challenger_id, challenge.target_id):
                found.append(self._challenge_info(challenge))
        return found

    # ================================================================ board-game actions
    async def play(
        self, match_id: int, user_id: int, move: str, version: int | None = None
    ) -> Update:
        """Play a move (board games) or an action (Leiff) for the caller's seat."""
        async with self._match(match_id, version) as record:
            if record.game == LEIFF:
                return await self._leiff_act(record, user_id, move)
            return await self._play_board(record, user_id, move)

    async def _play_board(self, record: MatchRecord, user_id: int, move: str) -> Update:
        """A board move by ``user_id`` (a person or the bot), under the match lock."""
        self._check_running(record)
        seat = self._seat(record, user_id)
        state = self._state(record)
        if state.seat_to_move != seat.seat:
            waiting = board_logic.user_to_move(record, state)
            raise NotYourTurn(f"it is {mention(waiting)}'s turn")
        try:
            new_state = state.play_as(seat.seat, move)
        except IllegalMove as error:
            raise IllegalAction(str(error)) from None
        now = self.clock()
        settings = await self.get_settings(record.guild_id)
        step = self._begin(record, now)
        step.record = step.record.evolve(
            state=new_state.to_json(),
            seats=board_logic.seats_with_colours(record, new_state),
            draw_offer_seat=None,
        )
        self._log(step, user_id, seat.seat, new_state.moves[-1], now)
        step.lines.append(board_logic.move_text(record, seat.seat, state, new_state))
        if new_state.outcome is not None:
            result = board_logic.result_from_outcome(record, new_state)
            return await self._finish_board(record, step, new_state, result, now, moved=True)
        deadline, warn_at = _deadline(now, settings.board_move_seconds)
        if bots.board_bot_to_move(step.record, new_state) is not None:
            # No clock on the bot: advance_bots (or the next tick) makes its move.
            deadline = warn_at = None
        step.record = step.record.evolve(deadline_at=deadline, warn_at=warn_at, warned=False)
        step.lines.append(board_logic.turn_text(step.record, new_state))
        await self._commit(record, step, new_state)
        return self._board_update("move", step.record, new_state, step.lines, moved=True)

    async def resign(self, match_id: int, user_id: int, version: int | None = None) -> Update:
        """Give up: the opponent wins a board game; in Leiff the player leaves the table
        (from then on their decisions are made by default and they rank last)."""
        async with self._match(match_id, version) as record:
            self._check_running(record)
            seat = self._seat(record, user_id)
            now = self.clock()
            step = self._begin(record, now)
            self._log(step, user_id, seat.seat, SERVICE_MARK + "resign", now)
            if record.game == LEIFF:
                if seat.removed:
                    raise NotInMatch("you have already left this match")
                step.record = _replace_seat(step.record, seat.seat, removed=True)
                step.lines.append(f"{mention(user_id)} leaves the table.")
                return await self._leiff_settle(record, step, self._state(record), now, "resigned")
            state = self._state(record)
            winner = next(s.user_id for s in record.seats if s.seat != seat.seat)
            result = {"winners": [winner], "reason": f"{mention(user_id)} resigned", "draw": False}
            return await self._finish_board(record, step, state, result, now)

    async def offer_draw(self, match_id: int, user_id: int, version: int | None = None) -> Update:
        async with self._match(match_id, version) as record:
            self._check_running(record)
            seat = self._seat(record, user_id)
            if record.game not in board_logic.DRAWABLE_GAMES:
                raise IllegalAction(f"{_title(record.game)} cannot end in a draw")
            if record.draw_offer_seat == seat.seat:
                raise IllegalAction("you have already offered a draw")
            if record.draw_offer_seat is not None:
                raise IllegalAction("your opponent offered a draw: accept or decline it")
            now = self.clock()
            step = self._begin(record, now)
            step.record = step.record.evolve(draw_offer_seat=seat.seat)
            self._log(step, user_id, seat.seat, SERVICE_MARK + "offer_draw", now)
            opponent = next(s.user_id for s in record.seats if s.seat != seat.seat)
            step.lines.append(
                f"{mention(user_id)} offers a draw. {mention(opponent)} may accept or decline."
            )
            state = self._state(record)
            await self._commit(record, step, state)
            update = self._board_update("draw_offered", step.record, state, step.lines)
            pinged = () if opponent is None else bots.humans_only(record, (opponent,))
            return _with(update, mentions=pinged)

    async def accept_draw(self, match_id: int, user_id: int, version: int | None = None) -> Update:
        async with self._match(match_id, version) as record:
            seat = self._answerable_offer(record, user_id)
            now = self.clock()
            step = self._begin(record, now)
            self._log(step, user_id, seat.seat, SERVICE_MARK + "accept_draw", now)
            result = {"winners": [], "reason": "drawn by agreement", "draw": True}
            return await self._finish_board(record, step, self._state(record), result, now)

    async def decline_draw(self, match_id: int, user_id: int, version: int | None = None) -> Update:
        async with self._match(match_id, version) as record:
            return await self._decline_draw(record, user_id)

    async def _decline_draw(self, record: MatchRecord, user_id: int) -> Update:
        seat = self._answerable_offer(record, user_id)
        now = self.clock()
        step = self._begin(record, now)
        step.record = step.record.evolve(draw_offer_seat=None)
        self._log(step, user_id, seat.seat, SERVICE_MARK + "decline_draw", now)
        step.lines.append(f"{mention(user_id)} declines the draw.")
        state = self._state(record)
        await self._commit(record, step, state)
        return self._board_update("draw_declined", step.record, state, step.lines)

    # =========================================================================== Leiff
    async def open_lobby(
        self,
        guild_id: int,
        channel_id: int,
        host_id: int,
        *,
        options: dict[str, Any] | None = None,
        thread_id: int | None = None,
    ) -> Update:
        """Open a Leiff table; the host sits at seat 0. ``options`` may pick ``target``
        (50 or 100) and ``teams`` (if the server allows it)."""
        async with self._user_lock(guild_id, host_id):
            return await self._open_lobby(guild_id, channel_id, host_id, options, thread_id)

    async def _open_lobby(
        self,
        guild_id: int,
        channel_id: int,
        host_id: int,
        options: dict[str, Any] | None,
        thread_id: int | None,
    ) -> Update:
        settings = await self.get_settings(guild_id)
        self._check_channel(settings, channel_id, thread_id)
        chosen = settings.leiff_options()
        for key, value in (options or {}).items():
            if key == "target":
                if isinstance(value, bool) or value not in LEIFF_TARGETS:
                    raise InvalidOptions("the target is 50 or 100 points")
                chosen["target"] = int(value)
            elif key == "teams":
                if not isinstance(value, bool):
                    raise InvalidOptions("teams is on or off")
                if value and not settings.leiff_teams_allowed:
                    raise InvalidOptions("this server does not allow team games")
                chosen["teams"] = value
            else:
                raise InvalidOptions(f"a Leiff table cannot choose {key!r} (only target and teams)")
        await self._check_match_limit(settings, host_id, guild_id, "you")
        now = self.clock()
        record = await self.repo.create_match(
            MatchRecord(
                id=0,
                guild_id=guild_id,
                channel_id=channel_id,
                thread_id=thread_id,
                game=LEIFF,
                status="lobby",
                created_at=now,
                updated_at=now,
                options=chosen,
                host_id=host_id,
                deadline_at=now + settings.challenge_expiry_seconds,
                seats=(SeatRecord(seat=0, user_id=host_id),),
            )
        )
        text = f"{mention(host_id)} opens a Leiff table ({_leiff_summary(chosen)}). Join in!"
        return self._lobby_update("lobby_opened", record, [text])

    async def join_lobby(self, match_id: int, user_id: int, version: int | None = None) -> Update:
        async with (
            self._match(match_id, version) as record,
            self._user_lock(record.guild_id, user_id),
        ):
            self._check_lobby(record)
            if record.seat_of(user_id) is not None:
                raise LobbyError("you are already at this table")
            if len(record.seats) >= leiff_logic.MAX_PLAYERS:
                raise LobbyError(f"the table is full ({leiff_logic.MAX_PLAYERS} players)")
            settings = await self.get_settings(record.guild_id)
            await self._check_match_limit(settings, user_id, record.guild_id, "you")
            now = self.clock()
            step = self._begin(record, now)
            seat_number = len(record.seats)
            step.record = step.record.evolve(
                seats=(*record.seats, SeatRecord(seat=seat_number, user_id=user_id)),
                deadline_at=now + settings.challenge_expiry_seconds,
            )
            self._log(step, user_id, seat_number, SERVICE_MARK + "join", now)
            step.lines.append(
                f"{mention(user_id)} joins the table ({len(step.record.seats)} players)."
            )
            await self._commit(record, step, None)
            return self._lobby_update("lobby_joined", step.record, step.lines)

    async def leave_lobby(self, match_id: int, user_id: int, version: int | None = None) -> Update:
        async with self._match(match_id, version) as record:
            self._check_lobby(record)
            seat = self._seat(record, user_id)
            now = self.clock()
            step = self._begin(record, now)
            remaining = [s for s in record.seats if s.user_id != user_id]
            seats = tuple(s.evolve(seat=i) for i, s in enumerate(remaining))
            humans = [s for s in seats if not s.is_bot]
            host = record.host_id
            if host == user_id:
                host = humans[0].user_id if humans else None
            step.record = step.record.evolve(seats=seats, host_id=host)
            self._log(step, user_id, seat.seat, SERVICE_MARK + "leave", now)
            step.lines.append(f"{mention(user_id)} leaves the table.")
            if not humans:  # bots alone do not keep a table open
                seats = ()
                step.record = step.record.evolve(
                    status="aborted", deadline_at=None, finished_at=now
                )
                step.lines.append("The table is empty and closes.")
            elif host != record.host_id:
                step.lines.append(f"{mention(host)} now hosts the table.")
            await self._commit(record, step, None)
            kind = "lobby_closed" if not seats else "lobby_left"
            return self._lobby_update(kind, step.record, step.lines)

    async def add_bot_seat(
        self, match_id: int, user_id: int, level: str | None = None, version: int | None = None
    ) -> Update:
        """The host seats a bot at the Leiff table (``level`` is stored with the seat; the
        Leiff bot plays the same way at every level). The seat gets a pseudo user id
        (-1, -2, ...) and is named "Bot N" in texts. ``Update(kind="lobby_joined")``.
        Errors: ``Forbidden`` (not the host), ``LobbyError`` (full, started),
        ``MatchOver`` (closed), ``InvalidOptions`` (unknown level)."""
        async with self._match(match_id, version) as record:
            self._check_lobby(record)
            if record.host_id != user_id:
                raise Forbidden(f"only the host, {mention(record.host_id)}, can seat a bot")
            level_name = bots.check_level(level)
            if len(record.seats) >= leiff_logic.MAX_PLAYERS:
                raise LobbyError(f"the table is full ({leiff_logic.MAX_PLAYERS} players)")
            settings = await self.get_settings(record.guild_id)
            now = self.clock()
            step = self._begin(record, now)
            seat_number = len(record.seats)
            bot_id = bots.pseudo_user_id(s.user_id for s in record.seats)
            seat = SeatRecord(seat=seat_number, user_id=bot_id, is_bot=True, bot_level=level_name)
            step.record = step.record.evolve(
                seats=(*record.seats, seat),
                deadline_at=now + settings.challenge_expiry_seconds,
            )
            self._log(step, user_id, seat_number, SERVICE_MARK + "add_bot", now)
            step.lines.append(
                f"{mention(user_id)} seats {mention(bot_id)} ({level_name}) at the table "
                f"({len(step.record.seats)} players)."
            )
            await self._commit(record, step, None)
            return self._lobby_update("lobby_joined", step.record, step.lines)

    async def remove_bot_seat(
        self, match_id: int, user_id: int, seat: int | None = None, version: int | None = None
    ) -> Update:
        """The host removes a bot seat from the Leiff table: seat number ``seat``, or the
        last bot seat when None. Seats are renumbered. ``Update(kind="lobby_left")``.
        Errors: ``Forbidden`` (not the host), ``LobbyError`` (no such bot seat, started)."""
        async with self._match(match_id, version) as record:
            self._check_lobby(record)
            if record.host_id != user_id:
                raise Forbidden(f"only the host, {mention(record.host_id)}, can remove a bot")
            seated = bots.bot_seats(record)
            if seat is None:
                if not seated:
                    raise LobbyError("there is no bot at this table")
                leaving = seated[-1]
            else:
                found = [s for s in seated if s.seat == seat]
                if not found:
                    raise LobbyError(f"seat {seat} is not a bot seat")
                leaving = found[0]
            now = self.clock()
            step = self._begin(record, now)
            remaining = [s for s in record.seats if s.seat != leaving.seat]
            step.record = step.record.evolve(
                seats=tuple(s.evolve(seat=i) for i, s in enumerate(remaining))
            )
            self._log(step, user_id, leaving.seat, SERVICE_MARK + "remove_bot", now)
            step.lines.append(f"{mention(leaving.user_id)} leaves the table.")
            await self._commit(record, step, None)
            return self._lobby_update("lobby_left", step.record, step.lines)

    async def start_lobby(self, match_id: int, user_id: int, version: int | None = None) -> Update:
        async with self._match(match_id, version) as record:
            self._check_lobby(record)
            if record.host_id != user_id:
                raise Forbidden(f"only the host, {mention(record.host_id)}, can start the game")
            players = len(record.seats)
            if players < leiff_logic.MIN_PLAYERS:
                raise LobbyError("Leiff needs at least two players")
            if record.options.get("teams") and players not in leiff_logic.TEAM_SIZES:
                raise LobbyError("a team game needs 4 or 6 players")
            seed = self._seed_source()
            try:
                state = get_game(LEIFF).new(players=players, seed=seed, options=record.options)
            except ValueError as error:
                raise InvalidOptions(str(error)) from None
            now = self.clock()
            settings = await self.get_settings(record.guild_id)
            step = self._begin(record, now)
            # With fewer than two people at the table there is nobody to be rated against:
            # the game counts in the players' vs-bot record instead.
            humans = sum(1 for s in record.seats if not s.is_bot)
            against_bots = humans < 2
            step.record = step.record.evolve(
                status="running",
                state=state.to_json(),
                vs_bot=against_bots,
                rated=not against_bots,
            )
            self._log(step, user_id, 0, SERVICE_MARK + "start", now)
            step.lines.append(
                f"The game starts with {players} players ({_leiff_summary(record.options)})."
            )
            step.record = self._leiff_deadline(step.record, None, state, settings, now)
            await self._commit(record, step, state)
            return self._leiff_update("match_started", step.record, None, [state], step.lines)

    async def leiff_action(
        self, match_id: int, user_id: int, action: str, version: int | None = None
    ) -> Update:
        """A Leiff action for the caller's seat (same as :meth:`play`)."""
        return await self.play(match_id, user_id, action, version)

    async def _leiff_act(self, record: MatchRecord, user_id: int, action: str) -> Update:
        self._check_running(record)
        seat = self._seat(record, user_id)
        if seat.removed:
            raise NotInMatch("you left this match or were removed for timing out")
        state = self._state(record)
        if seat.seat not in state.actors():
            raise NotYourTurn("you cannot act right now")
        try:
            new_state = state.play(seat.seat, action)
        except IllegalMove as error:
            reason = leiff_logic.fill_names(str(error), record)
            if seat.seat not in leiff_logic.owners(state) and not _out_of_turn(action):
                raise NotYourTurn(reason) from None
            raise IllegalAction(reason) from None
        now = self.clock()
        step = self._begin(record, now)
        step.record = _replace_seat(step.record, seat.seat, timeouts=0)
        self._log(step, user_id, seat.seat, new_state.log[-1][1], now)
        return await self._leiff_settle(record, step, state, now, "action", [new_state])

    async def _leiff_settle(
        self,
        original: MatchRecord,
        step: _Step,
        before: Any,
        now: float,
        kind: str,
        produced: list[Any] | None = None,
    ) -> Update:
        """After a Leiff action: play removed players' defaults, end the game when it is
        over (or when at most one player is left), set the clock, commit, describe."""
        states = list(produced or [])
        current = states[-1] if states else before
        for _ in range(MAX_AUTOMATIC_ACTIONS):
            removed = {s.seat for s in step.record.seats if s.removed}
            # Dealing the next round waits for the players still at the table, so they
            # can look at the revealed hands first.
            if current.outcome is not None or current.waiting_for()["step"] == "next":
                break
            pending = [
                seat
                for seat in leiff_logic.owners(current)
                if seat in removed and current.default_action(seat) is not None
            ]
            if not pending or len(removed) >= len(step.record.seats) - 1:
                break
            seat = pending[0]
            current = current.play(seat, current.default_action(seat))
            states.append(current)
            self._log(step, None, seat, current.log[-1][1], now)
        step.record = step.record.evolve(state=current.to_json())
        settings = await self.get_settings(original.guild_id)
        active = [s.seat for s in step.record.seats if not s.removed]
        humans_left = bots.humans_at_table(step.record)
        if current.outcome is not None or len(active) <= 1 or not humans_left:
            winners = list(current.outcome.winner) if current.outcome is not None else active
            if current.outcome is not None:
                reason = current.outcome.reason
            elif len(active) <= 1:
                reason = "everyone else left the table"
            else:
                reason = "every human player left the table"
            users = [step.record.user_of(s) for s in winners]
            step.record = _finished(
                step.record, {"winners": users, "reason": reason, "draw": False}, now
            )
            step.closing.append(f"{', '.join(mention(u) for u in users)} wins: {reason}.")
            removed_seats = [s.seat for s in step.record.seats if s.removed]
            placings = leiff_logic.placings(step.record, current, removed_seats, winners)
            changes = await self._commit(original, step, current, placings)
            update = self._leiff_update(
                "match_over", step.record, before, states, step.lines, step.closing
            )
            return _with(update, rating_changes=tuple(changes))
        step.record = self._leiff_deadline(step.record, before, current, settings, now)
        await self._commit(original, step, current)
        return self._leiff_update(kind, step.record, before, states, step.lines)

    def _leiff_deadline(
        self,
        record: MatchRecord,
        before: Any,
        after: Any,
        settings: GuildSettings,
        now: float,
    ) -> MatchRecord:
        """Restart the clock when the engine waits for something new; keep it otherwise."""
        if (
            before is not None
            and record.deadline_at is not None
            and leiff_logic.deadline_key(before) == leiff_logic.deadline_key(after)
        ):
            return record
        period = leiff_logic.period_for(after, settings)
        if period is None:
            return record.evolve(deadline_at=None, warn_at=None, warned=False)
        deadline, warn_at = _deadline(now, period)
        if after.waiting_for()["step"] == "next":
            warn_at = None  # nobody is late for dealing the next round
        return record.evolve(deadline_at=deadline, warn_at=warn_at, warned=False)

    # ============================================================================ clocks
    async def tick(self, now: float | None = None) -> list[Update]:
        """Send due warnings, apply timeouts and expire challenges and lobbies."""
        now = self.clock() if now is None else now
        updates: list[Update] = []
        for challenge in await self.repo.open_challenges():
            if challenge.expires_at <= now:
                try:
                    closed = await self.repo.close_challenge(challenge.id, "expired")
                except ChallengeTaken:
                    continue
                text = f"The challenge of {mention(closed.challenger_id)} expired."
                updates.append(self._challenge_update("challenge_expired", closed, [text]))
        # Bot turns first: after a restart (or a crash between a move and the bot's
        # answer) nothing stays stuck, and a bot acts before its clock could run out.
        for record in await self.repo.running_matches_with_bots():
            running = self._bot_locks.get(record.id)
            if running is not None and running.locked():
                continue  # advance_bots is already playing this match's bots
            if not self._bot_due(record, self._state(record)):
                continue
            try:
                updates.extend(await self.advance_bots(record.id))
            except ServiceError:
                log.exception("could not advance the bots of match %s", record.id)
        for due in await self.repo.due_matches(now):
            async with self._lock(due.id):
                record = await self.repo.get_match(due.id)
                if record is None or record.status not in ACTIVE_STATUSES:
                    continue
                try:
                    if record.deadline_at is not None and record.deadline_at <= now:
                        update = await self._timeout(record, now)
                    elif record.warn_at is not None and record.warn_at <= now and not record.warned:
                        update = await self._warn(record, now)
                    else:
                        continue
                except StaleVersion:
                    continue  # another process moved this match on meanwhile; next tick sees it
                if update is not None:
                    updates.append(update)
        return updates

    async def _warn(self, record: MatchRecord, now: float) -> Update | None:
        if not await self.repo.mark_warned(record.id, record.version):
            return None
        record = record.evolve(warned=True)
        state = self._state(record)
        info = self._info(record, state)
        left = max(0.0, (record.deadline_at or now) - now)
        users = bots.humans_only(record, info.to_act)
        who = ", ".join(mention(u) for u in users) or "Nobody"
        text = f"{who}: {_duration(left)} left to act in match #{record.id}."
        return Update(
            kind="warning",
            match_id=record.id,
            version=record.version,
            guild_id=record.guild_id,
            channel_id=record.channel_id,
            thread_id=record.thread_id,
            events=(Event("warning", {"seconds_left": left, "users": list(users)}),),
            messages=(Message(text),),
            mentions=users,
            match=info,
        )

    async def _timeout(self, record: MatchRecord, now: float) -> Update | None:
        step = self._begin(record, now)
        if record.status == "lobby":
            step.record = step.record.evolve(status="aborted", deadline_at=None, finished_at=now)
            self._log(step, None, None, SERVICE_MARK + "expire", now)
            step.lines.append("The Leiff table closed: nobody started the game in time.")
            await self._commit(record, step, None)
            return self._lobby_update("lobby_expired", step.record, step.lines)
        state = self._state(record)
        if record.game != LEIFF:
            seat = state.seat_to_move
            loser = record.user_of(seat) if seat is not None else None
            self._log(step, None, seat, SERVICE_MARK + "timeout", now)
            if state.ply == 0:
                step.record = _finished(
                    step.record, {"winners": [], "reason": "nobody moved", "draw": False}, now
                ).evolve(status="aborted")
                step.lines.append(
                    f"{mention(loser)} did not make the first move in time: the match is cancelled."
                )
                await self._commit(record, step, state)
                return self._board_update("match_aborted", step.record, state, step.lines)
            winner = next(s.user_id for s in record.seats if s.seat != seat)
            result = {
                "winners": [winner],
                "reason": f"{mention(loser)} ran out of time",
                "draw": False,
            }
            return await self._finish_board(record, step, state, result, now)
        settings = await self.get_settings(record.guild_id)
        key = leiff_logic.deadline_key(state)
        step_name = state.waiting_for()["step"]
        current = state
        produced = []
        for seat in leiff_logic.owners(state):
            acted = False
            for _ in range(8):  # a look step may owe two looks
                if leiff_logic.deadline_key(current) != key or seat not in leiff_logic.owners(
                    current
                ):
                    break
                default = current.default_action(seat)
                if default is None:
                    break
                current = current.play(seat, default)
                produced.append(current)
                self._log(step, None, seat, current.log[-1][1], now)
                acted = True
            if acted and step_name != "next":
                seat_record = next(s for s in step.record.seats if s.seat == seat)
                if seat_record.is_bot:
                    continue  # a bot late only because the service was down stays seated
                timeouts = seat_record.timeouts + 1
                removed = seat_record.removed or timeouts >= settings.leiff_max_timeouts
                step.record = _replace_seat(step.record, seat, timeouts=timeouts, removed=removed)
                user = mention(seat_record.user_id)
                step.lines.append(f"{user} ran out of time; the default was played.")
                if removed and not seat_record.removed:
                    self._log(step, None, seat, SERVICE_MARK + "remove", now)
                    step.lines.append(
                        f"{user} timed out {timeouts} times in a row and leaves the table."
                    )
        # Always restart the clock after a timeout so a deadline never fires twice.
        step.record = step.record.evolve(deadline_at=None)
        if not step.actions:
            self._log(step, None, None, SERVICE_MARK + "timeout", now)
        return await self._leiff_settle(record, step, state, now, "timeout", produced)

    # ======================================================================= ratings
    async def leaderboard(self, guild_id: int, game: str, limit: int = 10) -> list[LeaderboardRow]:
        name = _game_name(game)
        if not 1 <= limit <= 100:
            raise InvalidOptions("the leaderboard shows 1 to 100 players")
        rows = await self.repo.leaderboard(guild_id, name, limit)
        return [
            LeaderboardRow(
                rank=i + 1,
                user_id=r.user_id,
                ordinal=r.ordinal,
                mu=r.mu,
                sigma=r.sigma,
                games=r.games,
                wins=r.wins,
                losses=r.losses,
                draws=r.draws,
                streak=r.streak,
            )
            for i, r in enumerate(rows)
        ]

    async def vs_bot_stats(
        self, guild_id: int, user_id: int, game: str | None = None
    ) -> list[VsBotStats]:
        """A player's record against the bot on a server, per game and level (weakest
        level first); never part of the ratings or the leaderboard."""
        name = None if game is None else _game_name(game)
        records = await self.repo.vs_bot_stats(guild_id, user_id, name)
        rows = [
            VsBotStats(
                game=r.game,
                level=r.level,
                games=r.games,
                wins=r.wins,
                losses=r.losses,
                draws=r.draws,
            )
            for r in records
        ]
        order = {level: i for i, level in enumerate(bots.LEVEL_ORDER)}
        return sorted(rows, key=lambda r: (r.game, order.get(r.level, len(order)), r.level))

    async def stats(
        self, guild_id: int, user_id: int, game: str | None = None
    ) -> list[PlayerStats]:
        """Per game: the rating and record among humans, with the vs-bot record beside it
        in ``vs_bot`` (a game played only against the bot has ``games == 0``)."""
        name = None if game is None else _game_name(game)
        against_bot: dict[str, list[VsBotStats]] = {}
        for row in await self.vs_bot_stats(guild_id, user_id, name):
            against_bot.setdefault(row.game, []).append(row)
        rated = [
            PlayerStats(
                game=r.game,
                mu=r.mu,
                sigma=r.sigma,
                ordinal=r.ordinal,
                games=r.games,
                wins=r.wins,
                losses=r.losses,
                draws=r.draws,
                streak=r.streak,
                best_streak=r.best_streak,
                vs_bot=tuple(against_bot.get(r.game, ())),
            )
            for r in await self.repo.player_ratings(guild_id, user_id)
            if name is None or r.game == name
        ]
        seen = {row.game for row in rated}
        only_bot = [
            PlayerStats(
                game=game_name,
                mu=DEFAULT_MU,
                sigma=DEFAULT_SIGMA,
                ordinal=DEFAULT_MU - 3.0 * DEFAULT_SIGMA,
                games=0,
                wins=0,
                losses=0,
                draws=0,
                streak=0,
                best_streak=0,
                vs_bot=tuple(rows),
            )
            for game_name, rows in against_bot.items()
            if game_name not in seen
        ]
        return sorted(rated + only_bot, key=lambda row: row.game)

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
    async def _match(self, match_id: int, version: int | None) -> AsyncIterator[MatchRecord]:
        """Hold the match's lock and yield its stored record after the version check."""
        async with self._lock(match_id):
            record = await self._load(match_id)
            if version is not None and version != record.version:
                raise StaleVersion()
            yield record

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
        """Store the step in one transaction (with ratings when it ended a rated match)."""
        ratings: list[RatingRecord] = []
        changes: list[RatingChange] = []
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
                record, original.version, step.actions, ratings, bot_results
            )
        except VersionConflict:
            self._states.pop(original.id, None)
            raise StaleVersion() from None
        if state is not None and record.status in ACTIVE_STATUSES:
            self._states[record.id] = (record.version, state)
        else:
            self._states.pop(record.id, None)  # finished: parse again if ever asked
        return changes

    async def _finish_board(
        self,
        original: MatchRecord,
        step: _Step,
        state: Any,
        result: dict[str, Any],
        now: float,
        *,
        moved: bool = False,
    ) -> Update:
        step.record = _finished(step.record, result, now)
        step.closing.append(board_logic.result_text(result))
        changes = await self._commit(original, step, state, board_logic.placings(step.record))
        update = self._board_update(
            "match_over", step.record, state, step.lines + step.closing, moved=moved
        )
        return _with(update, rating_changes=tuple(changes))

    def _answerable_offer(self, record: MatchRecord, user_id: int) -> SeatRecord:
        self._check_running(record)
        seat = self._seat(record, user_id)
        if record.draw_offer_seat is None:
            raise IllegalAction("there is no draw offer to answer")
        if record.draw_offer_seat == seat.seat:
            raise IllegalAction("your opponent must answer your draw offer")
        return seat

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
        active = await self.repo.matches_of_user(user_id, ACTIVE_STATUSES, guild_id)
        if len(active) >= settings.max_matches_per_user:
            have = "have" if who == "you" else "has"
            raise TooManyMatches(
                f"{who} already {have} {len(active)} games running "
                f"(the limit here is {settings.max_matches_per_user})"
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

    async def _open_challenge(self, challenge_id: int) -> ChallengeRecord:
        challenge = await self.repo.get_challenge(challenge_id)
        if challenge is None:
            raise NotFound("there is no such challenge")
        if challenge.status != "open":
            raise ChallengeExpired(f"that challenge was already {challenge.status}")
        if challenge.expires_at <= self.clock():
            raise ChallengeExpired("that challenge has expired")
        return challenge

    async def _close_challenge(self, challenge: ChallengeRecord, status: str) -> ChallengeRecord:
        try:
            return await self.repo.close_challenge(challenge.id, status)
        except ChallengeTaken:
            raise ChallengeExpired() from None

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
    ) -> Update:
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
            if kind == "refresh" or leiff_logic.hand_changed(before, final, seat.seat):
                view = final.view(seat.seat)
                pictures.append(Picture("hand", record.id, record.version, seat.user_id, view=view))
                actions = (
                    ()
                    if seat.removed or record.status != "running"
                    else tuple(view["legal_actions"])
                )
                buttons.append(Buttons(seat.user_id, actions, record.version))
        if record.result is not None:
            events.append(Event("result", dict(record.result)))
        waiting_changed = before is None or leiff_logic.deadline_key(
            before
        ) != leiff_logic.deadline_key(final)
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
        )

    @staticmethod
    def _challenge_text(challenge: ChallengeRecord) -> str:
        what = f"{_title(challenge.game)} on a {challenge.size}-board"
        if challenge.options:
            what += " (" + ", ".join(f"{k} {v}" for k, v in sorted(challenge.options.items())) + ")"
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


def _out_of_turn(action: str) -> bool:
    """Whether a Leiff action is one anyone may make at any time (match, catch, penalty)."""
    try:
        return parse_action(action).out_of_turn
    except IllegalMove:
        return False


def _game_name(game: str) -> str:
    try:
        return get_game(game).name
    except KeyError as error:
        raise InvalidOptions(str(error)) from None


def _title(game: str) -> str:
    return str(getattr(get_game(game), "title", game.capitalize()))


def _leiff_summary(options: dict[str, Any]) -> str:
    parts = [f"to {options.get('target', 50)}"]
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
