"""Lookups the Discord layer relies on, and board moves computed off the event loop:
the server's match list, "my match in this channel" filtered in SQL, ``current`` for one
user, and a big-board Lublache move computed in a worker thread, in order."""

from __future__ import annotations

import asyncio
import threading
from typing import Any

import pytest

from engine import get_game
from matchcore.service import IllegalAction, MatchService
from tests.service.helpers import (
    ALICE,
    BOB,
    CAROL,
    CHANNEL,
    DAVE,
    GUILD,
    ManualClock,
    start_board_match,
)

OTHER_CHANNEL = 2001
OTHER_GUILD = 1001


async def _match_between(
    service: MatchService, clock: ManualClock, first: int, second: int, channel: int = CHANNEL
) -> int:
    clock.advance(120)  # past the challenge cooldown
    offer = await service.challenge(GUILD, channel, first, "dalen", second, size=5)
    assert offer.challenge_id is not None
    return (await service.accept_challenge(offer.challenge_id, second)).match_id or 0


async def test_guild_matches_lists_every_running_match_and_lobby_of_the_server(
    service: MatchService, clock: ManualClock
) -> None:
    first = await _match_between(service, clock, ALICE, BOB)
    second = await _match_between(service, clock, CAROL, DAVE, OTHER_CHANNEL)
    lobby = (await service.open_lobby(GUILD, CHANNEL, ALICE)).match_id
    elsewhere = await service.open_lobby(OTHER_GUILD, CHANNEL, BOB)
    finished = await _match_between(service, clock, BOB, CAROL)
    await service.resign(finished, BOB)

    listed = await service.guild_matches(GUILD)
    assert [m.id for m in listed] == [lobby, second, first]  # most recently active first
    assert {m.status for m in listed} == {"running", "lobby"}
    assert elsewhere.match_id not in [m.id for m in listed]
    assert [m.id for m in await service.guild_matches(GUILD, limit=2)] == [lobby, second]
    clock.advance(10)
    await service.play(first, ALICE, "c3")
    assert (await service.guild_matches(GUILD))[0].id == first


async def test_match_in_channel_finds_only_the_callers_match(
    service: MatchService, clock: ManualClock
) -> None:
    mine = await _match_between(service, clock, ALICE, BOB)
    # newer matches of other people in the same channel are not the caller's
    await _match_between(service, clock, CAROL, DAVE)
    found = await service.match_in_channel(GUILD, CHANNEL, ALICE)
    assert found is not None and found.id == mine
    assert (await service.match_in_channel(GUILD, OTHER_CHANNEL, ALICE)) is None
    assert (await service.match_in_channel(GUILD, CHANNEL, 999)) is None
    loaded = await service.repo.matches_in_channel(GUILD, CHANNEL, ("running",), ALICE)
    assert [r.id for r in loaded] == [mine]
    assert len(await service.repo.matches_in_channel(GUILD, CHANNEL, ("running",))) == 2


async def test_current_for_one_user_carries_only_that_users_hand(service: MatchService) -> None:
    opened = await service.open_lobby(GUILD, CHANNEL, ALICE)
    table = opened.match_id
    assert table is not None
    for guest in (BOB, CAROL):
        await service.join_lobby(table, guest)
    await service.start_lobby(table, ALICE)

    everyone = await service.current(table)
    assert {p.for_user for p in everyone.pictures} == {None, ALICE, BOB, CAROL}
    only_bob = await service.current(table, for_user=BOB)
    assert {p.for_user for p in only_bob.pictures} == {None, BOB}
    assert {b.for_user for b in only_bob.buttons} == {BOB}
    bob_hand = next(p for p in only_bob.pictures if p.for_user == BOB)
    assert bob_hand.view == next(p for p in everyone.pictures if p.for_user == BOB).view
    stranger = await service.current(table, for_user=DAVE)
    assert {p.for_user for p in stranger.pictures} == {None} and not stranger.buttons
    # board games have nothing private: the same refresh for anyone
    board = (await start_board_match(service, "dalen", DAVE, 17, size=5)).match_id
    assert board is not None
    assert (await service.current(board, for_user=DAVE)).pictures == (
        await service.current(board)
    ).pictures


async def _lublache_midgame(service: MatchService) -> tuple[int, Any]:
    match_id = (await start_board_match(service, "lublache", size=9)).match_id
    assert match_id is not None
    players = (ALICE, BOB)
    state = get_game("lublache").new(9)
    for _ in range(12):
        move = sorted(m for m in state.legal_moves() if m != "swap")[0]
        await service.play(match_id, players[state.seat_to_move], move)
        state = state.play(move)
    return match_id, state


async def test_board_moves_are_computed_off_the_event_loop_and_keep_their_order(
    service: MatchService, monkeypatch: pytest.MonkeyPatch
) -> None:
    match_id, state = await _lublache_midgame(service)
    mover = (ALICE, BOB)[state.seat_to_move]
    move = sorted(m for m in state.legal_moves() if m != "swap")[0]

    # Watch where the engine does the work: the real play_as, noting its thread.
    engine_threads: list[threading.Thread] = []
    real_play_as = type(state).play_as

    def watched_play_as(self: Any, seat: int, text: str) -> Any:
        engine_threads.append(threading.current_thread())
        return real_play_as(self, seat, text)

    monkeypatch.setattr(type(state), "play_as", watched_play_as)
    # the same move twice at once: the lock keeps them in order, the second is refused
    results = await asyncio.gather(
        service.play(match_id, mover, move, version=12),
        service.play(match_id, mover, move, version=12),
        return_exceptions=True,
    )
    assert engine_threads, "the engine was not asked"
    assert threading.main_thread() not in engine_threads, "the move was computed on the loop"
    accepted = [r for r in results if not isinstance(r, BaseException)]
    assert len(accepted) == 1 and accepted[0].version == 13
    log = await service.action_log(match_id)
    assert [a.version for a in log] == list(range(1, 14))
    assert log[-1].action == state.play(move).moves[-1]
    # the stored state is the engine's own answer (committed before it was announced)
    stored = await service.repo.get_match(match_id)
    assert stored is not None and stored.state == state.play(move).to_json()
    # an illegal move raised in the worker thread is still the player's readable refusal
    with pytest.raises(IllegalAction):
        await service.play(match_id, (ALICE, BOB)[1 - state.seat_to_move], "a1")
