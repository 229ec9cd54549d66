"""Rendering off the event loop: same result, and the loop keeps ticking meanwhile."""

from __future__ import annotations

import asyncio
import threading

from render import png_bytes, render_async, render_board, replay_gif, shutdown_renderer
from tests.render.helpers import played_game


async def test_render_async_returns_what_the_function_returns() -> None:
    state = played_game("dalen", 7, seed=2, moves=20)
    image = await render_async(render_board, state, names=("Ann", "Bob"), theme="night")
    assert png_bytes(image) == png_bytes(render_board(state, names=("Ann", "Bob"), theme="night"))


async def test_event_loop_keeps_running_during_a_long_render() -> None:
    # The render below cannot finish until the event loop, still running, releases it: a
    # render_async that blocked the loop would wait out the timeout and fail, whatever the
    # machine's speed (no clock is read).
    release = threading.Event()
    seen: list[str] = []

    def gated_replay(positions: list[object]) -> bytes:
        seen.append(threading.current_thread().name)
        if not release.wait(timeout=20):
            raise AssertionError("the event loop never ran while the render was waiting")
        return replay_gif(positions, names=("A", "B"))

    state = played_game("les", 9, seed=3, moves=40)
    task = asyncio.create_task(render_async(gated_replay, list(state.history())))
    for _ in range(1000):
        await asyncio.sleep(0.001)
        if seen:
            break
    release.set()
    data = await task
    assert data[:6] == b"GIF89a"
    assert seen and seen[0] != threading.current_thread().name


async def test_many_concurrent_renders_and_a_restart_after_shutdown() -> None:
    states = [played_game("lefe", 6, seed=seed, moves=10) for seed in range(6)]
    images = await asyncio.gather(*(render_async(render_board, s) for s in states))
    assert [png_bytes(i) for i in images] == [png_bytes(render_board(s)) for s in states]
    shutdown_renderer()
    again = await render_async(render_board, states[0])
    assert png_bytes(again) == png_bytes(images[0])
    shutdown_renderer()
