"""Board-game clocks with an injected clock: warnings, loss on time, deadlines after restarts."""

from __future__ import annotations

from pathlib import Path

from bot.service import MatchService
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
