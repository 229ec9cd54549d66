"""A timeline of one ``make bench-e2e`` run, to find what holds replies up (``E2E_TRACE``).

With ``E2E_TRACE`` set to a folder, the bot's process (``bench.e2e_bot``) records, with
wall-clock times: every round trip to SQLite's thread (what it ran and how long it took),
every call to the picture workers (how long it waited for a worker, drew, and came back)
and the garbage collector's pauses in the bot and in each picture worker; the benchmark
records when each reply was asked for and how long it took. ``python -m bench.e2e_trace
FOLDER`` then lines them up around the slowest replies: a stall shows as the one thing that
was long while the replies bunched up.
"""

from __future__ import annotations

import contextvars
import gc
import json
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any, Literal

# the interaction whose handling is running (tasks inherit it from the parse)
CURRENT: contextvars.ContextVar[str] = contextvars.ContextVar("e2e_interaction", default="")

# a round trip or a picture call longer than this is kept (the rest only counted)
KEEP_OVER = 0.015

_worker_pauses: list[tuple[float, float]] = []
_worker_gc_started = 0.0


def _worker_on_gc(phase: str, info: dict[str, Any]) -> None:
    global _worker_gc_started
    if phase == "start":
        _worker_gc_started = time.perf_counter()
    else:
        _worker_pauses.append((time.time(), time.perf_counter() - _worker_gc_started))


def timed_call(func: Callable[..., Any], *args: Any) -> tuple[Any, float, float, list[Any]]:
    """In a picture worker: ``func(*args)``, when it started and ended (wall clock) and the
    worker's GC pauses since the last call."""
    if _worker_on_gc not in gc.callbacks:
        gc.callbacks.append(_worker_on_gc)
    started = time.time()
    result = func(*args)
    ended = time.time()
    pauses = list(_worker_pauses)
    _worker_pauses.clear()
    return result, started, ended, pauses


