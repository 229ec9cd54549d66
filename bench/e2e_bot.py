"""The bot's side of ``make bench-e2e``: the real bot, started as ``make run`` starts it, in a
process of its own, pointed at the local Discord simulator, and watching its event loop.

    python -m bench.e2e_bot <simulator API base URL> <gateway URL>

Configured like the bot (``DISCORD_TOKEN``, ``DATABASE_PATH``, ``DEV_GUILD_ID``,
``RENDER_WORKERS``, ``AI_WORKERS``), plus ``E2E_STATS``: a file where, on SIGTERM, it writes
every event-loop lag sample (the overshoot of a 10 ms sleep, with its wall-clock time) and
every garbage-collector pause, as JSON. The load generator decides which window counts.
With ``E2E_PROFILE`` set to a file name, the bot's main thread runs under cProfile and its
statistics are written there (to see where the bot's own time goes), timed by the thread's
CPU clock: on a shared machine wall time mostly measures waiting for a core or for the
interpreter lock (a syscall that wakes a thread hands the lock over). With
``E2E_PICTURES`` set to a file name, every call to the picture workers (function name and
arguments) is written there, pickled, for ``python -m bench.picture_calls`` to replay.
With ``E2E_HEAP`` set to a file name, the number of objects the garbage collector tracks at
the end (the start-up heap it froze left out) is written there by type, as JSON: what a
full collection walks. ``E2E_TRACE``: see :mod:`bench.e2e_trace`.
"""

from __future__ import annotations

import asyncio
import cProfile
import gc
import json
import os
import pickle
import sys
import time
from pathlib import Path
from typing import Any

SAMPLE_SECONDS = 0.01


class LoopWatch:
    """Samples the event loop's lag and the garbage collector's pauses."""

    def __init__(self) -> None:
        self.lags: list[tuple[float, float]] = []  # (wall-clock time, lag seconds)
        # (wall-clock time, pause seconds, generation collected)
        self.pauses: list[tuple[float, float, int]] = []
        self._gc_started = 0.0
        self._task: asyncio.Task[None] | None = None

    def start(self) -> None:
        gc.callbacks.append(self._on_gc)
        self._task = asyncio.get_running_loop().create_task(self._sample(), name="loop-watch")

    async def _sample(self) -> None:
        while True:
            started = time.perf_counter()
            await asyncio.sleep(SAMPLE_SECONDS)
            self.lags.append((time.time(), time.perf_counter() - started - SAMPLE_SECONDS))

    def _on_gc(self, phase: str, info: dict[str, Any]) -> None:
        if phase == "start":
            self._gc_started = time.perf_counter()
        else:
            pause = time.perf_counter() - self._gc_started
            self.pauses.append((time.time(), pause, int(info.get("generation", -1))))

    def write(self, path: Path) -> None:
        path.write_text(json.dumps({"lags": self.lags, "pauses": self.pauses}))
        heap = os.environ.get("E2E_HEAP")
        if heap:
            # what the collector walks at the end (frozen start-up objects left out), by type
            counts: dict[str, int] = {}
            for item in gc.get_objects():
                name = type(item).__qualname__
                counts[name] = counts.get(name, 0) + 1
            Path(heap).write_text(json.dumps(counts))


def main(argv: list[str]) -> int:
    import discord.gateway
    import discord.http
    import yarl

    discord.http.Route.BASE = argv[0] + "/api/v10"
    discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(argv[1])

    from bot import app
    from bot.settings import Settings

    watch = LoopWatch()
    setup_hook = app.LeafBot.setup_hook

    async def watched_setup_hook(bot: app.LeafBot) -> None:
        await setup_hook(bot)
        watch.start()

    app.LeafBot.setup_hook = watched_setup_hook  # type: ignore[method-assign,assignment]  # watched, the call passed through
    trace_folder = os.environ.get("E2E_TRACE")
    trace = None
    if trace_folder:
        from bench.e2e_trace import BotTrace

        trace = BotTrace(Path(trace_folder))
        trace.install()  # before the capture below, which then records through it
    capture_path = os.environ.get("E2E_PICTURES")
    captured: list[tuple[str, tuple[Any, ...]]] = []
    if capture_path:
        from bot.common import pictures

        run = pictures.Painter._run

        async def capturing_run(painter: Any, func: Any, *args: Any) -> Any:
            captured.append((func.__name__, args))
            return await run(painter, func, *args)

        pictures.Painter._run = capturing_run  # type: ignore[method-assign,assignment]  # watched, the call passed through
    profile_path = os.environ.get("E2E_PROFILE")
    profiler = cProfile.Profile(time.thread_time) if profile_path else None
    try:
        if profiler is not None:
            profiler.enable()
        return app.run(Settings.load(dotenv=None))
    finally:
        if profiler is not None and profile_path:
            profiler.disable()
            profiler.dump_stats(profile_path)
        watch.write(Path(os.environ["E2E_STATS"]))
        if trace is not None:
            trace.write()
        if capture_path:
            Path(capture_path).write_bytes(pickle.dumps(captured))


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
