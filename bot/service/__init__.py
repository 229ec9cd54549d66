"""The match service: everything about games between the engine and Discord.

It speaks in ids and plain values and never imports discord.py. Build it over a repository
(:func:`bot.storage.open_repository`) and call :meth:`MatchService.start` once; see
``docs/service.md`` for every call, its results and its errors.
"""

from __future__ import annotations

from bot.service.errors import (
    ChallengeExpired,
    ChannelNotAllowed,
    Cooldown,
    Forbidden,
    IllegalAction,
    InvalidOptions,
    InvalidRequest,
    InvalidSettings,
    LobbyError,
    MatchOver,
    NotFound,
    NotInMatch,
    NotYourTurn,
    SelfChallenge,
    ServiceError,
    StaleVersion,
    TooLate,
    TooManyMatches,
)
from bot.service.guild_settings import GuildSettings
from bot.service.results import (
    Buttons,
    ChallengeInfo,
    Event,
    LeaderboardRow,
    MatchInfo,
    Message,
    Picture,
    PlayerStats,
    RatingChange,
    SeatInfo,
    Update,
    VsBotStats,
)
from bot.service.service import MatchService

__all__ = [
    "Buttons",
    "ChallengeExpired",
    "ChallengeInfo",
    "ChannelNotAllowed",
    "Cooldown",
    "Event",
    "Forbidden",
    "GuildSettings",
    "IllegalAction",
    "InvalidOptions",
    "InvalidRequest",
    "InvalidSettings",
    "LeaderboardRow",
    "LobbyError",
    "MatchInfo",
    "MatchOver",
    "MatchService",
    "Message",
    "NotFound",
    "NotInMatch",
    "NotYourTurn",
    "Picture",
    "PlayerStats",
    "RatingChange",
    "SeatInfo",
    "SelfChallenge",
    "ServiceError",
    "StaleVersion",
    "TooLate",
    "TooManyMatches",
    "Update",
    "VsBotStats",
]
