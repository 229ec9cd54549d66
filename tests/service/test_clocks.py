"""Board-game clocks with an injected clock: warnings, loss on time, deadlines after restarts."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.service import MatchService, TooLate
from tests.service.helpers import ALICE, BOB, GUILD, ManualClock, open_service, start_board_match


async def test_a_move_sets_the_deadline_and_the_warning(
    service: MatchService, clock: ManualClock
) -> None:
    started = await start_board_match(service)
    assert started.match.deadline_at == clock.now + 86400
    assert started.match.warn_at == clock.now + 86400 * 0.75
    clock.advance(100)
    moved = await service.play(started.match_id, ALICE, "e5")
    assert moved.match.deadline_at == clock.now + 86400


async def test_warning_is_sent_once_to_the_player_to_move(
    service: MatchService, clock: ManualClock
) -> None:
    await service.update_settings(GUILD, ALICE, True, board_move_seconds=3600)
    started = await start_board_match(service)
    await service.play(started.match_id, ALICE, "e5")
    clock.advance(2699)
    assert await service.tick() == []
    clock.advance(1)
    (warning,) = await service.tick()
    assert warning.kind == "warning" and warning.mentions == (BOB,)
    assert warning.messages[0].text == f"<@12>: 15 min left to act in match #{started.match_id}."
    assert warning.version == 1
    assert await service.tick() == []


async def test_running_out_of_time_loses(service: MatchService, clock: ManualClock) -> None:
    started = await start_board_match(service)
    await service.play(started.match_id, ALICE, "e5")
    clock.advance(86400)
    updates = await service.tick()
    (over,) = updates  # the deadline outranks the unsent warning
    assert over.kind == "match_over"
    assert over.match.result == {
        "winners": [ALICE],
        "reason": "<@12> ran out of time",
        "draw": False,
        "why": {"code": "reason_timed_out", "params": {"user": "<@12>"}},
    }
    assert {c.user_id for c in over.rating_changes} == {ALICE, BOB}
    log = await service.action_log(started.match_id)
    assert [(a.user_id, a.seat, a.action) for a in log] == [(ALICE, 0, "e5"), (None, 1, "!timeout")]
    assert await service.tick() == []


async def test_a_match_nobody_started_is_cancelled_unrated(
    service: MatchService, clock: ManualClock
) -> None:
    started = await start_board_match(service)
    clock.advance(86401)
    (cancelled,) = await service.tick()
    assert cancelled.kind == "match_aborted" and cancelled.match.status == "aborted"
    assert cancelled.match_id == started.match_id
    assert cancelled.rating_changes == ()
    assert await service.leaderboard(GUILD, "lefe") == []


async def test_a_deadline_that_passed_while_down_fires_after_restart(
    db_path: Path, clock: ManualClock
) -> None:
    repo, service = await open_service(db_path, clock)
    started = await start_board_match(service)
    await service.play(started.match_id, ALICE, "e5")
    await repo.close()
    clock.advance(90000)
    repo, service = await open_service(db_path, clock)
    (over,) = await service.tick()
    assert over.kind == "match_over" and over.match.result["winners"] == [ALICE]
    await repo.close()


async def test_a_move_after_the_deadline_is_refused_and_loses_on_time(
    service: MatchService, clock: ManualClock
) -> None:
    """Before the tick has run (right after a restart, say) the deadline still counts."""
    started = await start_board_match(service)
    await service.play(started.match_id, ALICE, "e5")
    clock.advance(86400)
    with pytest.raises(TooLate, match="ran out first") as late:
        await service.play(started.match_id, BOB, "c3")
    timeout = late.value.update
    assert timeout.kind == "match_over" and timeout.match.result["winners"] == [ALICE]
    assert timeout.match.result["reason"] == "<@12> ran out of time"
    assert {c.user_id for c in timeout.rating_changes} == {ALICE, BOB}
    stored = await service.get_match(started.match_id)
    assert stored.status == "finished" and stored.result == timeout.match.result
    log = await service.action_log(started.match_id)
    assert [(a.user_id, a.action) for a in log] == [(ALICE, "e5"), (None, "!timeout")]
    assert await service.tick() == []  # committed: the clock has nothing left to do


async def test_every_action_on_a_match_past_its_deadline_applies_the_timeout(
    service: MatchService, clock: ManualClock
) -> None:
    for act in (
        lambda match_id: service.resign(match_id, ALICE),
        lambda match_id: service.offer_draw(match_id, BOB),
        lambda match_id: service.play(match_id, ALICE, "e5", version=1),
    ):
        started = await start_board_match(service)
        clock.advance(86400)
        with pytest.raises(TooLate, match="cancelled") as late:
            await act(started.match_id)
        assert late.value.update.kind == "match_aborted"
        assert (await service.get_match(started.match_id)).status == "aborted"
