"""The match service as a front end sees it: a :class:`typing.Protocol`.

The Discord layer (``bot/common`` and ``bot/features``) types against :class:`GameService`,
never against the class that implements it (:class:`matchcore.service.service.MatchService`),
so a front end depends on the calls it makes and nothing else; mypy checks that the
service provides them (``bot/app.py`` hands a :class:`MatchService` to the context's
``service``, typed as a :class:`GameService`: the assignment that proves it). See
``docs/service.md`` for what each call does.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Protocol

from matchcore.game_record import GameRecord
from matchcore.records import ActionRecord, MemberPreferences
from matchcore.service.guild_settings import GuildSettings
from matchcore.service.learning import Puzzles, Reviews
from matchcore.service.profiles import Profile
from matchcore.service.results import (
    ChallengeInfo,
    HistoryPage,
    LeaderboardRow,
    MatchInfo,
    PlayerStats,
    TableReplay,
    Update,
    VsBotStats,
)
from matchcore.service.seasons import SeasonInfo, SeasonPost
from matchcore.service.tournaments import Tournaments
from matchcore.service.turn_notices import TurnNotice
from matchcore.service.vacations import VacationChange


class GameService(Protocol):
    """Every call a front end may make on the match service."""

    @property
    def clock(self) -> Callable[[], float]:
        """The service's clock (Unix seconds): deadlines shown are on it."""
        ...

    @property
    def bot_user_id(self) -> int | None: ...

    # learning from games (issue 37): reviews of finished matches, puzzles
    reviews: Reviews
    puzzles: Puzzles
    # tournaments (issue 38): create, join, leave, the claimed steps, admins' calls
    tournaments: Tournaments

    async def play(
        self, match_id: int, user_id: int, move: str, version: int | None = None
    ) -> Update: ...
    async def leiff_action(
        self, match_id: int, user_id: int, action: str, version: int | None = None
    ) -> Update: ...
    async def resign(self, match_id: int, user_id: int, version: int | None = None) -> Update: ...
    async def abort(self, match_id: int, user_id: int, version: int | None = None) -> Update: ...
    async def may_abort(self, match_id: int, user_id: int) -> bool: ...
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
        time_control: str | None = None,
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
        moves: Sequence[str] = (),
        time_control: str | None = None,
    ) -> Update: ...
    async def ask_takeback(
        self, match_id: int, user_id: int, version: int | None = None
    ) -> Update: ...
    async def accept_takeback(
        self, match_id: int, user_id: int, version: int | None = None
    ) -> Update: ...
    async def decline_takeback(
        self, match_id: int, user_id: int, version: int | None = None
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
        time_control: str | None = None,
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
    async def play_again(self, match_id: int, user_id: int) -> Update: ...
    async def table_replay(self, match_id: int) -> TableReplay: ...
    async def tick(self, now: float | None = None) -> list[Update]: ...
    async def prune_due(self) -> dict[str, int] | None: ...
    async def leaderboard(
        self, guild_id: int, game: str, limit: int = 10, pool: str | None = None
    ) -> list[LeaderboardRow]: ...
    async def vs_bot_stats(
        self, guild_id: int, user_id: int, game: str | None = None
    ) -> list[VsBotStats]: ...
    async def stats(
        self, guild_id: int, user_id: int, game: str | None = None
    ) -> list[PlayerStats]: ...
    async def history(
        self, guild_id: int, user_id: int, game: str | None = None, page: int = 0
    ) -> HistoryPage: ...
    async def profile(
        self, guild_id: int, user_id: int, viewer_id: int | None = None
    ) -> Profile: ...
    async def season_list(self, guild_id: int) -> list[SeasonInfo]: ...
    async def season_leaderboard(
        self, guild_id: int, game: str, season: str, limit: int = 10, pool: str | None = None
    ) -> list[LeaderboardRow]: ...
    async def season_posts_due(self, guild_ids: Iterable[int]) -> list[SeasonPost]: ...
    async def season_post_done(self, guild_id: int, season: str) -> bool: ...
    async def game_record(self, match_id: int) -> GameRecord: ...
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
    async def set_thread(self, match_id: int, thread_id: int | None) -> None: ...
    async def member_languages(self, user_ids: Iterable[int]) -> dict[int, str]: ...

    async def note_member_language(self, user_id: int, language: str) -> None: ...
    async def get_settings(self, guild_id: int) -> GuildSettings: ...
    async def update_settings(
        self, guild_id: int, user_id: int, has_manage_guild: bool, **changes: object
    ) -> GuildSettings: ...

    async def preferences(self, user_id: int) -> MemberPreferences: ...

    async def set_preferences(
        self,
        user_id: int,
        *,
        hints: object = ...,
        theme: object = ...,
        turn_dms: object = ...,
    ) -> MemberPreferences: ...
    async def set_vacation(self, user_id: int, days: int) -> VacationChange: ...
    async def turn_notices(self, now: float | None = None) -> list[TurnNotice]: ...

    async def hints_on(self, user_id: int, game: str) -> bool: ...
