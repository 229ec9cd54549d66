"""Whole tournaments through the match service on a real SQLite file: every format's
rounds, byes, forfeits, admin calls, and a restart of the service in the middle."""

from __future__ import annotations

import itertools
import random
from pathlib import Path

import pytest

from matchcore.service import MatchService
from matchcore.service.errors import Forbidden, LobbyError
from matchcore.tournament.model import TournamentState
from tests.service.helpers import ManualClock, open_service
from tests.tournament.helpers import (
    ADMIN,
    PLAYERS,
    create_and_fill,
    finish,
    play_rounds,
    running_games,
)


async def games_of(service: MatchService, tournament_id: int) -> TournamentState:
    record = await service.repo.get_tournament(tournament_id)
    assert record is not None
    return TournamentState.from_json(record.state)


async def test_a_swiss_of_13_over_5_rounds_gives_a_new_bye_each_round_and_no_repeat(
    db_path: Path, clock: ManualClock
) -> None:
    repo, service = await open_service(db_path, clock)
    created = await create_and_fill(service, "lefe", "swiss", PLAYERS[:13], rounds=5)
    tid = created.tournament.id
    started = await service.tournaments.start_now(tid, ADMIN, True)
    assert started.kind == "started"
    assert len(started.matches) == 6
    assert all(u.kind == "match_started" and u.thread_id is not None for u in started.matches)
    rng = random.Random(38)
    await play_rounds(service, clock, tid, rng, stop_after=2)
    # a restart in the middle: a new service on the same file carries on
    await repo.close()
    repo, service = await open_service(db_path, clock)
    await play_rounds(service, clock, tid, rng)
    state = await games_of(service, tid)
    info = await service.tournaments.get(tid)
    assert info.status == "finished" and info.round == 5
    byes = [g.players[0] for g in state.games if g.bye]
    assert len(byes) == 5 == len(set(byes))
    pairs = [frozenset(g.players) for g in state.games if not g.bye]
    assert len(pairs) == 30 == len(set(pairs))
    assert all(g.done for g in state.games)
    # every match the tournament started is one of its recorded games, once
    matches = await service.repo.tournament_matches(tid)
    assert sorted(matches) == sorted(g.number for g in state.games if not g.bye)
    assert all(m.status == "finished" for m in matches.values())
    # standings: ranked by score, then Buchholz, then Sonneborn-Berger
    keys = [(-r.score, -r.buchholz, -r.sonneborn_berger) for r in info.standings]
    assert keys == sorted(keys)
    assert sum(r.score for r in info.standings) == 30 * 2 + 5 * 2
    await repo.close()


async def test_a_round_robin_of_6_plays_everyone_once(db_path: Path, clock: ManualClock) -> None:
    repo, service = await open_service(db_path, clock)
    created = await create_and_fill(service, "dalen", "round_robin", PLAYERS[:6], size=5)
    tid = created.tournament.id
    await service.tournaments.start_now(tid, ADMIN, True)
    rng = random.Random(6)
    await play_rounds(service, clock, tid, rng, stop_after=2)
    await repo.close()
    repo, service = await open_service(db_path, clock)
    await play_rounds(service, clock, tid, rng)
    state = await games_of(service, tid)
    pairs = sorted(sorted(g.players) for g in state.games)
    assert pairs == sorted(sorted(p) for p in itertools.combinations(PLAYERS[:6], 2))
    assert (await service.tournaments.get(tid)).status == "finished"
    await repo.close()


async def test_a_leiff_event_of_12_seats_tables_of_4_by_score(
    db_path: Path, clock: ManualClock
) -> None:
    repo, service = await open_service(db_path, clock)
    created = await create_and_fill(service, "leiff", "tables", PLAYERS[:12], rounds=3)
    tid = created.tournament.id
    started = await service.tournaments.start_now(tid, ADMIN, True)
    assert [len(u.match.seats) for u in started.matches if u.match] == [4, 4, 4]
    rng = random.Random(12)
    await play_rounds(service, clock, tid, rng, stop_after=1)
    await repo.close()
    repo, service = await open_service(db_path, clock)
    await play_rounds(service, clock, tid, rng)
    state = await games_of(service, tid)
    info = await service.tournaments.get(tid)
    assert info.status == "finished" and info.round == 3
    assert len(state.games) == 9 and all(len(g.players) == 4 for g in state.games)
    # each round's first table seats the four best scores before it
    for number in (2, 3):
        before = TournamentState(state.entries, tuple(g for g in state.games if g.round < number))
        totals = {p: 0 for p in state.players}
        for g in before.games:
            for p, pts in zip(g.players, g.points or (), strict=True):
                totals[p] += pts
        first_table = next(g for g in state.games if g.round == number)
        best = sorted(totals.values(), reverse=True)[:4]
        assert sorted((totals[p] for p in first_table.players), reverse=True) == best
    # a table scores 6, 4, 2, 0 between its places
    assert all(
        sorted(g.points or ()) in ([0, 0, 2, 6], [0, 2, 4, 6], [1, 1, 4, 6], [0, 0, 2, 6])
        or sum(g.points or ()) <= 12
        for g in state.games
    )
    await repo.close()


