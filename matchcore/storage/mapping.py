"""Rows <-> records, in one place for every back end.

Each table's columns are listed once, with how a record's field becomes a column value and
how a row becomes a record again. Rows are anything indexable by column name
(``sqlite3.Row``, ``asyncpg.Record``). Booleans are written as Python ``bool`` (SQLite
stores 1/0, PostgreSQL a ``boolean``) and read back through ``bool()``; JSON columns are
text written with sorted keys, so equal records store alike.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from typing import Any, Protocol

from matchcore.records import ActionRecord
from matchcore.storage.records import (
    ChallengeRecord,
    MatchRecord,
    PlacementRecord,
    RatingRecord,
    SeatRecord,
    VsBotRecord,
)


class Row(Protocol):
    """A result row: columns by name, or by position (``sqlite3.Row``, ``asyncpg.Record``)."""

    def __getitem__(self, key: Any, /) -> Any: ...


def dumps(value: Any) -> str:
    return json.dumps(value, sort_keys=True, separators=(",", ":"))


def _loads(text: str | None) -> Any:
    return None if text is None else json.loads(text)


# ---- matches ---------------------------------------------------------------------------
MATCH_COLUMNS: tuple[str, ...] = (
    "guild_id",
    "channel_id",
    "thread_id",
    "game",
    "options",
    "status",
    "state",
    "version",
    "host_id",
    "vs_bot",
    "rated",
    "created_at",
    "updated_at",
    "finished_at",
    "deadline_at",
    "warn_at",
    "warned",
    "draw_offer_seat",
    "result",
    "rematch_of",
    "bot_due",
    "time_control",
)


def match_values(match: MatchRecord) -> tuple[Any, ...]:
    """The values of :data:`MATCH_COLUMNS`, in order."""
    return (
        match.guild_id,
        match.channel_id,
        match.thread_id,
        match.game,
        dumps(match.options),
        match.status,
        match.state,
        match.version,
        match.host_id,
        bool(match.vs_bot),
        bool(match.rated),
        float(match.created_at),
        float(match.updated_at),
        _float(match.finished_at),
        _float(match.deadline_at),
        _float(match.warn_at),
        bool(match.warned),
        match.draw_offer_seat,
        None if match.result is None else dumps(match.result),
        match.rematch_of,
        bool(match.bot_due),
        match.time_control,
    )


# The record of the last version whose messages all went out is kept on the match row (an
# index finds the matches a start must send again); records show it with the messages.
DELIVERED = "delivered"
DELIVERED_COLUMN = "delivered_version"


def match_from_row(
    row: Row, seats: Sequence[SeatRecord] = (), messages: Mapping[str, int] | None = None
) -> MatchRecord:
    kept = dict(messages or {})
    delivered = row[DELIVERED_COLUMN]
    if delivered is not None:
        kept[DELIVERED] = delivered
    return MatchRecord(
        id=row["id"],
        guild_id=row["guild_id"],
        channel_id=row["channel_id"],
        thread_id=row["thread_id"],
        game=row["game"],
        options=json.loads(row["options"]),
        status=row["status"],
        state=row["state"],
        version=row["version"],
        host_id=row["host_id"],
        vs_bot=bool(row["vs_bot"]),
        rated=bool(row["rated"]),
        created_at=row["created_at"],
        updated_at=row["updated_at"],
        finished_at=row["finished_at"],
        deadline_at=row["deadline_at"],
        warn_at=row["warn_at"],
        warned=bool(row["warned"]),
        draw_offer_seat=row["draw_offer_seat"],
        result=_loads(row["result"]),
        rematch_of=row["rematch_of"],
        bot_due=bool(row["bot_due"]),
        time_control=row["time_control"],
        seats=tuple(seats),
        messages=kept,
    )


SEAT_COLUMNS: tuple[str, ...] = (
    "match_id",
    "seat",
    "user_id",
    "is_bot",
    "colour",
    "timeouts",
    "removed",
    "bot_level",
    "clock_left",
    "away_until",
)


def seat_values(match_id: int, seat: SeatRecord) -> tuple[Any, ...]:
    return (
        match_id,
        seat.seat,
        seat.user_id,
        bool(seat.is_bot),
        seat.colour,
        seat.timeouts,
        bool(seat.removed),
        seat.bot_level,
        _float(seat.clock_left),
        _float(seat.away_until),
    )


def seat_from_row(row: Row) -> SeatRecord:
    return SeatRecord(
        seat=row["seat"],
        user_id=row["user_id"],
        is_bot=bool(row["is_bot"]),
        colour=row["colour"],
        timeouts=row["timeouts"],
        removed=bool(row["removed"]),
        bot_level=row["bot_level"],
        clock_left=row["clock_left"],
        away_until=row["away_until"],
    )


ACTION_COLUMNS: tuple[str, ...] = ("match_id", "version", "user_id", "seat", "action", "at")


def action_values(action: ActionRecord) -> tuple[Any, ...]:
    return (
        action.match_id,
        action.version,
        action.user_id,
        action.seat,
        action.action,
        float(action.at),
    )


def action_from_row(row: Row) -> ActionRecord:
    return ActionRecord(
        match_id=row["match_id"],
        version=row["version"],
        user_id=row["user_id"],
        seat=row["seat"],
        action=row["action"],
        at=row["at"],
    )


# ---- challenges ----------------------------------------------------------------------
CHALLENGE_COLUMNS: tuple[str, ...] = (
    "guild_id",
    "channel_id",
    "thread_id",
    "challenger_id",
    "target_id",
    "game",
    "size",
    "options",
    "status",
    "created_at",
    "expires_at",
    "match_id",
    "rematch_of",
    "message_id",
    "time_control",
)


def challenge_values(challenge: ChallengeRecord) -> tuple[Any, ...]:
    return (
        challenge.guild_id,
        challenge.channel_id,
        challenge.thread_id,
        challenge.challenger_id,
        challenge.target_id,
        challenge.game,
        challenge.size,
        dumps(challenge.options),
        challenge.status,
        float(challenge.created_at),
        float(challenge.expires_at),
        challenge.match_id,
        challenge.rematch_of,
        challenge.message_id,
        challenge.time_control,
    )


def challenge_from_row(row: Row) -> ChallengeRecord:
    return ChallengeRecord(
        id=row["id"],
        guild_id=row["guild_id"],
        channel_id=row["channel_id"],
        thread_id=row["thread_id"],
        challenger_id=row["challenger_id"],
        target_id=row["target_id"],
        game=row["game"],
        size=row["size"],
        options=json.loads(row["options"]),
        status=row["status"],
        created_at=row["created_at"],
        expires_at=row["expires_at"],
        match_id=row["match_id"],
        rematch_of=row["rematch_of"],
        message_id=row["message_id"],
        time_control=row["time_control"],
    )


# ---- ratings and records against the bot ---------------------------------------------
RATING_COLUMNS: tuple[str, ...] = (
    "guild_id",
    "game",
    "user_id",
    "pool",
    "mu",
    "sigma",
    "games",
    "wins",
    "losses",
    "draws",
    "streak",
    "best_streak",
    "updated_at",
)
RATING_KEY: tuple[str, ...] = ("guild_id", "game", "user_id", "pool")


def rating_values(rating: RatingRecord) -> tuple[Any, ...]:
    return (
        rating.guild_id,
        rating.game,
        rating.user_id,
        rating.pool,
        float(rating.mu),
        float(rating.sigma),
        rating.games,
        rating.wins,
        rating.losses,
        rating.draws,
        rating.streak,
        rating.best_streak,
        float(rating.updated_at),
    )


def rating_from_row(row: Row) -> RatingRecord:
    return RatingRecord(
        guild_id=row["guild_id"],
        game=row["game"],
        user_id=row["user_id"],
        pool=row["pool"],
        mu=row["mu"],
        sigma=row["sigma"],
        games=row["games"],
        wins=row["wins"],
        losses=row["losses"],
        draws=row["draws"],
        streak=row["streak"],
        best_streak=row["best_streak"],
        updated_at=row["updated_at"],
    )


PLACEMENT_COLUMNS: tuple[str, ...] = (
    "match_id",
    "guild_id",
    "game",
    "user_id",
    "place",
    "field",
    "finished_at",
    "pool",
)


def placement_values(placement: PlacementRecord) -> tuple[Any, ...]:
    return (
        placement.match_id,
        placement.guild_id,
        placement.game,
        placement.user_id,
        placement.place,
        placement.field,
        float(placement.finished_at),
        placement.pool,
    )


def placement_from_row(row: Row) -> PlacementRecord:
    return PlacementRecord(
        match_id=row["match_id"],
        guild_id=row["guild_id"],
        game=row["game"],
        user_id=row["user_id"],
        place=row["place"],
        field=row["field"],
        finished_at=row["finished_at"],
        pool=row["pool"],
    )


def vs_bot_from_row(row: Row) -> VsBotRecord:
    return VsBotRecord(
        guild_id=row["guild_id"],
        game=row["game"],
        level=row["level"],
        user_id=row["user_id"],
        games=row["games"],
        wins=row["wins"],
        losses=row["losses"],
        draws=row["draws"],
        updated_at=row["updated_at"],
    )


def _float(value: float | None) -> float | None:
    return None if value is None else float(value)
