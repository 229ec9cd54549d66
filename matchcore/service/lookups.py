"""Reading matches for the Discord layer, and the few facts it stores beside them.

:class:`Lookups` finds matches (by id, channel, user, server), redraws one as it is now,
keeps the ids of the messages that show a match or a challenge, remembers which users'
DMs refuse the bot, and reads and changes a server's settings.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import replace
from typing import Any

from engine.leiff.state import LeiffState
from matchcore.records import ActionRecord
from matchcore.service import leiff_logic
from matchcore.service.describe import Describer
from matchcore.service.errors import Forbidden, InvalidRequest, NotFound
from matchcore.service.guild_settings import GuildSettings
from matchcore.service.results import MatchInfo, Update
from matchcore.service.steps import is_table
from matchcore.service.store import MatchStore
from matchcore.storage import ACTIVE_STATUSES


class Lookups:
    """Matches as the Discord layer looks them up; messages, DMs and settings."""

    def __init__(self, store: MatchStore, describe: Describer) -> None:
        self.store = store
        self.describe = describe
        self.repo = store.repo

    async def get_match(self, match_id: int) -> MatchInfo:
        record = await self.store.load(match_id)
        return self.describe.info(record, self.store.state(record))

    async def match_in_channel(
        self, guild_id: int, channel_id: int, user_id: int, thread_id: int | None = None
    ) -> MatchInfo | None:
        """The caller's running match or lobby in this channel or thread, most recent first."""
        place = thread_id if thread_id is not None else channel_id
        # The query keeps only the caller's matches, so the channel's others are never loaded.
        records = await self.repo.matches_in_channel(guild_id, place, ACTIVE_STATUSES, user_id)
        for record in records:
            if record.seat_of(user_id) is not None:
                return self.describe.info(record, self.store.state(record))
        return None

    async def board_matches_in_channel(
        self, guild_id: int, channel_id: int, user_id: int, thread_id: int | None = None
    ) -> list[MatchInfo]:
        """The caller's running board matches played in this channel or thread, most
        recently active first. Leiff tables there never hide them: this is how ``/move``
        and ``/resign`` find "my match here"."""
        place = thread_id if thread_id is not None else channel_id
        records = await self.repo.matches_in_channel(guild_id, place, ("running",), user_id)
        mine = [
            record
            for record in records
            if not is_table(record)
            and (record.thread_id or record.channel_id) == place
            and record.seat_of(user_id) is not None
        ]
        # the move or resignation that follows takes its match from here: one read a move
        self.store.fresh.keep(mine)
        return [self.describe.info(record, self.store.state(record)) for record in mine]

    async def user_matches(self, user_id: int, guild_id: int | None = None) -> list[MatchInfo]:
        records = await self.repo.matches_of_user(user_id, ACTIVE_STATUSES, guild_id)
        return [self.describe.info(r, self.store.state(r)) for r in records]

    async def guild_matches(self, guild_id: int, limit: int | None = 50) -> list[MatchInfo]:
        """The server's running matches and open Leiff lobbies, most recently active first
        (at most ``limit``; None for all)."""
        records = await self.repo.matches_in_guild(guild_id, ACTIVE_STATUSES, limit)
        return [self.describe.info(r, self.store.state(r)) for r in records]

    async def action_log(self, match_id: int) -> list[ActionRecord]:
        await self.store.load(match_id)
        return await self.repo.actions(match_id)

    # These writes check that the match exists in the same statement (one round trip, not
    # a load of the match, its seats and its messages before it): no row written, no match.
    async def set_thread(self, match_id: int, thread_id: int | None) -> None:
        self.store.fresh.forget(match_id)
        if not await self.repo.set_thread(match_id, thread_id):
            raise NotFound("no_such_match")

    # ===================================================================== direct messages
    # What every process must know about DMs lives in the database: a refusal noted by the
    # process that hit it holds for the process that sends the next hand.
    # ===================================================================== members' languages
    async def member_languages(self, user_ids: Iterable[int]) -> dict[int, str]:
        """Of these users, the language each was last seen using ("en", "de"); users never
        seen are left out."""
        return await self.repo.member_languages(user_ids)

    async def note_member_language(self, user_id: int, language: str) -> None:
        """Remember the language a user's Discord client was seen using (one of
        :attr:`Choices.languages`), for messages sent to them later without an interaction."""
        if language not in self.store.choices.languages:
            raise InvalidRequest()
        await self.repo.set_member_language(user_id, language, self.store.clock())

    async def current(self, match_id: int, for_user: int | None = None) -> Update:
        """Pictures and buttons of the match as it is now (to redraw after a restart).

        With ``for_user``, the private parts (Leiff hands, their buttons and texts) are only
        that user's; without it, every player's.
        """
        record = await self.store.load(match_id)
        state = self.store.state(record)
        if state is None:  # a lobby, open or closed
            return self.describe.lobby("refresh", record, [])
        if isinstance(state, LeiffState):
            update = self.describe.table("refresh", record, None, [], [], only_user=for_user)
            if for_user is None:
                return update
            # What the player learnt in the last step ("You look at your slots 1 and 2: …"),
            # so a hand shown on request (DMs closed) tells what a DM would have told.
            news = tuple(
                line for line in leiff_logic.private_lines(state, record) if line.to == for_user
            )
            return replace(update, events=news + update.events)
        return self.describe.board("refresh", record, state, [])

    # ===================================================================== settings
    async def get_settings(self, guild_id: int) -> GuildSettings:
        return await self.store.settings(guild_id)

    async def update_settings(
        self, guild_id: int, user_id: int, has_manage_guild: bool, **changes: Any
    ) -> GuildSettings:
        """Change some settings of a server (Manage Server only); all are checked first."""
        if not has_manage_guild:
            raise Forbidden("manage_server_needed")
        # Changes apply to the settings as stored now, not as this process last read them.
        stored = GuildSettings.from_stored(
            await self.repo.get_settings(guild_id), self.store.choices
        )
        updated = stored.with_changes(changes, self.store.choices)
        await self.repo.put_settings(guild_id, updated.to_stored(), self.store.clock(), user_id)
        self.store.settings_changed(guild_id, updated)
        return updated
