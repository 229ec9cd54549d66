"""The worker pool: moves come back legal from another process, and a slow worker never
leaves a match hanging."""

from __future__ import annotations

import pytest

from engine import get_game
from matchcore.ai_pool import AIPool


async def test_pool_answers_legal_moves_for_two_games_from_one_worker() -> None:
    pool = AIPool(max_workers=1)
    try:
        lefe = get_game("lefe").new()
        dalen = get_game("dalen").new().play("d4")
        lefe_move = await pool.choose_move(lefe.to_json(), "lefe", "easy", seed=1)
        dalen_move = await pool.choose_move(dalen.to_json(), "dalen", "Easy", seed=2)
        assert lefe_move in lefe.legal_moves()
        assert dalen_move in dalen.legal_moves()
        # the same question with the same seed gets the same answer
        assert await pool.choose_move(lefe.to_json(), "lefe", "easy", seed=1) == lefe_move
    finally:
        await pool.shutdown()


async def test_a_late_worker_is_replaced_by_the_quick_fallback() -> None:
    # A negative grace leaves a budget of 0.01 s: no spawned worker can answer that fast.
    pool = AIPool(max_workers=1, grace_seconds=-0.49)
    try:
        state = get_game("dalen").new().play("d4").play("e5")
        move = await pool.choose_move(state.to_json(), "dalen", "easy")
        assert move in state.legal_moves()
    finally:
        await pool.shutdown()


@pytest.mark.parametrize(
    ("game", "level", "error"),
    [
        ("leiff", "easy", "not a board game"),
        ("chess", "easy", "not a board game"),
        ("lefe", "silly", "levels are"),
    ],
)
async def test_bad_questions_fail_in_the_caller(game: str, level: str, error: str) -> None:
    pool = AIPool(max_workers=1)
    with pytest.raises(ValueError, match=error):
        await pool.choose_move(get_game("lefe").new().to_json(), game, level)
    assert pool._executor is None  # nothing was started for a question nobody can answer


def test_a_pool_needs_a_worker() -> None:
    with pytest.raises(ValueError, match="at least one"):
        AIPool(max_workers=0)


async def test_the_shared_pool_is_created_on_first_use_and_shut_down() -> None:
    from matchcore import ai_pool

    ai_pool.configure(1)
    try:
        state = get_game("les").new()
        move = await ai_pool.choose_move(state.to_json(), "les", "easy")
        assert move in state.legal_moves()
    finally:
        await ai_pool.shutdown()
    assert ai_pool._shared is None
