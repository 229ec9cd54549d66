"""The tournaments' storage on both back ends: a step is all or nothing, claims exclude."""

from __future__ import annotations

import pytest

from matchcore.storage import Repository, VersionConflict
from matchcore.storage.records import MatchRecord, SeatRecord, TournamentRecord

NOW = 1_700_000_000.0


def tournament() -> TournamentRecord:
    return TournamentRecord(
        id=0,
        guild_id=1,
        channel_id=2,
        creator_id=3,
        game="lefe",
        format="swiss",
        status="running",
        state="{}",
        created_at=NOW,
        updated_at=NOW,
        options={"rounds": 3},
    )


def match(first: int, second: int) -> MatchRecord:
    return MatchRecord(
        id=0,
        guild_id=1,
        channel_id=2,
        game="lefe",
        status="running",
        created_at=NOW,
        updated_at=NOW,
        state="{}",
        seats=(SeatRecord(0, first, colour="dark"), SeatRecord(1, second, colour="light")),
    )


async def count_matches(repo: Repository) -> int:
    return len(await repo.matches_with_status(("running", "finished", "aborted", "lobby")))


async def test_a_step_stores_its_row_and_its_new_matches_together(repo: Repository) -> None:
    stored = await repo.create_tournament(tournament())
    assert await repo.get_tournament(stored.id) == stored
    step = stored.evolve(version=1, state='{"round":1}')
    created = await repo.commit_tournament(
        step, 0, new_matches=[(0, match(10, 11), ["channel"]), (1, match(12, 13), ["channel"])]
    )
    assert sorted(created) == [0, 1]
    found = await repo.tournament_matches(stored.id)
    assert {n: m.id for n, m in found.items()} == {n: m.id for n, m in created.items()}
    assert await repo.tournament_of_match(created[1].id) == (stored.id, 1)
    assert (await repo.get_tournament(stored.id)) == step


async def test_a_step_on_a_stale_version_stores_nothing(repo: Repository) -> None:
    stored = await repo.create_tournament(tournament())
    await repo.commit_tournament(stored.evolve(version=1), 0)
    before = await count_matches(repo)
    with pytest.raises(VersionConflict):
        await repo.commit_tournament(
            stored.evolve(version=1, state='{"round":9}'),
            0,
            new_matches=[(0, match(10, 11), ["channel"])],
        )
    assert await count_matches(repo) == before
    assert await repo.tournament_matches(stored.id) == {}
    assert (await repo.get_tournament(stored.id)).state == "{}"  # type: ignore[union-attr]


async def test_an_ended_match_makes_its_tournament_due_until_recorded(repo: Repository) -> None:
    stored = await repo.create_tournament(tournament())
    created = await repo.commit_tournament(
        stored.evolve(version=1), 0, new_matches=[(0, match(10, 11), ["channel"])]
    )
    assert await repo.claim_due_tournaments(NOW, "a", NOW, NOW + 30) == []
    ended = created[0].evolve(status="finished", version=1, finished_at=NOW)
    await repo.commit_match(ended, 0, [])
    assert await repo.claim_due_tournaments(NOW, "a", NOW, NOW + 30) == [stored.id]
    # held by a: b gets nothing until the lease runs out or a lets go
    assert await repo.claim_due_tournaments(NOW, "b", NOW, NOW + 30) == []
    assert not await repo.claim_tournament(stored.id, "b", NOW, NOW + 30)
    assert await repo.claim_due_tournaments(NOW, "b", NOW + 31, NOW + 61) == [stored.id]
    await repo.release_tournament(stored.id, "b")
    unfinished = await repo.tournament_matches(stored.id, ended_unrecorded=True)
    assert list(unfinished) == [0]
    await repo.commit_tournament(stored.evolve(version=2), 1, recorded=[0])
    assert await repo.tournament_matches(stored.id, ended_unrecorded=True) == {}
    assert await repo.claim_due_tournaments(NOW, "c", NOW + 100, NOW + 130) == []


async def test_a_tournament_keeps_its_messages_and_thread(repo: Repository) -> None:
    stored = await repo.create_tournament(tournament())
    await repo.set_tournament_messages(stored.id, {"announcement": 5, "standings": 6})
    await repo.set_tournament_messages(stored.id, {"standings": 7})
    await repo.set_tournament_thread(stored.id, 99)
    again = await repo.get_tournament(stored.id)
    assert again is not None and again.thread_id == 99
    assert again.messages == {"announcement": 5, "standings": 7}
    listed = await repo.tournaments_in_guild(1, ("running",))
    assert [t.id for t in listed] == [stored.id]
