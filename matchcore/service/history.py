"""A member's finished matches, newest first, a page at a time (``/history``).

Reads only: a page is one indexed query of the member's seats (and a count), and each
match is described from its record alone, its state left unparsed: the history says who
played, how it went for the member ("won", "2nd of 4"), when, and under which options;
the replay that the history opens reads the match again by its id.
"""

from __future__ import annotations

import time

from engine.board import BoardState
from matchcore.game_record import GameRecord, result_of
from matchcore.service import board_logic, reasons
from matchcore.service.describe import Describer
from matchcore.service.errors import IllegalAction, InvalidRequest
from matchcore.service.results import (
    HistoryEntry,
    HistoryPage,
    LeaderboardRow,
    PlayerStats,
    Update,
    VsBotStats,
)
from matchcore.service.standings import Standings
from matchcore.service.steps import game_name
from matchcore.service.store import MatchStore
from matchcore.service.takebacks import Takebacks
from matchcore.service.texts import Said
from matchcore.storage import MatchRecord

HISTORY_PAGE = 8  # matches a page (each is a line, and an option of the page's menu)
MAX_HISTORY_PAGE = 25  # Discord's select menus hold 25 options


def entry_of(record: MatchRecord, user_id: int, describe: Describer) -> HistoryEntry:
    """The history line of a finished match for ``user_id``."""
    match = describe.info(record, None)
    result = record.result or {}
    seat = record.seat_of(user_id)
    places, field = result.get("places"), result.get("field")
    if seat is not None and places and field and field > 2 and seat.seat < len(places):
        place = int(places[seat.seat])
        outcome = "draw" if result.get("draw") else "win" if place == 1 else "placed"
        return HistoryEntry(match, outcome, place, int(field))
    if result.get("draw"):
        return HistoryEntry(match, "draw")
    won = user_id in (result.get("winners") or [])
    return HistoryEntry(match, "win" if won else "loss")


class History:
    """A member's finished matches on a server."""

    def __init__(self, store: MatchStore, describe: Describer) -> None:
        self.store = store
        self.describe = describe

    async def history(
        self,
        guild_id: int,
        user_id: int,
        game: str | None = None,
        page: int = 0,
        per_page: int = HISTORY_PAGE,
    ) -> HistoryPage:
        """Page ``page`` (from 0; past the last, the last) of the member's finished matches
        on the server (of ``game`` only, when given), the most recently finished first."""
        if not 1 <= per_page <= MAX_HISTORY_PAGE or page < 0:
            raise InvalidRequest()
        name = None if game is None else game_name(game)
        repo = self.store.repo
        total = await repo.count_finished(guild_id, user_id, name)
        pages = max(1, -(-total // per_page))
        page = min(page, pages - 1)
        records = await repo.finished_matches(guild_id, user_id, name, page * per_page, per_page)
        entries = tuple(entry_of(record, user_id, self.describe) for record in records)
        return HistoryPage(entries=entries, page=page, pages=pages, total=total)

    async def game_record(self, match_id: int) -> GameRecord:
        """The record of a finished board match (without the players' names, which the
        front end knows): its game, size, options, moves, result from seat A's side, how
        it ended ("resigned", "time", "agreed", or "rules": the rules ended it), the day
        it ended (UTC) and its number."""
        record = await self.store.load(match_id)
        state = self.store.state(record)
        if record.status != "finished" or not isinstance(state, BoardState):
            raise IllegalAction("record_finished_board_only")
        return board_record(record, state)


def board_record(record: MatchRecord, state: BoardState) -> GameRecord:
    """A finished board match's record (see :meth:`History.game_record`)."""
    result = record.result or {}
    winners = [
        seat.seat
        for seat in record.seats
        if seat.user_id is not None and seat.user_id in (result.get("winners") or [])
    ]
    why = reasons.reason_of(result)
    how = board_logic.ENDED_HOW.get(why.code) if isinstance(why, Said) else None
    ended = record.finished_at or record.updated_at
    return GameRecord(
        game=record.game,
        size=state.size,
        moves=tuple(state.moves),
        options=dict(state.options),
        result=result_of(winners, bool(result.get("draw"))),
        termination=how or "rules",
        date=time.strftime("%Y-%m-%d", time.gmtime(ended)),
        # the control's code (matchcore.service.time_controls: "move:259200" is 3 days a
        # move); empty for a match on the server's time per move, chosen before codes
        time_control=record.time_control or "",
        match_id=record.id,
    )


class PastAndTakebacks:
    """The facade's calls about standings, finished matches and takebacks, handed to their
    parts (a base of :class:`matchcore.service.service.MatchService`, which sets them)."""

    standings: Standings
    past: History
    takebacks: Takebacks

    async def leaderboard(
        self, guild_id: int, game: str, limit: int = 10, pool: str | None = None
    ) -> list[LeaderboardRow]:
        return await self.standings.leaderboard(guild_id, game, limit, pool)

    async def vs_bot_stats(
        self, guild_id: int, user_id: int, game: str | None = None
    ) -> list[VsBotStats]:
        return await self.standings.vs_bot_stats(guild_id, user_id, game)

    async def stats(
        self, guild_id: int, user_id: int, game: str | None = None
    ) -> list[PlayerStats]:
        return await self.standings.stats(guild_id, user_id, game)

    async def history(
        self, guild_id: int, user_id: int, game: str | None = None, page: int = 0
    ) -> HistoryPage:
        return await self.past.history(guild_id, user_id, game, page)

    async def game_record(self, match_id: int) -> GameRecord:
        return await self.past.game_record(match_id)

    async def ask_takeback(self, match_id: int, user_id: int, version: int | None = None) -> Update:
        return await self.takebacks.ask(match_id, user_id, version)

    async def accept_takeback(
        self, match_id: int, user_id: int, version: int | None = None
    ) -> Update:
        return await self.takebacks.accept(match_id, user_id, version)

    async def decline_takeback(
        self, match_id: int, user_id: int, version: int | None = None
    ) -> Update:
        return await self.takebacks.decline(match_id, user_id, version)
