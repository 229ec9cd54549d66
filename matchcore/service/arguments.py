"""The checks every public service call's arguments pass before the call runs.

The Discord layer only ever passes well-formed values, but the service is the boundary that
stores them: an id beyond the database's 64-bit integers, options that are not a mapping or
a move that is not text must be refused with the service's own errors, never reach SQLite
(``OverflowError``) or the engine (``AttributeError``). The checks go by parameter name, so
every public call of :class:`matchcore.service.service.MatchService` is covered in one place,
including calls added later.
"""

from __future__ import annotations

import functools
import inspect
import math
from collections.abc import Callable, Mapping, Sequence
from typing import Any, TypeVar, cast

from matchcore.service.errors import (
    IllegalAction,
    InvalidOptions,
    InvalidRequest,
    NotFound,
    ServiceError,
)

# Discord ids (snowflakes) are positive and, for as long as Discord exists, below 2**63:
# the largest value a signed 64-bit database column holds.
MAX_SNOWFLAKE = 2**63 - 1
# Times are Unix seconds; anything beyond this (some 285 million years) is not a time.
MAX_SECONDS = 2**53
# Leiff bot seats sit under small negative pseudo user ids (-1, -2, …).
MIN_PSEUDO_USER = -64
# A living Leiff table keeps a dozen event lines; each is a line of a Discord message.
MAX_LINES = 50
MAX_LINE = 2000
# An imported record: at most this many moves (a Les 9-board fills in some 120 turns), each
# as short as a move ("i17xi16", "e10+b12").
MAX_RECORD_MOVES = 1000
MAX_MOVE = 20

# parameter -> (the error code for a bad value, its class, whether None is allowed)
_IDS: dict[str, tuple[str, type[ServiceError], bool]] = {
    "match_id": ("no_such_match", NotFound, False),
    "challenge_id": ("no_such_challenge", NotFound, False),
    "tournament_id": ("no_such_tournament", NotFound, False),
    "guild_id": ("not_a_server", InvalidRequest, False),
    "channel_id": ("not_a_channel", InvalidRequest, False),
    "thread_id": ("not_a_thread", InvalidRequest, True),
    "message_id": ("not_a_message", InvalidRequest, False),
}
_USERS: dict[str, bool] = {  # parameter -> whether None is allowed
    "user_id": False,
    "challenger_id": False,
    "host_id": False,
    "target_id": True,
    "for_user": True,
    "bot_user_id": True,
    "player_id": False,
    "viewer_id": True,
}
_WHOLE_NUMBERS: dict[str, type[ServiceError]] = {
    "size": InvalidOptions,
    "limit": InvalidOptions,
    "seat": InvalidOptions,
    "version": InvalidRequest,
    "after": InvalidRequest,
    "page": InvalidRequest,
    "rounds": InvalidOptions,
    "minutes": InvalidOptions,
    "table_size": InvalidOptions,
}
_TEXTS: dict[str, tuple[str, type[ServiceError], bool]] = {
    "move": ("move_not_text", IllegalAction, False),
    "action": ("action_not_text", IllegalAction, False),
    "game": ("no_such_game", InvalidOptions, True),
    "level": ("no_such_level", InvalidOptions, True),
    "kind": ("not_a_message_kind", InvalidRequest, False),
    "time_control": ("time_control_unknown", InvalidOptions, True),
    "pool": ("pool_unknown", InvalidOptions, True),
    "season": ("season_unknown", InvalidOptions, False),
}

_Call = TypeVar("_Call", bound=Callable[..., Any])


def is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def is_snowflake(value: Any) -> bool:
    return is_int(value) and 0 < value <= MAX_SNOWFLAKE


