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


def test_a_replay_runs_without_the_cycle_collector_and_leaves_it_on() -> None:
    """A replay keeps every position's loop answers until it ends: the collector's passes
    over them find nothing, so it is paused for the replay (and resumed after, or left
    paused if someone else paused it)."""
    import gc

    from bot.common.pictures import replay_gif_from_json

    record = played_game("lublache", 9, seed=3, moves=120).to_json()
    passes: list[str] = []

    def count(phase: str, info: dict[str, int]) -> None:
        if phase == "start":
            passes.append(phase)

    gc.callbacks.append(count)
    try:
        gc.collect()
        passes.clear()
        gif = replay_gif_from_json("lublache", record, ("Ann", "Bob"))
        during = len(passes)
        assert gc.isenabled()
        gc.disable()
        assert replay_gif_from_json("lublache", record, ("Ann", "Bob")) == gif
        assert not gc.isenabled()  # someone else's pause is theirs to end
    finally:
        gc.enable()
        gc.callbacks.remove(count)
    assert gif.startswith(b"GIF89a")
    assert during <= 1  # the first pass after it, once resumed (dozens without the pause)


def test_a_replay_leaves_nothing_in_the_loop_finders_shared_answers() -> None:
    """A replay's positions are seen once: the answers the loop finder shares between
    positions are neither read nor filled (a 9-board replay left ~2 MB of them), and
    the GIF is the one made from positions played with sharing on."""
    from bot.common.pictures import replay_gif_from_json
    from engine import loops
    from render import replay_gif

    state = played_game("lublache", 9, seed=5, moves=160)
    loops._shared_answers.clear()
    gif = replay_gif_from_json("lublache", state.to_json(), ("Ann", "Bob"))
    assert loops._shared_answers == {}
    positions = list(state.history())  # outside a replay: shared as before
    assert loops._shared_answers
    assert gif == replay_gif(positions, names=("Ann", "Bob"))
