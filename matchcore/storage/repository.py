"""The storage interface the service uses, independent of any database.

Every method is one atomic unit: either all of it is stored or nothing is. The write that
carries a match forward (:meth:`Repository.commit_match`) checks the version in the
database itself, so two processes sharing one database can never both apply an action.
"""

from __future__ import annotations

import abc
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any

from matchcore.records import ActionRecord, DmFailure, MemberPreferences, SignInRecord
from matchcore.storage.learning import LearningRepository
from matchcore.storage.profiles import ProfileRepository
from matchcore.storage.records import (
    ChallengeRecord,
    MatchRecord,
    PlacementRecord,
    RatingRecord,
    SeatRecord,
    TournamentRecord,
    VsBotRecord,
    VsBotResult,
)
from matchcore.storage.season_records import RatingPoint, SeasonRating


class StorageError(Exception):
    """Base class of the storage layer's own errors."""


class VersionConflict(StorageError):
    """The match was not at the expected version (someone else moved it on), or is gone."""


class RatingConflict(StorageError):
    """A rating changed since it was read (another match of the player ended meanwhile):
    nothing was stored; read the ratings again and recompute."""


class ChallengeTaken(StorageError):
    """The challenge was no longer open when we tried to change it."""


class SchemaTooNew(StorageError):
    """The database was migrated by a newer release than this one: refuse to touch it."""


