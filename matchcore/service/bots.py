"""Bot seats in matches: who they are, what they are called, when they act, how they decide
from their own view only, and how games against them are recorded.

Two kinds of bot seat exist. In a board game against the bot, the bot's seat holds the
bot's own Discord user id (so texts mention it like a player) and the seat's level picks
the search strength. At a Leiff table, each bot seat holds a *pseudo user id*, a negative
number (-1, -2, ...) that no Discord user can have: it keeps every lookup by user id
working, while texts name the seat "Bot 1", "Bot 2", ... and nothing is ever sent to it.
Both kinds carry ``is_bot`` on their seat, which is what ratings and statistics check.

Pure functions over records and engine states; the service does the locking and storing.
"""

from __future__ import annotations

import asyncio
from collections.abc import Iterable

from engine.ai import leiff_bot, leiff_search
from engine.ai.leiff_search import STRONGEST_LEIFF_LEVEL
from engine.ai.levels import DEFAULT_LEVEL, LEVEL_NAMES
from engine.board import BoardState
from engine.leiff.actions import OUT_OF_TURN_KINDS
from engine.leiff.state import LeiffState
from matchcore.records import MatchResult
from matchcore.service.errors import InvalidOptions
from matchcore.storage.records import MatchRecord, SeatRecord, VsBotResult

# Weakest first: when several bots share a Leiff table, the strongest names the match.
LEVEL_ORDER: tuple[str, ...] = LEVEL_NAMES
DEFAULT_BOT_LEVEL = DEFAULT_LEVEL


def check_level(level: str | None) -> str:
    """The canonical level name (``None`` means the default), or :class:`InvalidOptions`."""
    if level is None:
        return DEFAULT_BOT_LEVEL
    name = str(level).strip().lower()
    if name not in LEVEL_ORDER:
        raise InvalidOptions("unknown_level", levels=", ".join(LEVEL_ORDER))
    return name


def is_pseudo_user(user_id: int | None) -> bool:
    """Whether ``user_id`` is a Leiff bot seat's pseudo id (Discord ids are positive)."""
    return user_id is not None and user_id < 0


def pseudo_user_id(taken: Iterable[int | None]) -> int:
    """The next free pseudo id at a table: -1, then -2, ... (a removed bot frees its id)."""
    used = {user for user in taken if is_pseudo_user(user)}
    number = 1
    while -number in used:
        number += 1
    return -number


def bot_name(user_id: int) -> str:
    return f"Bot {-user_id}"


def bot_seats(record: MatchRecord) -> list[SeatRecord]:
    return [seat for seat in record.seats if seat.is_bot]


def level_of(record: MatchRecord) -> str | None:
    """The bot opponent's level: the strongest bot seat's, or None without bot seats."""
    levels = [seat.bot_level or DEFAULT_BOT_LEVEL for seat in bot_seats(record)]
    if not levels:
        return None
    return max(levels, key=lambda name: LEVEL_ORDER.index(name) if name in LEVEL_ORDER else 0)


def humans_only(record: MatchRecord, users: Iterable[int]) -> tuple[int, ...]:
    """``users`` without bot seats (nobody pings the bot or a pseudo id)."""
    bots = {seat.user_id for seat in bot_seats(record)}
    return tuple(user for user in users if user not in bots)


def humans_at_table(record: MatchRecord) -> list[SeatRecord]:
    """Human seats still playing (not removed, not left)."""
    return [seat for seat in record.seats if not seat.is_bot and not seat.removed]


def board_bot_to_move(record: MatchRecord, state: BoardState) -> SeatRecord | None:
    """The bot seat that must move now in a board game, if any."""
    seat_number = state.seat_to_move
    if seat_number is None or state.outcome is not None:
        return None
    for seat in record.seats:
        if seat.seat == seat_number and seat.is_bot:
            return seat
    return None


def board_bot_answers_draw(record: MatchRecord) -> SeatRecord | None:
    """The bot seat that owes an answer to a human's draw offer, if any."""
    if record.draw_offer_seat is None:
        return None
    for seat in record.seats:
        if seat.is_bot and seat.seat != record.draw_offer_seat:
            return seat
    return None


