"""A record's ``evolve`` is ``dataclasses.replace``, field for field, and refuses what it refuses."""

from __future__ import annotations

import dataclasses
import random
from typing import Any

import pytest

from matchcore.storage.records import ChallengeRecord, MatchRecord, RatingRecord, SeatRecord


def _records() -> list[Any]:
    seat = SeatRecord(seat=0, user_id=11, colour="dark")
    match = MatchRecord(
        id=3,
        guild_id=1,
        channel_id=2,
        game="dalen",
        status="running",
        created_at=1.0,
        updated_at=2.0,
        options={"size": 9},
        seats=(seat, SeatRecord(seat=1, user_id=None, is_bot=True, bot_level="hard")),
        messages={"board": 5},
    )
    challenge = ChallengeRecord(
        **{
            f.name: _value(f)
            for f in dataclasses.fields(ChallengeRecord)
            if f.default is dataclasses.MISSING and f.default_factory is dataclasses.MISSING
        }
    )
    rating = RatingRecord(
        **{
            f.name: _value(f)
            for f in dataclasses.fields(RatingRecord)
            if f.default is dataclasses.MISSING and f.default_factory is dataclasses.MISSING
        }
    )
    return [seat, match, challenge, rating]


def _value(field: dataclasses.Field[Any]) -> Any:
    kind = str(field.type)
    if "int" in kind:
        return 7
    if "float" in kind:
        return 7.5
    if "bool" in kind:
        return True
    if "dict" in kind:
        return {"k": 1}
    if "tuple" in kind:
        return ()
    return "text"


def test_evolve_is_replace_for_every_record() -> None:
    rng = random.Random(4)
    compared = 0
    for record in _records():
        fields = dataclasses.fields(record)
        for _ in range(40):
            chosen = rng.sample(fields, rng.randint(0, min(5, len(fields))))
            changes = {f.name: _value(f) if rng.random() < 0.5 else None for f in chosen}
            evolved = record.evolve(**changes)
            expected = dataclasses.replace(record, **changes)
            assert evolved == expected and type(evolved) is type(expected)
            assert vars(evolved) == vars(expected)
            compared += 1
        # the original is untouched, and an evolved record is frozen like any other
        assert record == dataclasses.replace(record)
        with pytest.raises(dataclasses.FrozenInstanceError):
            record.evolve().seat = 1
    assert compared == 160


def test_evolve_refuses_a_name_that_is_no_field() -> None:
    for record in _records():
        with pytest.raises(TypeError, match="no field 'colour_of_the_sky'"):
            record.evolve(colour_of_the_sky="blue")
