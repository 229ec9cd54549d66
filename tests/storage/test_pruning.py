"""What only grew is pruned on a schedule one process claims (issue 31, point 10).

On SQLite and PostgreSQL alike: closed challenges, the message ids, delivery records, event
lines and DM notices of ended matches, languages and refusals of DMs of members long unseen
at no table, and preferences with nothing chosen go once old enough; everything else stays, and an ended match keeps
its moves (its replay is drawn from them after the pass). The pass is claimed by exactly
one of two processes, once per day, and taken over when its process dies.
"""

from __future__ import annotations

import io
from collections.abc import AsyncIterator

import pytest
from PIL import Image

from bot.common.choices import service_choices
from engine import get_game
from matchcore.service import MatchService
from matchcore.service.housekeeping import DAY, Retention
from matchcore.storage import Repository, open_repository
from render import replay_gif
from tests.service.helpers import (
    ALICE,
    BOB,
    CAROL,
    CHANNEL,
    DAVE,
    ERIN,
    FRANK,
    GUILD,
    ManualClock,
    run_prune_pass,
    start_board_match,
)

GRACE = Retention(closed_challenges_days=30, ended_match_messages_days=7, member_languages_days=35)
HOUR = 3600.0


class Process:
    """One bot process over the shared database: its service, named, with its clocks."""

    def __init__(self, repo: Repository, name: str, clock: ManualClock, lease: ManualClock):
        self.repo = repo
        self.service = MatchService(
            repo,
            choices=service_choices(),
            clock=clock,
            lease_clock=lease,
            owner=name,
            seed_source=lambda: 7,
            retention=GRACE,
        )


@pytest.fixture
async def repo_pair(repo_url: str) -> AsyncIterator[tuple[Repository, Repository]]:
    first = await open_repository(repo_url)
    second = await open_repository(repo_url)
    yield first, second
    await first.close()
    await second.close()


async def _finish_by_resigning(service: MatchService, first: int, second: int) -> int:
    """A Lefe match of three moves (the first legal ones), then resigned."""
    match_id = (await start_board_match(service, first=first, second=second)).match_id
    state = get_game("lefe").from_json((await service.repo.get_match(match_id)).state)
    for user in (first, second, first):
        move = sorted(m for m in state.legal_moves() if m != "swap")[0]
        await service.play(match_id, user, move)
        state = state.play(move)
    await service.resign(match_id, second)
    return match_id


