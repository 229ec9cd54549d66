"""Leiff's Play again and table replays through the service: one table per finished table
(also when two processes take the first click at once), only its players, only those who
click; the replay shows only what the channel was shown."""

from __future__ import annotations

import asyncio
import random
from collections.abc import AsyncIterator, Awaitable, Callable
from pathlib import Path

import pytest

from bot.common.choices import service_choices
from engine import get_game
from engine.leiff import random_action
from engine.leiff.state import LeiffState
from matchcore.service import LobbyError, MatchOver, MatchService, NotInMatch, Update
from matchcore.storage import open_repository
from tests.postgres import fresh_database
from tests.service.helpers import ALICE, BOB, CAROL, CHANNEL, DAVE, GUILD, ManualClock

PLAYERS = (ALICE, BOB, CAROL, DAVE)


async def _state(service: MatchService, match_id: int) -> LeiffState:
    record = await service.repo.get_match(match_id)
    assert record is not None and record.state is not None
    state = get_game("leiff").from_json(record.state)
    assert isinstance(state, LeiffState)
    return state


async def _finished_table(
    service: MatchService, people: int, seed: int, bots: int = 0, **options: object
) -> tuple[int, list[Update]]:
    """A table of ``people`` (and ``bots`` bot seats, which the core plays) played to its
    end with random actions; the updates every action gave."""
    opened = await service.open_lobby(GUILD, CHANNEL, ALICE, options=dict(options) or None)
    for user in PLAYERS[1:people]:
        await service.join_lobby(opened.match_id, user)
    for _ in range(bots):
        await service.add_bot_seat(opened.match_id, ALICE, "hard")
    updates = [await service.start_lobby(opened.match_id, ALICE)]
    rng = random.Random(seed)
    for _ in range(3000):
        await service.turns.idle()
        record = await service.repo.get_match(opened.match_id)
        assert record is not None
        if record.status == "finished":
            return opened.match_id, updates
        state = await _state(service, opened.match_id)
        humans = [s.seat for s in record.seats if not s.is_bot]
        if not any(seat in humans for seat in state.actors()):
            await asyncio.sleep(0.01)
            continue
        seat, action = random_action(state, rng)
        while seat not in humans:
            seat, action = random_action(state, rng)
        updates.append(await service.play(opened.match_id, PLAYERS[seat], action))
    raise AssertionError("the table did not finish")


async def test_play_again_opens_one_table_for_those_who_click(service: MatchService) -> None:
    await service.update_settings(GUILD, ALICE, True, leiff_specials=True)
    old, _ = await _finished_table(service, 3, seed=1, bots=1, target=100)
    with pytest.raises(NotInMatch):
        await service.play_again(old, DAVE)  # never sat at that table
    opened = await service.play_again(old, BOB)
    lobby = opened.match
    assert opened.kind == "lobby_again" and lobby is not None and lobby.status == "lobby"
    assert lobby.host_id == BOB and lobby.id != old
    # the clicker and the bot seat, at its level; the others are told, not seated
    host = lobby.seats[0]
    assert (host.user_id, host.is_bot, host.bot_level) == (BOB, False, None)
    assert [(s.is_bot, s.bot_level) for s in lobby.seats[1:]] == [(True, "hard")]
    assert set(opened.mentions) == {ALICE, CAROL}
    assert "<@11>" in opened.messages[0].text and "<@13>" in opened.messages[0].text
    # the table's own choice kept, the server's expansions as they are now
    assert lobby.options["target"] == 100 and lobby.options["specials"] is True
    joined = await service.play_again(old, ALICE)
    assert joined.kind == "lobby_joined" and joined.match_id == lobby.id
    assert [s.user_id for s in joined.match.seats if not s.is_bot] == [BOB, ALICE]
    with pytest.raises(LobbyError, match="already at this table"):
        await service.play_again(old, BOB)
    started = await service.start_lobby(lobby.id, BOB)
    assert {s.user_id for s in started.match.seats if not s.is_bot} == {ALICE, BOB}  # not Carol
    with pytest.raises(LobbyError, match="started already"):
        await service.play_again(old, CAROL)


async def test_play_again_needs_a_finished_leiff_table(service: MatchService) -> None:
    opened = await service.open_lobby(GUILD, CHANNEL, ALICE)
    await service.join_lobby(opened.match_id, BOB)
    with pytest.raises(MatchOver, match="once its game is over"):
        await service.play_again(opened.match_id, ALICE)
    await service.start_lobby(opened.match_id, ALICE)
    with pytest.raises(MatchOver, match="once its game is over"):
        await service.play_again(opened.match_id, ALICE)


# ---- two processes on one database -----------------------------------------------------
Opener = Callable[[str], Awaitable[MatchService]]


@pytest.fixture(params=["sqlite", "postgresql"])
async def open_process(
    request: pytest.FixtureRequest, tmp_path: Path, clock: ManualClock
) -> AsyncIterator[Opener]:
    opened: list[MatchService] = []

    async def run(url: str) -> AsyncIterator[Opener]:
        async def opener(name: str) -> MatchService:
            repo = await open_repository(url)
            service = MatchService(repo, choices=service_choices(), clock=clock, owner=name)
            await service.start()
            opened.append(service)
            return service

        yield opener

    if request.param == "sqlite":
        async for opener in run(f"sqlite:///{tmp_path / 'shared.sqlite3'}"):
            yield opener
    else:
        async with fresh_database() as url:
            async for opener in run(url):
                yield opener
    for service in opened:
        await service.close()
        await service.repo.close()


async def test_two_first_clicks_in_two_processes_open_one_table(open_process: Opener) -> None:
    one, two = await open_process("one"), await open_process("two")
    old, _ = await _finished_table(one, 2, seed=2)
    first, second = await asyncio.gather(one.play_again(old, ALICE), two.play_again(old, BOB))
    assert sorted([first.kind, second.kind]) == ["lobby_again", "lobby_joined"]
    assert first.match_id == second.match_id
    table = await one.get_match(first.match_id or 0)
    assert sorted(s.user_id for s in table.seats) == sorted([ALICE, BOB])
    lobbies = [m for m in await two.user_matches(ALICE, GUILD) if m.status == "lobby"]
    assert [m.id for m in lobbies] == [table.id]


# ---- the replay ------------------------------------------------------------------------
async def test_a_table_replay_shows_only_what_the_channel_was_shown(
    service: MatchService,
) -> None:
    await service.update_settings(
        GUILD, ALICE, True, leiff_specials=True, leiff_drinking=True, leiff_target=100
    )
    old, updates = await _finished_table(service, 3, seed=5)
    shown = [p.view for u in updates for p in u.pictures if p.kind == "table"]
    replay = await service.table_replay(old)
    final = await _state(service, old)
    assert len(replay.rounds) == len(final.to_dict()["history"]) >= 1
    for view in replay.rounds:
        assert view["viewer"] is None
        assert view in shown  # the channel saw exactly this table at the time
    assert replay.rounds[-1] == final.view(None)
    assert replay.match.id == old and replay.match.status == "finished"


async def test_a_replay_waits_for_the_end_of_the_game(service: MatchService) -> None:
    opened = await service.open_lobby(GUILD, CHANNEL, ALICE)
    await service.join_lobby(opened.match_id, BOB)
    await service.start_lobby(opened.match_id, ALICE)
    with pytest.raises(MatchOver, match="once its game is over"):
        await service.table_replay(opened.match_id)
