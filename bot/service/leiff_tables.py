"""Leiff tables: lobbies (join, leave, bot seats, start) and the actions of a game.

After every action, removed players' default actions are applied, the game ends when the
engine says so or when nobody (human) is left to play, and the clock restarts only when the
engine waits for something new.
"""

from __future__ import annotations

from typing import Any

from bot.service import board_logic, bots, leiff_logic
from bot.service.board_logic import mention
from bot.service.core import (
    LEIFF,
    MAX_AUTOMATIC_ACTIONS,
    SERVICE_MARK,
    ServiceCore,
    _deadline,
    _finished,
    _leiff_summary,
    _out_of_turn,
    _parses,
    _replace_seat,
    _Step,
    _with,
)
from bot.service.errors import (
    Forbidden,
    IllegalAction,
    InvalidOptions,
    LobbyError,
    NotInMatch,
    NotYourTurn,
    StaleVersion,
)
from bot.service.guild_settings import LEIFF_TARGETS, GuildSettings
from bot.service.results import Update
from bot.storage import MatchRecord, SeatRecord
from engine import IllegalMove, get_game

# The longest action is the Klatschtante's rule: "rule " and up to 100 characters.
MAX_ACTION_TEXT = 120
HAND_MOVED_ON = (
    "your cards or your choices changed after that message was drawn; use the newest one"
)


class LeiffTableCalls(ServiceCore):
    """Leiff lobby and game calls (part of :class:`MatchService`)."""

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
        text = f"{mention(host_id)} opens a Leiff table. Join in!"
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
            step.lines.append(f"{mention(user_id)} joins the table.")
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
                f"{mention(user_id)} seats {mention(bot_id)} ({level_name}) at the table."
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

    async def _leiff_act(
        self, record: MatchRecord, user_id: int, action: str, version: int | None = None
    ) -> Update:
        """``version``: the match version, or the player's hand version, the action was
        chosen at (None: judge it as it comes). A click is refused as stale only when
        something changed for that player; other players' moves do not make it stale."""
        if len(action) > MAX_ACTION_TEXT:  # refused unread: errors never quote long user text
            raise IllegalAction("that is not a Leiff action")
        self._check_running(record)
        seat = self._seat(record, user_id)
        if seat.removed:
            raise NotInMatch("you left this match or were removed for timing out")
        state = self._state(record)
        if (
            version is not None
            and version != record.version
            and version != leiff_logic.hand_version(state.view(seat.seat), seat.seat)
        ):
            raise StaleVersion(HAND_MOVED_ON)
        if seat.seat not in state.actors():
            raise NotYourTurn("you cannot act right now")
        try:
            new_state = state.play(seat.seat, action)
        except IllegalMove as error:
            reason = leiff_logic.fill_names(str(error), record)
            owes_a_choice = seat.seat in leiff_logic.owners(state)
            if not _out_of_turn(action):
                if not owes_a_choice:
                    raise NotYourTurn(reason) from None
                if _parses(action):
                    # The engine would list its internal actions: say it in words instead.
                    reason = leiff_logic.owner_refusal(state, seat.seat)
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
            if current.outcome is None:  # the engine's own "Game over" line says the rest
                step.closing.append(
                    board_logic.result_text(step.record.seats, step.record.result or {})
                )
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
        else:
            warn_at = min(warn_at, now + leiff_logic.REMIND_AFTER_SECONDS)
        return record.evolve(deadline_at=deadline, warn_at=warn_at, warned=False)