def _check(name: str, value: Any) -> None:
    if name in _IDS:
        code, error, optional = _IDS[name]
        if not (value is None and optional) and not is_snowflake(value):
            raise error(code)
    elif name in _USERS:
        pseudo = is_int(value) and MIN_PSEUDO_USER <= value < 0
        if not (value is None and _USERS[name]) and not (is_snowflake(value) or pseudo):
            raise InvalidRequest("not_a_user")
    elif name in _WHOLE_NUMBERS:
        if value is not None and not (is_int(value) and abs(value) <= MAX_SNOWFLAKE):
            raise _WHOLE_NUMBERS[name]("not_a_whole_number", name=name)
    elif name in _TEXTS:
        code, error, optional = _TEXTS[name]
        if not (value is None and optional) and not isinstance(value, str):
            raise error(code)
    elif name == "options":
        if value is not None and not isinstance(value, Mapping):
            raise InvalidOptions("options_not_names")
    elif name in ("now", "starts_at"):
        if value is not None and not (
            isinstance(value, int | float)
            and not isinstance(value, bool)
            and math.isfinite(value)
            and abs(value) < MAX_SECONDS
        ):
            raise InvalidRequest("time_not_seconds")
    elif name == "messages":
        # message ids (snowflakes) or delivery records (versions) by kind
        if not isinstance(value, Mapping) or not all(
            isinstance(kind, str) and is_int(number) and 0 <= number <= MAX_SNOWFLAKE
            for kind, number in value.items()
        ):
            raise InvalidRequest("not_message_records")
    elif name == "lines":
        # a living table's event lines: a short list of texts, never one text
        if (
            isinstance(value, str)
            or not isinstance(value, Sequence)
            or len(value) > MAX_LINES
            or not all(isinstance(line, str) and len(line) <= MAX_LINE for line in value)
        ):
            raise InvalidRequest("lines_not_texts")
    elif name == "moves":
        # the moves of an imported record: a list of short texts, never one text
        if (
            isinstance(value, str)
            or not isinstance(value, Sequence)
            or len(value) > MAX_RECORD_MOVES
            or not all(isinstance(move, str) and len(move) <= MAX_MOVE for move in value)
        ):
            raise IllegalAction("moves_not_texts")
    elif name in ("has_manage_guild", "may_manage") and not isinstance(value, bool):
        raise InvalidRequest("permission_not_yes_no")


def checked(call: _Call) -> _Call:
    """``call`` with its arguments checked by name before it runs."""
    signature = inspect.signature(call)
    parameters = signature.parameters.values()
    # Every service call takes plain named parameters: then the names of the positional
    # arguments are known in advance, and a call is matched up without Signature.bind
    # (a tenth of its cost, on every call of every update).
    plain = all(p.kind in (p.POSITIONAL_OR_KEYWORD, p.KEYWORD_ONLY) for p in parameters)
    positional = tuple(p.name for p in parameters if p.kind is p.POSITIONAL_OR_KEYWORD)
    named = frozenset(signature.parameters)
    # the parameters without a default: (position or None for keyword-only, name)
    required = tuple(
        (positional.index(p.name) if p.name in positional else None, p.name)
        for p in parameters
        if p.default is p.empty
    )

    def well_formed(args: tuple[Any, ...], kwargs: dict[str, Any]) -> bool:
        """Whether the call names each parameter at most once and every required one."""
        if not plain or len(args) > len(positional) or not named.issuperset(kwargs):
            return False
        if kwargs and any(name in kwargs for name in positional[: len(args)]):
            return False
        return all(
            (index is not None and index < len(args)) or name in kwargs for index, name in required
        )

    @functools.wraps(call)
    async def wrapper(*args: Any, **kwargs: Any) -> Any:
        if well_formed(args, kwargs):
            for name, value in zip(positional, args, strict=False):  # fewer args: defaults
                if name != "self":
                    _check(name, value)
            for name, value in kwargs.items():
                _check(name, value)
        else:
            # A call of the wrong shape (a missing argument) is a bug and raises TypeError.
            bound = signature.bind(*args, **kwargs)
            for name, value in bound.arguments.items():
                if name != "self":
                    _check(name, value)
        return await call(*args, **kwargs)

    return cast(_Call, wrapper)  # the same call, its arguments checked first


def check_public_calls(cls: type) -> type:
    """Wrap every public coroutine method of ``cls`` (inherited ones included) in
    :func:`checked`."""
    for name, member in inspect.getmembers(cls, inspect.iscoroutinefunction):
        if not name.startswith("_"):
            setattr(cls, name, checked(member))
    return cls
