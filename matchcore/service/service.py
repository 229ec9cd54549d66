"""The match service: challenges, matches, Leiff lobbies, clocks, ratings and settings.

Every public call takes ids and plain values and returns an :class:`Update` (or plain
records) describing what changed; refusals raise a :class:`ServiceError` and change
nothing. Actions on one match run one at a time under a per-match lock, are checked
against the version the caller saw, and are committed (state, version, action log,
deadline, ratings) in one transaction before the call returns. The database repeats the
version check, so two processes sharing a database never both apply an action.

:class:`MatchService` is the facade a front end holds (the Discord layer types against
:class:`matchcore.service.protocol.GameService`). It composes the parts, each owning its
share and calling the others only through their public methods:

- :class:`MatchStore` loads, locks and commits matches (with :class:`RatingBook`);
- :class:`Describer` turns records and states into snapshots and updates;
- :class:`NewGames` checks and creates new games; :class:`Challenges` between people;
- :class:`BoardMatches` and :class:`LeiffTables` (with :class:`LeiffLobbies`) play;
- :class:`BotOpponent` plays the bot's seats, which :class:`BotTurns` starts after the
  commit that makes them due; :class:`Clocks` applies deadlines;
- :class:`Standings`, :class:`History` and :class:`Lookups` read (the calls of the first two,
  with the takebacks', are in :class:`PastAndTakebacks`, a base of the facade); :class:`Preferences` keeps members' own;
- :class:`Housekeeping` prunes what the database no longer needs.

Each call of the facade is one line handing over to its part (see there for its
documentation), except :meth:`MatchService.play` and :meth:`MatchService.resign`, which
pick the part by the kind of match under the match's lock.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterable, Mapping, Sequence

from matchcore.records import ActionRecord
from matchcore.service.admission import NewGames
from matchcore.service.arguments import check_public_calls
from matchcore.service.board_matches import BoardMatches
from matchcore.service.bot_turns import BotTurns
from matchcore.service.challenges import Challenges
from matchcore.service.clocks import Clocks
from matchcore.service.describe import Describer
from matchcore.service.errors import IllegalAction, StaleVersion
from matchcore.service.fresh import ReadAgain
from matchcore.service.guild_settings import Choices, GuildSettings
from matchcore.service.history import History, PastAndTakebacks
from matchcore.service.housekeeping import Housekeeping, Retention
from matchcore.service.learning import Puzzles, Reviews
from matchcore.service.leiff_again import LeiffAgain
from matchcore.service.leiff_lobbies import LeiffLobbies
from matchcore.service.leiff_replay import LeiffReplays
from matchcore.service.leiff_tables import LeiffTables
from matchcore.service.lookups import Lookups
from matchcore.service.member_calls import MemberCalls
from matchcore.service.preferences import Preferences
from matchcore.service.profiles import ProfileCalls, Profiles
from matchcore.service.ratings import RatingBook
from matchcore.service.results import (
    ChallengeInfo,
    MatchInfo,
    TableReplay,
    Update,
)
from matchcore.service.seasons import Seasons
from matchcore.service.sign_ins import SignIns
from matchcore.service.standings import Standings
from matchcore.service.state_cache import DEFAULT_STATE_CACHE_SIZE
from matchcore.service.steps import CLAIM_SECONDS, AIMove, GameState, is_table
from matchcore.service.store import CommitListener, MatchStore
from matchcore.service.takebacks import Takebacks
from matchcore.service.tournaments import Tournaments
from matchcore.service.turn_notices import TurnNotices
from matchcore.service.vacations import Vacations
from matchcore.service.vs_bot import BotOpponent
from matchcore.storage import MatchRecord, Repository


@check_public_calls  # malformed arguments raise the service's own errors
class MatchService(MemberCalls, PastAndTakebacks, ProfileCalls):
    """The one entry point of a front end for everything about games."""

    def __init__(
        self,
        repo: Repository,
        *,
        clock: Callable[[], float] = time.time,
        seed_source: Callable[[], int] | None = None,
        bot_user_id: int | None = None,
        ai_move: AIMove | None = None,
        owner: str | None = None,
        lease_clock: Callable[[], float] = time.time,
        claim_seconds: float = CLAIM_SECONDS,
        retention: Retention | None = None,
        state_cache_size: int = DEFAULT_STATE_CACHE_SIZE,
        choices: Choices,
        extra_audiences: Sequence[str] = (),
    ) -> None:
        self.repo = repo
        self.clock = clock
        self.choices = choices
        self.store = MatchStore(
            repo,
            RatingBook(repo),
            clock=clock,
            seed_source=seed_source,
            bot_user_id=bot_user_id,
            owner=owner,
            lease_clock=lease_clock,
            claim_seconds=claim_seconds,
            state_cache_size=state_cache_size,
            choices=choices,
        )
        # another front end's outbox audiences ("web:table"; docs/service.md, "The outbox")
        self.store.extra_audiences = tuple(extra_audiences)
        self.owner = self.store.owner
        self.describe = Describer(self.store)
        self.new_games = NewGames(self.store, self.describe)
        self.boards = BoardMatches(self.store, self.describe)
        self.tables = LeiffTables(self.store, self.describe)
        self.lobbies = LeiffLobbies(self.store, self.describe, self.new_games, self.tables)
        self.again = LeiffAgain(self.store, self.describe, self.new_games, self.lobbies)
        self.table_replays = LeiffReplays(self.store, self.describe)
        self.bots = BotOpponent(self.store, self.new_games, self.boards, self.tables, ai_move)
        # the bot's turns, started here right after the commit that makes them due
        self.turns = BotTurns(self.bots)
        self.store.bot_due_listeners.append(self.turns.committed)
        self.challenges = Challenges(self.store, self.describe, self.new_games, self.bots)
        self.clocks = Clocks(self.store, self.describe, self.boards, self.tables, self.bots)
        self.store.deadline_judge = self.clocks.timeout
        self.standings = Standings(repo, self.store.settings)
        self.past = History(self.store, self.describe)
        self.seasons = Seasons(self.store, self.standings)
        self.profiles = Profiles(repo, self.standings)
        self.takebacks = Takebacks(self.store, self.describe)
        self.lookups = Lookups(self.store, self.describe)
        self.prefs = Preferences(repo, clock, choices)
        self.vacations = Vacations(self.store, self.describe, self.prefs)
        self.notices = TurnNotices(self.store, self.describe)
        self.housekeeping = Housekeeping(self.store, retention)
        # a front end's sessions, and the versions its poll reads (web/sessions.py)
        self.sign_ins = SignIns(repo, clock)
        # learning from games: reviews and puzzles (their own facade: self.reviews.review)
        self.reviews, self.puzzles = Reviews(self.store), Puzzles(self.store)
        self.tournaments = Tournaments.built(self.store, self.describe, self.tables)
        self.store.finished_listeners.append(
            lambda record: self.prefs.match_finished(
                (s.user_id for s in record.seats if s.user_id is not None), record.game
            )
        )

    @property
    def bot_user_id(self) -> int | None:
        """The bot's own user id (games against the bot need it)."""
        return self.store.bot_user_id

    @bot_user_id.setter
    def bot_user_id(self, user_id: int | None) -> None:
        self.store.bot_user_id = user_id

    async def start(self, *, bot_user_id: int | None = None) -> None:
        """Get ready to serve. Nothing is read: the bot answers within seconds of a start
        however many matches are running. A match is read (and its state parsed) when an
        action or a lookup first needs it; the clock finds due matches and leftover bot
        turns, and a start the matches to send again (:meth:`undelivered_matches`), by
        indexed queries.

        ``bot_user_id`` (the bot's own user id, known once it has logged in) enables games
        against the bot, if it was not given to the constructor.
        """
        if bot_user_id is not None:
            self.store.bot_user_id = bot_user_id
        # in the background: the bot turns a stopped process left due
        self.turns.resume(self._claim_bot_due)

    async def _claim_bot_due(self) -> list[MatchRecord]:
        now = self.store.lease_clock()
        return await self.repo.claim_bot_matches(self.owner, now, now + self.store.claim_seconds)

    async def close(self) -> None:
        """Stop the bot's turns under way (a turn cut short is played by the next start,
        or by another process's clock once this one's claim has run out)."""
        await self.turns.stop()

    def on_commit(self, listener: CommitListener) -> None:
        """Call ``listener(record, state)`` after every action this process commits (a
        front end showing the match live; see :attr:`MatchStore.commit_listeners`)."""
        self.store.commit_listeners.append(listener)

    # ============================================================ playing: by kind of match
    async def play(
        self, match_id: int, user_id: int, move: str, version: int | None = None
    ) -> Update:
        """Play a move (board games) or an action (Leiff) for the caller's seat.

        ``version`` is the match version the move was chosen at; for Leiff it may also be
        the caller's hand version (what their private buttons carry): then the action is
        judged against the newest state as long as nothing changed for that player.
        """
        try:  # the record ``/move``'s lookup just read stands in for a read (fresh.py)
            async with self.store.match(match_id, None, reuse=True) as record:
                return await self._play(record, user_id, move, version)
        except ReadAgain:
            async with self.store.match(match_id, None) as record:
                return await self._play(record, user_id, move, version)

    async def _play(
        self, record: MatchRecord, user_id: int, move: str, version: int | None
    ) -> Update:
        if is_table(record):
            return await self.tables.act(record, user_id, move, version)
        if version is not None and version != record.version:
            raise StaleVersion()
        return await self.boards.move(record, user_id, move)

    async def leiff_action(
        self, match_id: int, user_id: int, action: str, version: int | None = None
    ) -> Update:
        """A Leiff action for the caller's seat (same as :meth:`play`)."""
        return await self.play(match_id, user_id, action, version)

    async def resign(self, match_id: int, user_id: int, version: int | None = None) -> Update:
        """Give up: the opponent wins a board game; in Leiff the player leaves the table
        (from then on their decisions are made by default and they rank last)."""
        try:  # (``/resign``'s lookup read the match just before, as ``/move``'s)
            async with self.store.match(match_id, version, reuse=True) as record:
                return await self._resign(record, user_id)
        except ReadAgain:
            async with self.store.match(match_id, version) as record:
                return await self._resign(record, user_id)

    async def _resign(self, record: MatchRecord, user_id: int) -> Update:
        if is_table(record):
            return await self.tables.resign(record, user_id)
        return await self.boards.resign(record, user_id)

    async def abort(self, match_id: int, user_id: int, version: int | None = None) -> Update:
        """End a board match unrated before the caller's own first move (a swap or side
        choice is a move); refused after it, and at a Leiff table (leave it instead)."""
        async with self.store.match(match_id, version) as record:
            if is_table(record):
                raise IllegalAction("abort_board_only")
            return await self.boards.abort(record, user_id)

    async def may_abort(self, match_id: int, user_id: int) -> bool:
        """Whether the caller may abort the match now: a running board match in which they
        have not moved yet (what the resign question offers instead of resigning)."""
        record = await self.store.load(match_id)
        if is_table(record):
            return False
        return self.boards.may_abort(record, user_id)

    async def offer_draw(self, match_id: int, user_id: int, version: int | None = None) -> Update:
        return await self.boards.offer_draw(match_id, user_id, version)

    async def accept_draw(self, match_id: int, user_id: int, version: int | None = None) -> Update:
        return await self.boards.accept_draw(match_id, user_id, version)

    async def decline_draw(self, match_id: int, user_id: int, version: int | None = None) -> Update:
        return await self.boards.decline_draw(match_id, user_id, version)

    # ============================================================ challenges and the bot
    async def challenge(
        self,
        guild_id: int,
        channel_id: int,
        challenger_id: int,
        game: str,
        target_id: int | None = None,
        *,
        size: int | None = None,
        options: Mapping[str, object] | None = None,
        thread_id: int | None = None,
        level: str | None = None,
        time_control: str | None = None,
    ) -> Update:
        return await self.challenges.challenge(
            guild_id,
            channel_id,
            challenger_id,
            game,
            target_id,
            size=size,
            options=options,
            thread_id=thread_id,
            level=level,
            time_control=time_control,
        )

    async def challenge_bot(
        self,
        guild_id: int,
        channel_id: int,
        user_id: int,
        game: str,
        level: str | None = None,
        *,
        size: int | None = None,
        options: Mapping[str, object] | None = None,
        thread_id: int | None = None,
        moves: Sequence[str] = (),
        time_control: str | None = None,
    ) -> Update:
        return await self.bots.challenge_bot(
            guild_id,
            channel_id,
            user_id,
            game,
            level,
            size=size,
            options=options,
            thread_id=thread_id,
            moves=moves,
            time_control=time_control,
        )

    async def rematch(self, match_id: int, user_id: int) -> Update:
        return await self.challenges.rematch(match_id, user_id)

    async def accept_challenge(self, challenge_id: int, user_id: int) -> Update:
        return await self.challenges.accept_challenge(challenge_id, user_id)

    async def decline_challenge(self, challenge_id: int, user_id: int) -> Update:
        return await self.challenges.decline_challenge(challenge_id, user_id)

    async def cancel_challenge(self, challenge_id: int, user_id: int) -> Update:
        return await self.challenges.cancel_challenge(challenge_id, user_id)

    async def get_challenge(self, challenge_id: int) -> ChallengeInfo:
        return await self.challenges.get_challenge(challenge_id)

    async def open_challenges(
        self, guild_id: int, user_id: int | None = None
    ) -> list[ChallengeInfo]:
        return await self.challenges.open_challenges(guild_id, user_id)

    async def advance_bots(self, match_id: int) -> list[Update]:
        return await self.bots.advance_bots(match_id)

    # ============================================================ Leiff lobbies
    async def open_lobby(
        self,
        guild_id: int,
        channel_id: int,
        host_id: int,
        *,
        options: Mapping[str, object] | None = None,
        thread_id: int | None = None,
        time_control: str | None = None,
    ) -> Update:
        return await self.lobbies.open_lobby(
            guild_id,
            channel_id,
            host_id,
            options=options,
            thread_id=thread_id,
            time_control=time_control,
        )

    async def join_lobby(self, match_id: int, user_id: int, version: int | None = None) -> Update:
        return await self.lobbies.join_lobby(match_id, user_id, version)

    async def leave_lobby(self, match_id: int, user_id: int, version: int | None = None) -> Update:
        return await self.lobbies.leave_lobby(match_id, user_id, version)

    async def add_bot_seat(
        self, match_id: int, user_id: int, level: str | None = None, version: int | None = None
    ) -> Update:
        return await self.lobbies.add_bot_seat(match_id, user_id, level, version)

    async def remove_bot_seat(
        self, match_id: int, user_id: int, seat: int | None = None, version: int | None = None
    ) -> Update:
        return await self.lobbies.remove_bot_seat(match_id, user_id, seat, version)

    async def start_lobby(self, match_id: int, user_id: int, version: int | None = None) -> Update:
        return await self.lobbies.start_lobby(match_id, user_id, version)

    async def play_again(self, match_id: int, user_id: int) -> Update:
        return await self.again.play_again(match_id, user_id)

    async def table_replay(self, match_id: int) -> TableReplay:
        return await self.table_replays.table_replay(match_id)

    # ============================================================ the clock
    async def tick(self, now: float | None = None) -> list[Update]:
        await self.seasons.close_due(self.clock() if now is None else now)
        return await self.clocks.tick(now)

    async def prune_due(self) -> dict[str, int] | None:
        finished = await self.housekeeping.prune_due()
        return None if finished is None else dict(finished.deleted)

    # ============================================================ lookups and settings
    async def get_match(self, match_id: int) -> MatchInfo:
        return await self.lookups.get_match(match_id)

    async def match_in_channel(
        self, guild_id: int, channel_id: int, user_id: int, thread_id: int | None = None
    ) -> MatchInfo | None:
        return await self.lookups.match_in_channel(guild_id, channel_id, user_id, thread_id)

    async def board_matches_in_channel(
        self, guild_id: int, channel_id: int, user_id: int, thread_id: int | None = None
    ) -> list[MatchInfo]:
        return await self.lookups.board_matches_in_channel(guild_id, channel_id, user_id, thread_id)

    async def user_matches(self, user_id: int, guild_id: int | None = None) -> list[MatchInfo]:
        return await self.lookups.user_matches(user_id, guild_id)

    async def guild_matches(self, guild_id: int, limit: int | None = 50) -> list[MatchInfo]:
        return await self.lookups.guild_matches(guild_id, limit)

    async def match_state(self, match_id: int) -> tuple[MatchInfo, GameState | None]:
        """A match as stored now and its engine state (None for a lobby), for a front end
        that draws it itself (the web table)."""
        record = await self.store.load(match_id)
        state = self.store.state(record)
        return self.describe.info(record, state), state

    async def action_log(self, match_id: int) -> list[ActionRecord]:
        return await self.lookups.action_log(match_id)

    async def current(self, match_id: int, for_user: int | None = None) -> Update:
        return await self.lookups.current(match_id, for_user)

    async def set_thread(self, match_id: int, thread_id: int | None) -> None:
        await self.lookups.set_thread(match_id, thread_id)

    async def member_languages(self, user_ids: Iterable[int]) -> dict[int, str]:
        return await self.lookups.member_languages(user_ids)

    async def note_member_language(self, user_id: int, language: str) -> None:
        await self.lookups.note_member_language(user_id, language)

    async def get_settings(self, guild_id: int) -> GuildSettings:
        return await self.lookups.get_settings(guild_id)

    async def update_settings(
        self, guild_id: int, user_id: int, has_manage_guild: bool, **changes: object
    ) -> GuildSettings:
        return await self.lookups.update_settings(guild_id, user_id, has_manage_guild, **changes)

    # ============================================================ members' preferences
