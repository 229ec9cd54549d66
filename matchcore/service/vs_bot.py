"""Playing the bot: board games against it, and the bot's own turns.

The core plays the bot's turns itself: the commit that makes a bot seat due asks
:class:`matchcore.service.bot_turns.BotTurns` to call :meth:`BotOpponent.advance_bots` in
the background, and the clock does it for anything left over. Board moves come from the AI (a worker-process pool by default), searched outside
the match lock; Leiff bot seats decide from their own view only.
"""

from __future__ import annotations

import logging
from collections.abc import Mapping, Sequence
from typing import Any

from engine import IllegalMove, get_board_game
from engine.board import BoardState
from engine.leiff.state import LeiffState
from matchcore.service import board_logic, bots, time_controls
from matchcore.service.admission import NewGames, board_options, check_channel
from matchcore.service.board_matches import BoardMatches
from matchcore.service.errors import (
    IllegalAction,
    InvalidOptions,
    SelfChallenge,
    StaleVersion,
)
from matchcore.service.leiff_tables import LeiffTables
from matchcore.service.locks import KeyedLocks
from matchcore.service.results import Update
from matchcore.service.steps import MAX_BOT_ACTIONS, AIMove
from matchcore.service.store import MatchStore
from matchcore.storage import ACTIVE_STATUSES, MatchRecord, SeatRecord

log = logging.getLogger(__name__)


def played(state: BoardState, moves: Sequence[str]) -> BoardState:
    """``state`` after ``moves``, each checked by the rules (a record's moves)."""
    for number, move in enumerate(moves, start=1):
        try:
            state = state.play(move)
        except IllegalMove:
            raise IllegalAction("record_move_illegal", number=number, move=move[:20]) from None
    if state.outcome is not None:
        raise IllegalAction("record_over")
    return state


