"""The transactional outbox (issue 33): the commit of a step writes, in its own
transaction, the version each audience must be shown; senders drain their own."""

from __future__ import annotations

from pathlib import Path

from tests.service.helpers import (
    ALICE,
    BOB,
    CAROL,
    CHANNEL,
    GUILD,
    ManualClock,
    open_service,
    start_board_match,
)


async def _rows(repo: object, match_id: int) -> dict[str, int]:
    rows = await repo._fetch(  # type: ignore[attr-defined]
        "SELECT audience, version FROM outbox WHERE match_id = ?", (match_id,)
    )
    return {str(r[0]): int(r[1]) for r in rows}


async def test_a_board_step_is_owed_to_the_channel_alone(db_path: Path, clock: ManualClock) -> None:
    repo, service = await open_service(db_path, clock)
    board = await start_board_match(service, "lefe")
    assert await _rows(repo, board.match_id) == {"channel": 0}
    moved = await service.play(board.match_id, ALICE, "e5")
    assert await _rows(repo, board.match_id) == {"channel": moved.match.version}
    ended = await service.resign(board.match_id, BOB)
    assert ended.match.status == "finished"
    assert await _rows(repo, board.match_id) == {"channel": ended.match.version}
    assert board.match_id in [m.id for m in await service.repo.undelivered_matches()]
    await repo.close()


async def test_a_card_table_owes_each_member_their_view(db_path: Path, clock: ManualClock) -> None:
    repo, service = await open_service(db_path, clock)
    lobby = await service.open_lobby(GUILD, CHANNEL, CAROL)
    assert await _rows(repo, lobby.match_id) == {"channel": 0}
    await service.join_lobby(lobby.match_id, ALICE)
    await service.add_bot_seat(lobby.match_id, CAROL)
    started = await service.start_lobby(lobby.match_id, CAROL)
    version = started.match.version
    # the bot's seat has nobody to show a view to
    assert await _rows(repo, lobby.match_id) == {
        "channel": version,
        str(CAROL): version,
        str(ALICE): version,
    }
    # Carol's view shown, Alice's not: the match stays owed
    await service.repo.set_messages(
        lobby.match_id, {"delivered:channel": version, f"delivered:{CAROL}": version}
    )
    assert lobby.match_id in [m.id for m in await service.repo.undelivered_matches()]
    await service.repo.set_messages(lobby.match_id, {f"delivered:{ALICE}": version})
    assert lobby.match_id not in [m.id for m in await service.repo.undelivered_matches()]
    await repo.close()


async def test_another_front_ends_audience_is_written_with_every_step(
    db_path: Path, clock: ManualClock
) -> None:
    repo, service = await open_service(db_path, clock, extra_audiences=("web:table",))
    board = await start_board_match(service, "dalen")
    moved = await service.play(board.match_id, ALICE, "e5")
    assert await repo.pending_deliveries("web") == [
        (board.match_id, "web:table", moved.match.version)
    ]
    # the chat's records do not mark it
    await service.repo.set_messages(board.match_id, {"delivered": moved.match.version})
    assert len(await repo.pending_deliveries("web")) == 1
    await service.repo.set_messages(board.match_id, {"delivered:web:table": moved.match.version})
    assert await repo.pending_deliveries("web") == []
    await repo.close()
