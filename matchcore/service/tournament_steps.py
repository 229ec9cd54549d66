"""A tournament's steps as claimed work: the start, each round's pairing, the end.

Every process's clock loop calls :meth:`TournamentSteps.tick`, which claims the
tournaments with a step due (a time reached, or a match of theirs ended and not yet
recorded) with a lease in the database, as the clock claims matches: one process at a
time works on a tournament. A step reads the tournament and its ended matches, decides
with :func:`matchcore.tournament.progress.advance` and commits in one transaction: the
tournament's row (a compare-and-set on its version), the games recorded, and the new
games' matches. A process killed at any moment has committed the step or nothing of it;
the next tick anywhere finds the same ended matches and does it then. So no result is
lost, nobody is paired twice (a second commit of one version fails, its matches with it)
and no round is skipped (the round number moves on only in the commit that pairs it).
"""

from __future__ import annotations

import logging
import math
from dataclasses import replace

from engine import get_board_game
from engine.leiff.state import LeiffState
from matchcore.service import board_logic
from matchcore.service.describe import Describer
from matchcore.service.leiff_tables import LeiffTables
from matchcore.service.locks import KeyedLocks
from matchcore.service.results import Update, say
from matchcore.service.steps import leiff_summary
from matchcore.service.store import MatchStore
from matchcore.service.texts import Said, mention
from matchcore.service.tournament_games import new_match, outcome_of
from matchcore.service.tournament_info import (
    TournamentUpdate,
    said,
    tournament_format,
    tournament_info,
)
from matchcore.storage import VersionConflict
from matchcore.storage.records import MatchRecord, TournamentRecord
from matchcore.tournament import progress
from matchcore.tournament.model import Pairing, TournamentState

log = logging.getLogger(__name__)

#: The reminder goes out this long before the start.
REMIND_BEFORE = 600.0


def next_due(record: TournamentRecord, state: TournamentState, now: float) -> float | None:
    """When the tournament needs a look without any match ending."""
    if record.status == "upcoming" and record.starts_at is not None:
        remind = record.starts_at - REMIND_BEFORE
        return remind if not state.reminded and remind > now else record.starts_at
    if record.status == "running" and record.format == "arena" and record.ends_at is not None:
        return record.ends_at if now < record.ends_at else None
    return None


