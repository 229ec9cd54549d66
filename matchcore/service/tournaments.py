"""Tournaments as members and admins see them: create, join, leave, pause, end, remove.

Each call changes the tournament's row with a compare-and-set on its version under the
tournament's lock (one at a time in a process; across processes the database's check),
and anything that may let somebody be paired (a late join to an arena, a resume) makes the
tournament due at once, so that the next tick's claimed step pairs them
(:mod:`matchcore.service.tournament_steps`). Admin calls take ``may_manage``: the front end
says whether the member has Manage Server or the server's tournament role.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import replace
from typing import Any

from matchcore.service import time_controls
from matchcore.service.admission import board_options
from matchcore.service.arguments import check_public_calls
from matchcore.service.describe import Describer
from matchcore.service.errors import Forbidden, InvalidOptions, LobbyError, MatchOver, NotFound
from matchcore.service.leiff_tables import LeiffTables
from matchcore.service.locks import KeyedLocks
from matchcore.service.rating_scale import display_rating
from matchcore.service.results import Event, say
from matchcore.service.steps import game_name, table_game
from matchcore.service.store import MatchStore
from matchcore.service.texts import mention
from matchcore.service.tournament_info import TournamentInfo, TournamentUpdate, tournament_info
from matchcore.service.tournament_steps import TournamentSteps, next_due
from matchcore.storage import VersionConflict
from matchcore.storage.records import TournamentRecord
from matchcore.tournament.model import FORMATS, LEFT, REMOVED, Entry, TournamentState

ROUNDS = {"swiss": (1, 15), "tables": (1, 10)}
MINUTES = (10, 360)
MAX_START_DAYS = 30
MAX_PLAYERS = {"round_robin": 16, "swiss": 500, "arena": 1000, "tables": 300}
LATE_JOIN = frozenset({"arena", "swiss", "tables"})

Change = Callable[[TournamentRecord, TournamentState], tuple[TournamentRecord, TournamentState]]


@check_public_calls
class Tournaments:
    """Every tournament call of a front end (``service.tournaments``)."""

    def __init__(self, store: MatchStore, steps: TournamentSteps, locks: KeyedLocks[int]) -> None:
        self.store = store
        self.steps = steps
        self.locks = locks

    @classmethod
    def built(cls, store: MatchStore, describe: Describer, tables: LeiffTables) -> Tournaments:
        """The tournaments' part of a service, its steps sharing its locks."""
        locks: KeyedLocks[int] = KeyedLocks()
        return cls(store, TournamentSteps(store, describe, tables, locks), locks)

    # ---- creating and reading ------------------------------------------------------------
    async def create(
        self,
        guild_id: int,
        channel_id: int,
        user_id: int,
        may_manage: bool,
        game: str,
        format: str,
        *,
        size: int | None = None,
        options: Mapping[str, Any] | None = None,
        rounds: int | None = None,
        minutes: int | None = None,
        table_size: int | None = None,
        starts_at: float | None = None,
        rated: bool = True,
        time_control: str | None = None,
    ) -> TournamentUpdate:
        """A new tournament, upcoming: it starts at ``starts_at`` or when an admin says."""
        if not may_manage:
            raise Forbidden("tournament_admin_only")
        if format not in FORMATS:
            raise InvalidOptions("tournament_format")
        name = game_name(game)
        if (format == "tables") != (name == table_game()):
            raise InvalidOptions("tournament_format_game")
        chosen: dict[str, Any] = {}
        if format != "tables":
            name, chosen["size"], chosen["game_options"] = board_options(name, size, options)
        elif options:
            chosen["game_options"] = {k: v for k, v in options.items() if k == "target"}
        if format in ROUNDS:
            low, high = ROUNDS[format]
            chosen["rounds"] = rounds if rounds is not None else min(5, high)
            if not low <= chosen["rounds"] <= high:
                raise InvalidOptions("tournament_rounds", low=low, high=high)
        if format == "arena":
            chosen["minutes"] = minutes if minutes is not None else 60
            if not MINUTES[0] <= chosen["minutes"] <= MINUTES[1]:
                raise InvalidOptions("tournament_minutes", low=MINUTES[0], high=MINUTES[1])
        if format == "tables":
            chosen["table_size"] = table_size if table_size is not None else 4
            if not 3 <= chosen["table_size"] <= 6:
                raise InvalidOptions("tournament_table_size")
        if time_control is not None:
            # checked now: a code that names no control, or a whole-game clock at a table
            control = time_controls.chosen(time_control, 60, table=format == "tables")
            chosen["time_control"] = control.code
        now = self.store.clock()
        if starts_at is not None and not now <= starts_at <= now + MAX_START_DAYS * 86400:
            raise InvalidOptions("tournament_start_time", days=MAX_START_DAYS)
        record = TournamentRecord(
            id=0,
            guild_id=guild_id,
            channel_id=channel_id,
            creator_id=user_id,
            game=name,
            format=format,
            status="upcoming",
            state=TournamentState().to_json(),
            created_at=now,
            updated_at=now,
            options=chosen,
            rated=bool(rated),
            starts_at=starts_at,
        )
        record = record.evolve(due_at=next_due(record, TournamentState(), now))
        stored = await self.store.repo.create_tournament(record)
        return TournamentUpdate("created", tournament_info(stored), standings_changed=True)

    async def get(self, tournament_id: int) -> TournamentInfo:
        return tournament_info(await self._load(tournament_id))

    async def in_guild(self, guild_id: int, limit: int = 25) -> list[TournamentInfo]:
        """A server's tournaments: upcoming and running first, then the latest past ones."""
        repo = self.store.repo
        live = await repo.tournaments_in_guild(guild_id, ("upcoming", "running"), limit)
        past = await repo.tournaments_in_guild(guild_id, ("finished", "cancelled"), limit)
        return [tournament_info(r) for r in [*live, *past][:limit]]

    async def of_match(self, match_id: int) -> int | None:
        """The tournament that started this match, if any."""
        found = await self.store.repo.tournament_of_match(match_id)
        return None if found is None else found[0]

    async def set_thread(self, tournament_id: int, thread_id: int) -> None:
        await self.store.repo.set_tournament_thread(tournament_id, thread_id)

    async def set_messages(self, tournament_id: int, messages: Mapping[str, int]) -> None:
        await self.store.repo.set_tournament_messages(tournament_id, dict(messages))

    # ---- the claimed steps (every process's clock loop) -----------------------------------
    async def tick(self, now: float | None = None) -> list[TournamentUpdate]:
        """Every step due now that this process could claim (call it with the clock's)."""
        return await self.steps.tick(now)

    async def step(self, tournament_id: int, now: float | None = None) -> TournamentUpdate | None:
        """The tournament's step due now, at once (after one of its matches ended)."""
        return await self.steps.step(tournament_id, now)

    # ---- players -------------------------------------------------------------------------
    async def join(self, tournament_id: int, user_id: int) -> TournamentUpdate:
        """Join (before the start; an arena, a Swiss or a Leiff event later too: from the
        next pairing on, with no points). In an arena, a player on a break comes back."""
        rating = await self._rating(tournament_id, user_id)

        def change(
            record: TournamentRecord, state: TournamentState
        ) -> tuple[TournamentRecord, TournamentState]:
            self._check_open(record)
            entry = state.entry(user_id)
            if entry is not None and entry.active and not entry.paused:
                raise LobbyError("tournament_joined_already")
            if entry is not None and entry.withdrawn not in (None, LEFT):
                raise LobbyError("tournament_player_withdrawn", user=mention(user_id))
            if record.status == "running" and record.format not in LATE_JOIN and entry is None:
                raise LobbyError("tournament_no_late_join")
            if entry is None and len(state.entries) >= MAX_PLAYERS[record.format]:
                raise LobbyError("tournament_full", count=MAX_PLAYERS[record.format])
            now = self.store.clock()
            joined = Entry(user_id, now, rating) if entry is None else entry
            state = state.with_entry(replace(joined, withdrawn=None, paused=False))
            return self._due_now(record, now), state

        entry_before = (await self.get(tournament_id)).standings
        back = any(r.user_id == user_id and r.paused for r in entry_before)
        code = "tournament_back" if back else "tournament_joined"
        return await self._change(
            tournament_id, change, "joined", say(code, user=mention(user_id), id=tournament_id)
        )

    async def leave(self, tournament_id: int, user_id: int) -> TournamentUpdate:
        """Leave: before the start, out of the list; in an arena, a break (not paired
        until they join again); elsewhere, withdrawn from the next round on."""
        arena_break = False

        def change(
            record: TournamentRecord, state: TournamentState
        ) -> tuple[TournamentRecord, TournamentState]:
            nonlocal arena_break
            self._check_open(record)
            entry = state.entry(user_id)
            if entry is None or not entry.active:
                raise LobbyError("tournament_not_joined")
            if record.status == "upcoming":
                return record, state.without(user_id)
            if record.format == "arena":
                arena_break = True
                return record, state.with_entry(replace(entry, paused=True))
            return record, state.with_entry(replace(entry, withdrawn=LEFT))

        update = await self._change(tournament_id, change, "left")
        code = "tournament_pause_player" if arena_break else "tournament_left"
        line = say(code, user=mention(user_id), id=tournament_id)
        return replace(update, events=(line,))

    # ---- admins --------------------------------------------------------------------------
    async def start_now(
        self, tournament_id: int, user_id: int, may_manage: bool
    ) -> TournamentUpdate:
        """Start an upcoming tournament now (one made to start "when I say", or early)."""
        self._admin(may_manage)
        record = await self._load(tournament_id)
        if record.status != "upcoming":
            raise LobbyError("tournament_started_already")
        async with self.locks.hold(tournament_id):
            record = await self._load(tournament_id)
            if record.status != "upcoming":
                raise LobbyError("tournament_started_already")
            state = TournamentState.from_json(record.state)
            try:
                return await self.steps.start(record, state, self.store.clock())
            except VersionConflict:
                raise LobbyError("tournament_started_already") from None

    async def pause(
        self, tournament_id: int, user_id: int, may_manage: bool, paused: bool = True
    ) -> TournamentUpdate:
        """Pause (games under way go on; nobody is paired) or resume."""
        self._admin(may_manage)

        def change(
            record: TournamentRecord, state: TournamentState
        ) -> tuple[TournamentRecord, TournamentState]:
            self._check_open(record)
            record = record.evolve(paused=paused)
            return (self._due_now(record, self.store.clock()) if not paused else record), state

        code = "tournament_paused" if paused else "tournament_resumed"
        return await self._change(
            tournament_id,
            change,
            "paused" if paused else "resumed",
            say(code, user=mention(user_id)),
        )

    async def close(self, tournament_id: int, user_id: int, may_manage: bool) -> TournamentUpdate:
        """End early: nothing more is paired; games under way still count, and the
        tournament finishes with the last of them (an upcoming one is cancelled)."""
        self._admin(may_manage)
        upcoming = False

        def change(
            record: TournamentRecord, state: TournamentState
        ) -> tuple[TournamentRecord, TournamentState]:
            nonlocal upcoming
            self._check_open(record)
            upcoming = record.status == "upcoming"
            now = self.store.clock()
            if upcoming:
                return record.evolve(status="cancelled", due_at=None, finished_at=now), state
            return self._due_now(record, now), replace(state, closed=True)

        update = await self._change(tournament_id, change, "closed")
        code = "tournament_cancelled_by" if upcoming else "tournament_ended_early"
        return replace(
            update,
            kind="cancelled" if upcoming else "closed",
            events=(say(code, user=mention(user_id), id=tournament_id),),
        )

    async def remove(
        self, tournament_id: int, user_id: int, may_manage: bool, player_id: int
    ) -> TournamentUpdate:
        """Take a player out: not paired again (a game under way still counts)."""
        self._admin(may_manage)

        def change(
            record: TournamentRecord, state: TournamentState
        ) -> tuple[TournamentRecord, TournamentState]:
            self._check_open(record)
            entry = state.entry(player_id)
            if entry is None or not entry.active:
                raise LobbyError("tournament_player_withdrawn", user=mention(player_id))
            if record.status == "upcoming":
                return record, state.without(player_id)
            return record, state.with_entry(replace(entry, withdrawn=REMOVED))

        line = say("tournament_removed", user=mention(user_id), player=mention(player_id))
        return await self._change(tournament_id, change, "removed", line)

    # ---- helpers -------------------------------------------------------------------------
    @staticmethod
    def _admin(may_manage: bool) -> None:
        if not may_manage:
            raise Forbidden("tournament_admin_only")

    @staticmethod
    def _check_open(record: TournamentRecord) -> None:
        if record.status not in ("upcoming", "running"):
            raise MatchOver("tournament_over")

    @staticmethod
    def _due_now(record: TournamentRecord, now: float) -> TournamentRecord:
        if record.status == "running":
            return record.evolve(due_at=now)
        return record

    async def _load(self, tournament_id: int) -> TournamentRecord:
        record = await self.store.repo.get_tournament(tournament_id)
        if record is None:
            raise NotFound("no_such_tournament")
        return record

    async def _rating(self, tournament_id: int, user_id: int) -> float:
        record = await self._load(tournament_id)
        found = await self.store.repo.get_ratings(record.guild_id, record.game, [user_id])
        return float(display_rating(found[user_id].mu)) if user_id in found else 1500.0

    async def _change(
        self, tournament_id: int, change: Change, kind: str, *lines: Event
    ) -> TournamentUpdate:
        """Apply ``change`` under the lock, committed with a compare-and-set (read again
        and applied again if another process changed the tournament meanwhile)."""
        async with self.locks.hold(tournament_id):
            for _ in range(5):
                record = await self._load(tournament_id)
                state = TournamentState.from_json(record.state)
                new_record, new_state = change(record, state)
                now = self.store.clock()
                stored = new_record.evolve(
                    state=new_state.to_json(), version=record.version + 1, updated_at=now
                )
                if new_record.due_at == record.due_at:
                    stored = stored.evolve(due_at=next_due(stored, new_state, now))
                try:
                    await self.store.repo.commit_tournament(stored, record.version)
                except VersionConflict:
                    continue
                info = tournament_info(stored, new_state)
                return TournamentUpdate(kind, info, tuple(lines), standings_changed=True)
        raise LobbyError("tournament_started_already")
