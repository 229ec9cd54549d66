"""Several processes on one database, through the service, on SQLite and PostgreSQL.

Each "process" is a service over its own repository connection (its own pool), with its
own claims owner, exactly as two bot processes would be. What must hold: a deadline's
timeout or warning is applied by one of them, a bot's turn is searched and played by one,
and work claimed by a process that died passes to another once its lease runs out.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Awaitable, Callable
from pathlib import Path

import pytest

from bot.common.choices import service_choices
from engine import get_game
from matchcore.service import MatchService
from matchcore.storage import open_repository
from tests.postgres import fresh_database
from tests.service.helpers import (
    ALICE,
    BOB,
    CAROL,
    CHANNEL,
    GUILD,
    ManualClock,
    gather_bot_answers,
    start_board_match,
)

BOT = 999_000_222
Opener = Callable[..., Awaitable[MatchService]]


@pytest.fixture(params=["sqlite", "postgresql"])
async def database_url(request: pytest.FixtureRequest, tmp_path: Path) -> AsyncIterator[str]:
    if request.param == "sqlite":
        yield f"sqlite:///{tmp_path / 'shared.sqlite3'}"
        return
    async with fresh_database() as url:
        yield url


class LeaseClock:
    """Real-time leases, moved by hand: "later" for one process only."""

    def __init__(self, now: float = 5_000.0) -> None:
        self.now = now

    def __call__(self) -> float:
        return self.now


@pytest.fixture
async def open_process(database_url: str, clock: ManualClock) -> AsyncIterator[Opener]:
    opened: list[MatchService] = []

    async def opener(name: str, **options: object) -> MatchService:
        repo = await open_repository(database_url)
        service = MatchService(
            repo, choices=service_choices(), clock=clock, owner=name, bot_user_id=BOT, **options
        )  # type: ignore[arg-type]
        await service.start()
        opened.append(service)
        return service

    yield opener
    for service in opened:
        await service.close()
        await service.repo.close()


async def test_a_timeout_is_applied_by_exactly_one_of_two_ticking_processes(
    open_process: Opener, clock: ManualClock
) -> None:
    one, two = await open_process("one"), await open_process("two")
    started = await start_board_match(one)
    await two.play(started.match_id, ALICE, "e5")
    await one.play(started.match_id, BOB, "c3")  # both moved: a timeout decides the match
    clock.advance(86400)
    results = await asyncio.gather(one.tick(), two.tick(), one.tick(), two.tick())
    updates = [u for found in results for u in found]
    assert [u.kind for u in updates] == ["match_over"]
    log = await one.action_log(started.match_id)
    assert [a.action for a in log] == ["e5", "c3", "!timeout"]


async def test_a_warning_is_sent_by_exactly_one_process(
    open_process: Opener, clock: ManualClock
) -> None:
    one, two = await open_process("one"), await open_process("two")
    started = await start_board_match(one)
    clock.advance(86400 * 0.75)
    results = await asyncio.gather(one.tick(), two.tick())
    assert [u.kind for found in results for u in found] == ["warning"]
    assert (await two.get_match(started.match_id)).warn_at is None


async def test_a_bot_turn_is_searched_and_played_by_one_process(open_process: Opener) -> None:
    searches: list[str] = []

    async def ai_move(state_json: str, game: str, level: str) -> str:
        searches.append(state_json)
        await asyncio.sleep(0.05)  # thinking, while the other process asks too
        return sorted(get_game(game).from_json(state_json).legal_moves())[0]

    one = await open_process("one", ai_move=ai_move)
    two = await open_process("two", ai_move=ai_move)
    core = gather_bot_answers(one)  # the turn process one's own commit starts
    started = await one.challenge_bot(GUILD, CHANNEL, ALICE, "dalen", "easy", size=5)
    record = await one.repo.get_match(started.match_id)
    first = sorted(get_game("dalen").from_json(record.state).legal_moves())[0]
    moved = await one.play(started.match_id, ALICE, first)
    results = await asyncio.gather(
        one.advance_bots(started.match_id),
        two.advance_bots(started.match_id),
        one.tick(),
        two.tick(),
        core.take(started.match_id),
    )
    assert sum(len(found) for found in results) == 1
    assert len(searches) == 1
    final = await two.get_match(started.match_id)
    assert final.version == moved.version + 1 and final.to_act == (ALICE,)


async def test_work_claimed_by_a_dead_process_passes_on_when_its_lease_runs_out(
    open_process: Opener, clock: ManualClock
) -> None:
    lease = LeaseClock()
    one = await open_process("one", lease_clock=lease)
    two = await open_process("two", lease_clock=lease)
    started = await start_board_match(one)
    await one.play(started.match_id, ALICE, "e5")
    await one.play(started.match_id, BOB, "c3")
    clock.advance(86400)
    # Process one claims the timeout and is killed before doing it.
    claimed = await one.repo.claim_due_matches(clock.now, "one", lease.now, lease.now + 30)
    assert [m.id for m in claimed] == [started.match_id]
    assert await two.tick() == []  # the claim is alive: not two's to do
    lease.now += 31
    (over,) = await two.tick()
    assert over.kind == "match_over" and over.match.result["winners"] == [BOB]
    assert await one.tick() == []
    assert [a.action for a in await two.action_log(started.match_id)] == [
        "e5",
        "c3",
        "!timeout",
    ]
    assert BOB in over.match.user_ids


async def test_two_results_of_one_player_in_two_processes_both_count(
    open_process: Opener, clock: ManualClock
) -> None:
    one, two = await open_process("one"), await open_process("two")
    await one.update_settings(GUILD, ALICE, True, challenge_cooldown_seconds=0)
    first = await start_board_match(one, first=ALICE, second=BOB)
    second = await start_board_match(two, first=ALICE, second=CAROL)
    await asyncio.gather(one.resign(first.match_id, BOB), two.resign(second.match_id, CAROL))
    alice = (await one.repo.get_ratings(GUILD, "lefe", [ALICE], "daily"))[ALICE]
    assert (alice.games, alice.wins) == (2, 2)
    assert (await one.stats(GUILD, BOB))[0].losses == 1


async def test_a_turn_notice_goes_out_once_whichever_processes_look(
    open_process: Opener, clock: ManualClock
) -> None:
    """Two processes look for the turn DMs due at the same moment: the member gets one
    notice for the turn, from whichever claimed it (issue 35)."""
    one, two = await open_process("one"), await open_process("two")
    offer = await one.challenge(GUILD, CHANNEL, ALICE, "lefe", BOB, time_control="move:172800")
    assert offer.challenge_id is not None
    await one.accept_challenge(offer.challenge_id, BOB)
    await one.set_preferences(ALICE, turn_dms=True)
    clock.advance(600)
    found = await asyncio.gather(one.turn_notices(), two.turn_notices())
    notices = [notice for batch in found for notice in batch]
    assert [(n.user_id, len(n.matches)) for n in notices] == [(ALICE, 1)]
    clock.advance(600)
    assert await one.turn_notices() == [] and await two.turn_notices() == []
