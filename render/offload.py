"""Run picture rendering off the event loop, in a small bounded pool of worker threads.

Why threads and not processes: one picture takes a few milliseconds, and Pillow releases the
GIL inside its C work (resizing, pasting, PNG/GIF encoding), so a thread keeps the event
loop responsive; the Python parts between those calls yield the GIL at the interpreter's
switch interval (5 ms), well inside the 50 ms loop-lag budget. A process pool would have to
pickle every state and every finished image across a pipe and pay a worker start-up, which
costs more than the render itself. Two workers match the bot's two cores; a semaphore keeps
at most :data:`MAX_PENDING` renders queued, so a burst of turns cannot pile up memory.
"""

from __future__ import annotations

import asyncio
import functools
import threading
import weakref
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from typing import Any, TypeVar

Result = TypeVar("Result")

WORKERS = 2
MAX_PENDING = 16

_lock = threading.Lock()
_executor: ThreadPoolExecutor | None = None
# asyncio semaphores belong to one event loop; tests (and restarts) may use several loops
_semaphores: weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, asyncio.Semaphore] = (
    weakref.WeakKeyDictionary()
)


def _get_executor() -> ThreadPoolExecutor:
    global _executor
    with _lock:
        if _executor is None:
            _executor = ThreadPoolExecutor(max_workers=WORKERS, thread_name_prefix="render")
        return _executor


def _semaphore(loop: asyncio.AbstractEventLoop) -> asyncio.Semaphore:
    semaphore = _semaphores.get(loop)
    if semaphore is None:
        semaphore = asyncio.Semaphore(MAX_PENDING)
        _semaphores[loop] = semaphore
    return semaphore


async def render_async(func: Callable[..., Result], *args: Any, **kwargs: Any) -> Result:
    """``await render_async(render_board, state, names=...)``: the same result as calling
    ``func`` directly, computed on a worker thread while the event loop keeps running."""
    loop = asyncio.get_running_loop()
    async with _semaphore(loop):
        return await loop.run_in_executor(_get_executor(), functools.partial(func, *args, **kwargs))


def shutdown_renderer(wait: bool = True) -> None:
    """Stop the worker threads (call on bot shutdown); a later render starts new ones."""
    global _executor
    with _lock:
        executor, _executor = _executor, None
    if executor is not None:
        executor.shutdown(wait=wait, cancel_futures=not wait)