class TournamentSteps:
    """The claimed steps of every tournament (see the module's docstring)."""

    def __init__(
        self, store: MatchStore, describe: Describer, tables: LeiffTables, locks: KeyedLocks[int]
    ) -> None:
        self.store = store
        self.describe = describe
        self.tables = tables
        self.locks = locks

    async def tick(self, now: float | None = None) -> list[TournamentUpdate]:
        """Every tournament step due now that this process could claim."""
        now = self.store.clock() if now is None else now
        lease = self.store.lease_clock()
        ids = await self.store.repo.claim_due_tournaments(
            now, self.store.owner, lease, lease + self.store.claim_seconds
        )
        updates = []
        for tournament_id in ids:
            try:
                update = await self._step(tournament_id, now)
            finally:
                await self.store.repo.release_tournament(tournament_id, self.store.owner)
            if update is not None:
                updates.append(update)
        return updates

    async def step(self, tournament_id: int, now: float | None = None) -> TournamentUpdate | None:
        """The tournament's step due now, if this process can claim it (None otherwise, or
        when nothing is due)."""
        now = self.store.clock() if now is None else now
        lease = self.store.lease_clock()
        claimed = await self.store.repo.claim_tournament(
            tournament_id, self.store.owner, lease, lease + self.store.claim_seconds
        )
        if not claimed:
            return None
        try:
            return await self._step(tournament_id, now)
        finally:
            await self.store.repo.release_tournament(tournament_id, self.store.owner)

    async def _step(self, tournament_id: int, now: float) -> TournamentUpdate | None:
        async with self.locks.hold(tournament_id):
            record = await self.store.repo.get_tournament(tournament_id)
            if record is None or record.status not in ("upcoming", "running"):
                return None
            state = TournamentState.from_json(record.state)
            try:
                if record.status == "upcoming":
                    return await self._upcoming(record, state, now)
                return await self._running(record, state, now)
            except VersionConflict:
                log.info(
                    "tournament %s moved on under this step; the next tick looks again", record.id
                )
                return None

    async def _upcoming(
        self, record: TournamentRecord, state: TournamentState, now: float
    ) -> TournamentUpdate | None:
        if record.starts_at is not None and now >= record.starts_at:
            return await self.start(record, state, now)
        if record.starts_at is None or state.reminded or now < record.starts_at - REMIND_BEFORE:
            return None
        state = replace(state, reminded=True)
        stored = await self._commit(record, state, now)
        minutes = max(1, math.ceil((record.starts_at - now) / 60))
        return TournamentUpdate(
            "reminder",
            tournament_info(stored, state),
            remind=state.active_players,
            extra={"minutes": minutes},
        )

    async def start(
        self, record: TournamentRecord, state: TournamentState, now: float
    ) -> TournamentUpdate:
        """Start the tournament now (its time came, or an admin said so): pair the first
        round (an arena: everyone) in the same commit; too few players cancel it."""
        fmt = tournament_format(record)
        if len(state.active_players) < progress.MIN_PLAYERS[fmt.kind]:
            stored = await self._commit(record.evolve(status="cancelled"), state, now)
            line = say("tournament_cancelled", id=record.id)
            return TournamentUpdate("cancelled", tournament_info(stored, state), (line,))
        state, lines = progress.start(fmt, state)
        ends_at = now + fmt.minutes * 60 if fmt.kind == "arena" else None
        record = record.evolve(status="running", ends_at=ends_at, starts_at=record.starts_at or now)
        step = progress.advance(fmt, state, {}, now, paused=record.paused)
        return await self._commit_step(record, step, now, "started", lines)

    async def _running(
        self, record: TournamentRecord, state: TournamentState, now: float
    ) -> TournamentUpdate | None:
        fmt = tournament_format(record)
        ended = await self.store.repo.tournament_matches(record.id, ended_unrecorded=True)
        finished = {number: outcome_of(match) for number, match in ended.items()}
        time_up = fmt.kind == "arena" and record.ends_at is not None and now >= record.ends_at
        step = progress.advance(
            fmt,
            state,
            finished,
            now,
            accepting=not (state.closed or time_up),
            paused=record.paused,
            ends_at=record.ends_at,
        )
        lines: list[progress.Said] = []
        if time_up and record.due_at is not None:
            lines.append(progress.Said("tournament_time_up"))  # said once: due_at goes
        if not step.changed and step.status == record.status and not lines:
            return None
        return await self._commit_step(record, step, now, "step", lines)

    async def _commit_step(
        self,
        record: TournamentRecord,
        step: progress.Step,
        now: float,
        kind: str,
        before: list[progress.Said],
    ) -> TournamentUpdate:
        settings = await self.store.settings(record.guild_id)
        drafts: list[tuple[int, MatchRecord, list[str]]] = []
        states = {}
        for game in step.new_games:
            match, game_state = new_match(record, game, settings, now, self.store.seed_source())
            if isinstance(game_state, LeiffState):  # a table's clock, as a lobby's start sets it
                match = self.tables.deadline(match, None, game_state, settings, now)
            drafts.append((game.number, match, self.store.audiences(match)))
            states[game.number] = game_state
        finished = step.status == "finished"
        lines_said = [*before, *step.said]
        kept = tuple((line.code, dict(line.params)) for line in lines_said)
        step = replace(step, state=replace(step.state, said=kept, said_version=record.version + 1))
        stored_record = record.evolve(
            status=step.status,
            state=step.state.to_json(),
            version=record.version + 1,
            updated_at=now,
            finished_at=now if finished else record.finished_at,
        )
        stored_record = stored_record.evolve(due_at=next_due(stored_record, step.state, now))
        created = await self.store.repo.commit_tournament(
            stored_record, record.version, recorded=step.recorded, new_matches=drafts
        )
        for number, match in created.items():
            self.store.remember(match, states[number])
        log.info(
            "tournament step: %s of tournament %s at version %s by %s (recorded %s, paired %s)",
            kind,
            record.id,
            stored_record.version,
            self.store.owner,
            list(step.recorded),
            sorted(created),
        )
        games = {g.number: g for g in step.new_games}
        matches = tuple(
            self._started(record, games[number], match, states[number])
            for number, match in sorted(created.items())
        )
        lines = tuple(said(record.id, line) for line in lines_said)
        return TournamentUpdate(
            "finished" if finished else kind,
            tournament_info(stored_record, step.state),
            lines,
            matches,
            standings_changed=bool(step.recorded or step.new_games) or kind == "started",
        )

    def _started(
        self, record: TournamentRecord, game: Pairing, match: MatchRecord, state: object
    ) -> Update:
        """The ``match_started`` update of a game the tournament paired."""
        if record.format == "arena":
            heading = say("tournament_match_arena", id=record.id)
        else:
            heading = say("tournament_match", id=record.id, round=game.round)
        if isinstance(state, LeiffState):
            line = say("game_starts", count=len(game.players), summary=leiff_summary(match.options))
            return self.describe.table("match_started", match, None, [state], [heading, line])
        board = self.store.board_state(match)
        turn = board_logic.turn_text(match, board)
        then = [] if turn is None else [Said(turn.kind, turn.data)]
        line = say(
            "match_started",
            first=mention(game.players[0]),
            second=mention(game.players[1]),
            game=get_board_game(record.game).title,
            size=board.size,
            then=then,
        )
        return self.describe.board("match_started", match, board, [heading, line])

    async def _commit(
        self, record: TournamentRecord, state: TournamentState, now: float
    ) -> TournamentRecord:
        """A change of the tournament alone (no game recorded or paired)."""
        stored = record.evolve(state=state.to_json(), version=record.version + 1, updated_at=now)
        stored = stored.evolve(due_at=next_due(stored, state, now))
        await self.store.repo.commit_tournament(stored, record.version)
        return stored
