"""The small shared vocabulary of the service's parts: a change in progress and its helpers.

A :class:`Step` is an accepted change being built (the new record, its action-log rows and
what to say); the functions here are pure helpers on records, deadlines and texts that
more than one part of the service needs. No state, no storage, no locks.
"""

from __future__ import annotations

import os
import secrets
import socket
from collections.abc import Awaitable, Callable, Mapping
from dataclasses import dataclass, field, replace
from typing import Any

from engine import IllegalMove, game_names, get_game, get_spec, specs
from engine.board import BoardState
from engine.leiff import parse_action
from engine.leiff.state import LeiffState
from engine.spec import GameKind
from matchcore.records import ActionRecord, MatchResult
from matchcore.service.board_logic import mention
from matchcore.service.errors import ENGINE, IllegalAction, InvalidOptions
from matchcore.service.guild_settings import GuildSettings
from matchcore.service.leiff_logic import fill_names
from matchcore.service.results import Event, Update
from matchcore.service.texts import Duration, Said
from matchcore.storage import MatchRecord

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
# How long a process's claim on a match's background work (a timeout, a warning, bot turns)
# holds without renewal: longer than the slowest bot move (5 s search plus the AI pool's
# grace), short enough that work left by a killed process is taken over soon after.
CLAIM_SECONDS = 30.0
# Times a match's result is rated again when another result of its players landed first.
RATING_ATTEMPTS = 5

# The AI's move for a board position: (state JSON, game, level) -> canonical move text.
AIMove = Callable[[str, str, str], Awaitable[str]]
# A parsed engine state of a running match: a board position or a Leiff table.
GameState = BoardState | LeiffState
# A match's stored result: winners (user ids), reason, draw (and the engine's code).
Result = MatchResult


def process_identity() -> str:
    """A name for this process's claims, unique across machines and restarts."""
    return f"{socket.gethostname()}:{os.getpid()}:{secrets.token_hex(4)}"


@dataclass
class Step:
    """An accepted change in progress: the new record, its log rows and what to say (said
    events, :func:`matchcore.service.results.say`)."""

    record: MatchRecord
    actions: list[ActionRecord]
    lines: list[Event]  # said before what the engine reports
    closing: list[Event] = field(default_factory=list)  # said after it (the result)

    def log(self, user_id: int | None, seat: int | None, action: str, now: float) -> None:
        """Add one action-log row; every row moves the match one version on."""
        version = self.record.version + 1
        self.record = self.record.evolve(version=version)
        self.actions.append(
            ActionRecord(
                match_id=self.record.id,
                version=version,
                user_id=user_id,
                seat=seat,
                action=action,
                at=now,
            )
        )


def begin(record: MatchRecord, now: float) -> Step:
    """Start a change of ``record`` at ``now``."""
    return Step(record=record.evolve(updated_at=now), actions=[], lines=[])


def is_table(record: MatchRecord) -> bool:
    """Whether the match is played at a table (Leiff: a lobby, then cards) rather than on a
    board: its game's spec says so."""
    return get_spec(record.game).kind is GameKind.CARDS


def is_table_game(game: str) -> bool:
    """Whether the game (by name) is played at a table."""
    return get_spec(game).kind is GameKind.CARDS


def table_game() -> str:
    """The game a table (a lobby) is opened for: the registered card game."""
    return next(spec.name for spec in specs() if spec.kind is GameKind.CARDS)


def server_seconds(record: MatchRecord, settings: GuildSettings) -> int:
    """The server's time per move for the match's kind of game (a board move, a Leiff turn):
    the time control of a match that chose none."""
    return settings.leiff_turn_seconds if is_table(record) else settings.board_move_seconds


def draws_possible(game: str) -> bool:
    """Whether the game's rules can end level, so that players may agree a draw."""
    return get_spec(game).draws_possible


def apply_board_move(state: BoardState, seat: int, move: str) -> tuple[BoardState, str]:
    """The engine's part of a board move, run in a worker thread: the new state (with its
    legal moves already worked out, as the update lists the special ones) and its JSON."""
    new_state = state.play_as(seat, move)
    if new_state.outcome is None:
        new_state.legal_moves()  # cached on the state: later reads on the loop are free
    return new_state, new_state.to_json()