async def test_an_arena_pairs_at_once_until_time_is_up(db_path: Path, clock: ManualClock) -> None:
    repo, service = await open_service(db_path, clock)
    created = await create_and_fill(service, "lefe", "arena", PLAYERS[:16], minutes=30, size=5)
    tid = created.tournament.id
    started = await service.tournaments.start_now(tid, ADMIN, True)
    assert len(started.matches) == 8
    rng = random.Random(16)
    # two of the eight games end; the tick pairs their four players again at once
    games = await running_games(service, tid)
    for match_id in list(games.values())[:2]:
        from tests.tournament.helpers import finish

        await finish(service, match_id, rng)
    clock.advance(5)
    [step] = await service.tournaments.tick()
    assert len(step.matches) == 2
    state = await games_of(service, tid)
    for game in state.games[-2:]:
        previous = [g for g in state.games[:-2] if set(g.players) & set(game.players)]
        assert all(set(p.players) != set(game.players) for p in previous)
    # a late joiner is paired with the next free player
    await service.tournaments.join(tid, PLAYERS[20])
    await repo.close()
    repo, service = await open_service(db_path, clock)
    for _ in range(30):
        for match_id in (await running_games(service, tid)).values():
            await finish(service, match_id, rng)
        clock.advance(60)
        await service.tournaments.tick()
    info = await service.tournaments.get(tid)
    assert info.status == "finished"
    state = await games_of(service, tid)
    assert PLAYERS[20] in {p for g in state.games for p in g.players}
    # nobody met the same opponent twice in a row
    for player in state.players:
        opponents = [next(p for p in g.players if p != player) for g in state.games_of(player)]
        assert all(a != b for a, b in itertools.pairwise(opponents))
    # scores follow the arena's points with streaks
    top = info.standings[0]
    assert top.score == max(r.score for r in info.standings) > 0
    await repo.close()


async def test_an_arena_player_takes_a_break_and_comes_back(
    db_path: Path, clock: ManualClock
) -> None:
    """Leave in a running arena is a break: the game under way is played out, nobody pairs
    the player while away, the standings mark them and keep their points; Join again
    brings them back, paired at the next step."""
    repo, service = await open_service(db_path, clock)
    created = await create_and_fill(service, "lefe", "arena", PLAYERS[:4], minutes=30, size=5)
    tid = created.tournament.id
    await service.tournaments.start_now(tid, ADMIN, True)
    rng = random.Random(4)
    away = PLAYERS[0]
    left = await service.tournaments.leave(tid, away)
    assert [e.kind for e in left.events] == ["tournament_pause_player"]
    # the game under way goes on and counts
    assert away in {p for g in (await games_of(service, tid)).running_games() for p in g.players}
    for _ in range(3):
        for match_id in (await running_games(service, tid)).values():
            await finish(service, match_id, rng)
        clock.advance(5)
        await service.tournaments.tick()
    state = await games_of(service, tid)
    assert len(state.games_of(away)) == 1  # only the game before the break
    (row,) = [r for r in (await service.tournaments.get(tid)).standings if r.user_id == away]
    assert row.paused and row.withdrawn is None and row.games == 1
    back = await service.tournaments.join(tid, away)
    assert [e.kind for e in back.events if e.said] == ["tournament_back"]
    for match_id in (await running_games(service, tid)).values():
        await finish(service, match_id, rng)
    clock.advance(5)
    await service.tournaments.tick()
    state = await games_of(service, tid)
    assert len(state.games_of(away)) == 2  # paired again
    (row,) = [r for r in (await service.tournaments.get(tid)).standings if r.user_id == away]
    assert not row.paused
    await repo.close()


async def test_an_arena_of_two_pairs_them_again_rather_than_stall(
    db_path: Path, clock: ManualClock
) -> None:
    """Two players alone: each finished game pairs them again at the next step (nobody
    else will ever be free); with a third player back, the rule of no rematch holds."""
    repo, service = await open_service(db_path, clock)
    created = await create_and_fill(service, "lefe", "arena", PLAYERS[:2], minutes=30, size=5)
    tid = created.tournament.id
    await service.tournaments.start_now(tid, ADMIN, True)
    rng = random.Random(2)
    for played in range(1, 4):
        (match_id,) = (await running_games(service, tid)).values()
        await finish(service, match_id, rng)
        clock.advance(5)
        await service.tournaments.tick()
        state = await games_of(service, tid)
        assert len(state.games) == played + 1 and len(state.running_games()) == 1
    await repo.close()