async def test_a_pass_prunes_what_is_old_enough_and_keeps_the_rest(repo: Repository) -> None:
    clock, lease = ManualClock(), ManualClock()
    service = Process(repo, "only", clock, lease).service
    await service.start()

    # ---- forty days ago ----------------------------------------------------------------
    old_match = await _finish_by_resigning(service, ALICE, BOB)
    await service.repo.set_messages(old_match, {"board": 501, "delivered": 4, f"hand:{ALICE}": 502})
    await service.repo.set_table_lines(old_match, 503, ["<@11> plays e5"])
    await service.repo.record_dm_failure(ALICE, service.clock(), 50007)
    assert await service.repo.claim_dm_notice(ALICE, old_match)
    declined = await service.challenge(GUILD, CHANNEL, CAROL, "dalen", DAVE)
    await service.decline_challenge(declined.challenge_id, DAVE)
    withdrawn = await service.challenge(GUILD, CHANNEL, ERIN, "dalen", FRANK)
    await service.cancel_challenge(withdrawn.challenge_id, ERIN)
    expired = await service.challenge(GUILD, CHANNEL, FRANK, "lefe", ERIN)
    clock.advance(HOUR)
    await service.tick()  # expires it
    await service.note_member_language(101, "de")  # not seen since, sits nowhere
    await service.note_member_language(CAROL, "de")  # not seen since, but at a table below
    await service.set_preferences(102, theme="night")
    await service.set_preferences(102, theme=None)  # back to nothing chosen
    await service.set_preferences(103, hints=False)  # a choice: kept for ever
    await service.set_preferences(109, turn_dms=True)  # a choice too (hints, theme default)
    # refused DMs: Carol sits at a table below (her hands still read it), Frank at none
    await service.repo.record_dm_failure(CAROL, service.clock(), 50007)
    await service.repo.record_dm_failure(FRANK, service.clock(), 50007)

    # ---- now: forty days on --------------------------------------------------------------
    clock.advance(40 * DAY)
    lease.advance(40 * DAY)
    running = (await start_board_match(service, first=CAROL, second=DAVE)).match_id
    await service.repo.set_messages(running, {"board": 601})
    recent_match = await _finish_by_resigning(service, ERIN, FRANK)
    await service.repo.set_messages(recent_match, {"board": 701})
    clock.advance(3 * DAY)  # ended three days ago: within its week
    lease.advance(3 * DAY)
    open_now = await service.challenge(GUILD, CHANNEL, 104, "lefe", 105)
    recently_declined = await service.challenge(GUILD, CHANNEL, 106, "lefe", 107)
    await service.decline_challenge(recently_declined.challenge_id, 107)
    await service.note_member_language(108, "de")
    await service.repo.record_dm_failure(DAVE, service.clock(), 50007)  # three days ago

    deleted = await run_prune_pass(service)

    assert deleted == {
        # the old match's row, delivered; the running and the recent match's rows, never
        # recorded as delivered, stay for the next start to send
        "outbox": 1,
        "challenges": 4,  # declined, withdrawn, expired, and the old match's accepted one
        "match_messages": 2,  # board and hand ("delivered" is a column of the match row)
        "table_lines": 1,
        "dm_notices": 1,
        "member_languages": 1,
        "dm_failures": 2,  # Alice's and Frank's: old, and seated nowhere
        "member_preferences": 1,
    }
    waiting = [m.id for m in await repo.undelivered_matches()]
    assert running in waiting and recent_match in waiting and old_match not in waiting
    # the old match: its messages and lines gone, its moves and result all there
    old = await repo.get_match(old_match)
    # ("delivered" stays: a column of the match row since migration 0010, no row to prune)
    assert old is not None and old.status == "finished" and old.messages == {"delivered": 4}
    assert await repo.table_lines(old_match) is None
    # the refusals a running table's delivery reads stay (Carol's old one, Dave's recent one)
    refusals = await repo.dm_failures([ALICE, CAROL, DAVE, FRANK])
    assert sorted(refusals) == [CAROL, DAVE] and refusals[CAROL].code == 50007
    moves = [a.action for a in await service.action_log(old_match)][:3]
    board = next(p.state for p in (await service.current(old_match)).pictures if p.state)
    frames = list(board.history())
    assert len(frames) == 4 and list(frames[-1].moves) == moves
    gif = Image.open(io.BytesIO(replay_gif(frames, names=("Alice", "Bob"))))
    assert gif.format == "GIF" and gif.n_frames >= 4
    assert [m.id for m in await repo.matches_of_user(ALICE, ["finished"])] == [old_match]
    # what is in use or recent stays
    assert (await repo.get_match(running)).messages == {"board": 601}  # type: ignore[union-attr]
    assert (await repo.get_match(recent_match)).messages == {"board": 701}  # type: ignore[union-attr]
    for challenge in (declined, withdrawn, expired):
        assert await repo.get_challenge(challenge.challenge_id) is None
    assert (await repo.get_challenge(open_now.challenge_id)).status == "open"  # type: ignore[union-attr]
    assert (await repo.get_challenge(recently_declined.challenge_id)) is not None
    assert await repo.member_languages([101, CAROL, 108]) == {CAROL: "de", 108: "de"}
    assert await repo.get_preferences(102) is None
    assert (await repo.get_preferences(103)).hints is False  # type: ignore[union-attr]
    assert (await repo.get_preferences(109)).turn_dms is True  # type: ignore[union-attr]
    # the cooldown (an hour at most) finds no challenge that old any more
    assert await repo.last_challenge_at(GUILD, ALICE) is None
    assert await repo.last_challenge_at(GUILD, CAROL) is not None


