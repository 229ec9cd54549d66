"""Malformed calls get the service's own errors, never a crash from SQLite or the engine.

Every public call is tried with each of its checked arguments replaced by hostile values
(ids beyond 64 bits, negative or zero ids, text or booleans for numbers, options that are
not a mapping), the others being valid; each must raise a ``ServiceError`` and change
nothing.
"""

from __future__ import annotations

import inspect

import pytest

from matchcore.service import (
    InvalidOptions,
    InvalidRequest,
    InvalidSettings,
    MatchService,
    NotFound,
    ServiceError,
)
from tests.service.helpers import ALICE, BOB, CAROL, CHANNEL, GUILD, start_board_match

BAD_IDS = [2**64, 2**63, -(2**64), -1, 0, True, "12", 1.5, [1]]
BAD_NUMBERS = [2**64 * 2**64, "5", True, 1.5, [5]]
BAD_TEXTS = [5, None, b"f6", ["f6"]]
BAD_OPTIONS = [[1, 2], "teams", 5, ("target", 50)]
ID_PARAMETERS = {
    "match_id",
    "challenge_id",
    "guild_id",
    "channel_id",
    "thread_id",
    "message_id",
    "user_id",
    "challenger_id",
    "host_id",
    "target_id",
    "for_user",
    "viewer_id",
}
NUMBER_PARAMETERS = {"size", "limit", "seat", "version", "now", "after"}
TEXT_PARAMETERS = {"move", "action", "kind"}


def bad_values(name: str) -> list[object]:
    if name in ID_PARAMETERS:
        values = list(BAD_IDS)
        if name in {"user_id", "challenger_id", "host_id", "target_id", "for_user", "viewer_id"}:
            values.remove(-1)  # a Leiff bot seat's pseudo user id
        return values
    if name in NUMBER_PARAMETERS:
        if name == "now":
            return [2**64 * 2**64, "5", True, [5], float("nan"), float("inf")]
        return list(BAD_NUMBERS)
    if name in TEXT_PARAMETERS:
        return list(BAD_TEXTS)
    if name == "options":
        return list(BAD_OPTIONS)
    if name == "messages":
        return [None, "board", [("board", 5)], {"board": "5"}, {5: 5}, {"board": -1}, {"b": 2**64}]
    if name == "lines":
        return [None, "a line", [5], ["x" * 2001], ["x"] * 51, {"a": "b"}]
    if name == "language":
        return [*BAD_TEXTS, "", "fr", "de-DE"]
    if name in ("time_control", "pool"):  # a code or a pool's name, or None
        return [5, b"move:60", ["move:60"], "weekly"]
    if name == "season":  # a season's key the server has
        return [*BAD_TEXTS, "2023-13", "weekly"]
    if name == "days":
        return [-1, 366, True, 1.5, "3", None]
    return []


def public_calls() -> list[str]:
    return sorted(
        name
        for name, member in inspect.getmembers(MatchService, inspect.iscoroutinefunction)
        if not name.startswith("_") and name != "start"
    )


async def valid_arguments(service: MatchService) -> dict[str, object]:
    match = await start_board_match(service, first=ALICE, second=BOB)
    offer = await service.challenge(GUILD, CHANNEL, CAROL, "dalen")
    return {
        "match_id": match.match_id,
        "challenge_id": offer.challenge_id,
        "guild_id": GUILD,
        "channel_id": CHANNEL,
        "thread_id": None,
        "message_id": 5555,
        "user_id": ALICE,
        "challenger_id": ALICE,
        "host_id": ALICE,
        "target_id": BOB,
        "for_user": None,
        "game": "lefe",
        "move": "c3",
        "action": "draw",
        "kind": "board",
        "lines": ["**Ann** draws."],
        "messages": {"board": 5555, "delivered": 3},
        "size": None,
        "limit": 10,
        "after": 0,
        "seat": None,
        "version": None,
        "now": None,
        "options": None,
        "level": None,
        "has_manage_guild": True,
        "language": "de",
        "days": 3,
        "time_control": None,
        "pool": None,
        "viewer_id": BOB,
        "season": "2023-11",
    }


async def test_every_public_call_refuses_hostile_arguments_with_its_own_errors(service, clock):
    valid = await valid_arguments(service)
    tried = 0
    for name in public_calls():
        call = getattr(service, name)
        parameters = [
            p
            for p in inspect.signature(call).parameters.values()
            if p.kind not in (p.VAR_KEYWORD, p.VAR_POSITIONAL)
        ]
        for target in parameters:
            for bad in bad_values(target.name):
                arguments = {p.name: valid[p.name] for p in parameters if p.name in valid}
                arguments[target.name] = bad
                before = await service.repo.get_match(valid["match_id"])
                with pytest.raises(ServiceError):
                    await call(**arguments)
                assert await service.repo.get_match(valid["match_id"]) == before, (name, bad)
                tried += 1
    assert tried > 150


async def test_a_match_id_beyond_64_bits_is_not_found(service):
    for call in (service.get_match, service.current, service.action_log):
        with pytest.raises(NotFound):
            await call(2**64)
    with pytest.raises(NotFound):
        await service.play(2**64, ALICE, "c3")
    with pytest.raises(NotFound):
        await service.get_challenge(2**64)


async def test_a_channel_outside_the_snowflake_range_is_refused_like_minus_one(service):
    for channel in (-1, 0, 2**63, 2**64):
        with pytest.raises(InvalidRequest, match="not a Discord channel"):
            await service.challenge(GUILD, channel, ALICE, "lefe", BOB)
        with pytest.raises(InvalidRequest, match="not a Discord channel"):
            await service.open_lobby(GUILD, channel, ALICE)
    assert await service.user_matches(ALICE) == []
    with pytest.raises(InvalidSettings):
        await service.update_settings(GUILD, ALICE, True, allowed_channels=[2**64])


async def test_options_that_are_not_a_mapping_are_invalid_options(service):
    with pytest.raises(InvalidOptions):
        await service.challenge(GUILD, CHANNEL, ALICE, "lefe", BOB, options=[1, 2])
    with pytest.raises(InvalidOptions):
        await service.open_lobby(GUILD, CHANNEL, ALICE, options="teams")
    with pytest.raises(InvalidOptions):
        await service.challenge_bot(GUILD, CHANNEL, ALICE, "lefe", options=["variant"])


async def test_season_posts_refuse_ids_that_are_not_servers(service):
    for bad in BAD_IDS:
        with pytest.raises(InvalidRequest):
            await service.season_posts_due([GUILD, bad])