def leiff_bot_choice(record: MatchRecord, state: LeiffState) -> tuple[SeatRecord, str] | None:
    """The first bot seat (in seat order, among the seats that may act) that wants to act,
    with its action; None when no bot wants to act now.

    Each bot is handed exactly ``state.view(seat)`` and that seat's legal actions (which
    the view lists) and nothing else. Bots leave dealing the next round to the humans at
    the table, who may want to look at the revealed hands first (the clock deals it if
    nobody does).
    """
    seats = {seat.seat: seat for seat in record.seats}
    humans_present = bool(humans_at_table(record))
    for seat_number in state.actors():
        seat = seats.get(seat_number)
        if seat is None or not seat.is_bot or seat.removed:
            continue
        view = state.view(seat_number)
        if humans_present and view["waiting_for"]["step"] == "next":
            continue
        action = leiff_bot.decide(view, view["legal_actions"])
        if action is not None:
            return seat, action
    return None


def stand_in_action(state: LeiffState, seat: int) -> str | None:
    """What a bot does in the place of a player who left the table (or timed out too
    often): the strongest Leiff seat's choice among what the engine waits for from that
    seat, from the seat's own view only, else the engine's default. It may search (up to
    ~1 s of CPU): the service calls it off the event loop (:func:`searched_choice`)."""
    view = state.view(seat)
    owed = [a for a in view["legal_actions"] if a.split(" ", 1)[0] not in OUT_OF_TURN_KINDS]
    choice = leiff_search.decide_at(view, owed, STRONGEST_LEIFF_LEVEL) if owed else None
    return choice if choice in owed else state.default_action(seat)


def searches(state: LeiffState, seat: int, level: str) -> bool:
    """Whether a bot seat at ``level`` searches before its next action (then the service
    runs :func:`leiff_search.decide_at` in a thread, not on the event loop)."""
    view = state.view(seat)
    _, candidates = leiff_search.plan(view, None, leiff_search.LEIFF_WORLDS.get(level, 0))
    return len(candidates) >= 2


async def searched_choice(state: LeiffState, seat: int, level: str, sensible: str) -> str:
    """A bot seat's action at ``level``: ``sensible`` (the sensible bot's, which decided
    that the seat acts now) unless the level searches this decision, in a thread."""
    if not searches(state, seat, level):
        return sensible
    view = state.view(seat)
    choice = await asyncio.to_thread(leiff_search.decide_at, view, None, level)
    return choice if choice is not None and choice in view["legal_actions"] else sensible


def bot_due(record: MatchRecord, state: BoardState | LeiffState | None) -> bool:
    """Whether a bot seat would act now (what advance_bots would do first)."""
    if state is None or record.status != "running" or not bot_seats(record):
        return False
    if isinstance(state, LeiffState):
        return leiff_bot_choice(record, state) is not None
    return (
        board_bot_answers_draw(record) is not None or board_bot_to_move(record, state) is not None
    )


def vs_bot_results(record: MatchRecord, now: float) -> list[VsBotResult]:
    """Each human's result in a finished match against the bot, at the bot's level."""
    result: MatchResult = record.result or {}
    level = level_of(record) or DEFAULT_BOT_LEVEL
    winners = set(result.get("winners", []))
    # At a table of more than two places (Leiff with two bots or more), second is a place,
    # not a loss: counted as a game, neither won nor lost.
    many_places = int(result.get("field", 2)) > 2
    found = []
    for seat in record.seats:
        if seat.is_bot or seat.user_id is None:
            continue
        if result.get("draw"):
            outcome = "draw"
        elif seat.user_id in winners:
            outcome = "win"
        else:
            outcome = "placed" if many_places else "loss"
        found.append(
            VsBotResult(
                guild_id=record.guild_id,
                game=record.game,
                level=level,
                user_id=seat.user_id,
                outcome=outcome,
                at=now,
            )
        )
    return found
