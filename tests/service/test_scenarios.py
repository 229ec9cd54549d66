"""Random scenarios mixing actions, timeouts, stale clicks and restarts; after every step the
stored state must replay from the action log and the version must count the log."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from engine import get_game
from engine.leiff import random_action
from matchcore.service import StaleVersion
from matchcore.storage import SqliteRepository
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

PLAYERS = (ALICE, BOB, CAROL)


async def _check_log_replays(repo: SqliteRepository, match_id: int, seed: int) -> None:
    record = await repo.get_match(match_id)
    log = await repo.actions(match_id)
    assert [a.version for a in log] == list(range(1, record.version + 1))
    moves = [a for a in log if not a.action.startswith("!")]
    if record.game == "leiff":
        rebuilt = get_game("leiff").replay(
            seed, len(record.seats), record.options, [(a.seat, a.action) for a in moves]
        )
    else:
        rebuilt = get_game(record.game).new(record.options["size"], **record.options["options"])
        for action in moves:
            rebuilt = rebuilt.play(action.action)
    assert rebuilt.to_json() == record.state
    ended = record.status in ("finished", "aborted")
    assert ended == (record.deadline_at is None)


@pytest.mark.parametrize("seed", [1, 2, 3])
async def test_leiff_with_timeouts_stale_clicks_and_restarts(
    db_path: Path, clock: ManualClock, seed: int
) -> None:
    repo, service = await open_service(db_path, clock, seed=seed)
    await service.update_settings(GUILD, ALICE, True, leiff_max_timeouts=3)
    opened = await service.open_lobby(GUILD, CHANNEL, ALICE)
    for user in PLAYERS[1:]:
        await service.join_lobby(opened.match_id, user)
    match_id = (await service.start_lobby(opened.match_id, ALICE)).match_id
    rng = random.Random(seed)
    for _ in range(120):
        record = await repo.get_match(match_id)
        if record.status != "running":
            break
        roll = rng.random()
        if roll < 0.12:
            clock.now = max(clock.now, record.deadline_at)
            await service.tick()
        elif roll < 0.18:
            await repo.close()
            repo, service = await open_service(db_path, clock, seed=seed)
        elif roll < 0.24:
            with pytest.raises(StaleVersion):
                await service.play(match_id, ALICE, "draw", version=record.version - 1)
        else:
            state = get_game("leiff").from_json(record.state)
            active = [s.seat for s in record.seats if not s.removed]
            choices = [seat for seat in state.actors() if seat in active]
            seat, action = random_action(state, rng)
            if seat in choices:
                await service.play(match_id, PLAYERS[seat], action, version=record.version)
        await _check_log_replays(repo, match_id, seed)
    await repo.close()


async def test_board_game_with_restarts_and_a_loss_on_time(
    db_path: Path, clock: ManualClock
) -> None:
    repo, service = await open_service(db_path, clock)
    match_id = (await start_board_match(service, "les", size=5)).match_id
    rng = random.Random(9)
    for turn in range(14):
        record = await repo.get_match(match_id)
        state = get_game("les").from_json(record.state)
        move = rng.choice(state.legal_moves())
        await service.play(
            match_id, record.user_of(state.seat_to_move), move, version=record.version
        )
        if turn % 5 == 4:
            await repo.close()
            repo, service = await open_service(db_path, clock)
        await _check_log_replays(repo, match_id, 0)
    clock.advance(86400)
    (over,) = await service.tick()
    assert over.kind == "match_over" and "ran out of time" in over.match.result["reason"]
    await _check_log_replays(repo, match_id, 0)
    await repo.close()