class BotOpponent:
    """Games against the bot, and every bot seat's turns."""

    def __init__(
        self,
        store: MatchStore,
        new_games: NewGames,
        boards: BoardMatches,
        tables: LeiffTables,
        ai_move: AIMove | None = None,
    ) -> None:
        self.store = store
        self.new_games = new_games
        self.boards = boards
        self.tables = tables
        # Default: the shared worker-process pool of matchcore/ai_pool.py (imported on first use).
        self.ai_move = ai_move
        # Per match: only one advance_bots runs at a time in this process (and the match's
        # claim in the database makes it one across processes). The clock reads it to leave
        # a match whose bots are being played here.
        self.bot_locks: KeyedLocks[int] = KeyedLocks()

    async def challenge_bot(
        self,
        guild_id: int,
        channel_id: int,
        user_id: int,
        game: str,
        level: str | None = None,
        *,
        size: int | None = None,
        options: Mapping[str, Any] | None = None,
        thread_id: int | None = None,
        moves: Sequence[str] = (),
        time_control: str | None = None,
    ) -> Update:
        """Play a board game against the bot: it accepts at once, the match starts.

        ``moves``: the game goes on from the position after these moves (a record
        imported, or a replay's page): the member takes the side to move there, the bot
        the other one; each move is checked by the rules (``record_move_illegal`` names
        the first that is not legal, ``record_over`` a position where the game is over).

        The player takes seat 0 (moves first; in Les they lay the set-up stones and the bot
        chooses its side), the bot seat 1 at ``level`` (easy / normal / hard; default
        normal). Same checks as a challenge (channel, cooldown, match limit). The match is
        unrated (``vs_bot``): its result goes to :meth:`vs_bot_stats` only. Returns
        ``Update(kind="match_started")`` with ``challenge_id``.
        """
        async with self.store.user_lock(guild_id, user_id):
            return await self._start_vs_bot(
                guild_id,
                channel_id,
                thread_id,
                user_id,
                game,
                level,
                size,
                options,
                moves=moves,
                time_control=time_control,
            )

    async def _start_vs_bot(
        self,
        guild_id: int,
        channel_id: int,
        thread_id: int | None,
        user_id: int,
        game: str,
        level: str | None,
        size: int | None,
        options: Mapping[str, Any] | None,
        rematch_of: int | None = None,
        moves: Sequence[str] = (),
        time_control: str | None = None,
    ) -> Update:
        bot_id = self.store.bot_user_id
        if bot_id is None:
            raise InvalidOptions("no_bot_user")
        if user_id == bot_id:
            raise SelfChallenge()
        level_name = bots.check_level(level)
        settings = await self.store.settings(guild_id)
        check_channel(settings, channel_id, thread_id)
        game_name, size, options = board_options(game, size, options)
        state = played(get_board_game(game_name).new(size, **options), moves)
        time_controls.chosen(time_control, settings.board_move_seconds, table=False)  # checked
        now = self.store.clock()
        if rematch_of is None:  # rematches are exempt from the cooldown, as between humans
            await self.new_games.check_cooldown(settings, guild_id, user_id, now)
        await self.new_games.check_match_limit(settings, user_id, guild_id, "you")
        # A challenge row keeps the cooldown and the history uniform with human challenges;
        # it is accepted in the same breath.
        challenge = await self.new_games.new_challenge(
            settings,
            now,
            guild_id=guild_id,
            channel_id=channel_id,
            thread_id=thread_id,
            challenger_id=user_id,
            target_id=bot_id,
            game=game_name,
            size=size,
            options=options,
            rematch_of=rematch_of,
            time_control=time_control,
        )
        # The member sits where the first move is theirs (seat 0 of a new game), so the
        # bot never moves first and the member's clock runs from now.
        mine = state.seat_to_move or 0
        human = SeatRecord(seat=mine, user_id=user_id, colour=board_logic.seat_colour(state, mine))
        bot = SeatRecord(
            seat=1 - mine,
            user_id=bot_id,
            is_bot=True,
            colour=board_logic.seat_colour(state, 1 - mine),
            bot_level=level_name,
        )
        seats = (human, bot) if mine == 0 else (bot, human)
        draft = self.new_games.board_draft(challenge, state, seats, settings, now, vs_bot=True)
        return await self.new_games.start_board_match(challenge, draft, state, level_name)

    async def rematch(self, record: MatchRecord, user_id: int) -> Update:
        """Another game against the bot at the same level, size and options, at once."""
        for active in await self.store.repo.matches_of_user(
            user_id, ACTIVE_STATUSES, record.guild_id
        ):
            if active.rematch_of == record.id:
                raise IllegalAction("rematch_started")
        async with self.store.user_lock(record.guild_id, user_id):
            return await self._start_vs_bot(
                record.guild_id,
                record.channel_id,
                record.thread_id,
                user_id,
                record.game,
                bots.level_of(record),
                record.options.get("size"),
                dict(record.options.get("options", {})),
                rematch_of=record.id,
                time_control=(await self.store.time_control(record)).code,
            )

    async def advance_bots(self, match_id: int) -> list[Update]:
        """Play every bot action due now in the match, in order, one Update each.

        Board games: the bot's move (searched in a worker process by the AI pool, so the
        event loop stays free) and its answer to a draw offer (it declines). Leiff: every
        bot seat's turn, pending choice, and sure match or catch, until a human must act.
        Each action goes through the same path as a human's (version check, commit before
        the Update is returned). Returns ``[]`` when no bot has anything to do. Safe to
        call after every update of any match; :meth:`tick` calls it too.
        """
        updates: list[Update] = []
        async with self.bot_locks.hold(match_id):
            for _ in range(3):
                # Across processes, the match's claim lets one of them play its bots; the
                # others leave it (the claimant loops until no bot is due).
                if not await self.store.claim(match_id):
                    break
                try:
                    await self._play_bot_turns(match_id, updates)
                finally:
                    await self.store.release(match_id)
                # A human may have acted in another process just before the release (its
                # own claim then failed): look once more, so that turn is not left waiting.
                record = await self.store.repo.get_match(match_id)
                if record is None or not bots.bot_due(record, self.store.state(record)):
                    break
        return updates

    async def _play_bot_turns(self, match_id: int, updates: list[Update]) -> None:
        for _ in range(MAX_BOT_ACTIONS):
            try:
                update = await self._bot_step(match_id)
            except StaleVersion:
                continue  # a human acted while the bot was thinking: think again
            if update is None:
                return
            updates.append(update)
            # One line per bot action: no two processes ever log the same one.
            log.info(
                "bot turn: match %s to version %s by %s", match_id, update.version, self.store.owner
            )
            if not await self.store.claim(match_id):  # renew the lease before the next search
                return  # it ran out and another process took the match over

    async def _bot_step(self, match_id: int) -> Update | None:
        record = await self.store.load(match_id)
        if record.status != "running":
            return None
        state = self.store.state(record)
        if isinstance(state, LeiffState):
            choice = bots.leiff_bot_choice(record, state)
            if choice is None:
                return None
            chosen, action = choice
            if chosen.user_id is None:
                return None
            # A searching level thinks (in a thread, outside the match lock); the version
            # check below drops the answer if the table moved meanwhile.
            level = chosen.bot_level or bots.DEFAULT_BOT_LEVEL
            action = await bots.searched_choice(state, chosen.seat, level, action)
            async with self.store.match(match_id, record.version, judge_deadline=False) as current:
                return await self.tables.act(current, chosen.user_id, action)
        answering = bots.board_bot_answers_draw(record)
        if answering is not None and answering.user_id is not None:
            async with self.store.match(match_id, record.version, judge_deadline=False) as current:
                return await self.boards.decline(current, answering.user_id)
        if not isinstance(state, BoardState):
            return None
        seat = bots.board_bot_to_move(record, state)
        if seat is None or seat.user_id is None:
            return None
        level = seat.bot_level or bots.DEFAULT_BOT_LEVEL
        # The search runs outside the match lock: a human may resign meanwhile, and then
        # the version check below throws the stale move away.
        move = await self._choose_move(record.state or state.to_json(), record.game, level)
        async with self.store.match(match_id, record.version, judge_deadline=False) as current:
            try:
                return await self.boards.move(current, seat.user_id, move)
            except IllegalAction:
                # The AI promises legal moves; if it ever breaks that, the match goes on.
                log.error("the AI chose an illegal move %r in match %s", move, match_id)
                return await self.boards.move(current, seat.user_id, state.legal_moves()[0])

    async def _choose_move(self, state_json: str, game: str, level: str) -> str:
        if self.ai_move is None:
            from matchcore import ai_pool  # the pool starts worker processes: only when needed

            self.ai_move = ai_pool.choose_move
        return await self.ai_move(state_json, game, level)
