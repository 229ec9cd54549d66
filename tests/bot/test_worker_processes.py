"""The picture and AI workers end with a killed bot (kill -9): a hard restart leaves no
worker processes behind waiting for work that will never come, even when the bot is killed
while its workers are still starting."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import textwrap
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]

# a process holding both pools with a worker each, as the bot does; it prints the workers'
# process ids and waits to be killed
HOLDER = textwrap.dedent(
    """
    import asyncio, os, sys
    from bot.common.pictures import Painter
    from matchcore.ai_pool import AIPool

    async def main():
        painter = Painter(workers=1)
        await painter.start()
        ai = AIPool(1)
        loop = asyncio.get_running_loop()
        picture = await loop.run_in_executor(painter._pool, os.getpid)
        thinker = await loop.run_in_executor(ai._pool(), os.getpid)
        print(picture, thinker, flush=True)
        await asyncio.sleep(600)

    asyncio.run(main())
    """
)


# a process that starts its AI pool's worker and is killed at once, while the worker (a
# fresh interpreter) is still starting: it prints the worker's process id first
KILLED_AT_ONCE = textwrap.dedent(
    """
    import os, signal
    from matchcore.ai_pool import AIPool

    pool = AIPool(1)._pool()
    pool.submit(os.getpid)
    print(*pool._processes, flush=True)
    os.kill(os.getpid(), signal.SIGKILL)
    """
)


def _alive(pid: int) -> bool:
    """Whether ``pid`` is a process that has not ended (a zombie has ended)."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except FileNotFoundError:
        return False
    return stat.rsplit(")", 1)[1].split()[0] != "Z"


def test_the_workers_end_when_the_bot_is_killed() -> None:
    holder = subprocess.Popen(
        [sys.executable, "-c", HOLDER], cwd=ROOT, stdout=subprocess.PIPE, text=True
    )
    try:
        assert holder.stdout is not None
        workers = [int(pid) for pid in holder.stdout.readline().split()]
        assert len(workers) == 2 and holder.pid not in workers
        assert all(_alive(pid) for pid in workers)
        os.kill(holder.pid, signal.SIGKILL)
        holder.wait()
        deadline = time.monotonic() + 20
        while any(_alive(pid) for pid in workers) and time.monotonic() < deadline:
            time.sleep(0.2)
        left = [pid for pid in workers if _alive(pid)]
        for pid in left:
            os.kill(pid, signal.SIGKILL)  # leave nothing behind, whatever the outcome
        assert not left, f"workers {left} outlived the killed bot"
    finally:
        if holder.poll() is None:
            holder.kill()


def _end_within(workers: list[int], seconds: float) -> list[int]:
    """The ``workers`` still alive after ``seconds`` (each then killed: nothing is left
    behind, whatever the outcome)."""
    deadline = time.monotonic() + seconds
    while any(_alive(pid) for pid in workers) and time.monotonic() < deadline:
        time.sleep(0.2)
    left = [pid for pid in workers if _alive(pid)]
    for pid in left:
        os.kill(pid, signal.SIGKILL)
    return left


def test_a_worker_still_starting_when_the_bot_is_killed_ends_too() -> None:
    # (it was left waiting for ever: it asked for its parent only once started, and by
    # then the killed bot's workers belong to init; the kill tests left dozens behind)
    holder = subprocess.Popen(
        [sys.executable, "-c", KILLED_AT_ONCE], cwd=ROOT, stdout=subprocess.PIPE, text=True
    )
    try:
        assert holder.stdout is not None
        # (one line: the worker keeps the pipe open for as long as it lives)
        workers = [int(pid) for pid in holder.stdout.readline().split()]
        assert holder.wait(30) == -signal.SIGKILL
        assert len(workers) == 1
        left = _end_within(workers, 20)
        assert not left, f"worker {left} outlived the bot killed while it started"
    finally:
        if holder.poll() is None:
            holder.kill()
        assert holder.stdout is not None
        holder.stdout.close()