async def test_arena_games_that_end_after_the_end_time_count_for_nothing(
    db_path: Path, clock: ManualClock
) -> None:
    """A game that ended in time counts even when the step that records it comes after
    the end; a game under way at the end is played out and counts for nothing (lichess's
    rule), and its streak neither grows nor breaks."""
    repo, service = await open_service(db_path, clock)
    created = await create_and_fill(service, "lefe", "arena", PLAYERS[:4], minutes=30, size=5)
    tid = created.tournament.id
    await service.tournaments.start_now(tid, ADMIN, True)
    (early, late) = sorted((await running_games(service, tid)).values())
    clock.advance(30 * 60 - 1)
    early_match = await service.get_match(early)
    winner, loser = (s.user_id for s in early_match.seats)
    await service.resign(early, loser)  # a second before the end
    clock.advance(3)  # the step after the end records it
    await service.tournaments.tick()
    late_match = await service.get_match(late)
    late_winner, late_loser = (s.user_id for s in late_match.seats)
    await service.resign(late, late_loser)  # after the end
    clock.advance(5)
    await service.tournaments.tick()
    info = await service.tournaments.get(tid)
    assert info.status == "finished"
    state = await games_of(service, tid)
    by_match = {g.number: g for g in state.games}
    assert len(by_match) == 2 and all(g.done for g in state.games)
    assert sum(g.late for g in state.games) == 1
    rows = {r.user_id: r for r in info.standings}
    assert rows[winner].score == 4 and rows[winner].games == 1  # a win: 2 points
    assert rows[late_winner].score == 0 and rows[late_winner].games == 0
    assert info.standings[0].user_id == winner
    # the late game is kept as late through the state's JSON
    assert TournamentState.from_json(state.to_json()) == state
    await repo.close()


async def test_a_player_who_never_moves_forfeits_and_is_withdrawn(
    service: MatchService, clock: ManualClock
) -> None:
    created = await create_and_fill(service, "lefe", "swiss", PLAYERS[:4], rounds=2)
    tid = created.tournament.id
    started = await service.tournaments.start_now(tid, ADMIN, True)
    first = started.matches[0]
    assert first.match is not None
    no_show = first.match.seats[0].user_id
    for update in started.matches[1:]:
        assert update.match is not None
        await service.resign(update.match.id, update.match.seats[1].user_id)
    settings = await service.get_settings(1000)
    clock.advance(settings.board_move_seconds + 1)
    [aborted] = await service.tick()  # the clock aborts the match: the first player never moved
    assert aborted.kind == "match_aborted"
    [step] = await service.tournaments.tick()
    assert any(e.kind == "tournament_forfeit" for e in step.events)
    row = next(r for r in step.tournament.standings if r.user_id == no_show)
    assert row.withdrawn == "forfeit"
    state = await games_of(service, tid)
    assert no_show not in {p for g in state.games if g.round == 2 for p in g.players}


async def test_only_admins_create_and_manage(service: MatchService) -> None:
    with pytest.raises(Forbidden):
        await service.tournaments.create(1000, 2000, PLAYERS[0], False, "lefe", "swiss")
    created = await create_and_fill(service, "lefe", "swiss", PLAYERS[:3])
    tid = created.tournament.id
    with pytest.raises(Forbidden):
        await service.tournaments.pause(tid, PLAYERS[0], False)
    with pytest.raises(LobbyError):
        await service.tournaments.join(tid, PLAYERS[0])
    left = await service.tournaments.leave(tid, PLAYERS[2])
    assert PLAYERS[2] not in left.tournament.players
    removed = await service.tournaments.remove(tid, ADMIN, True, PLAYERS[1])
    assert removed.tournament.players == (PLAYERS[0],)
    cancelled = await service.tournaments.start_now(tid, ADMIN, True)
    assert cancelled.kind == "cancelled"


async def test_pausing_stops_pairing_and_ending_early_finishes_after_the_games(
    service: MatchService, clock: ManualClock
) -> None:
    created = await create_and_fill(service, "lefe", "swiss", PLAYERS[:4], rounds=3)
    tid = created.tournament.id
    await service.tournaments.start_now(tid, ADMIN, True)
    await service.tournaments.pause(tid, ADMIN, True)
    rng = random.Random(1)
    for match_id in (await running_games(service, tid)).values():
        from tests.tournament.helpers import finish

        await finish(service, match_id, rng)
    clock.advance(5)
    [step] = await service.tournaments.tick()
    assert step.matches == () and len(step.tournament.standings) == 4
    resumed = await service.tournaments.pause(tid, ADMIN, True, paused=False)
    assert resumed.kind == "resumed"
    clock.advance(5)
    [step] = await service.tournaments.tick()
    assert len(step.matches) == 2 and step.tournament.round == 2
    await service.tournaments.close(tid, ADMIN, True)
    for match_id in (await running_games(service, tid)).values():
        await finish(service, match_id, rng)
    clock.advance(5)
    [step] = await service.tournaments.tick()
    assert step.kind == "finished" and step.tournament.round == 2
