"""The picture workers draw what the bot's own threads draw, from the small inputs the bot
sends them (a state's JSON, the cells to dot)."""

from __future__ import annotations

import pytest

from bot.common.pictures import Painter
from tests.render.helpers import decode, played_game


@pytest.fixture(scope="module")
def painters():  # type: ignore[no-untyped-def]
    workers, threads = Painter(workers=1), Painter(workers=0)
    yield workers, threads
    workers.close()


@pytest.mark.parametrize("game", ["lefe", "dalen", "lublache", "les"])
async def test_a_worker_draws_the_hint_picture_a_thread_draws(painters, game) -> None:  # type: ignore[no-untyped-def]
    workers, threads = painters
    state = played_game(game, 7, seed=3, moves=12)
    names = ["Ann", "Bob"]
    in_worker = await workers.board_png(state, names, "de", hints=True, theme="night")
    in_thread = await threads.board_png(state, names, "de", hints=True, theme="night")
    assert in_worker == in_thread
    plain = await workers.board_png(state, names, "de", theme="night")
    assert plain == await threads.board_png(state, names, "de", theme="night")
    assert decode(plain).size == decode(in_worker).size
    assert plain != in_worker  # the hints are drawn
