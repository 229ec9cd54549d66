"""A tournament's next step, decided from its state and its finished matches (pure).

:func:`advance` is the one place that says what happens next: record the results of the
matches that ended (withdrawing a player who forfeited by not playing), then, by format,
pair the free players of an arena at once, or start the next round of a Swiss, a round
robin or a Leiff event when the round is complete, or finish. The service commits what it
returns in one transaction, creating the new games' matches in it, so a step happens once
or not at all, whichever process runs it and whenever one is killed.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from matchcore.tournament import arena, leiff_rounds, round_robin, swiss
from matchcore.tournament.model import FORFEIT, Entry, Pairing, TournamentState
from matchcore.tournament.standings import Game, Standing, standings


@dataclass(frozen=True)
class Format:
    """What a tournament is: its format and the numbers that shape it."""

    kind: str  # one of model.FORMATS
    rounds: int = 5  # Swiss and Leiff events
    minutes: int = 60  # arena
    table_size: int = 4  # Leiff events


@dataclass(frozen=True)
class Outcome:
    """A finished match as the tournament reads it: half points and win / draw / loss
    per seat, who forfeited (never played), if anyone, and when it ended (None: unknown)."""

    points: tuple[int, ...]
    outcomes: tuple[str, ...]
    forfeits: tuple[int, ...] = ()
    finished_at: float | None = None


@dataclass(frozen=True)
class Said:
    code: str
    params: Mapping[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class Step:
    """What one step did: the new state, which games it recorded and which it paired,
    what to say, and the tournament's status afterwards."""

    state: TournamentState
    status: str
    recorded: tuple[int, ...] = ()
    new_games: tuple[Pairing, ...] = ()
    said: tuple[Said, ...] = ()

    @property
    def changed(self) -> bool:
        return bool(self.recorded or self.new_games or self.said)


MIN_PLAYERS = {"arena": 2, "swiss": 2, "round_robin": 2, "tables": 3}


# ---- scores ----------------------------------------------------------------------------
def arena_outcomes(state: TournamentState, player: int) -> list[str]:
    """The player's counted results in order (a late game counts for nothing, and neither
    starts nor breaks a streak)."""
    out = []
    for game in state.games_of(player):
        if game.done and game.outcomes is not None and not game.late:
            out.append(game.outcomes[game.players.index(player)])
    return out


def scores(fmt: Format, state: TournamentState) -> dict[int, int]:
    """Every player's score in half points."""
    if fmt.kind == "arena":
        return {p: sum(arena.arena_points(arena_outcomes(state, p))[0]) for p in state.players}
    out = dict.fromkeys(state.players, 0)
    for game in state.games:
        if game.points is not None:
            for player, points in zip(game.players, game.points, strict=True):
                out[player] = out.get(player, 0) + points
    return out


def on_fire(fmt: Format, state: TournamentState, player: int) -> bool:
    return fmt.kind == "arena" and arena.arena_points(arena_outcomes(state, player))[1]


def ranking(fmt: Format, state: TournamentState) -> list[Standing]:
    """The standings: score, then Buchholz and Sonneborn–Berger for the two-player
    formats with rounds; the arena and Leiff events rank by score, then rating."""
    games = [
        Game((g.players[0], g.players[1]), (g.points[0], g.points[1]))
        for g in state.games
        if g.points is not None and len(g.players) == 2
    ]
    by_rating = sorted(state.entries, key=lambda e: (-e.rating, e.joined_at, e.player))
    return standings(
        scores(fmt, state),
        games,
        [e.player for e in by_rating],
        tiebreaks=fmt.kind in ("swiss", "round_robin"),
    )


# ---- steps -----------------------------------------------------------------------------
def record(
    state: TournamentState, finished: Mapping[int, Outcome], ends_at: float | None = None
) -> tuple[TournamentState, list[int], list[Said]]:
    """Record the finished games (those not recorded yet); a forfeiter is withdrawn. A
    game that ended after ``ends_at`` (an arena's end time) is recorded as late: no points
    (as on lichess, a game counts if it ended in time, and the steps come every few
    seconds, so its end, not the step that records it, decides)."""
    said: list[Said] = []
    recorded = []
    for number in sorted(finished):
        game = state.games[number]
        if game.done:
            continue
        outcome = finished[number]
        late = ends_at is not None and (outcome.finished_at or 0.0) > ends_at
        points = tuple(0 for _ in outcome.points) if late else outcome.points
        state = state.recorded(
            number, points, outcomes=outcome.outcomes, forfeits=outcome.forfeits, late=late
        )
        recorded.append(number)
        for player in outcome.forfeits:
            entry = state.entry(player)
            if entry is not None and entry.active:
                state = state.with_entry(replace(entry, withdrawn=FORFEIT))
                said.append(Said("tournament_forfeit", {"user": player}))
    return state, recorded, said


def start(fmt: Format, state: TournamentState) -> tuple[TournamentState, list[Said]]:
    """Fix what the start decides: a round robin's whole schedule."""
    if fmt.kind == "round_robin":
        state = replace(state, schedule=tuple(round_robin.round_robin(state.active_players)))
    return state, [Said("tournament_started", {"players": len(state.active_players)})]


