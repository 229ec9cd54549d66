"""Rating history, profiles and seasons on both back ends, through the match service: each
rated result stores its history point and season rating in its own transaction; a season
ends, exactly one close keeps its final standings, and the next season starts fresh while
the all-time rating goes on."""

from __future__ import annotations

import asyncio
import calendar
from collections.abc import AsyncIterator

import pytest

from bot.common.choices import service_choices
from engine import get_game
from matchcore.service import InvalidOptions, MatchService
from matchcore.service.rating_scale import display_rating
from matchcore.service.season_calendar import CLOSE_GRACE_SECONDS, season_at, season_of_key
from matchcore.storage import Repository, open_repository
from tests.service.helpers import ALICE, BOB, CAROL, GUILD, ManualClock, start_board_match

# 14 November 2023, 22:13 UTC
START = 1_700_000_000.0
DECEMBER = float(calendar.timegm((2023, 12, 1, 0, 0, 0)))


def _service(repo: Repository, clock: ManualClock) -> MatchService:
    return MatchService(repo, choices=service_choices(), clock=clock, seed_source=lambda: 7)


@pytest.fixture
async def clock() -> ManualClock:
    return ManualClock(START)


@pytest.fixture
async def service(repo: Repository, clock: ManualClock) -> AsyncIterator[MatchService]:
    started = _service(repo, clock)
    await started.start()
    yield started
    await started.close()


async def _beat(service: MatchService, clock: ManualClock, winner: int, loser: int) -> None:
    clock.advance(60)  # past the challenge cooldown
    match_id = (await start_board_match(service, "lefe", winner, loser)).match_id
    assert match_id is not None
    await service.resign(match_id, loser)


async def test_every_rated_result_adds_a_point_to_the_rating_graph(
    service: MatchService, clock: ManualClock, repo: Repository
) -> None:
    await _beat(service, clock, ALICE, BOB)
    await _beat(service, clock, ALICE, BOB)
    await _beat(service, clock, BOB, ALICE)
    profile = await service.profile(GUILD, ALICE)
    (lefe,) = profile.games
    ratings = [rating for _, rating in lefe.points]
    # from a newcomer's 1500, up, up, down; the last point is the rating shown
    assert ratings[0] == 1500
    assert ratings[1] > 1500 and ratings[2] > ratings[1] and ratings[3] < ratings[2]
    assert ratings[-1] == lefe.stats.rating
    assert [when for when, _ in lefe.points] == sorted(when for when, _ in lefe.points)
    points = await repo.rating_history(GUILD, BOB)
    assert [p.games for p in points] == [1, 2, 3]
    assert (
        display_rating(points[-1].mu) == (await service.profile(GUILD, BOB)).games[0].stats.rating
    )


async def test_the_profile_says_the_favourite_opponent_and_the_head_to_head(
    service: MatchService, clock: ManualClock
) -> None:
    await _beat(service, clock, ALICE, BOB)
    await _beat(service, clock, ALICE, BOB)
    await _beat(service, clock, CAROL, ALICE)
    profile = await service.profile(GUILD, ALICE, viewer_id=BOB)
    (lefe,) = profile.games
    assert lefe.favourite is not None and lefe.favourite.opponent_id == BOB
    assert lefe.versus_viewer is not None
    assert (lefe.versus_viewer.games, lefe.versus_viewer.wins, lefe.versus_viewer.losses) == (
        2,
        2,
        0,
    )
    seen_by_carol = (await service.profile(GUILD, ALICE, viewer_id=CAROL)).games[0]
    assert seen_by_carol.versus_viewer is not None
    assert (seen_by_carol.versus_viewer.wins, seen_by_carol.versus_viewer.losses) == (0, 1)
    # about oneself there is no head-to-head
    assert (await service.profile(GUILD, ALICE, viewer_id=ALICE)).games[0].versus_viewer is None