def deadline(now: float, period: float) -> tuple[float, float]:
    """The deadline ``period`` seconds from now and the time its warning goes out."""
    end = now + period
    return end, end - period * WARNING_FRACTION


def finished(record: MatchRecord, result: Result, now: float) -> MatchRecord:
    return record.evolve(
        status="finished",
        result=result,
        finished_at=now,
        deadline_at=None,
        warn_at=None,
        warned=False,
        draw_offer_seat=None,
    )


def replace_seat(record: MatchRecord, seat_number: int, **changes: Any) -> MatchRecord:
    return record.evolve(
        seats=tuple(s.evolve(**changes) if s.seat == seat_number else s for s in record.seats)
    )


def with_changes(update: Update, **changes: Any) -> Update:
    return replace(update, **changes)


def seat_removed(record: MatchRecord, user_id: int) -> bool:
    seat = record.seat_of(user_id)
    return seat is not None and seat.removed


def place(record: MatchRecord, user_id: int) -> dict[str, object]:
    """A match as a player finds it (``errors.PLACES``): "Lefe vs <@2> (#12) in <#5>"."""
    where = f"<#{record.thread_id or record.channel_id}>"
    if is_table(record):
        kind = "lobby" if record.status == "lobby" else "table"
        return {"kind": kind, "id": record.id, "place": where}
    opponents = [s.user_id for s in record.seats if s.user_id != user_id]
    if not opponents:
        return {"kind": "board", "id": record.id, "place": where, "game": title(record.game)}
    return {
        "kind": "board_vs",
        "id": record.id,
        "place": where,
        "game": title(record.game),
        "opponent": mention(opponents[0]),
    }


def late_reason(record: MatchRecord, update: Update | None) -> str:
    """Why an action that arrived after the deadline was refused: a service error code."""
    kind = update.kind if update is not None else ""
    if kind == "lobby_expired":
        return "late_lobby_expired"
    if kind == "match_aborted":
        return "late_match_aborted"
    if is_table(record):
        return "late_leiff_over" if kind == "match_over" else "late_leiff_default"
    return "late_board"


def out_of_turn(action: str) -> bool:
    """Whether a Leiff action is one anyone may make at any time (match, catch, penalty)."""
    try:
        return parse_action(action).out_of_turn
    except IllegalMove:
        return False


def parses(action: str) -> bool:
    """Whether a Leiff action is well formed (the engine's parse error says what is wrong)."""
    try:
        parse_action(action)
    except IllegalMove:
        return False
    return True


def game_name(game: str) -> str:
    try:
        return get_game(game).name
    except KeyError:
        raise InvalidOptions(
            "unknown_game", game=repr(game), games=", ".join(game_names())
        ) from None


def engine_refusal(error: IllegalMove, record: MatchRecord | None = None) -> IllegalAction:
    """The engine's refusal as the service's: its code and parameters travel on (Leiff's
    ``{pN}`` seat tokens in them become the players' names)."""
    params: dict[str, object] = dict(error.params)
    if record is not None:
        params = {
            key: fill_names(value, record) if isinstance(value, str) else value
            for key, value in params.items()
        }
    return IllegalAction(ENGINE, engine_code=error.code, **params)


def title(game: str) -> str:
    return str(getattr(get_game(game), "title", game.capitalize()))


def leiff_summary(options: Mapping[str, Any]) -> list[Said]:
    """What a Leiff table plays with: its target and the rules switched on."""
    parts = [Said("summary_target", {"target": options.get("target", 50)})]
    for key, code in (
        ("teams", "summary_teams"),
        ("specials", "summary_specials"),
        ("drinking", "summary_drinking"),
        ("water", "summary_water"),
    ):
        if options.get(key):
            parts.append(Said(code))
    return parts


def duration(seconds: float) -> Duration:
    """A time left, as precise as a reader needs it: whole hours from a day on ("3 days
    12 h", not "84 h 00 min"), whole minutes from an hour on, else seconds."""
    seconds = round(seconds)
    for above, unit in ((86400, 3600), (3600, 60)):
        if seconds >= above:
            return Duration(seconds - seconds % unit)
    return Duration(seconds)
