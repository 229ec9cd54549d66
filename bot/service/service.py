"""The match service: challenges, matches, Leiff lobbies, clocks, ratings and settings.

Every public call takes ids and plain values and returns an :class:`Update` (or plain
records) describing what changed; refusals raise a :class:`ServiceError` and change
nothing. Actions on one match run one at a time under a per-match lock, are checked
against the version the caller saw, and are committed (state, version, action log,
deadline, ratings) in one transaction before the call returns. The database repeats the
version check, so two processes sharing a database never both apply an action.

This module is the facade: :class:`MatchService` puts together the groups of calls, each in
its own module over the shared :class:`bot.service.core.ServiceCore` (challenges,
board matches, Leiff tables, clocks, games against the bot, standings), and keeps the
start-up, lookups and settings calls.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, replace
from typing import Any

from bot.service import leiff_logic
from bot.service.arguments import check_public_calls
from bot.service.board_matches import BoardMatchCalls
from bot.service.clocks import ClockCalls
from bot.service.core import LEIFF
from bot.service.errors import Forbidden, InvalidRequest
from bot.service.guild_settings import GuildSettings
from bot.service.leiff_tables import LeiffTableCalls
from bot.service.preferences import PreferenceCalls
from bot.service.results import ChallengeInfo, MatchInfo, Message, Update
from bot.service.standings import StandingCalls
from bot.service.vs_bot import BotCalls
from bot.storage import ACTIVE_STATUSES, ActionRecord, DmFailure
from i18n import LANGUAGES


@dataclass(frozen=True)
class StartupState:
    """What :meth:`MatchService.start` found: the bot re-attaches its views to these."""

    matches: tuple[MatchInfo, ...]
    challenges: tuple[ChallengeInfo, ...]


@check_public_calls  # malformed arguments raise the service's own errors
class MatchService(
    BotCalls,  # with the challenge calls it builds on
    BoardMatchCalls,
    LeiffTableCalls,
    ClockCalls,
    StandingCalls,
    PreferenceCalls,
):
    """The one entry point of the Discord layer for everything about games."""

    # ================================================================ start-up and lookups
    async def start(self, *, bot_user_id: int | None = None) -> StartupState:
        """Load every running match, lobby, open challenge and deadline from storage.

        ``bot_user_id`` (the bot's own user id, known once it has logged in) enables games
        against the bot, if it was not given to the constructor.
        """
        if bot_user_id is not None:
            self.bot_user_id = bot_user_id
        records = await self.repo.matches_with_status(ACTIVE_STATUSES)
        infos = []
        for record in records:
            state = self._state(record)  # parses now, so a broken row shows at start-up
            infos.append(self._info(record, state))
        challenges = await self.repo.open_challenges()
        return StartupState(
            matches=tuple(infos), challenges=tuple(self._challenge_info(c) for c in challenges)
        )

    async def get_match(self, match_id: int) -> MatchInfo:
        record = await self._load(match_id)
        return self._info(record, self._state(record))

    async def match_in_channel(
        self, guild_id: int, channel_id: int, user_id: int, thread_id: int | None = None
    ) -> MatchInfo | None:
        """The caller's running match or lobby in this channel or thread, most recent first."""
        place = thread_id if thread_id is not None else channel_id
        # The query keeps only the caller's matches, so the channel's others are never loaded.
        records = await self.repo.matches_in_channel(guild_id, place, ACTIVE_STATUSES, user_id)
        for record in records:
            if record.seat_of(user_id) is not None:
                return self._info(record, self._state(record))
        return None

    async def board_matches_in_channel(
        self, guild_id: int, channel_id: int, user_id: int, thread_id: int | None = None
    ) -> list[MatchInfo]:
        """The caller's running board matches played in this channel or thread, most
        recently active first. Leiff tables there never hide them: this is how ``/move``
        and ``/resign`` find "my match here"."""
        place = thread_id if thread_id is not None else channel_id
        records = await self.repo.matches_in_channel(guild_id, place, ("running",), user_id)
        return [
            self._info(record, self._state(record))
            for record in records
            if record.game != LEIFF
            and (record.thread_id or record.channel_id) == place
            and record.seat_of(user_id) is not None
        ]

    async def user_matches(self, user_id: int, guild_id: int | None = None) -> list[MatchInfo]:
        records = await self.repo.matches_of_user(user_id, ACTIVE_STATUSES, guild_id)
        return [self._info(r, self._state(r)) for r in records]

    async def guild_matches(self, guild_id: int, limit: int | None = 50) -> list[MatchInfo]:
        """The server's running matches and open Leiff lobbies, most recently active first
        (at most ``limit``; None for all)."""
        records = await self.repo.matches_in_guild(guild_id, ACTIVE_STATUSES, limit)
        return [self._info(r, self._state(r)) for r in records]

    async def action_log(self, match_id: int) -> list[ActionRecord]:
        await self._load(match_id)
        return await self.repo.actions(match_id)

    async def set_message(self, match_id: int, kind: str, message_id: int) -> None:
        await self._load(match_id)
        await self.repo.set_message(match_id, kind, message_id)

    async def record_delivered(self, match_id: int, version: int) -> None:
        """Every message of the match's step ``version`` went out (recorded with its
        messages as ``"delivered"``; a start sends again a match whose record is behind)."""
        await self._load(match_id)
        await self.repo.set_message(match_id, "delivered", version)

    async def set_thread(self, match_id: int, thread_id: int | None) -> None:
        await self._load(match_id)
        await self.repo.set_thread(match_id, thread_id)

    async def set_challenge_message(self, challenge_id: int, message_id: int) -> None:
        """Records the channel message that shows a challenge, so whichever process sees it
        expire can edit that message (``ChallengeInfo.message_id``)."""
        await self.repo.set_challenge_message(challenge_id, message_id)

    # ===================================================================== direct messages
    # What every process must know about DMs lives in the database: a refusal noted by the
    # process that hit it holds for the process that sends the next hand.
    async def dm_failures(self, user_ids: Iterable[int]) -> dict[int, DmFailure]:
        """Of these users, those whose DMs refused the bot: when (Unix seconds, the service's
        clock) and the tables told so since."""
        return await self.repo.dm_failures(user_ids)

    async def note_dm_failure(self, user_id: int, code: int | None = None) -> None:
        """Remember that a DM to the user was refused (Discord's ``code``, e.g. 50007)."""
        await self.repo.record_dm_failure(user_id, self.clock(), code)

    async def claim_dm_notice(self, user_id: int, match_id: int) -> bool:
        """Whether this table's channel is still to be told that the user's DMs are closed
        (True once per table while the refusal lasts, across processes)."""
        return await self.repo.claim_dm_notice(user_id, match_id)

    async def note_dm_delivered(self, user_id: int) -> None:
        """A DM reached the user: forget an earlier refusal and the tables told of it."""
        await self.repo.clear_dm_failure(user_id)

    # ===================================================================== members' languages
    async def member_languages(self, user_ids: Iterable[int]) -> dict[int, str]:
        """Of these users, the language each was last seen using ("en", "de"); users never
        seen are left out."""
        return await self.repo.member_languages(user_ids)

    async def note_member_language(self, user_id: int, language: str) -> None:
        """Remember the language a user's Discord client was seen using (one of
        :data:`i18n.LANGUAGES`), for messages sent to them later without an interaction."""
        if language not in LANGUAGES:
            raise InvalidRequest()
        await self.repo.set_member_language(user_id, language, self.clock())

    async def current(self, match_id: int, for_user: int | None = None) -> Update:
        """Pictures and buttons of the match as it is now (to redraw after a restart).

        With ``for_user``, the private parts (Leiff hands, their buttons and texts) are only
        that user's; without it, every player's.
        """
        record = await self._load(match_id)
        state = self._state(record)
        if state is None:  # a lobby, open or closed
            return self._lobby_update("refresh", record, [])
        if record.game == LEIFF:
            update = self._leiff_update("refresh", record, None, [], [], only_user=for_user)
            if for_user is None:
                return update
            # What the player learnt in the last step ("You look at your slots 1 and 2: …"),
            # so a hand shown on request (DMs closed) tells what a DM would have told.
            news = tuple(
                Message(text, to=user)
                for user, text in leiff_logic.private_texts(state, record)
                if user == for_user
            )
            return replace(update, messages=news + update.messages)
        return self._board_update("refresh", record, state, [])

    # ===================================================================== settings
    async def update_settings(
        self, guild_id: int, user_id: int, has_manage_guild: bool, **changes: Any
    ) -> GuildSettings:
        """Change some settings of a server (Manage Server only); all are checked first."""
        if not has_manage_guild:
            raise Forbidden(
                "changing the server's game settings needs the Manage Server permission"
            )
        updated = (await self.get_settings(guild_id)).with_changes(changes)
        await self.repo.put_settings(guild_id, updated.to_stored(), self.clock(), user_id)
        return updated
