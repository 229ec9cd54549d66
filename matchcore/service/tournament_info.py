"""What a front end is handed about a tournament: snapshots and updates.

:class:`TournamentInfo` is a tournament as it is now (its standings computed from its
state, with the tie-breaks); :class:`TournamentUpdate` says what a call or a step changed:
the lines to show in the event's thread (said events, as everywhere in the service), the
``match_started`` updates of the games it paired, and whom to remind.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from matchcore.service.results import Event, Update, say
from matchcore.service.texts import mention
from matchcore.storage.records import TournamentRecord
from matchcore.tournament.model import TournamentState
from matchcore.tournament.progress import Format, Said, on_fire, ranking


def said(tournament_id: int, line: Said) -> Event:
    """A step's line as the event the front ends word."""
    params = dict(line.params)
    if "user" in params:
        params["user"] = mention(int(str(params["user"])))
    if line.code == "tournament_started":
        return say(line.code, id=tournament_id, count=params["players"])
    if line.code == "tournament_finished":
        return say(line.code, id=tournament_id)
    return say(line.code, **params)


@dataclass(frozen=True)
class StandingRow:
    """One line of the standings; scores in half points (a win 2)."""

    rank: int
    user_id: int
    score: int
    buchholz: int
    sonneborn_berger: int  # in quarter points
    on_fire: bool = False
    playing: bool = False
    withdrawn: str | None = None
    paused: bool = False
    games: int = 0


@dataclass(frozen=True)
class TournamentInfo:
    id: int
    guild_id: int
    channel_id: int
    thread_id: int | None
    creator_id: int
    game: str
    format: str
    options: dict[str, object]
    rated: bool
    status: str  # upcoming, running, finished, cancelled
    paused: bool
    closed: bool
    starts_at: float | None
    ends_at: float | None
    round: int
    rounds: int | None  # None for an arena
    players: tuple[int, ...]  # everyone who joined, in joining order
    standings: tuple[StandingRow, ...]
    messages: dict[str, int]
    version: int
    reminded: bool = False  # the reminder's step is done (its DMs due or sent)
    # The lines of the step that made this version (a start after a kill that came before
    # they were posted says them: ``TournamentPosts.resume``).
    step_lines: tuple[Event, ...] = ()

    @property
    def active_players(self) -> tuple[int, ...]:
        return tuple(r.user_id for r in self.standings if r.withdrawn is None)


@dataclass(frozen=True)
class TournamentUpdate:
    """What changed: ``kind`` (created, joined, left, started, step, reminder, paused,
    resumed, closed, removed, finished, cancelled), the tournament after it, the lines for
    its thread, the updates of the matches it started and the members to remind."""

    kind: str
    tournament: TournamentInfo
    events: tuple[Event, ...] = ()
    matches: tuple[Update, ...] = ()
    remind: tuple[int, ...] = ()
    standings_changed: bool = False
    extra: dict[str, object] = field(default_factory=dict)


def tournament_format(record: TournamentRecord) -> Format:
    options = record.options
    return Format(
        kind=record.format,
        rounds=int(str(options.get("rounds", 5))),
        minutes=int(str(options.get("minutes", 60))),
        table_size=int(str(options.get("table_size", 4))),
    )


def tournament_info(
    record: TournamentRecord, state: TournamentState | None = None
) -> TournamentInfo:
    state = state if state is not None else TournamentState.from_json(record.state)
    fmt = tournament_format(record)
    busy = state.playing()
    rows = []
    for standing in ranking(fmt, state):
        entry = state.entry(standing.player)
        rows.append(
            StandingRow(
                rank=standing.rank,
                user_id=standing.player,
                score=standing.score,
                buchholz=standing.buchholz,
                sonneborn_berger=standing.sonneborn_berger,
                on_fire=on_fire(fmt, state, standing.player),
                playing=standing.player in busy,
                withdrawn=None if entry is None else entry.withdrawn,
                paused=entry is not None and entry.paused,
                games=sum(
                    1 for g in state.games_of(standing.player) if g.done and not (g.bye or g.late)
                ),
            )
        )
    if fmt.kind == "arena":
        rounds = None
    elif fmt.kind == "round_robin":
        rounds = len(state.schedule) or max(len(state.entries) - 1 + len(state.entries) % 2, 1)
    else:
        rounds = fmt.rounds
    return TournamentInfo(
        id=record.id,
        guild_id=record.guild_id,
        channel_id=record.channel_id,
        thread_id=record.thread_id,
        creator_id=record.creator_id,
        game=record.game,
        format=record.format,
        options=dict(record.options),
        rated=record.rated,
        status=record.status,
        paused=record.paused,
        closed=state.closed,
        starts_at=record.starts_at,
        ends_at=record.ends_at,
        round=state.round,
        rounds=rounds,
        players=state.players,
        standings=tuple(rows),
        messages=dict(record.messages),
        version=record.version,
        reminded=state.reminded,
        step_lines=tuple(said(record.id, Said(code, params)) for code, params in state.said)
        if state.said_version == record.version
        else (),
    )