def advance(
    fmt: Format,
    state: TournamentState,
    finished: Mapping[int, Outcome],
    now: float,
    *,
    accepting: bool = True,
    paused: bool = False,
    ends_at: float | None = None,
) -> Step:
    """The next step of a running tournament. ``accepting`` is False once an arena's time
    is up or an admin ended the event: nothing new is paired, and the tournament finishes
    when its last game does. ``paused``: results are recorded, nothing is paired.
    ``ends_at``: an arena's end time (the games that end after it count for nothing)."""
    state, recorded, said = record(state, finished, ends_at if fmt.kind == "arena" else None)
    new: list[Pairing] = []
    status = "running"
    if not accepting:
        if not state.running_games():
            status = "finished"
    elif paused:
        pass  # a paused event records its results (above) and pairs no one
    elif fmt.kind == "arena":
        state, new = _pair_arena(fmt, state, now)
    elif not state.running_games():
        state, new, more = _next_round(fmt, state, now)
        said.extend(more)
        if not new and not state.running_games():
            status = "finished"
    if status == "finished":
        said.append(Said("tournament_finished"))
    return Step(state, status, tuple(recorded), tuple(g for g in new if not g.bye), tuple(said))


def _pair_arena(
    fmt: Format, state: TournamentState, now: float
) -> tuple[TournamentState, list[Pairing]]:
    busy = state.playing()
    points = scores(fmt, state)
    free = []
    for entry in state.entries:
        if not entry.active or entry.paused or entry.player in busy:
            continue
        played = state.games_of(entry.player)
        last = None
        if played:
            last = next((p for p in played[-1].players if p != entry.player), None)
        free.append(arena.ArenaEntrant(entry.player, points[entry.player], last, entry.rating))
    # nobody playing: unless someone else is paired now, no game will free anyone (two
    # players alone meet again rather than wait for ever)
    pairs, _waiting = arena.pair_arena(free, rematch=not busy)
    start = len(state.games)
    state = state.paired_all(state.round, [_arena_colours(state, a, b) for a, b in pairs], now)
    return state, list(state.games[start:])


def _arena_colours(state: TournamentState, a: int, b: int) -> tuple[int, int]:
    def firsts(player: int) -> int:
        return sum(1 for g in state.games_of(player) if g.players[0] == player) * 2 - len(
            state.games_of(player)
        )

    return (a, b) if firsts(a) <= firsts(b) else (b, a)


def _next_round(
    fmt: Format, state: TournamentState, now: float
) -> tuple[TournamentState, list[Pairing], list[Said]]:
    active = [e for e in state.entries if e.active]
    rounds = len(state.schedule) if fmt.kind == "round_robin" else fmt.rounds
    if state.round >= rounds or len(active) < MIN_PLAYERS[fmt.kind]:
        return state, [], []
    number = state.round + 1
    state = replace(state, round=number)
    said = [Said("tournament_round", {"round": number, "rounds": rounds})]
    if fmt.kind == "swiss":
        groups = _swiss_round(fmt, state, active)
    elif fmt.kind == "round_robin":
        groups = _round_robin_round(state, number)
    else:
        ranked = [s.player for s in ranking(fmt, state) if state.entry(s.player) in active]
        groups = [tuple(t) for t in leiff_rounds.seat_tables(ranked, fmt.table_size)]
    start = len(state.games)
    state = state.paired_all(number, groups, now)
    said.extend(Said("tournament_bye", {"user": g[0]}) for g in groups if len(g) == 1)
    return state, list(state.games[start:]), said


def _swiss_round(
    fmt: Format, state: TournamentState, active: Sequence[Entry]
) -> list[tuple[int, ...]]:
    order = {s.player: index for index, s in enumerate(ranking(fmt, state))}
    points = scores(fmt, state)
    entrants = []
    for entry in active:
        games = state.games_of(entry.player)
        entrants.append(
            swiss.SwissEntrant(
                player=entry.player,
                score=points[entry.player],
                rank=order[entry.player],
                opponents=frozenset(p for g in games for p in g.players if p != entry.player),
                colours=tuple(
                    1 if g.players[0] == entry.player else -1 for g in games if not g.bye
                ),
                had_bye=any(g.bye for g in games),
            )
        )
    paired = swiss.pair_swiss(entrants)
    groups: list[tuple[int, ...]] = list(paired.pairs)
    if paired.bye is not None:
        groups.append((paired.bye,))
    return groups


def _round_robin_round(state: TournamentState, number: int) -> list[tuple[int, ...]]:
    pairs, bye = state.schedule[number - 1]
    groups: list[tuple[int, ...]] = []
    for a, b in pairs:
        ea, eb = state.entry(a), state.entry(b)
        a_in, b_in = ea is not None and ea.active, eb is not None and eb.active
        if a_in and b_in:
            groups.append((a, b))
        elif a_in or b_in:
            groups.append((a if a_in else b,))  # the opponent withdrew: a bye instead
    if bye is not None and (entry := state.entry(bye)) is not None and entry.active:
        groups.append((bye,))
    return groups
