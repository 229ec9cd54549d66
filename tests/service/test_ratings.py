"""Ratings (openskill), records and streaks, leaderboard ordering and player statistics."""

from __future__ import annotations

import pytest

from matchcore.service import InvalidOptions, MatchService
from matchcore.service.ratings import DEFAULT_MU, DEFAULT_SIGMA, Placing, rate
from matchcore.storage import RatingRecord
from tests.service.helpers import ALICE, BOB, CAROL, DAVE, GUILD, ManualClock, start_board_match


def _rate(
    placings: list[Placing], current: dict[int, RatingRecord] | None = None
) -> dict[int, RatingRecord]:
    records = rate(placings, current or {}, guild_id=GUILD, game="lefe", pool="human", now=5.0)
    return {r.user_id: r for r in records}


def test_a_win_moves_both_ratings_apart() -> None:
    after = _rate([Placing((1,), 1), Placing((2,), 2)])
    assert after[1].mu > DEFAULT_MU > after[2].mu
    assert after[1].sigma < DEFAULT_SIGMA and after[2].sigma < DEFAULT_SIGMA
    assert (after[1].wins, after[1].losses, after[1].games, after[1].streak) == (1, 0, 1, 1)
    assert (after[2].wins, after[2].losses, after[2].streak) == (0, 1, -1)


def test_a_draw_between_equals_keeps_the_means_and_counts_a_draw() -> None:
    after = _rate([Placing((1,), 1), Placing((2,), 1)])
    assert after[1].mu == pytest.approx(DEFAULT_MU) and after[2].mu == pytest.approx(DEFAULT_MU)
    assert after[1].sigma < DEFAULT_SIGMA
    assert (after[1].draws, after[1].streak, after[2].draws) == (1, 0, 1)


def test_multiplayer_ranks_order_the_new_ratings() -> None:
    after = _rate([Placing((1,), 3), Placing((2,), 1), Placing((3,), 2), Placing((4,), 4)])
    assert after[2].mu > after[3].mu > after[1].mu > after[4].mu
    assert [after[u].wins for u in (1, 2, 3, 4)] == [0, 1, 0, 0]
    # third of four is a place, not a loss, and no run of losses
    assert [after[u].losses for u in (1, 2, 3, 4)] == [0, 0, 0, 0]
    assert [after[u].streak for u in (1, 2, 3, 4)] == [0, 1, 0, 0]


def test_between_two_sides_second_is_a_loss_and_behind_a_bot_first_is_no_win() -> None:
    two_teams = _rate([Placing((1, 3), 2), Placing((2, 4), 1)])
    assert (two_teams[1].losses, two_teams[1].streak, two_teams[2].wins) == (1, -1, 1)
    # two people behind a bot at a table of three: 2nd and 3rd of 3, neither wins
    behind_bot = _rate([Placing((1,), 2, field=3), Placing((2,), 3, field=3)])
    assert [(r.wins, r.losses, r.draws) for r in behind_bot.values()] == [(0, 0, 0)] * 2
    assert behind_bot[1].mu > behind_bot[2].mu


def test_teams_share_the_result() -> None:
    after = _rate([Placing((1, 3), 2), Placing((2, 4), 1)])
    assert after[2].wins == after[4].wins == 1 and after[1].losses == after[3].losses == 1
    assert after[2].mu == pytest.approx(after[4].mu) and after[2].mu > after[1].mu


def test_streaks_grow_and_reset() -> None:
    ratings: dict[int, RatingRecord] = {}
    for _ in range(3):
        ratings = _rate([Placing((1,), 1), Placing((2,), 2)], ratings)
    assert (ratings[1].streak, ratings[1].best_streak, ratings[2].streak) == (3, 3, -3)
    ratings = _rate([Placing((1,), 2), Placing((2,), 1)], ratings)
    assert (ratings[1].streak, ratings[1].best_streak, ratings[2].streak) == (-1, 3, 1)


async def _beat(service: MatchService, clock: ManualClock, winner: int, loser: int) -> None:
    clock.advance(60)  # past the challenge cooldown
    match_id = (await start_board_match(service, "lefe", winner, loser)).match_id
    await service.resign(match_id, loser)


async def test_leaderboard_orders_by_the_rating_shown(
    service: MatchService, clock: ManualClock
) -> None:
    await _beat(service, clock, ALICE, BOB)
    await _beat(service, clock, ALICE, CAROL)
    await _beat(service, clock, CAROL, BOB)
    rows = await service.leaderboard(GUILD, "lefe")
    assert [r.user_id for r in rows] == [ALICE, CAROL, BOB]
    assert [r.rank for r in rows] == [1, 2, 3]
    assert rows[0].rating > rows[1].rating > rows[2].rating
    # Alice won twice, Carol once, Bob lost twice: around 1500, by tens, all provisional
    assert rows[0].rating > 1500 > rows[2].rating > 1350 and rows[0].rating < 1650
    assert all(row.provisional for row in rows)
    assert (rows[0].games, rows[0].wins, rows[0].streak) == (2, 2, 2)
    assert [r.user_id for r in await service.leaderboard(GUILD, "lefe", limit=1)] == [ALICE]
    assert await service.leaderboard(GUILD, "dalen") == []
    assert await service.leaderboard(GUILD + 1, "lefe") == []
    with pytest.raises(InvalidOptions):
        await service.leaderboard(GUILD, "lefe", limit=0)


async def test_leaderboard_ties_go_to_more_games_then_lower_id(
    service: MatchService, clock: ManualClock
) -> None:
    await _beat(service, clock, DAVE, CAROL)
    await _beat(service, clock, BOB, ALICE)
    rows = await service.leaderboard(GUILD, "lefe")
    assert [r.user_id for r in rows] == [BOB, DAVE, ALICE, CAROL]


async def test_stats_per_game_for_one_player(service: MatchService, clock: ManualClock) -> None:
    await _beat(service, clock, ALICE, BOB)
    clock.advance(60)
    match_id = (await start_board_match(service, "dalen", BOB, ALICE)).match_id
    await service.offer_draw(match_id, BOB)
    await service.accept_draw(match_id, ALICE)
    stats = await service.stats(GUILD, ALICE)
    assert [(s.game, s.games, s.wins, s.losses, s.draws) for s in stats] == [
        ("dalen", 1, 0, 0, 1),
        ("lefe", 1, 1, 0, 0),
    ]
    assert [s.game for s in await service.stats(GUILD, ALICE, "Lefe")] == ["lefe"]
    assert await service.stats(GUILD, CAROL) == []