async def test_a_season_ends_its_standings_are_kept_and_the_next_starts_fresh(
    service: MatchService, clock: ManualClock, repo: Repository
) -> None:
    await service.update_settings(GUILD, ALICE, True, season="monthly")
    await _beat(service, clock, ALICE, BOB)
    await _beat(service, clock, ALICE, CAROL)
    november = season_at("monthly", START)
    assert november is not None and november.key == "2023-11"
    standing = await service.season_leaderboard(GUILD, "lefe", "2023-11", pool="daily")
    assert [row.user_id for row in standing][:1] == [ALICE]
    # the season ends; nothing closes it before the grace is over
    clock.now = DECEMBER + 1
    await service.tick()
    assert (await repo.seasons(GUILD))[0].closed_at is None
    clock.now = DECEMBER + CLOSE_GRACE_SECONDS + 1
    await service.tick()
    (closed,) = await repo.seasons(GUILD)
    assert closed.season == "2023-11" and closed.closed_at is not None
    # December: Bob beats Alice twice; the season board starts fresh, the all-time goes on
    await _beat(service, clock, BOB, ALICE)
    await _beat(service, clock, BOB, ALICE)
    december = await service.season_leaderboard(GUILD, "lefe", "2023-12", pool="daily")
    assert [row.user_id for row in december] == [BOB, ALICE]
    assert [row.games for row in december] == [2, 2]
    # the places are the season's own (November's first places are not December's)
    assert [row.places for row in december] == [((1, 2),), ((2, 2),)]
    all_time = {row.user_id: row for row in await service.leaderboard(GUILD, "lefe", pool="daily")}
    assert all_time[ALICE].games == 4 and all_time[BOB].games == 3
    # November's final standings are as they were at its end
    final = await service.season_leaderboard(GUILD, "lefe", "2023-11", pool="daily")
    assert final[0].user_id == ALICE
    assert [(row.rank, row.games) for row in final] == [(1, 2), (2, 1), (3, 1)]
    assert [row.rating for row in final] == [row.rating for row in standing]
    assert [row.places for row in final] == [((1, 2),), ((2, 1),), ((2, 1),)]
    listed = await service.season_list(GUILD)
    assert [(info.season.key, info.current, info.closed) for info in listed] == [
        ("2023-12", True, False),
        ("2023-11", False, True),
    ]
    with pytest.raises(InvalidOptions):
        await service.season_leaderboard(GUILD, "lefe", "2023-10")


async def test_exactly_one_process_closes_a_season(
    repo_url: str, repo: Repository, clock: ManualClock, service: MatchService
) -> None:
    await service.update_settings(GUILD, ALICE, True, season="quarterly")
    await _beat(service, clock, ALICE, BOB)
    quarter = season_at("quarterly", clock.now)
    assert quarter is not None and season_of_key(quarter.key) == quarter
    others = [await open_repository(repo_url) for _ in range(3)]
    try:
        services = [_service(other, clock) for other in others]
        after = quarter.ends_at + CLOSE_GRACE_SECONDS + 1
        closed = await asyncio.gather(*(s.close_seasons(after) for s in services))
        assert sorted(len(c) for c in closed) == [0, 0, 1]
        assert await service.close_seasons(after) == []
        final = await repo.season_standings(GUILD, quarter.key, "lefe", 10, "daily")
        assert [(s.rank, s.user_id) for s in final] == [(1, ALICE), (2, BOB)]
    finally:
        for other in others:
            await other.close()


async def test_a_closed_season_is_handed_to_one_process_to_post_until_done(
    repo_url: str, repo: Repository, clock: ManualClock, service: MatchService
) -> None:
    """The post of a closed season's standings is claimed work: one of several processes
    gets it with its best places; nobody else while the lease holds; another once it ran
    out (the first died); never again once done (a late "done" of the dead one is refused)."""
    await service.update_settings(GUILD, ALICE, True, season="monthly")
    await _beat(service, clock, ALICE, BOB)
    assert await service.season_posts_due([GUILD]) == []  # not closed yet
    clock.now = DECEMBER + CLOSE_GRACE_SECONDS + 1
    await service.tick()
    lease = ManualClock(START)
    others = [await open_repository(repo_url) for _ in range(3)]
    try:
        services = [
            MatchService(
                other,
                choices=service_choices(),
                clock=clock,
                lease_clock=lease,
                owner=f"p{number}",
                seed_source=lambda: 7,
            )
            for number, other in enumerate(others)
        ]
        claimed = await asyncio.gather(*(s.season_posts_due([GUILD]) for s in services))
        assert sorted(len(c) for c in claimed) == [0, 0, 1]
        winner = next(i for i, c in enumerate(claimed) if c)
        (post,) = claimed[winner]
        assert post.guild_id == GUILD and post.season.key == "2023-11"
        (board,) = post.boards
        assert (board.game, board.pool) == ("lefe", "daily")
        assert [(row.rank, row.user_id) for row in board.rows] == [(1, ALICE), (2, BOB)]
        assert await services[winner - 1].season_posts_due([GUILD]) == []  # the lease holds
        assert await services[winner].season_posts_due([CAROL]) == []  # not that server's
        # the claimant dies; once its lease ran out another process takes the post over
        lease.advance(services[winner].store.claim_seconds + 1)
        heir = services[winner - 1]
        (again,) = await heir.season_posts_due([GUILD])
        assert again.season.key == "2023-11"
        assert not await services[winner].season_post_done(GUILD, "2023-11")
        assert await heir.season_post_done(GUILD, "2023-11")
        lease.advance(10 * services[winner].store.claim_seconds)
        for other in services:
            assert await other.season_posts_due([GUILD]) == []
    finally:
        for other in others:
            await other.close()


