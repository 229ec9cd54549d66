"""Board-game clocks with an injected clock: warnings, loss on time, deadlines after restarts."""

from __future__ import annotations

from pathlib import Path

import pytest

from matchcore.service import MatchService, TooLate
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
    await service.play(started.match_id, BOB, "c3")
    await service.play(started.match_id, ALICE, "g7")
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
    assert [(a.user_id, a.seat, a.action) for a in log] == [
        (ALICE, 0, "e5"),
        (BOB, 1, "c3"),
        (ALICE, 0, "g7"),
        (None, 1, "!timeout"),
    ]
    assert await service.tick() == []


async def test_a_match_nobody_started_is_aborted_unrated(
    service: MatchService, clock: ManualClock
) -> None:
    started = await start_board_match(service)
    clock.advance(86401)
    (cancelled,) = await service.tick()
    assert cancelled.kind == "match_aborted" and cancelled.match.status == "aborted"
    assert cancelled.match_id == started.match_id
    assert cancelled.rating_changes == ()
    assert cancelled.messages[0].text == (
        "Match aborted: <@11> never moved before their time ran out. It is unrated: nobody "
        "wins or loses."
    )
    assert await service.leaderboard(GUILD, "lefe") == []


async def test_a_player_who_never_moved_makes_it_an_abort_not_a_win(
    service: MatchService, clock: ManualClock
) -> None:
    """Alice moved, Bob never did: on Bob's timeout nobody wins, nobody's rating or record
    changes (a rated loss for a no-show was the defect)."""
    started = await start_board_match(service)
    await service.play(started.match_id, ALICE, "e5")
    clock.advance(86400)
    (aborted,) = await service.tick()
    assert aborted.kind == "match_aborted" and aborted.match.status == "aborted"
    assert aborted.rating_changes == ()
    assert aborted.match.result == {
        "winners": [],
        "draw": False,
        "aborted": True,
        "reason": "<@12> never moved",
        "why": {"code": "reason_never_moved", "params": {"user": "<@12>"}},
    }
    assert "Match aborted: <@12> never moved" in aborted.messages[0].text
    assert await service.leaderboard(GUILD, "lefe") == []
    assert await service.stats(GUILD, ALICE) == [] and await service.stats(GUILD, BOB) == []


async def test_the_les_set_up_timing_out_aborts_before_the_other_player_moved(
    service: MatchService, clock: ManualClock
) -> None:
    """Seat A lays the Les set-up stones (their moves); if their time runs out before seat
    B has chosen a side, seat B never had a turn: the match is aborted, not lost."""
    started = await start_board_match(service, "les", size=5)
    state = started.pictures[0].state
    for _ in range(2):
        update = await service.play(started.match_id, ALICE, sorted(state.legal_moves())[0])
        state = update.pictures[0].state
    clock.advance(86400)
    (aborted,) = await service.tick()
    assert aborted.kind == "match_aborted" and aborted.rating_changes == ()
    assert aborted.match.result["why"]["code"] == "reason_out_of_time_early"
    assert aborted.messages[0].text.startswith(
        "Match aborted: <@11> ran out of time before both players had moved."
    )


async def test_after_both_moved_a_timeout_is_a_rated_loss_even_after_a_swap(
    service: MatchService, clock: ManualClock
) -> None:
    """The pie rule: Bob's swap is his first move, so Alice's timeout after it loses."""
    started = await start_board_match(service)
    await service.play(started.match_id, ALICE, "e5")
    await service.play(started.match_id, BOB, "swap")
    clock.advance(86400)
    (over,) = await service.tick()
    assert over.kind == "match_over" and over.match.result["winners"] == [BOB]
    assert {c.user_id for c in over.rating_changes} == {ALICE, BOB}


async def test_a_deadline_that_passed_while_down_fires_after_restart(
    db_path: Path, clock: ManualClock
) -> None:
    repo, service = await open_service(db_path, clock)
    started = await start_board_match(service)
    await service.play(started.match_id, ALICE, "e5")
    await service.play(started.match_id, BOB, "c3")
    await service.play(started.match_id, ALICE, "g7")
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
    await service.play(started.match_id, BOB, "c3")
    clock.advance(86400)
    with pytest.raises(TooLate, match="ran out first") as late:
        await service.play(started.match_id, ALICE, "g7")
    timeout = late.value.update
    assert timeout.kind == "match_over" and timeout.match.result["winners"] == [BOB]
    assert timeout.match.result["reason"] == "<@11> ran out of time"
    assert {c.user_id for c in timeout.rating_changes} == {ALICE, BOB}
    stored = await service.get_match(started.match_id)
    assert stored.status == "finished" and stored.result == timeout.match.result
    log = await service.action_log(started.match_id)
    assert [(a.user_id, a.action) for a in log] == [(ALICE, "e5"), (BOB, "c3"), (None, "!timeout")]
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
        with pytest.raises(TooLate, match="aborted") as late:
            await act(started.match_id)
        assert late.value.update.kind == "match_aborted"
        assert (await service.get_match(started.match_id)).status == "aborted"
