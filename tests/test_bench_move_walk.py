"""bench/move_walk.py: the walk of a board move sees the files a move must cross, and only
the product's."""

from __future__ import annotations

from bench.move_walk import PRODUCT, walk_moves
from render.offload import render_async


async def test_the_walk_of_a_move_enters_the_files_on_its_path() -> None:
    # the picture threads already running, as after an earlier test in this process: the
    # walk must still see the picture drawn in one (render/board.py below)
    await render_async(sum, [1, 2])
    (walk,) = await walk_moves(1)
    on_the_path = {
        "bot/features/board_games/feature.py",  # /move
        "matchcore/service/service.py",  # the service's play
        "matchcore/service/board_matches.py",  # the move judged
        "matchcore/service/store.py",  # committed
        "matchcore/storage/sql.py",
        "bot/delivery/delivery.py",  # delivered
        "bot/delivery/records.py",  # and recorded
        "render/board.py",  # its picture
    }
    assert on_the_path <= walk.files, sorted(on_the_path - walk.files)
    assert all(f.split("/")[0] in PRODUCT for f in walk.files)
    # a hop joins two files entered; a crossing is a call along one
    assert {f for hop in walk.hops for f in hop} <= walk.files
    assert walk.crossings >= len(walk.hops) > 0
    # a call awaited where it is made is a hop (one handed to asyncio.gather is not: its
    # frame starts from the event loop, so the walk's hops are a floor)
    assert ("bot/delivery/delivery.py", "bot/delivery/redelivery.py") in walk.hops