async def test_the_pass_is_claimed_by_one_process_once_a_day(
    repo_pair: tuple[Repository, Repository],
) -> None:
    clock, lease = ManualClock(), ManualClock()
    one = Process(repo_pair[0], "one", clock, lease).service
    two = Process(repo_pair[1], "two", clock, lease).service
    one.housekeeping.retention = two.housekeeping.retention = Retention(window=1)
    for number in range(6):
        await one.set_preferences(200 + number, hints=None)  # six rows with nothing chosen
    clock.advance(HOUR)
    lease.advance(HOUR)

    # "one" claims the pass; it spans calls (one window each), "two" is refused throughout
    one.housekeeping.retention = Retention(window=1, windows_per_call=1)
    assert await one.prune_due() is None and one.housekeeping.current is not None
    for _ in range(16):  # a window a call: one a table without rows, one a row
        assert await two.prune_due() is None and two.housekeeping.current is None
        two.housekeeping._next_ask = float("-inf")  # ask every time, not every 10 minutes
        finished = await one.prune_due()
        if finished is not None:
            break
    assert finished is not None and finished["member_preferences"] == 6
    # done for the day: neither runs it again before a day has passed
    lease.advance(23 * HOUR)
    for process in (one, two):
        process.housekeeping._next_ask = float("-inf")
        assert await process.prune_due() is None
    lease.advance(2 * HOUR)
    # the next day's, by whichever asks first (however many calls it takes on this machine)
    assert (await run_prune_pass(two))["member_preferences"] == 0
    assert await one.prune_due() is None


async def test_a_pass_left_by_a_dead_process_is_taken_over(
    repo_pair: tuple[Repository, Repository],
) -> None:
    clock, lease = ManualClock(), ManualClock()
    dead = Process(repo_pair[0], "dead", clock, lease).service
    heir = Process(repo_pair[1], "heir", clock, lease).service
    dead.housekeeping.retention = Retention(window=1, windows_per_call=1)
    for number in range(4):
        await dead.set_preferences(300 + number, hints=None)
    await dead.note_member_language(310, "de")
    clock.advance(200 * DAY)
    lease.advance(200 * DAY)
    assert await dead.prune_due() is None  # one window done, then the process dies
    assert await heir.prune_due() is None  # its lease still holds
    lease.advance(dead.store.claim_seconds + 1)
    heir.housekeeping._next_ask = float("-inf")
    finished = await run_prune_pass(heir)  # a whole pass of its own, from the start
    assert finished["member_languages"] == 1
    assert finished["member_preferences"] == 4  # all of them: the dead one got no further
    assert await repo_pair[1].member_languages([310]) == {}
    # the dead process, were it to wake, no longer holds the chore
    assert not await repo_pair[0].finish_chore("prune", "dead", lease())


async def test_a_window_looks_at_its_rows_only_and_says_where_it_stopped(
    repo: Repository,
) -> None:
    for user in (5, 1, 9, 3):
        await repo.set_member_language(user, "de", 10.0)
    await repo.set_member_language(7, "de", 1_000.0)  # seen later: kept
    assert await repo.prune_window("member_languages", -(2**63), 500.0, 2) == (2, 3)
    assert await repo.member_languages([1, 3, 5, 7, 9]) == {5: "de", 7: "de", 9: "de"}
    assert await repo.prune_window("member_languages", 3, 500.0, 2) == (1, 7)
    assert await repo.prune_window("member_languages", 7, 500.0, 2) == (1, 9)
    assert await repo.prune_window("member_languages", 9, 500.0, 2) == (0, None)
    assert await repo.member_languages([1, 3, 5, 7, 9]) == {7: "de"}