class Repository(LearningRepository, ProfileRepository, abc.ABC):
    """Matches, challenges, ratings and settings. Implementations must be safe to share
    between coroutines of one event loop, and between processes sharing one database."""

    # ---- life cycle --------------------------------------------------------------------
    @abc.abstractmethod
    async def close(self) -> None: ...

    @abc.abstractmethod
    async def applied_migrations(self) -> list[int]:
        """Numbers of the schema migrations applied to this database, in order."""

    # ---- matches ---------------------------------------------------------------------
    @abc.abstractmethod
    async def create_match(
        self, match: MatchRecord, outbox: Sequence[str] = ("channel",)
    ) -> MatchRecord:
        """Store a new match (its ``id`` is ignored) with its seats, and in the same
        transaction an outbox row for each audience in ``outbox`` (unless the match comes
        with its "delivered" record); return it with its id."""

    @abc.abstractmethod
    async def get_match(self, match_id: int) -> MatchRecord | None: ...

    @abc.abstractmethod
    async def commit_match(
        self,
        match: MatchRecord,
        expected_version: int,
        actions: Sequence[ActionRecord],
        ratings: Sequence[RatingRecord] = (),
        bot_results: Sequence[VsBotResult] = (),
        previous_seats: Sequence[SeatRecord] | None = None,
        placements: Sequence[PlacementRecord] = (),
        outbox: Sequence[str] = (),
        history: Sequence[RatingPoint] = (),
        season_ratings: Sequence[SeasonRating] = (),
    ) -> None:
        """Replace the stored match (row and seats) if it is still at ``expected_version``,
        append ``actions`` to the log, store ``ratings``, the rated ``placements``, the
        rating ``history`` points and the ``season_ratings`` (noting their seasons), add
        ``bot_results`` to the vs-bot totals and record that each audience in ``outbox``
        must be shown the new version (the transactional outbox), all in one transaction.

        Raises :class:`VersionConflict` (storing nothing) when the stored version differs,
        and :class:`RatingConflict` (storing nothing) when a rating is no longer the one it
        was computed from: each new rating (season ratings too) counts one more game than the stored one (or is
        the first), so a rating read before another match's result landed is refused.
        ``previous_seats``: the seats as read at ``expected_version``; when they equal the
        match's, the seat rows are left as they are (most moves change no seat).
        """

    @abc.abstractmethod
    async def mark_warned(self, match_id: int, version: int) -> bool:
        """Record that the deadline warning was sent, if the match is still at ``version``."""

    @abc.abstractmethod
    async def matches_with_status(self, statuses: Iterable[str]) -> list[MatchRecord]: ...

    @abc.abstractmethod
    async def undelivered_matches(self, after: int = 0, limit: int = 100) -> list[MatchRecord]:
        """Matches (finished ones included) with an outbox row of the chat front end (the
        channel, a player's id) whose version its records have not reached, ids above
        ``after`` in id order, at most ``limit``: a start pages through them, reading the
        outbox (what housekeeping has not swept: the recent steps) and no other match."""

    @abc.abstractmethod
    async def pending_deliveries(
        self, prefix: str, after: int = 0, limit: int = 100
    ) -> list[tuple[int, str, int]]:
        """Another front end's sender's work: (match id, audience, version) of the outbox
        rows whose audience starts with ``prefix:`` and whose "delivered:<audience>" record
        (:meth:`set_messages`) is behind, match ids above ``after``, at most ``limit``."""

    async def listen_outbox(self, heard: Callable[[int, int], None]) -> bool:
        """Call ``heard(match_id, version)`` as soon as any process commits a step (its
        outbox rows), from this process or another; False when the database cannot tell
        (SQLite: the sender polls :meth:`pending_deliveries` instead)."""
        return False

    @abc.abstractmethod
    async def matches_of_user(
        self, user_id: int, statuses: Iterable[str], guild_id: int | None = None
    ) -> list[MatchRecord]:
        """Matches where the user holds a seat, most recently updated first."""

    @abc.abstractmethod
    async def matches_in_channel(
        self,
        guild_id: int,
        channel_id: int,
        statuses: Iterable[str],
        user_id: int | None = None,
    ) -> list[MatchRecord]:
        """Matches hosted in a channel or in a thread of it, most recently updated first;
        with ``user_id``, only those where that user holds a seat (filtered in the query)."""

    @abc.abstractmethod
    async def matches_in_guild(
        self, guild_id: int, statuses: Iterable[str], limit: int | None = None
    ) -> list[MatchRecord]:
        """Matches of one server with these statuses, most recently updated first (at most
        ``limit`` when given)."""

    @abc.abstractmethod
    async def finished_matches(
        self, guild_id: int, user_id: int, game: str | None, offset: int, limit: int
    ) -> list[MatchRecord]:
        """The finished matches of a server where the user held a seat (of one game, or
        every game), the most recently finished first: ``limit`` of them after the first
        ``offset`` (a page of ``/history``)."""

    @abc.abstractmethod
    async def count_finished(self, guild_id: int, user_id: int, game: str | None) -> int:
        """How many matches :meth:`finished_matches` pages through."""

    @abc.abstractmethod
    async def claim_due_matches(
        self, now: float, owner: str, lease_now: float, lease_until: float, limit: int = 100
    ) -> list[MatchRecord]:
        """Claim (for ``owner``, until ``lease_until``) and return the due matches (active,
        with a deadline passed or a warning due and not sent at ``now``) that no other
        process holds a live claim on, earliest deadline first. A claim whose lease ran out (its process died) can be taken over; a live claim,
        even the caller's own, is skipped (release it when the work is done)."""

    @abc.abstractmethod
    async def claim_bot_matches(
        self, owner: str, lease_now: float, lease_until: float, limit: int = 100
    ) -> list[MatchRecord]:
        """Claim and return running matches marked ``bot_due`` that no other process holds
        a live claim on, least recently updated first (leftover bot turns)."""

    @abc.abstractmethod
    async def claim_match(
        self, match_id: int, owner: str, lease_now: float, lease_until: float
    ) -> bool:
        """Claim one match's background work (its bot turns) for ``owner`` until
        ``lease_until``; False when another owner holds a live claim. Renews an own claim."""

    @abc.abstractmethod
    async def release_match(self, match_id: int, owner: str) -> None:
        """Give up ``owner``'s claim on the match (nothing if it holds none)."""

    @abc.abstractmethod
    async def actions(self, match_id: int) -> list[ActionRecord]:
        """The action log of a match in version order."""

    async def set_message(self, match_id: int, kind: str, message_id: int) -> bool:
        """Record the message of ``kind``; False (nothing written) if there is no such match."""
        return await self.set_messages(match_id, {kind: message_id})

    @abc.abstractmethod
    async def set_messages(self, match_id: int, messages: Mapping[str, int]) -> bool:
        """Record several of the match's messages (or delivery records) by kind, in one
        statement; False (nothing written) if there is no such match."""

    @abc.abstractmethod
    async def table_lines(self, match_id: int) -> tuple[int, list[str]] | None:
        """The event lines a Leiff table's living message shows, with that message's id
        (None when none were kept)."""

    @abc.abstractmethod
    async def set_table_lines(self, match_id: int, message_id: int, lines: Sequence[str]) -> None:
        """Keep the event lines the table's living message ``message_id`` shows."""

    @abc.abstractmethod
    async def set_thread(self, match_id: int, thread_id: int | None) -> bool:
        """Record the match's thread; False if there is no such match."""

    @abc.abstractmethod
    async def again_of(self, match_id: int) -> int | None:
        """The lobby opened to play the finished table ``match_id`` again (None: none)."""

    @abc.abstractmethod
    async def open_again(
        self, lobby: MatchRecord, of_match: int, outbox: Sequence[str]
    ) -> MatchRecord | None:
        """Store ``lobby`` as the table that plays ``of_match`` again, in one transaction
        with the mark on ``of_match``; None (nothing stored) when that table already has
        one (another click, in any process, was first)."""

    # ---- challenges ------------------------------------------------------------------
    @abc.abstractmethod
    async def create_challenge(self, challenge: ChallengeRecord) -> ChallengeRecord: ...

    @abc.abstractmethod
    async def get_challenge(self, challenge_id: int) -> ChallengeRecord | None: ...

    @abc.abstractmethod
    async def open_challenges(
        self, guild_id: int | None = None, expired_by: float | None = None
    ) -> list[ChallengeRecord]:
        """Open challenges (of one server), oldest first; with ``expired_by``, only those
        whose expiry time is at or before it (what the clock must close)."""

    @abc.abstractmethod
    async def last_challenge_at(self, guild_id: int, user_id: int) -> float | None:
        """When the user last made a challenge in the server (rematches excluded)."""

    @abc.abstractmethod
    async def close_challenge(self, challenge_id: int, status: str) -> ChallengeRecord:
        """Move an open challenge to ``status``; :class:`ChallengeTaken` if not open."""

    @abc.abstractmethod
    async def accept_challenge(
        self, challenge_id: int, match: MatchRecord, outbox: Sequence[str] = ("channel",)
    ) -> MatchRecord:
        """Mark the open challenge accepted and create its match in one transaction;
        :class:`ChallengeTaken` (and nothing stored) if it was no longer open."""

    @abc.abstractmethod
    async def set_challenge_message(self, challenge_id: int, message_id: int | None) -> None:
        """Record the channel message that shows the challenge (to edit it on expiry)."""

    # ---- ratings --------------------------------------------------------------------
    @abc.abstractmethod
    async def get_ratings(
        self, guild_id: int, game: str, user_ids: Iterable[int], pool: str = "live"
    ) -> dict[int, RatingRecord]: ...

    @abc.abstractmethod
    async def leaderboard(
        self, guild_id: int, game: str, limit: int, pool: str = "live"
    ) -> list[RatingRecord]:
        """Highest ``mu`` first (the order of the ratings shown); ties by more games, then
        lower user id. Only players with a game."""

    @abc.abstractmethod
    async def player_ratings(
        self, guild_id: int, user_id: int, pool: str = "live"
    ) -> list[RatingRecord]: ...

    @abc.abstractmethod
    async def vs_bot_stats(
        self, guild_id: int, user_id: int, game: str | None = None
    ) -> list[VsBotRecord]:
        """A user's records against the bot on a server, by game then level name."""

    @abc.abstractmethod
    async def place_counts(
        self,
        guild_id: int,
        user_ids: Iterable[int],
        game: str | None = None,
        pool: str = "live",
        between: tuple[float, float] | None = None,
    ) -> dict[tuple[int, str], dict[int, int]]:
        """How often each user finished in each place of rated matches on a server:
        ``{(user_id, game): {place: count}}`` (one game, or every game; of the matches
        finished from ``between[0]`` to before ``between[1]``, a season, when given)."""

    @abc.abstractmethod
    async def last_placements(
        self, guild_id: int, user_id: int, pool: str = "live"
    ) -> dict[str, PlacementRecord]:
        """A user's place in their last rated match of each game on a server (latest
        ``finished_at``, then highest match id)."""

    # ---- turn notices and vacations (matchcore/storage/sql_notices.py) ---------------
    @abc.abstractmethod
    async def turn_notice_candidates(
        self, kind: str, due_at: float, limit: int
    ) -> list[tuple[int, int]]:
        """(match id, user id) of running matches whose member asked for turn DMs and has
        no notice of ``kind`` ("turn", "reminder") for the match's current deadline, due at
        ``due_at`` (a turn notice: the match last changed by then; a reminder: its warning
        time came), soonest deadline first, at most ``limit``."""

    @abc.abstractmethod
    async def claim_turn_notice(
        self, match_id: int, user_id: int, kind: str, deadline_at: float, now: float
    ) -> bool:
        """Claim one notice: True for the one caller whose claim landed."""

    @abc.abstractmethod
    async def move_turn_notices(
        self, match_id: int, user_id: int, deadline_at: float, moved_to: float
    ) -> None:
        """The notices claimed for a turn count for it after its deadline moved."""

    @abc.abstractmethod
    async def vacation_used(self, guild_id: int, user_id: int, year: int) -> float:
        """Seconds of vacation the server gave the member in ``year``."""

    @abc.abstractmethod
    async def add_vacation_used(
        self, guild_id: int, user_id: int, year: int, seconds: float
    ) -> None:
        """Add (or, negative, give back) seconds of vacation, never below none."""

    # ---- settings ------------------------------------------------------------------
    @abc.abstractmethod
    async def get_settings(self, guild_id: int) -> dict[str, Any] | None: ...

    @abc.abstractmethod
    async def put_settings(
        self, guild_id: int, data: dict[str, Any], updated_at: float, updated_by: int | None
    ) -> None: ...

    # ---- direct messages -------------------------------------------------------------
    @abc.abstractmethod
    async def dm_failures(self, user_ids: Iterable[int]) -> dict[int, DmFailure]:
        """Of these users, those whose DMs refused the bot: when it last happened and the
        tables told so since."""

    @abc.abstractmethod
    async def record_dm_failure(self, user_id: int, at: float, code: int | None = None) -> None:
        """Remember (for every process) that a DM to the user failed, with Discord's code."""

    @abc.abstractmethod
    async def claim_dm_notice(self, user_id: int, match_id: int) -> bool:
        """Whether the table's channel is still to be told that the user's DMs are closed:
        True exactly once per table while the refusal lasts, in whichever process asks."""

    @abc.abstractmethod
    async def clear_dm_failure(self, user_id: int) -> None:
        """A DM reached the user again: forget the failure and the tables told of it."""

    # ---- members -----------------------------------------------------------------------
    @abc.abstractmethod
    async def member_languages(self, user_ids: Iterable[int]) -> dict[int, str]:
        """Of these users, the language each was last seen using (users never seen are
        left out)."""

    @abc.abstractmethod
    async def set_member_language(self, user_id: int, language: str, at: float) -> None:
        """Remember (for every process) the language a user was seen using at ``at``."""

    # ---- members' preferences ----------------------------------------------------------
    @abc.abstractmethod
    async def get_preferences(self, user_id: int) -> MemberPreferences | None:
        """What the member chose (None: nothing yet)."""

    @abc.abstractmethod
    async def put_preferences(self, preferences: MemberPreferences) -> None:
        """Store the member's choices whole (replacing what was there)."""

    @abc.abstractmethod
    async def finished_games(self, user_id: int, game: str) -> int:
        """How many matches of ``game`` the user has finished, on any server."""

    @abc.abstractmethod
    async def hints_facts(self, user_id: int, game: str) -> tuple[bool | None, int]:
        """What decides whether the user's ``game`` pictures show hints, in one read: their
        hints choice (None: none) and :meth:`finished_games`."""

    # ---- housekeeping ------------------------------------------------------------------
    @abc.abstractmethod
    async def claim_chore(
        self, name: str, owner: str, lease_now: float, lease_until: float, due_by: float
    ) -> bool:
        """Claim (or renew) ``owner``'s lease on a chore shared by every process: granted
        when no other owner's lease runs past ``lease_now`` and its last pass finished at
        or before ``due_by`` (or never)."""

    @abc.abstractmethod
    async def finish_chore(self, name: str, owner: str, done_at: float) -> bool:
        """Record a pass of the chore as finished at ``done_at`` and drop ``owner``'s
        lease; False (nothing written) when ``owner`` no longer holds it."""

    @abc.abstractmethod
    async def prune_window(
        self, table: str, after: int, before: float, limit: int
    ) -> tuple[int, int | None]:
        """One window of pruning ``table`` (one of ``PRUNE_RULES``): of the rows of the next
        ``limit`` keys past ``after`` in key order, delete those its retention lets go,
        judged old against ``before``. Returns (rows deleted, the last key looked at); the
        key is None when no key was left past ``after``."""

    # ---- sign-ins (a front end's sessions) and matches' versions -------------------------
    @abc.abstractmethod
    async def store_sign_in(
        self,
        token: str,
        user_id: int,
        data: Mapping[str, object],
        expires_at: float | None,
        now: float,
    ) -> None:
        """Keep a new sign-in (by a digest of ``token``, never the token)."""

    @abc.abstractmethod
    async def find_sign_in(self, token: str, now: float) -> SignInRecord | None:
        """The sign-in of ``token`` if it has not expired by ``now``."""

    @abc.abstractmethod
    async def drop_sign_in(self, token: str) -> None:
        """Forget a sign-in (signed out, or no longer allowed)."""

    @abc.abstractmethod
    async def prune_sign_ins(self, now: float) -> int:
        """Forget the sign-ins expired before ``now``; how many."""

    @abc.abstractmethod
    async def match_versions(self, match_ids: Iterable[int]) -> dict[int, int]:
        """The version of each of these matches that exists."""

    # ---- tournaments -------------------------------------------------------------------
    @abc.abstractmethod
    async def create_tournament(self, record: TournamentRecord) -> TournamentRecord:
        """Store a new tournament; the record with its id."""

    @abc.abstractmethod
    async def get_tournament(self, tournament_id: int) -> TournamentRecord | None: ...

    @abc.abstractmethod
    async def tournaments_in_guild(
        self, guild_id: int, statuses: Iterable[str], limit: int = 25
    ) -> list[TournamentRecord]:
        """A server's tournaments of these statuses, newest first."""

    @abc.abstractmethod
    async def tournament_of_match(self, match_id: int) -> tuple[int, int] | None:
        """(tournament id, game number) of a match a tournament started, or None."""

    @abc.abstractmethod
    async def tournament_matches(
        self, tournament_id: int, *, ended_unrecorded: bool = False
    ) -> dict[int, MatchRecord]:
        """A tournament's matches by game number (``ended_unrecorded``: only those that
        ended and whose result no step has recorded yet)."""

    @abc.abstractmethod
    async def commit_tournament(
        self,
        record: TournamentRecord,
        expected_version: int,
        *,
        recorded: Sequence[int] = (),
        new_matches: Sequence[tuple[int, MatchRecord, Sequence[str]]] = (),
    ) -> dict[int, MatchRecord]:
        """One step, all or nothing: the row (compare-and-set on the version, else
        :class:`VersionConflict`), the games recorded, the new games' matches."""

    @abc.abstractmethod
    async def claim_due_tournaments(
        self, now: float, owner: str, lease_now: float, lease_until: float, limit: int = 20
    ) -> list[int]:
        """Claim the tournaments with a step due (a time reached, or an ended match not
        recorded) that no other owner holds; their ids."""

    @abc.abstractmethod
    async def claim_tournament(
        self, tournament_id: int, owner: str, lease_now: float, lease_until: float
    ) -> bool: ...

    @abc.abstractmethod
    async def release_tournament(self, tournament_id: int, owner: str) -> None: ...

    @abc.abstractmethod
    async def set_tournament_messages(self, tournament_id: int, messages: dict[str, int]) -> None:
        """Record message ids of a tournament (announcement, standings, ...)."""

    @abc.abstractmethod
    async def set_tournament_thread(self, tournament_id: int, thread_id: int) -> None: ...
