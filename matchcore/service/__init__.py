"""The match service: everything about games between the engine and the front ends.

It speaks in ids and plain values and imports no front end (discord.py, the web server,
the pictures, the catalogues). Build it over a repository
(:func:`matchcore.storage.open_repository`) with the front end's :class:`Choices` of themes
and languages, and call :meth:`MatchService.start` once; see ``docs/service.md`` for every
call, its results and its errors.
"""

from __future__ import annotations

from matchcore.service.errors import (
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
from matchcore.service.guild_settings import Choices, GuildSettings
from matchcore.service.results import (
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
from matchcore.service.service import MatchService

__all__ = [
    "Buttons",
    "ChallengeExpired",
    "ChallengeInfo",
    "ChannelNotAllowed",
    "Choices",
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