async def _lose_on_time(service: MatchService, clock: ManualClock, deadline: float) -> int:
    """A daily Lefe match in which Bob, to move after his first move, runs out of time at
    ``deadline`` (the moves made a move's period before it); Alice wins once a tick applies
    it."""
    period = (await service.get_settings(GUILD)).board_move_seconds
    clock.now = deadline - period - 10
    match_id = (await start_board_match(service, "lefe", ALICE, BOB)).match_id
    assert match_id is not None
    for user in (ALICE, BOB, ALICE):
        clock.advance(3)
        record = await service.repo.get_match(match_id)
        assert record is not None
        state = get_game("lefe").from_json(record.state)
        await service.play(match_id, user, sorted(m for m in state.legal_moves() if m != "swap")[0])
    record = await service.repo.get_match(match_id)
    assert record is not None and record.deadline_at == deadline - 1
    return match_id


async def _season_games(service: MatchService, season: str) -> dict[int, int]:
    board = await service.season_leaderboard(GUILD, "lefe", season, pool="daily")
    return {row.user_id: row.games for row in board}


async def test_a_result_applied_within_the_grace_counts_in_the_season_its_match_ended_in(
    service: MatchService, clock: ManualClock
) -> None:
    """A clock that ran out ended its match at its deadline, however late a tick applied
    it: Bob's time ran out half a minute before December, the tick applies it a minute into
    December, before November is kept: the result is November's (kept with it)."""
    await service.update_settings(GUILD, ALICE, True, season="monthly")
    await _beat(service, clock, CAROL, ALICE)  # November has a result
    match_id = await _lose_on_time(service, clock, DECEMBER - 29)
    clock.now = DECEMBER + 60
    await service.tick()
    assert (await service.get_match(match_id)).result["winners"] == [ALICE]  # type: ignore[index]
    clock.now = DECEMBER + CLOSE_GRACE_SECONDS + 1
    await service.tick()  # November is kept, with it
    assert await _season_games(service, "2023-11") == {CAROL: 1, ALICE: 2, BOB: 1}
    assert await _season_games(service, "2023-12") == {}


async def test_a_result_applied_after_its_season_was_kept_counts_in_no_season(
    service: MatchService, clock: ManualClock
) -> None:
    """Bob's time ran out before December; nothing applied it until five minutes in (every
    process down), after November's standings were kept: they are final, so the result is
    in no season's board (not November's, nor December's, where the match did not end); the
    all-time rating takes it."""
    await service.update_settings(GUILD, ALICE, True, season="monthly")
    await _beat(service, clock, CAROL, ALICE)
    match_id = await _lose_on_time(service, clock, DECEMBER - 9)
    clock.now = DECEMBER + CLOSE_GRACE_SECONDS + 300
    await service.tick()  # closes November first, then applies the time-out
    assert (await service.get_match(match_id)).result["winners"] == [ALICE]  # type: ignore[index]
    assert await _season_games(service, "2023-11") == {CAROL: 1, ALICE: 1}
    assert await _season_games(service, "2023-12") == {}
    all_time = {row.user_id: row for row in await service.leaderboard(GUILD, "lefe", pool="daily")}
    assert all_time[ALICE].games == 2 and all_time[BOB].games == 1
