"""The storage of turn notices and vacations (issue 35), on SQLite and PostgreSQL: a notice
is claimed once whoever asks (two processes at once included), candidates are only the
matches whose members asked for turn DMs and have no notice for the current deadline, the
seat keeps until when its player is away, and the vacation a server gave adds up, never
below none."""

from __future__ import annotations

import asyncio

from matchcore.storage import MemberPreferences, Repository, open_repository
from tests.storage.test_contract import ALICE, BOB, GUILD, draft


async def test_a_notice_is_claimed_once_and_only_for_members_who_asked(
    repo: Repository, repo_url: str
) -> None:
    match = await repo.create_match(draft(deadline_at=500.0, warn_at=400.0))
    assert await repo.turn_notice_candidates("turn", 10.0, 10) == []  # nobody asked
    await repo.put_preferences(MemberPreferences(ALICE, turn_dms=True, updated_at=1.0))
    await repo.put_preferences(MemberPreferences(BOB, turn_dms=False, updated_at=1.0))
    assert await repo.turn_notice_candidates("turn", 10.0, 10) == [(match.id, ALICE)]
    assert await repo.turn_notice_candidates("turn", 1.0, 10) == []  # changed after 1.0
    assert await repo.turn_notice_candidates("reminder", 399.0, 10) == []  # not yet
    assert await repo.turn_notice_candidates("reminder", 400.0, 10) == [(match.id, ALICE)]
    other = await open_repository(repo_url)  # a second process on the same database
    try:
        claims = await asyncio.gather(
            repo.claim_turn_notice(match.id, ALICE, "turn", 500.0, 20.0),
            other.claim_turn_notice(match.id, ALICE, "turn", 500.0, 20.0),
        )
    finally:
        await other.close()
    assert sorted(claims) == [False, True]
    assert await repo.turn_notice_candidates("turn", 10.0, 10) == []
    assert await repo.turn_notice_candidates("reminder", 400.0, 10) == [(match.id, ALICE)]
    # the next turn (a new deadline) is a new notice
    moved = match.evolve(deadline_at=900.0, version=1)
    await repo.commit_match(moved, 0, [])
    assert await repo.turn_notice_candidates("turn", 10.0, 10) == [(match.id, ALICE)]
    assert await repo.claim_turn_notice(match.id, ALICE, "turn", 900.0, 30.0)
    stored = await repo.get_preferences(ALICE)
    assert stored is not None and stored.turn_dms is True and stored.vacation_until is None


async def test_the_seat_keeps_its_vacation_and_the_server_counts_the_days(
    repo: Repository,
) -> None:
    match = await repo.create_match(draft())
    seats = (match.seats[0].evolve(away_until=86_400.5), match.seats[1])
    await repo.commit_match(match.evolve(seats=seats, version=1), 0, [])
    stored = await repo.get_match(match.id)
    assert stored is not None and stored.seats[0].away_until == 86_400.5
    assert await repo.vacation_used(GUILD, ALICE, 2026) == 0.0
    await repo.add_vacation_used(GUILD, ALICE, 2026, 3 * 86_400.0)
    await repo.add_vacation_used(GUILD, ALICE, 2026, -86_400.0)  # back a day early
    assert await repo.vacation_used(GUILD, ALICE, 2026) == 2 * 86_400.0
    assert await repo.vacation_used(GUILD, ALICE, 2027) == 0.0
    await repo.add_vacation_used(GUILD, ALICE, 2026, -5 * 86_400.0)
    assert await repo.vacation_used(GUILD, ALICE, 2026) == 0.0
    await repo.put_preferences(MemberPreferences(ALICE, vacation_until=99.5, updated_at=1.0))
    stored_prefs = await repo.get_preferences(ALICE)
    assert stored_prefs is not None and stored_prefs.vacation_until == 99.5
