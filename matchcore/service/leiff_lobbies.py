"""Leiff lobbies: a table is opened, people join and leave, the host seats bots and starts.

A lobby is a match row in status ``lobby``; starting it deals the first round and hands the
table to :class:`matchcore.service.leiff_tables.LeiffTables`.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from engine import get_game
from engine.leiff.state import LeiffState
from engine.spec import Setup
from matchcore.service import bots, leiff_logic, time_controls
from matchcore.service.admission import NewGames, check_channel, check_lobby, seat_of
from matchcore.service.board_logic import mention
from matchcore.service.describe import Describer
from matchcore.service.errors import Forbidden, InvalidOptions, LobbyError
from matchcore.service.guild_settings import LEIFF_TARGETS
from matchcore.service.leiff_tables import LeiffTables
from matchcore.service.results import Update, say
from matchcore.service.steps import SERVICE_MARK, begin, leiff_summary, table_game
from matchcore.service.store import MatchStore
from matchcore.service.texts import level_word
from matchcore.storage import MatchRecord, SeatRecord


class LeiffLobbies:
    """Leiff lobby calls: open, join, leave, bot seats, start."""

    def __init__(
        self, store: MatchStore, describe: Describer, new_games: NewGames, tables: LeiffTables
    ) -> None:
        self.store = store
        self.describe = describe
        self.new_games = new_games
        self.tables = tables

    async def open_lobby(
        self,
        guild_id: int,
        channel_id: int,
        host_id: int,
        *,
        options: Mapping[str, Any] | None = None,
        thread_id: int | None = None,
        time_control: str | None = None,
    ) -> Update:
        """Open a Leiff table; the host sits at seat 0. ``options`` may pick ``target``
        (50 or 100) and ``teams`` (if the server allows it); ``time_control`` the time per
        turn (a code of :mod:`matchcore.service.time_controls`; None: the server's)."""
        async with self.store.user_lock(guild_id, host_id):
            return await self._open_lobby(
                guild_id, channel_id, host_id, options, thread_id, time_control
            )

    async def _open_lobby(
        self,
        guild_id: int,
        channel_id: int,
        host_id: int,
        options: Mapping[str, Any] | None,
        thread_id: int | None,
        time_control: str | None,
    ) -> Update:
        settings = await self.store.settings(guild_id)
        check_channel(settings, channel_id, thread_id)
        control = time_controls.chosen(time_control, settings.leiff_turn_seconds, table=True)
        chosen = settings.leiff_options()
        for key, value in (options or {}).items():
            if key == "target":
                if isinstance(value, bool) or value not in LEIFF_TARGETS:
                    raise InvalidOptions("leiff_target")
                chosen["target"] = int(value)
            elif key == "teams":
                if not isinstance(value, bool):
                    raise InvalidOptions("teams_on_or_off")
                if value and not settings.leiff_teams_allowed:
                    raise InvalidOptions("teams_not_allowed")
                chosen["teams"] = value
            else:
                raise InvalidOptions("leiff_option_unknown", key=repr(key))
        await self.new_games.check_match_limit(settings, host_id, guild_id, "you")
        now = self.store.clock()
        lobby = MatchRecord(
            id=0,
            guild_id=guild_id,
            channel_id=channel_id,
            thread_id=thread_id,
            game=table_game(),
            status="lobby",
            created_at=now,
            updated_at=now,
            options=chosen,
            host_id=host_id,
            deadline_at=now + settings.challenge_expiry_seconds,
            seats=(SeatRecord(seat=0, user_id=host_id),),
            time_control=control.code,
        )
        record = await self.store.repo.create_match(lobby, self.store.audiences(lobby))
        text = say("lobby_opened", user=mention(host_id))
        return self.describe.lobby("lobby_opened", record, [text])

    async def join_lobby(self, match_id: int, user_id: int, version: int | None = None) -> Update:
        async with (
            self.store.match(match_id, version) as record,
            self.store.user_lock(record.guild_id, user_id),
        ):
            check_lobby(record)
            if record.seat_of(user_id) is not None:
                raise LobbyError("already_seated")
            if len(record.seats) >= leiff_logic.MAX_PLAYERS:
                raise LobbyError("table_full", count=leiff_logic.MAX_PLAYERS)
            settings = await self.store.settings(record.guild_id)
            await self.new_games.check_match_limit(settings, user_id, record.guild_id, "you")
            now = self.store.clock()
            step = begin(record, now)
            seat_number = len(record.seats)
            step.record = step.record.evolve(
                seats=(*record.seats, SeatRecord(seat=seat_number, user_id=user_id)),
                deadline_at=now + settings.challenge_expiry_seconds,
            )
            step.log(user_id, seat_number, SERVICE_MARK + "join", now)
            step.lines.append(say("lobby_joined", user=mention(user_id)))
            await self.store.commit(record, step, None)
            return self.describe.lobby("lobby_joined", step.record, step.lines)

    async def leave_lobby(self, match_id: int, user_id: int, version: int | None = None) -> Update:
        async with self.store.match(match_id, version) as record:
            check_lobby(record)
            seat = seat_of(record, user_id)
            now = self.store.clock()
            step = begin(record, now)
            remaining = [s for s in record.seats if s.user_id != user_id]
            seats = tuple(s.evolve(seat=i) for i, s in enumerate(remaining))
            humans = [s for s in seats if not s.is_bot]
            host = record.host_id
            if host == user_id:
                host = humans[0].user_id if humans else None
            step.record = step.record.evolve(seats=seats, host_id=host)
            step.log(user_id, seat.seat, SERVICE_MARK + "leave", now)
            step.lines.append(say("table_left", user=mention(user_id)))
            if not humans:  # bots alone do not keep a table open
                seats = ()
                step.record = step.record.evolve(
                    status="aborted", deadline_at=None, finished_at=now
                )
                step.lines.append(say("table_empty"))
            elif host != record.host_id:
                step.lines.append(say("new_host", user=mention(host)))
            await self.store.commit(record, step, None)
            kind = "lobby_closed" if not seats else "lobby_left"
            return self.describe.lobby(kind, step.record, step.lines)

    async def add_bot_seat(
        self, match_id: int, user_id: int, level: str | None = None, version: int | None = None
    ) -> Update:
        """The host seats a bot at the Leiff table (``level`` is stored with the seat; the
        Leiff bot plays the same way at every level). The seat gets a pseudo user id
        (-1, -2, ...) and is named "Bot N" in texts. ``Update(kind="lobby_joined")``.
        Errors: ``Forbidden`` (not the host), ``LobbyError`` (full, started),
        ``MatchOver`` (closed), ``InvalidOptions`` (unknown level)."""
        async with self.store.match(match_id, version) as record:
            check_lobby(record)
            if record.host_id != user_id:
                raise Forbidden("host_only_add_bot", user=mention(record.host_id))
            level_name = bots.check_level(level)
            if len(record.seats) >= leiff_logic.MAX_PLAYERS:
                raise LobbyError("table_full", count=leiff_logic.MAX_PLAYERS)
            settings = await self.store.settings(record.guild_id)
            now = self.store.clock()
            step = begin(record, now)
            seat_number = len(record.seats)
            bot_id = bots.pseudo_user_id(s.user_id for s in record.seats)
            seat = SeatRecord(seat=seat_number, user_id=bot_id, is_bot=True, bot_level=level_name)
            step.record = step.record.evolve(
                seats=(*record.seats, seat),
                deadline_at=now + settings.challenge_expiry_seconds,
            )
            step.log(user_id, seat_number, SERVICE_MARK + "add_bot", now)
            step.lines.append(
                say(
                    "bot_seated",
                    user=mention(user_id),
                    bot=mention(bot_id),
                    level=level_word(level_name),
                )
            )
            await self.store.commit(record, step, None)
            return self.describe.lobby("lobby_joined", step.record, step.lines)

    async def remove_bot_seat(
        self, match_id: int, user_id: int, seat: int | None = None, version: int | None = None
    ) -> Update:
        """The host removes a bot seat from the Leiff table: seat number ``seat``, or the
        last bot seat when None. Seats are renumbered. ``Update(kind="lobby_left")``.
        Errors: ``Forbidden`` (not the host), ``LobbyError`` (no such bot seat, started)."""
        async with self.store.match(match_id, version) as record:
            check_lobby(record)
            if record.host_id != user_id:
                raise Forbidden("host_only_remove_bot", user=mention(record.host_id))
            seated = bots.bot_seats(record)
            if seat is None:
                if not seated:
                    raise LobbyError("no_bot_seat")
                leaving = seated[-1]
            else:
                found = [s for s in seated if s.seat == seat]
                if not found:
                    raise LobbyError("not_a_bot_seat", seat=seat)
                leaving = found[0]
            now = self.store.clock()
            step = begin(record, now)
            remaining = [s for s in record.seats if s.seat != leaving.seat]
            step.record = step.record.evolve(
                seats=tuple(s.evolve(seat=i) for i, s in enumerate(remaining))
            )
            step.log(user_id, leaving.seat, SERVICE_MARK + "remove_bot", now)
            step.lines.append(say("table_left", user=mention(leaving.user_id)))
            await self.store.commit(record, step, None)
            return self.describe.lobby("lobby_left", step.record, step.lines)

    async def start_lobby(self, match_id: int, user_id: int, version: int | None = None) -> Update:
        async with self.store.match(match_id, version) as record:
            check_lobby(record)
            if record.host_id != user_id:
                raise Forbidden("host_only_start", user=mention(record.host_id))
            players = len(record.seats)
            if players < leiff_logic.MIN_PLAYERS:
                raise LobbyError("too_few_players")
            if record.options.get("teams") and players not in leiff_logic.TEAM_SIZES:
                raise LobbyError("team_sizes")
            seed = self.store.seed_source()
            try:
                state = get_game(record.game).start(
                    Setup(players=players, seed=seed, options=record.options)
                )
            except ValueError:
                raise InvalidOptions() from None
            if not isinstance(state, LeiffState):
                raise TypeError(f"{record.game} does not make a Leiff table")
            now = self.store.clock()
            settings = await self.store.settings(record.guild_id)
            step = begin(record, now)
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
            step.log(user_id, 0, SERVICE_MARK + "start", now)
            step.lines.append(
                say("game_starts", count=players, summary=leiff_summary(record.options))
            )
            step.record = self.tables.deadline(step.record, None, state, settings, now)
            await self.store.commit(record, step, state)
            return self.describe.table("match_started", step.record, None, [state], step.lines)