class BotTrace:
    """What the bot's process records; written to ``folder/bot-trace.json`` at exit."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder
        self.trips: list[tuple[float, float, str]] = []  # (start, seconds, what)
        self.trip_count = 0
        self.trip_kinds: dict[str, int] = {}
        # (submitted, worker started, worker ended, back, what)
        self.pictures: list[tuple[float, float, float, float, str]] = []
        self.worker_pauses: list[tuple[float, float]] = []
        self.trip_seconds = 0.0  # all round trips, as the event loop saw them
        # the repository's lock: (asked at, waited, held) of each taking
        self.lock: list[tuple[float, float, float]] = []
        # interaction id -> [received, callback sent, callback answered] (wall clock)
        self.interactions: dict[str, list[float]] = {}
        # interaction id -> {"lock wait": s, "sqlite": s, "picture": s, ...}
        self.spent: dict[str, dict[str, float]] = {}

    def install(self) -> None:
        import asyncio

        from bot.common import pictures
        from matchcore.storage import sqlite

        in_thread = sqlite._in_thread

        async def traced_in_thread(db: Any, function: Any, *args: Any) -> Any:
            started = time.time()
            clock = time.perf_counter()
            try:
                return await in_thread(db, function, *args)
            finally:
                self.trip_count += 1
                name = getattr(function, "__name__", "?")
                if args and isinstance(args[0], str):
                    name += ": " + " ".join(args[0].split())[:70]
                self.trip_kinds[name] = self.trip_kinds.get(name, 0) + 1
                took = time.perf_counter() - clock
                self.trip_seconds += took
                self.add("sqlite", took)
                if took > KEEP_OVER:
                    what = getattr(function, "__name__", "?")
                    if args and isinstance(args[-1], str):
                        what += ": " + args[-1][:60]
                    self.trips.append((started, took, what))

        sqlite._in_thread = traced_in_thread
        trace = self

        class TimedLock(asyncio.Lock):
            async def acquire(self) -> Literal[True]:
                self._asked = time.time()
                self._clock = time.perf_counter()
                await super().acquire()
                self._got = time.perf_counter()
                trace.add("lock wait", self._got - self._clock)
                return True

            def release(self) -> None:
                now = time.perf_counter()
                trace.lock.append((self._asked, self._got - self._clock, now - self._got))
                super().release()

        import discord.state
        import discord.webhook.async_ as webhooks

        parse = discord.state.ConnectionState.parse_interaction_create

        def traced_parse(state: Any, data: Any) -> None:
            self.interactions[str(data["id"])] = [time.time(), 0.0, 0.0]
            token = CURRENT.set(str(data["id"]))
            try:
                parse(state, data)
            finally:
                CURRENT.reset(token)

        discord.state.ConnectionState.parse_interaction_create = traced_parse  # type: ignore[method-assign,assignment]  # traced, the call passed through
        respond = webhooks.AsyncWebhookAdapter.create_interaction_response

        def traced_respond(adapter: Any, interaction_id: Any, token: str, **kwargs: Any) -> Any:
            sent = time.time()
            coro = respond(adapter, interaction_id, token, **kwargs)

            async def timed() -> Any:
                try:
                    return await coro
                finally:
                    times = self.interactions.get(str(interaction_id))
                    if times is not None and not times[1]:
                        times[1], times[2] = sent, time.time()

            return timed()

        webhooks.AsyncWebhookAdapter.create_interaction_response = traced_respond  # type: ignore[method-assign,assignment]  # traced, the call passed through
        init = sqlite.SqliteRepository.__init__

        def traced_init(repo: Any, *args: Any, **kwargs: Any) -> None:
            init(repo, *args, **kwargs)
            repo._lock = TimedLock()

        sqlite.SqliteRepository.__init__ = traced_init  # type: ignore[method-assign,assignment]  # traced, the call passed through

        async def traced_run(painter: Any, func: Any, *args: Any) -> Any:
            pool = painter._pool
            if pool is None:
                return await run(painter, func, *args)
            submitted = time.time()
            loop = asyncio.get_running_loop()
            result, started, ended, pauses = await loop.run_in_executor(
                pool, timed_call, func, *args
            )
            back = time.time()
            self.pictures.append((submitted, started, ended, back, func.__name__))
            self.add("picture queue", started - submitted)
            self.add("picture draw", ended - started)
            self.add("picture back", back - ended)
            self.worker_pauses.extend(pauses)
            return result

        run = pictures.Painter._run
        pictures.Painter._run = traced_run  # type: ignore[method-assign,assignment]  # traced, the call passed through

    def add(self, what: str, seconds: float) -> None:
        key = CURRENT.get()
        if key:
            spent = self.spent.setdefault(key, {})
            spent[what] = spent.get(what, 0.0) + seconds

    def write(self) -> None:
        (self.folder / "bot-trace.json").write_text(
            json.dumps(
                {
                    "trips": self.trips,
                    "trip_count": self.trip_count,
                    "trip_kinds": self.trip_kinds,
                    "trip_seconds": self.trip_seconds,
                    "lock": self.lock,
                    "interactions": self.interactions,
                    "spent": self.spent,
                    "pictures": self.pictures,
                    "worker_pauses": self.worker_pauses,
                }
            )
        )


def analyse(folder: Path, window: float = 0.5) -> None:
    bot = json.loads((folder / "bot-trace.json").read_text())
    replies = json.loads((folder / "replies.json").read_text())  # [(asked, seconds, kind)]
    timings = json.loads((folder / "interactions.json").read_text())  # id -> (asked, answered)
    seen = bot["interactions"]
    parts: list[tuple[float, float, float, float]] = []  # asked, to bot, in bot, back
    for key, (asked, answered) in timings.items():
        got = seen.get(key)
        if got and got[1]:
            parts.append((asked, got[0] - asked, got[1] - got[0], answered - got[1]))
    parts.sort()
    spent = bot["spent"]
    for label, chosen in (
        ("all", [k for k in timings]),
        ("slow (over 100 ms)", [k for k, (a, b) in timings.items() if b - a > 0.1]),
    ):
        handled = [seen[k][1] - seen[k][0] for k in chosen if k in seen and seen[k][1]]
        if not handled:
            continue
        kinds = sorted({w for k in chosen for w in spent.get(k, {})})
        split = ", ".join(
            f"{w} {statistics.mean(spent.get(k, {}).get(w, 0.0) for k in chosen) * 1000:.1f}"
            for w in kinds
        )
        print(
            f"{label}: {len(chosen)} replies, bot's work mean {statistics.mean(handled) * 1000:.1f}"
            f" ms, of which (ms, mean): {split}"
        )
    if parts:
        t0 = parts[0][0]
        print(
            "per second: replies' median / max of: gateway to bot, bot's work, callback to simulator"
        )
        for sec in range(int(parts[-1][0] - t0) + 1):
            sel = [p for p in parts if t0 + sec <= p[0] < t0 + sec + 1]
            if not sel:
                continue
            cols = []
            for i in (1, 2, 3):
                vals = [p[i] for p in sel]
                cols.append(f"{statistics.median(vals) * 1000:5.1f}/{max(vals) * 1000:5.0f}")
            print(f"   +{sec:2d} s: " + "   ".join(cols))
    stats = json.loads((folder / "bot-stats.json").read_text())
    harness = json.loads((folder / "harness-gc.json").read_text())
    if not replies:
        print("no replies recorded")
        return
    start = min(a for a, _, _ in replies)
    slow = [(a, s, k) for a, s, k in replies if s > 0.1]
    print(f"{len(replies)} replies, {len(slow)} over 100 ms; {bot['trip_count']} SQLite trips")
    print("SQLite trips by kind (whole run):")
    for name, count in sorted(bot["trip_kinds"].items(), key=lambda kv: -kv[1]):
        print(f"   {count:6d}  {name}")
    lock = bot["lock"]
    span = max(a for a, _, _ in replies) - start
    inside = [x for x in lock if start <= x[0] <= start + span]
    if inside:
        print(
            f"SQLite trips: {bot['trip_seconds']:.1f} s in all; repository lock taken "
            f"{len(inside)} times in the stage, held {sum(h for _, _, h in inside):.1f} s of "
            f"{span:.1f} s, wait median {statistics.median(w for _, w, _ in inside) * 1000:.1f}"
            f" ms, max {max(w for _, w, _ in inside) * 1000:.0f} ms; held median "
            f"{statistics.median(h for _, _, h in inside) * 1000:.1f} ms"
        )
        for t0 in range(int(span) + 1):
            taken = [x for x in inside if start + t0 <= x[0] < start + t0 + 1]
            if taken:
                print(
                    f"   +{t0:2d} s: lock held {sum(h for _, _, h in taken):.2f} s, waits "
                    f"max {max(w for _, w, _ in taken) * 1000:.0f} ms, {len(taken)} takings"
                )
    pictures = bot["pictures"]
    waits = [w - s for s, w, _, _, _ in pictures]
    works = [e - w for _, w, e, _, _ in pictures]
    backs = [b - e for _, _, e, b, _ in pictures]
    for name, values in (("queue", waits), ("draw", works), ("return", backs)):
        if values:
            print(
                f"picture {name}: median {statistics.median(values) * 1000:.1f} ms, "
                f"max {max(values) * 1000:.1f} ms"
            )
    # one line per window: asks, slow asks, worst reply, and what was long then
    events: list[tuple[float, str]] = []
    for at, took, what in bot["trips"]:
        events.append((at, f"sqlite {took * 1000:.0f} ms {what}"))
    for s, w, e, b, name in pictures:
        if b - s > 0.05:
            events.append(
                (
                    s,
                    f"picture {name} {(b - s) * 1000:.0f} ms (queue {(w - s) * 1000:.0f}, draw"
                    f" {(e - w) * 1000:.0f}, back {(b - e) * 1000:.0f})",
                )
            )
    for at, took in bot["worker_pauses"]:
        if took > 0.01:
            events.append((at - took, f"worker GC {took * 1000:.0f} ms"))
    for at, took, *generation in stats["pauses"]:  # (older files: no generation)
        if took > 0.01:
            collected = f" (generation {generation[0]})" if generation else ""
            events.append((at - took, f"bot GC {took * 1000:.0f} ms{collected}"))
    for at, lag in stats["lags"]:
        if lag > 0.02:
            events.append((at - lag, f"bot loop lag {lag * 1000:.0f} ms"))
    for at, took in harness:
        if took > 0.01:
            events.append((at - took, f"harness GC {took * 1000:.0f} ms"))
    events.sort()
    end = max(a for a, _, _ in replies)
    t = start
    while t <= end:
        asked = [r for r in replies if t <= r[0] < t + window]
        worst = max((s for _, s, _ in asked), default=0.0)
        if worst > 0.1:
            print(
                f"+{t - start:6.1f} s: {len(asked)} asked, "
                f"{sum(1 for r in asked if r[1] > 0.1)} slow, worst {worst * 1000:.0f} ms"
            )
            for at, text in events:
                if t - 0.3 <= at < t + window:
                    print(f"      +{at - start:7.3f} {text}")
        t += window


if __name__ == "__main__":
    analyse(Path(sys.argv[1]))
