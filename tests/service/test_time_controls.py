"""Time controls per match (issue 35): chosen with the challenge or the table, stored on the
match, the deadlines they set (per move, whole-game with an increment, Leiff turns), and
the rating pools live and daily kept apart."""

from __future__ import annotations

import pytest

from matchcore.service import InvalidOptions, MatchService, Update
from matchcore.service.time_controls import DAILY, LIVE, OFFERED, TimeControl
from tests.service.helpers import ALICE, BOB, CAROL, CHANNEL, GUILD, ManualClock


async def _start(
    service: MatchService, clock: str | None, first: int = ALICE, second: int = BOB
) -> tuple[Update, Update]:
    offer = await service.challenge(GUILD, CHANNEL, first, "lefe", second, time_control=clock)
    assert offer.challenge_id is not None
    return offer, await service.accept_challenge(offer.challenge_id, second)


def test_every_offered_control_reads_back_and_falls_in_its_pool() -> None:
    pools = {code: TimeControl.parse(code).pool for code in OFFERED}
    assert pools == {
        "move:60": LIVE,
        "move:180": LIVE,
        "move:600": LIVE,
        "game:600+5": LIVE,
        "move:86400": DAILY,
        "move:172800": DAILY,
        "move:259200": DAILY,
        "move:604800": DAILY,
    }
    assert all(TimeControl.parse(code).code == code for code in OFFERED)
    assert str(TimeControl.parse("move:259200").said()) == "3 days per move"
    assert str(TimeControl.parse("game:600+5").said()) == "10 min per player + 5 s a move"
    for wrong in ("move:abc", "hourly:3", "move:5", "game:600+9999", ""):
        with pytest.raises(InvalidOptions):
            TimeControl.parse(wrong)


async def test_a_live_control_sets_each_deadline_and_is_shown_on_the_challenge(
    service: MatchService, clock: ManualClock
) -> None:
    offer, started = await _start(service, "move:180")
    assert offer.messages[0].text == "<@11> challenges <@12> to Lefe, size 6, 3 min per move."
    assert started.match.time_control == "move:180"
    assert started.match.deadline_at == clock.now + 180
    clock.advance(100)
    moved = await service.play(started.match_id, ALICE, "e5")
    assert moved.match.deadline_at == clock.now + 180
    assert moved.match.warn_at == clock.now + 135
    # the server's own time per move (a day) changes nothing for this match
    clock.advance(181)
    (over,) = await service.tick()
    assert over.kind == "match_aborted"  # Bob never moved: aborted, not lost


async def test_without_a_choice_the_match_takes_the_servers_time_then_keeps_it(
    service: MatchService, clock: ManualClock
) -> None:
    await service.update_settings(GUILD, ALICE, True, board_move_seconds=2 * 86400)
    _, started = await _start(service, None)
    assert started.match.time_control == "move:172800"
    await service.update_settings(GUILD, ALICE, True, board_move_seconds=3600)
    moved = await service.play(started.match_id, ALICE, "e5")
    assert moved.match.deadline_at == clock.now + 2 * 86400


async def test_a_whole_game_clock_keeps_each_players_time_with_the_increment(
    service: MatchService, clock: ManualClock
) -> None:
    _, started = await _start(service, "game:600+5")
    match_id = started.match_id
    assert [s.clock_left for s in started.match.seats] == [600.0, 600.0]
    assert started.match.deadline_at == clock.now + 600
    clock.advance(100)
    moved = await service.play(match_id, ALICE, "e5")  # Alice used 100 s, gets 5 back
    assert [s.clock_left for s in moved.match.seats] == [505.0, 600.0]
    assert moved.match.deadline_at == clock.now + 600
    clock.advance(550)
    moved = await service.play(match_id, BOB, "c3")
    assert [s.clock_left for s in moved.match.seats] == [505.0, 55.0]
    assert moved.match.deadline_at == clock.now + 505
    clock.advance(10)
    moved = await service.play(match_id, ALICE, "g7")
    assert moved.match.deadline_at == clock.now + 55  # Bob has what he kept
    clock.advance(55)
    (over,) = await service.tick()
    assert over.kind == "match_over" and over.match.result is not None
    assert over.match.result["winners"] == [ALICE]


async def test_live_and_daily_matches_are_rated_apart(
    service: MatchService, clock: ManualClock
) -> None:
    _, live = await _start(service, "move:600")
    await service.resign(live.match_id, BOB)
    clock.advance(60)
    _, daily = await _start(service, "move:259200", first=BOB, second=CAROL)
    await service.resign(daily.match_id, BOB)
    assert [(r.user_id, r.pool) for r in await service.leaderboard(GUILD, "lefe", pool=LIVE)] == [
        (ALICE, LIVE),
        (BOB, LIVE),
    ]
    assert [r.user_id for r in await service.leaderboard(GUILD, "lefe", pool=DAILY)] == [
        CAROL,
        BOB,
    ]
    # without a pool: the pool of the server's time per move (a day by default: daily)
    assert [r.user_id for r in await service.leaderboard(GUILD, "lefe")] == [CAROL, BOB]
    bob = await service.stats(GUILD, BOB)
    assert [(s.game, s.pool, s.wins, s.losses) for s in bob] == [
        ("lefe", LIVE, 0, 1),
        ("lefe", DAILY, 0, 1),
    ]
    with pytest.raises(InvalidOptions):
        await service.leaderboard(GUILD, "lefe", pool="weekly")


async def test_a_rematch_keeps_the_time_control(service: MatchService, clock: ManualClock) -> None:
    _, started = await _start(service, "move:604800")
    await service.resign(started.match_id, BOB)
    asked = await service.rematch(started.match_id, BOB)
    assert asked.challenge_id is not None
    again = await service.accept_challenge(asked.challenge_id, ALICE)
    assert again.match.time_control == "move:604800"


async def test_a_leiff_table_plays_its_time_per_turn(
    service: MatchService, clock: ManualClock
) -> None:
    with pytest.raises(InvalidOptions) as refused:
        await service.open_lobby(GUILD, CHANNEL, ALICE, time_control="game:600+5")
    assert refused.value.code == "time_control_table"
    opened = await service.open_lobby(GUILD, CHANNEL, ALICE, time_control="move:172800")
    assert opened.match_id is not None
    await service.join_lobby(opened.match_id, BOB)
    started = await service.start_lobby(opened.match_id, ALICE)
    assert started.match.time_control == "move:172800"
    # a daily table: every choice has the whole time, the first reminder still comes early
    assert started.match.deadline_at == clock.now + 172800
