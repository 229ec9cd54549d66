"""The matches a tournament starts, and how a finished one counts for it.

Two seams live here, each in one function, so that what they decide can change in one
place: :func:`match_control` (a tournament match's time control: the event's own, chosen
at its creation, else the server's time per move or per Leiff turn) and :func:`match_place`
(where a match plays: in the event's thread, or in a thread of its own when the server
asks for a thread per match).
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import replace
from typing import Any

from engine import get_board_game, get_game
from engine.board import BoardState
from engine.leiff.state import LeiffState
from engine.spec import Setup
from matchcore.service import board_logic, time_controls
from matchcore.service.guild_settings import GuildSettings
from matchcore.service.steps import deadline, is_table
from matchcore.service.time_controls import TimeControl
from matchcore.storage.records import MatchRecord, SeatRecord, TournamentRecord
from matchcore.tournament.leiff_rounds import place_points
from matchcore.tournament.model import Pairing
from matchcore.tournament.progress import Outcome

# An aborted match's reason that names a player who never played: their forfeit.
FORFEIT_REASONS = frozenset({"reason_never_moved", "reason_out_of_time_early", "reason_aborted"})
_MENTION = re.compile(r"^<@(-?\d+)>$")


def match_control(record: TournamentRecord, settings: GuildSettings) -> TimeControl:
    """The time control of a tournament's matches (``matchcore.service.time_controls``)."""
    code = record.options.get("time_control")
    table = record.format == "tables"
    server = settings.leiff_turn_seconds if table else settings.board_move_seconds
    return time_controls.chosen(str(code) if code else None, server, table=table)


def match_place(record: TournamentRecord, settings: GuildSettings) -> tuple[int, int | None]:
    """Where a tournament's match plays: (channel, thread). In the event's thread; with
    the server's thread per match (``match_threads``) in a thread of its own under the
    event's channel, which the front end opens as for any match (a thread holds no
    thread)."""
    if settings.match_threads:
        return record.channel_id, None
    return record.channel_id, record.thread_id


def new_match(
    record: TournamentRecord,
    game: Pairing,
    settings: GuildSettings,
    now: float,
    seed: int,
) -> tuple[MatchRecord, BoardState | LeiffState]:
    """The match that plays ``game`` of the tournament, running at once."""
    channel_id, thread_id = match_place(record, settings)
    control = match_control(record, settings)
    base = MatchRecord(
        id=0,
        guild_id=record.guild_id,
        channel_id=channel_id,
        thread_id=thread_id,
        game=record.game,
        status="running",
        created_at=now,
        updated_at=now,
        host_id=game.players[0],
        rated=record.rated,
        time_control=control.code,
    )
    if record.format == "tables":
        options = {**settings.leiff_options(), **record.options.get("game_options", {})}
        state = get_game(record.game).start(
            Setup(players=len(game.players), seed=seed, options=options)
        )
        if not isinstance(state, LeiffState):
            raise TypeError(f"{record.game} does not make a Leiff table")
        seats = tuple(SeatRecord(seat=i, user_id=p) for i, p in enumerate(game.players))
        return base.evolve(options=options, state=state.to_json(), seats=seats), state
    board = get_board_game(record.game).new(
        record.options.get("size"), **record.options.get("game_options", {})
    )
    seats = time_controls.starting_seats(
        control,
        tuple(
            SeatRecord(seat=i, user_id=p, colour=board_logic.seat_colour(board, i))
            for i, p in enumerate(game.players)
        ),
    )
    deadline_at, warn_at = deadline(now, time_controls.period_of(control, seats, 0))
    return (
        base.evolve(
            options={"size": board.size, "options": dict(record.options.get("game_options", {}))},
            state=board.to_json(),
            seats=seats,
            deadline_at=deadline_at,
            warn_at=warn_at,
        ),
        board,
    )


def _user(mention: object) -> int | None:
    found = _MENTION.match(mention) if isinstance(mention, str) else None
    return int(found.group(1)) if found else None


def outcome_of(match: MatchRecord) -> Outcome:
    """How an ended match counts: half points and win / draw / loss per seat, in seat
    order, the players who forfeited (an aborted match's player who never moved; a
    player removed from a Leiff table for missing their turns), and when it ended."""
    return replace(_outcome(match), finished_at=match.finished_at)


def _outcome(match: MatchRecord) -> Outcome:
    users = [s.user_id for s in sorted(match.seats, key=lambda s: s.seat)]
    result: Mapping[str, Any] = match.result or {}
    if match.status == "aborted":
        why = result.get("why") or {}
        params = why.get("params") or {}
        loser = _user(params.get("user")) if why.get("code") in FORFEIT_REASONS else None
        points = tuple(0 if u == loser or loser is None else 2 for u in users)
        outcomes = tuple("win" if p == 2 else "loss" for p in points)
        return Outcome(points, outcomes, () if loser is None else (loser,))
    if is_table(match):
        places = list(result.get("places") or [1] * len(users))
        points = tuple(place_points(places))
        outcomes = tuple("win" if place == 1 else "loss" for place in places)
        # removed by the clock for missing their turns (a player who left has no timeouts)
        removed = tuple(
            s.user_id for s in match.seats if s.removed and s.timeouts > 0 and s.user_id is not None
        )
        return Outcome(points, outcomes, removed)
    if result.get("draw"):
        return Outcome((1,) * len(users), ("draw",) * len(users))
    winners = set(result.get("winners") or ())
    points = tuple(2 if u in winners else 0 for u in users)
    return Outcome(points, tuple("win" if p else "loss" for p in points))
