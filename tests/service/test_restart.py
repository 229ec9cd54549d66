"""Restart: a new service on the same file finds every match, lobby, challenge and deadline
(read when first asked for: the start itself reads none)."""

from __future__ import annotations

from pathlib import Path

from matchcore.service import Picture
from tests.service.helpers import (
    ALICE,
    BOB,
    CAROL,
    CHANNEL,
    DAVE,
    GUILD,
    ManualClock,
    open_service,
    start_board_match,
)


def _picture(picture: Picture) -> tuple[object, ...]:
    state = None if picture.state is None else picture.state.to_json()
    return (picture.kind, picture.for_user, picture.version, picture.view, state)


async def test_everything_running_is_loaded_back_exactly(db_path: Path, clock: ManualClock) -> None:
    repo, service = await open_service(db_path, clock)
    board = await start_board_match(service, "lefe")
    await service.play(board.match_id, ALICE, "e5")
    await service.offer_draw(board.match_id, BOB)
    await service.set_thread(board.match_id, 31)
    await service.repo.set_message(board.match_id, "board", 41)
    lobby = await service.open_lobby(GUILD, CHANNEL, CAROL, options={"target": 100})
    await service.join_lobby(lobby.match_id, DAVE)
    await service.repo.set_message(lobby.match_id, "lobby", 42)
    table = await service.open_lobby(GUILD, CHANNEL + 1, DAVE)
    await service.join_lobby(table.match_id, ALICE)
    await service.start_lobby(table.match_id, DAVE)
    await service.play(table.match_id, DAVE, "draw")
    clock.advance(60)
    seek = await service.challenge(GUILD, CHANNEL, BOB, "les")
    finished = await start_board_match(service, "dalen", CAROL, ALICE)
    await service.resign(finished.match_id, ALICE)

    active_ids = [board.match_id, lobby.match_id, table.match_id]
    records = [await repo.get_match(i) for i in active_ids]
    infos = [await service.get_match(i) for i in active_ids]
    snapshots = [await service.current(i) for i in active_ids]
    challenges = await service.open_challenges(GUILD)
    await repo.close()

    repo, restarted = await open_service(db_path, clock)  # start() included
    assert len(restarted.store.states) == 0, "the start parsed matches nobody asked for"
    assert [m.id for m in await restarted.user_matches(DAVE, GUILD)] == [
        table.match_id,
        lobby.match_id,
    ]
    assert [await restarted.get_match(i) for i in active_ids] == infos
    assert [await repo.get_match(i) for i in active_ids] == records
    loaded = await restarted.open_challenges(GUILD)
    assert loaded == challenges and challenges[0].id == seek.challenge_id
    for before, match_id in zip(snapshots, active_ids, strict=True):
        after = await restarted.current(match_id)
        assert after.match == before.match and after.buttons == before.buttons
        assert [_picture(p) for p in after.pictures] == [_picture(p) for p in before.pictures]
    assert records[0].deadline_at is not None and records[2].deadline_at is not None
    # The restarted service carries on where the first one stopped.
    declined = await restarted.decline_draw(board.match_id, ALICE, version=infos[0].version)
    assert declined.version == infos[0].version + 1
    await repo.close()
