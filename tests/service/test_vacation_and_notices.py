"""Vacation and turn notices in the service (issue 35), with an injected clock over days:
the daily clocks of a member away stop (up to the server's days a year), a turn that
begins meanwhile starts when they are back, ending early gives the rest back; a member who
asked for turn DMs gets one notice per turn and a reminder, grouped, and none when off,
away, or in a live match."""

from __future__ import annotations

import pytest

from matchcore.service import InvalidSettings, MatchService, Update
from matchcore.service.turn_notices import EVERY_SECONDS, NOTICE_AFTER_SECONDS
from tests.service.helpers import ALICE, BOB, CAROL, CHANNEL, GUILD, ManualClock

DAY = 86400.0


async def _daily(
    service: MatchService, first: int, second: int, clock: str = "move:259200"
) -> Update:
    offer = await service.challenge(GUILD, CHANNEL, first, "lefe", second, time_control=clock)
    assert offer.challenge_id is not None
    return await service.accept_challenge(offer.challenge_id, second)


async def test_a_vacation_stops_the_daily_clocks_of_the_member(
    service: MatchService, clock: ManualClock
) -> None:
    await service.update_settings(GUILD, ALICE, True, vacation_days=7, challenge_cooldown_seconds=0)
    waiting = await _daily(service, ALICE, BOB)  # Alice to move: her clock runs
    other = await _daily(service, BOB, ALICE)  # Bob to move
    live = await _daily(service, ALICE, CAROL, clock="move:600")
    clock.advance(DAY)
    change = await service.set_vacation(ALICE, 10)
    assert change.away_until == {GUILD: clock.now + 7 * DAY}  # the server allows seven
    assert change.preferences.vacation_until == clock.now + 10 * DAY
    assert change.moved == (waiting.match_id,)
    assert [u.match_id for u in change.updates] == [waiting.match_id]
    seat = change.updates[0].match.seats[0]
    assert seat.user_id == ALICE and seat.away_until == clock.now + 7 * DAY
    # two days of three were left when she went: they are left when she comes back
    moved = await service.get_match(waiting.match_id)
    assert moved.deadline_at == clock.now + 7 * DAY + 2 * DAY
    assert (await service.get_match(live.match_id)).deadline_at == live.match.deadline_at
    # Bob moves while she is away: her turn starts when she is back
    clock.advance(DAY)
    await service.play(other.match_id, BOB, "e5")
    assert (await service.get_match(other.match_id)).deadline_at == clock.now + 6 * DAY + 3 * DAY
    # nothing runs out meanwhile but the live match (aborted: she never moved there)
    clock.advance(5 * DAY)
    assert [u.match_id for u in await service.tick()] == [live.match_id]
    # back a day before the end of what the server gave: that day goes back to it
    back = await service.set_vacation(ALICE, 0)
    assert back.preferences.vacation_until is None
    assert sorted(back.moved) == sorted((waiting.match_id, other.match_id))
    assert (await service.get_match(waiting.match_id)).deadline_at == clock.now + 2 * DAY
    assert (await service.get_match(other.match_id)).deadline_at == clock.now + 3 * DAY
    assert await service.repo.vacation_used(GUILD, ALICE, 2023) == 6 * DAY
    with pytest.raises(InvalidSettings):
        await service.set_vacation(ALICE, 400)


async def test_turn_notices_once_per_turn_grouped_and_only_when_asked(
    service: MatchService, clock: ManualClock
) -> None:
    await service.update_settings(GUILD, ALICE, True, challenge_cooldown_seconds=0)
    first = await _daily(service, ALICE, BOB)
    second = await _daily(service, ALICE, CAROL, clock="move:86400")
    await _daily(service, ALICE, BOB, clock="move:600")  # live: never a notice
    clock.advance(NOTICE_AFTER_SECONDS)
    assert await service.turn_notices() == []  # nobody asked
    await service.set_preferences(ALICE, turn_dms=True)
    await service.set_preferences(BOB, turn_dms=True)
    clock.advance(EVERY_SECONDS)  # looked for at most this often
    (notice,) = await service.turn_notices()
    assert notice.user_id == ALICE and not notice.reminder
    assert [m.id for m in notice.matches] == [second.match_id, first.match_id]  # soonest first
    clock.advance(60)
    assert await service.turn_notices() == []  # one per turn
    # Alice moves; Bob's turn: his notice once it waited, none for Alice
    await service.play(first.match_id, ALICE, "e5")
    clock.advance(NOTICE_AFTER_SECONDS)
    (notice,) = await service.turn_notices()
    assert (notice.user_id, [m.id for m in notice.matches]) == (BOB, [first.match_id])
    # the reminder: when a quarter of the time is left (Alice's day a move against Carol)
    clock.advance(0.75 * DAY)
    (notice,) = await service.turn_notices()
    assert notice.user_id == ALICE and notice.reminder
    assert [m.id for m in notice.matches] == [second.match_id]
    clock.advance(60)
    assert await service.turn_notices() == []
    # turned off: nothing more
    await service.set_preferences(BOB, turn_dms=False)
    clock.advance(2 * DAY)
    assert all(n.user_id != BOB for n in await service.turn_notices())
