"""Domain errors: every refusal of the service, each with a sentence a player can read.

``str(error)`` is safe to show in a channel: it never names a hidden Leiff card. The bot maps
every :class:`ServiceError` to an ephemeral reply in one error handler.
"""

from __future__ import annotations

from typing import Any


class ServiceError(Exception):
    """Base class: the call was refused and nothing changed."""

    default_message = "that cannot be done right now"

    def __init__(self, message: str | None = None) -> None:
        self.message = message or self.default_message
        super().__init__(self.message)


class NotFound(ServiceError):
    default_message = "there is no such match or challenge"


class NotInMatch(ServiceError):
    default_message = "you are not playing in this match"


class NotYourTurn(ServiceError):
    default_message = "it is not your turn"


class StaleVersion(ServiceError):
    default_message = "that board has moved on; use the latest message"


class TooLate(ServiceError):
    """The match's deadline had passed when the call arrived. The call is refused, and the
    timeout the clock tick would have applied is applied and committed instead: ``update``
    describes it (post it like any tick update). The one refusal that changes something."""

    default_message = "too late: the time ran out first"

    def __init__(self, message: str | None = None, update: Any = None) -> None:
        super().__init__(message)
        self.update = update


class MatchOver(ServiceError):
    default_message = "this match is over"


class IllegalAction(ServiceError):
    """The engine refused the move; the message is the engine's own reason."""

    default_message = "that move is not allowed"


class ChallengeExpired(ServiceError):
    default_message = "that challenge is no longer open"


class Cooldown(ServiceError):
    def __init__(self, retry_after: float) -> None:
        self.retry_after = max(0.0, retry_after)
        seconds = max(1, round(self.retry_after))
        super().__init__(f"please wait {seconds} s before challenging again")


class TooManyMatches(ServiceError):
    default_message = "too many matches are running at once"


class SelfChallenge(ServiceError):
    default_message = "you cannot challenge yourself"


class Forbidden(ServiceError):
    default_message = "you are not allowed to do that"


class InvalidSettings(ServiceError):
    default_message = "those settings are not valid"


class InvalidOptions(ServiceError):
    default_message = "those match options are not valid"


class ChannelNotAllowed(ServiceError):
    default_message = "games cannot be hosted in this channel on this server"


class InvalidRequest(ServiceError):
    """A call with a malformed argument (an id outside Discord's range, a time that is not
    a number); the Discord layer never makes one."""

    default_message = "that request is not valid"


class LobbyError(ServiceError):
    default_message = "that cannot be done in this lobby"
