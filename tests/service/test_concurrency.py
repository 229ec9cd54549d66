"""Concurrency: simultaneous actions on one match apply one at a time, stale ones are refused."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from engine import get_game
from matchcore.service import Cooldown, MatchService, NotYourTurn, StaleVersion, TooManyMatches
from matchcore.service.steps import begin
from tests.service.helpers import (
    ALICE,
    BOB,
    CAROL,
    CHANNEL,
    GUILD,
    ManualClock,
    open_service,
    start_board_match,
)


async def test_double_clicks_on_one_version_apply_once(service: MatchService) -> None:
    match_id = (await start_board_match(service)).match_id
    moves = ["e5", "e6", "f5", "d4", "c3", "b2", "g7", "h8"]
    results = await asyncio.gather(
        *(service.play(match_id, ALICE, move, version=0) for move in moves), return_exceptions=True
    )
    accepted = [r for r in results if not isinstance(r, BaseException)]
    refused = [r for r in results if isinstance(r, BaseException)]
    assert len(accepted) == 1 and accepted[0].version == 1
    assert len(refused) == len(moves) - 1
    assert all(isinstance(r, StaleVersion) for r in refused)
    log = await service.action_log(match_id)
    assert [a.action for a in log] == [accepted[0].pictures[0].state.moves[0]] == ["e5"]


async def test_simultaneous_calls_run_in_arrival_order(service: MatchService) -> None:
    match_id = (await start_board_match(service, "dalen", size=5)).match_id
    state = get_game("dalen").new(5)
    moves = []
    for _ in range(12):
        move = sorted(m for m in state.legal_moves() if m != "swap")[len(moves) % 3]
        moves.append((ALICE if state.seat_to_move == 0 else BOB, move))
        state = state.play(move)
    calls = [service.play(match_id, user, move) for user, move in moves]
    updates = await asyncio.gather(*calls)
    assert [u.version for u in updates] == list(range(1, 13))
    log = await service.action_log(match_id)
    assert [a.action for a in log] == [move for _, move in moves]
    assert updates[-1].pictures[0].state.to_json() == state.to_json()


async def test_mixed_callers_never_break_the_turn_order(service: MatchService) -> None:
    match_id = (await start_board_match(service)).match_id
    calls = [
        service.play(match_id, user, cell)
        for user, cell in [(BOB, "a1"), (ALICE, "e5"), (ALICE, "e6")]
    ]
    results = await asyncio.gather(*calls, return_exceptions=True)
    assert isinstance(results[0], NotYourTurn)
    assert results[1].version == 1
    assert isinstance(results[2], NotYourTurn)


async def test_two_services_on_one_database_never_both_apply(
    db_path: Path, clock: ManualClock
) -> None:
    repo_a, service_a = await open_service(db_path, clock)
    repo_b, service_b = await open_service(db_path, clock)
    match_id = (await start_board_match(service_a)).match_id
    results = []
    for _ in range(5):
        version = (await service_a.get_match(match_id)).version
        user = ALICE if version % 2 == 0 else BOB
        state = get_game("lefe").from_json((await repo_a.get_match(match_id)).state)
        first, second = sorted(m for m in state.legal_moves() if m != "swap")[:2]
        outcome = await asyncio.gather(
            service_a.play(match_id, user, first, version=version),
            service_b.play(match_id, user, second, version=version),
            return_exceptions=True,
        )
        results.append(outcome)
        assert sum(not isinstance(r, BaseException) for r in outcome) == 1
        assert all(isinstance(r, StaleVersion) for r in outcome if isinstance(r, BaseException))
    assert (await service_b.get_match(match_id)).version == 5
    assert [a.version for a in await repo_b.actions(match_id)] == [1, 2, 3, 4, 5]
    await repo_a.close()
    await repo_b.close()


async def test_the_database_refuses_a_commit_behind_the_stored_version(
    db_path: Path, clock: ManualClock
) -> None:
    repo_a, service_a = await open_service(db_path, clock)
    repo_b, service_b = await open_service(db_path, clock)
    match_id = (await start_board_match(service_a)).match_id
    # Service B holds the record as it was, while A moves the match on.
    held = await repo_b.get_match(match_id)
    await service_a.play(match_id, ALICE, "e5")

    step = begin(held, clock())
    step.log(ALICE, 0, "e6", clock())
    with pytest.raises(StaleVersion):
        await service_b.store.commit(held, step, None)
    assert [a.action for a in await repo_b.actions(match_id)] == ["e5"]
    await repo_a.close()
    await repo_b.close()


async def test_simultaneous_challenges_respect_the_cooldown(service: MatchService) -> None:
    calls = [service.challenge(GUILD, CHANNEL, ALICE, "lefe", BOB + i) for i in range(5)]
    results = await asyncio.gather(*calls, return_exceptions=True)
    assert sum(not isinstance(r, BaseException) for r in results) == 1
    assert sum(isinstance(r, Cooldown) for r in results) == 4


async def test_simultaneous_accepts_respect_the_match_limit(service: MatchService) -> None:
    await service.update_settings(GUILD, ALICE, True, max_matches_per_user=1)
    offers = [await service.challenge(GUILD, CHANNEL, user, "lefe", ALICE) for user in (BOB, CAROL)]
    results = await asyncio.gather(
        *(service.accept_challenge(o.challenge_id, ALICE) for o in offers), return_exceptions=True
    )
    assert sum(not isinstance(r, BaseException) for r in results) == 1
    assert sum(isinstance(r, TooManyMatches) for r in results) == 1


async def test_both_players_asking_for_a_rematch_at_once_start_one_match(
    service: MatchService,
) -> None:
    match_id = (await start_board_match(service)).match_id
    await service.resign(match_id, BOB)
    results = await asyncio.gather(service.rematch(match_id, ALICE), service.rematch(match_id, BOB))
    assert sorted(r.kind for r in results) == ["challenge", "match_started"]
    assert len(await service.user_matches(ALICE)) == 1
