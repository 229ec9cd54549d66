"""The match service as the Discord layer sees it: a :class:`typing.Protocol`.

``bot/common`` and ``bot/features`` type against :class:`GameService`, never against the
class that implements it (:class:`bot.service.service.MatchService`), so the Discord layer
depends on the calls it makes and nothing else; mypy checks that the service provides them
(``tests/service/test_protocol.py`` holds the assignment that proves it). See
``docs/service.md`` for what each call does.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from typing import TYPE_CHECKING, Protocol

from bot.service.guild_settings import GuildSettings
from bot.service.results import (
    ChallengeInfo,
    LeaderboardRow,
    MatchInfo,
    PlayerStats,
    Update,
    VsBotStats,
)
from bot.storage import ActionRecord, DmFailure

if TYPE_CHECKING:
    from bot.service.service import StartupState


class GameService(Protocol):
    """Every call the Discord layer may make on the match service."""

    @property
    def clock(self) -> Callable[[], float]:
        """The service's clock (Unix seconds): deadlines shown are on it."""
        ...

    @property
    def bot_user_id(self) -> int | None: ...

    async def start(self, *, bot_user_id: int | None = None) -> StartupState: ...
    async def play(
        self, match_id: int, user_id: int, move: str, version: int | None = None
    ) -> Update: ...
    async def leiff_action(
        self, match_id: int, user_id: int, action: str, version: int | None = None
    ) -> Update: ...
    async def resign(self, match_id: int, user_id: int, version: int | None = None) -> Update: ...
    async def offer_draw(
        self, match_id: int, user_id: int, version: int | None = None
    ) -> Update: ...
    async def accept_draw(
        self, match_id: int, user_id: int, version: int | None = None
    ) -> Update: ...
    async def decline_draw(
        self, match_id: int, user_id: int, version: int | None = None
    ) -> Update: ...
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
    ) -> Update: ...
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
    ) -> Update: ...
    async def rematch(self, match_id: int, user_id: int) -> Update: ...
    async def accept_challenge(self, challenge_id: int, user_id: int) -> Update: ...
    async def decline_challenge(self, challenge_id: int, user_id: int) -> Update: ...
    async def cancel_challenge(self, challenge_id: int, user_id: int) -> Update: ...
    async def get_challenge(self, challenge_id: int) -> ChallengeInfo: ...
    async def open_challenges(
        self, guild_id: int, user_id: int | None = None
    ) -> list[ChallengeInfo]: ...
    async def advance_bots(self, match_id: int) -> list[Update]: ...
    async def open_lobby(
        self,
        guild_id: int,
        channel_id: int,
        host_id: int,
        *,
        options: Mapping[str, object] | None = None,
        thread_id: int | None = None,
    ) -> Update: ...
    async def join_lobby(
        self, match_id: int, user_id: int, version: int | None = None
    ) -> Update: ...
    async def leave_lobby(
        self, match_id: int, user_id: int, version: int | None = None
    ) -> Update: ...
    async def add_bot_seat(
        self, match_id: int, user_id: int, level: str | None = None, version: int | None = None
    ) -> Update: ...
    async def remove_bot_seat(
        self, match_id: int, user_id: int, seat: int | None = None, version: int | None = None
    ) -> Update: ...
    async def start_lobby(
        self, match_id: int, user_id: int, version: int | None = None
    ) -> Update: ...
    async def tick(self, now: float | None = None) -> list[Update]: ...
    async def leaderboard(
        self, guild_id: int, game: str, limit: int = 10
    ) -> list[LeaderboardRow]: ...
    async def vs_bot_stats(
        self, guild_id: int, user_id: int, game: str | None = None
    ) -> list[VsBotStats]: ...
    async def stats(
        self, guild_id: int, user_id: int, game: str | None = None
    ) -> list[PlayerStats]: ...
    async def get_match(self, match_id: int) -> MatchInfo: ...
    async def match_in_channel(
        self, guild_id: int, channel_id: int, user_id: int, thread_id: int | None = None
    ) -> MatchInfo | None: ...
    async def board_matches_in_channel(
        self, guild_id: int, channel_id: int, user_id: int, thread_id: int | None = None
    ) -> list[MatchInfo]: ...
    async def user_matches(self, user_id: int, guild_id: int | None = None) -> list[MatchInfo]: ...
    async def guild_matches(self, guild_id: int, limit: int | None = 50) -> list[MatchInfo]: ...
    async def action_log(self, match_id: int) -> list[ActionRecord]: ...
    async def current(self, match_id: int, for_user: int | None = None) -> Update: ...
    async def set_message(self, match_id: int, kind: str, message_id: int) -> None: ...
    async def set_thread(self, match_id: int, thread_id: int | None) -> None: ...
    async def set_challenge_message(self, challenge_id: int, message_id: int) -> None: ...
    async def dm_failures(self, user_ids: Iterable[int]) -> dict[int, DmFailure]: ...
    async def note_dm_failure(self, user_id: int, code: int | None = None) -> None: ...
    async def claim_dm_notice(self, user_id: int, match_id: int) -> bool: ...
    async def note_dm_delivered(self, user_id: int) -> None: ...
    async def get_settings(self, guild_id: int) -> GuildSettings: ...
    async def update_settings(
        self, guild_id: int, user_id: int, has_manage_guild: bool, **changes: object
    ) -> GuildSettings: ...
