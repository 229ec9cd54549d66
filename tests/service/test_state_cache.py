"""The parsed states a process keeps are a bounded cache over the database (issue 31).

A process keeps the states of the matches it used last, at most ``state_cache_size``, and
parses a match again from its stored JSON when it comes back. That is only sound if the
state an action leaves in memory and the state parsed from what was stored are the same in
everything the service reads of them: checked here over random games of every game, with a
cache of one so that every state is let go and read again. Besides: the least recently
used state goes first, a match being worked on is never let go, and what the describer
keeps beside a state goes with it.
"""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

from bot.common.choices import service_choices
from engine import get_game
from engine.board import BoardState
from engine.leiff import random_action
from matchcore.service import MatchService
from matchcore.service.state_cache import StateCache
from matchcore.storage import open_repository
from tests.service.helpers import ALICE, BOB, CAROL, CHANNEL, GUILD, ManualClock

BOARD_MOVES = 40
LEIFF_ACTIONS = 80


def test_the_least_recently_used_state_goes_first() -> None:
    cache = StateCache(2)
    dropped: list[int] = []
    cache.dropped_listeners.append(dropped.append)
    one, two, three = object(), object(), object()
    cache.put(1, 5, one)  # type: ignore[arg-type]
    cache.put(2, 5, two)  # type: ignore[arg-type]
    assert cache.get(1, 5) is one  # 1 is now the more recently used
    cache.put(3, 1, three)  # type: ignore[arg-type]
    assert dropped == [2] and len(cache) == 2
    assert cache.get(2, 5) is None and cache.get(1, 5) is one and cache.get(3, 1) is three
    # a state is only ever the state of its own version
    assert cache.get(1, 6) is None
    cache.drop(3)
    assert dropped == [2, 3] and 3 not in cache


def test_a_match_being_worked_on_is_never_let_go() -> None:
    busy = {1, 2}
    cache = StateCache(1, in_use=lambda match_id: match_id in busy)
    for match_id in (1, 2, 3):
        cache.put(match_id, 0, object())  # type: ignore[arg-type]
    # 1 and 2 are in use: they stay, over the capacity, and 3 (the newest) goes instead
    assert 1 in cache and 2 in cache and 3 not in cache
    busy.clear()
    cache.put(4, 0, object())  # type: ignore[arg-type]
    assert len(cache) == 1 and 4 in cache


def test_a_cache_of_none_keeps_only_what_is_being_worked_on() -> None:
    cache = StateCache(0, in_use=lambda match_id: match_id == 7)
    cache.put(7, 0, object())  # type: ignore[arg-type]
    cache.put(8, 0, object())  # type: ignore[arg-type]
    assert 7 in cache and 8 not in cache


def _board_facts(state: Any) -> tuple[Any, ...]:
    return (
        state.to_json(),
        sorted(state.legal_moves()),
        state.seat_to_move,
        state.outcome,
        state.score_text(),
    )


def _table_facts(state: Any) -> tuple[Any, ...]:
    seats = range(state.players)
    return (
        state.to_json(),
        state.view(None),
        [state.view(seat) for seat in seats],
        [sorted(state.legal_actions(seat)) for seat in seats],
        state.waiting_for(),
    )


async def _check_reloaded(service: MatchService, match_id: int, other_id: int) -> None:
    """The state the last action left in memory equals the state parsed again from what
    was stored, in everything the service reads of it."""
    store = service.store
    record = await store.load(match_id)
    kept = store.states.get(match_id, record.version)
    assert kept is not None, "the action's own state was not kept"
    # reading another match lets this one go (a cache of one)
    store.state(await store.load(other_id))
    assert store.states.get(match_id, record.version) is None
    reloaded = store.state(record)
    assert reloaded is not kept
    facts = _board_facts if isinstance(kept, BoardState) else _table_facts
    assert facts(reloaded) == facts(kept)
    assert service.describe.info(record, reloaded) == service.describe.info(record, kept)


async def test_a_state_parsed_again_is_the_state_an_action_left(tmp_path: Path) -> None:
    repo = await open_repository(tmp_path / "cache.sqlite3")
    service = MatchService(
        repo,
        choices=service_choices(),
        clock=ManualClock(),
        seed_source=lambda: 3,
        state_cache_size=1,
    )
    try:
        await service.start()
        await service.update_settings(
            GUILD, ALICE, True, challenge_cooldown_seconds=0, max_matches_per_user=50
        )
        # a match of its own, read to make the cache let the state under test go
        offer = await service.challenge(GUILD, CHANNEL + 1, CAROL, "dalen", ALICE)
        assert offer.challenge_id is not None
        other = (await service.accept_challenge(offer.challenge_id, ALICE)).match_id
        assert other is not None
        for number, game in enumerate(("lefe", "dalen", "lublache", "les")):
            rng = random.Random(number)
            offer = await service.challenge(GUILD, CHANNEL, ALICE, game, BOB)
            assert offer.challenge_id is not None
            match_id = (await service.accept_challenge(offer.challenge_id, BOB)).match_id
            assert match_id is not None
            accepted = 0
            for _ in range(BOARD_MOVES):
                record = await repo.get_match(match_id)
                assert record is not None and record.state is not None
                if record.status != "running":
                    break
                state: Any = get_game(game).from_json(record.state)
                user = record.user_of(state.seat_to_move)
                assert user is not None
                await service.play(match_id, user, rng.choice(state.legal_moves()))
                accepted += 1
                if (await service.get_match(match_id)).status == "running":
                    await _check_reloaded(service, match_id, other)
            # every accepted move is in the log, whatever was let go meanwhile
            moves = [a for a in await service.action_log(match_id) if a.user_id is not None]
            assert len(moves) == accepted
        table = await service.open_lobby(GUILD, CHANNEL + 2, ALICE)
        assert table.match_id is not None
        players = (ALICE, BOB, CAROL)
        for user in players[1:]:
            await service.join_lobby(table.match_id, user)
        await service.start_lobby(table.match_id, ALICE)
        rng = random.Random(9)
        for _ in range(LEIFF_ACTIONS):
            record = await repo.get_match(table.match_id)
            assert record is not None and record.state is not None
            if record.status != "running":
                break
            seat, action = random_action(get_game("leiff").from_json(record.state), rng)
            await service.play(table.match_id, players[seat], action)
            await _check_reloaded(service, table.match_id, other)
        assert len(service.store.states) <= 1
    finally:
        await repo.close()
