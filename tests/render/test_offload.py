"""Rendering off the event loop: same result, and the loop keeps ticking meanwhile."""

from __future__ import annotations

import asyncio
import itertools
import time

from render import png_bytes, render_async, render_board, replay_gif, shutdown_renderer
from tests.render.helpers import played_game


async def test_render_async_returns_what_the_function_returns() -> None:
    state = played_game("dalen", 7, seed=2, moves=20)
    image = await render_async(render_board, state, names=("Ann", "Bob"), theme="night")
    assert png_bytes(image) == png_bytes(render_board(state, names=("Ann", "Bob"), theme="night"))


async def test_event_loop_keeps_running_during_a_long_render() -> None:
    state = played_game("les", 9, seed=3, moves=40)
    positions = list(state.history())
    ticks: list[float] = []
    done = asyncio.Event()

    async def heartbeat() -> None:
        while not done.is_set():
            ticks.append(time.perf_counter())
            await asyncio.sleep(0.005)

    beat = asyncio.create_task(heartbeat())
    started = time.perf_counter()
    data = await render_async(replay_gif, positions, names=("A", "B"))
    elapsed = time.perf_counter() - started
    done.set()
    await beat
    assert data[:6] == b"GIF89a"
    # a blocking call would have let the heartbeat tick once or twice in all that time
    assert len(ticks) >= max(5, int(elapsed / 0.05))
    gaps = [b - a for a, b in itertools.pairwise(ticks)]
    assert max(gaps) < 0.25


async def test_many_concurrent_renders_and_a_restart_after_shutdown() -> None:
    states = [played_game("lefe", 6, seed=seed, moves=10) for seed in range(6)]
    images = await asyncio.gather(*(render_async(render_board, s) for s in states))
    assert [png_bytes(i) for i in images] == [png_bytes(render_board(s)) for s in states]
    shutdown_renderer()
    again = await render_async(render_board, states[0])
    assert png_bytes(again) == png_bytes(images[0])
    shutdown_renderer()
