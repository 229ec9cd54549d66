"""One read a move (issue 33): the record ``/move``'s lookup read stands in for the action's
own read, and the database still decides when another process moved the match on.

Two services on one SQLite file stand for two processes; the repository's reads are
counted at its ``get_match`` (the read under the match's lock before this work).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from matchcore.service import MatchService
from matchcore.service.errors import NotYourTurn
from matchcore.service.fresh import FRESH_SECONDS, FreshRecords
from matchcore.storage import MatchRecord
from tests.service.helpers import (
    ALICE,
    BOB,
    CHANNEL,
    GUILD,
    ManualClock,
    open_service,
    start_board_match,
)


def _count_reads(service: MatchService, monkeypatch: pytest.MonkeyPatch) -> list[int]:
    reads: list[int] = []
    get_match = service.repo.get_match

    async def counted(match_id: int) -> Any:
        reads.append(match_id)
        return await get_match(match_id)

    monkeypatch.setattr(service.repo, "get_match", counted)
    return reads


async def test_a_move_after_the_lookup_reads_the_match_no_more(
    service: MatchService, monkeypatch: pytest.MonkeyPatch
) -> None:
    match_id = (await start_board_match(service, "lefe", size=5)).match_id
    reads = _count_reads(service, monkeypatch)
    (found,) = await service.board_matches_in_channel(GUILD, CHANNEL, ALICE)
    moved = await service.play(found.id, ALICE, "c3")
    assert moved.match is not None and moved.match.version == 1
    assert reads == []  # the lookup's own query read it; the move took that record
    # without a lookup just before, the move reads it under the lock, as ever
    await service.play(match_id, BOB, "b2")
    assert reads == [match_id]


async def test_another_process_moving_first_is_seen_before_the_move_is_judged(
    service: MatchService, db_path: Path, clock: ManualClock
) -> None:
    match_id = (await start_board_match(service, "lefe", size=5)).match_id
    repo, other = await open_service(db_path, clock)
    try:
        # Bob looks his match up here while Alice is to move ...
        (found,) = await service.board_matches_in_channel(GUILD, CHANNEL, BOB)
        assert found.version == 0
        # ... Alice moves through the other process ...
        await other.play(match_id, ALICE, "c3")
        # ... and Bob's move, judged first on the kept record (not his turn there), is
        # judged again on the stored one: his turn, played
        moved = await service.play(match_id, BOB, "b2")
        assert moved.match is not None and moved.match.version == 2
        stored = await repo.get_match(match_id)
        assert stored is not None and stored.version == 2
        # a refusal that stands on the stored record stands
        await service.board_matches_in_channel(GUILD, CHANNEL, BOB)
        await other.play(match_id, ALICE, "e5")
        await service.board_matches_in_channel(GUILD, CHANNEL, ALICE)
        with pytest.raises(NotYourTurn):
            await service.play(match_id, ALICE, "a1")
    finally:
        await repo.close()


async def test_a_move_on_a_kept_record_another_process_made_stale_is_not_lost(
    service: MatchService, db_path: Path, clock: ManualClock
) -> None:
    """Both processes see Alice to move; she moves through the other first. Her second
    move here is legal on the kept record, but its commit is refused by the version, and
    she is told the truth from the stored match: not her turn."""
    match_id = (await start_board_match(service, "lefe", size=5)).match_id
    repo, other = await open_service(db_path, clock)
    try:
        await service.board_matches_in_channel(GUILD, CHANNEL, ALICE)
        await other.play(match_id, ALICE, "c3")
        with pytest.raises(NotYourTurn):
            await service.play(match_id, ALICE, "d4")
        stored = await repo.get_match(match_id)
        assert stored is not None and stored.version == 1
    finally:
        await repo.close()


def test_a_kept_record_is_taken_once_and_only_while_fresh() -> None:
    now = [100.0]
    fresh = FreshRecords(clock=lambda: now[0])
    record = MatchRecord(
        id=5, guild_id=1, channel_id=2, game="lefe", status="running", created_at=0, updated_at=0
    )
    fresh.keep([record])
    assert fresh.take(5) is record
    assert fresh.take(5) is None  # once
    fresh.keep([record])
    now[0] += FRESH_SECONDS + 0.01
    assert fresh.take(5) is None  # too old: the action reads the match itself
    fresh.keep([record])
    fresh.forget(5)
    assert fresh.take(5) is None
