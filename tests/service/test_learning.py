"""Reviews and puzzles in the match service, on a real SQLite file and the real AI pool."""

from __future__ import annotations

import random
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from bench.mine_puzzles import play_game
from engine import get_board_game
from engine.ai.puzzles import Puzzle, mine_game
from matchcore.ai_pool import AIPool
from matchcore.service import IllegalAction, MatchService
from matchcore.service.errors import NotFound
from tests.service.helpers import (
    ALICE,
    BOB,
    CHANNEL,
    GUILD,
    ManualClock,
    open_service,
    start_board_match,
)

BOT = 999


@pytest.fixture
async def pool() -> AsyncIterator[AIPool]:
    pool = AIPool(1)
    yield pool
    await pool.shutdown()


async def _finished_lefe(service: MatchService, seed: int = 4) -> int:
    started = await start_board_match(service, "lefe", size=5)
    match_id = started.match_id
    assert match_id is not None
    rng = random.Random(seed)
    while True:
        record = await service.repo.get_match(match_id)
        assert record is not None and record.state is not None
        if record.status != "running":
            return match_id
        state = get_board_game("lefe").from_json(record.state)
        player = ALICE if state.seat_to_move == 0 else BOB
        await service.play(match_id, player, rng.choice(state.legal_moves()))


def _puzzles() -> list[Puzzle]:
    positions, players = play_game("lefe", 5, 6)
    return mine_game(positions, last_plies=16, source={"players": players, "self_play": 5})


async def test_a_finished_match_is_reviewed_once_and_read_back(
    service: MatchService, pool: AIPool
) -> None:
    service.reviews.analyst = pool
    match_id = await _finished_lefe(service)
    seen: list[tuple[int, int]] = []

    async def progress(done: int, total: int) -> None:
        seen.append((done, total))

    first = await service.reviews.review(match_id, ALICE, GUILD, progress)
    assert not first.cached
    assert seen and seen[-1][0] == seen[-1][1] == len(first.review.plies)
    assert set(first.players.values()) == {ALICE, BOB}
    again = await service.reviews.review(match_id, 12345, GUILD)  # anyone on the server
    assert again.cached and again.review == first.review
    with pytest.raises(NotFound):
        await service.reviews.review(match_id, 12345, GUILD + 1)  # another server's stranger


async def test_a_running_match_is_not_reviewed(service: MatchService) -> None:
    started = await start_board_match(service, "lefe", size=5)
    assert started.match_id is not None
    with pytest.raises(IllegalAction):
        await service.reviews.review(started.match_id, ALICE, GUILD)


async def test_a_puzzle_right_and_wrong_moves_the_rating_and_the_streak(
    service: MatchService,
) -> None:
    puzzles = _puzzles()
    await service.puzzles.load_starter(puzzles)  # the shipped set may hold them already
    assert await service.puzzles.load_starter(puzzles) == 0  # each position once
    shown, player = await service.puzzles.next_puzzle(ALICE, GUILD, "lefe")
    wrong = next(m for m in shown.puzzle.position().legal_moves() if m != shown.puzzle.first_move)
    failed = await service.puzzles.answer(ALICE, wrong)
    assert failed is not None and not failed.solved
    assert failed.after.rating < player.rating and failed.after.streak == 0
    assert await service.puzzles.open_puzzle(ALICE) is None
    if len(puzzles) > 1:
        shown, player = await service.puzzles.next_puzzle(ALICE, GUILD, "lefe")
    else:
        shown = await service.puzzles.show(BOB, shown.id, GUILD)
        player = await service.puzzles.player(BOB)
    who = ALICE if len(puzzles) > 1 else BOB
    solved = await service.puzzles.answer(who, shown.puzzle.first_move)
    assert solved is not None and solved.solved
    assert solved.after.rating > player.rating and solved.after.streak == player.streak + 1
    assert who in await service.puzzles.solvers(shown.id, GUILD)
    assert await service.puzzles.answer(who, shown.puzzle.first_move) is None  # answered


async def test_the_daily_puzzle_is_claimed_once_a_day_across_processes(
    db_path: Path, clock: ManualClock
) -> None:
    repo_a, first = await open_service(db_path, clock)
    repo_b, second = await open_service(db_path, clock)
    try:
        await first.puzzles.load_starter(_puzzles())
        claims = [await s.puzzles.claim_daily(GUILD, CHANNEL) for s in (first, second, first)]
        assert sum(c is not None for c in claims) == 1
        daily = await second.puzzles.daily(GUILD)
        assert daily is not None and daily.channel_id == CHANNEL
        clock.advance(86400)
        claims = [await s.puzzles.claim_daily(GUILD, CHANNEL) for s in (second, first)]
        assert sum(c is not None for c in claims) == 1
    finally:
        await repo_a.close()
        await repo_b.close()


async def test_finished_rated_matches_are_mined_once(service: MatchService, pool: AIPool) -> None:
    service.puzzles.analyst = pool
    match_id = await _finished_lefe(service)
    assert await service.puzzles.mine_one() == match_id
    assert await service.puzzles.mine_one() is None
