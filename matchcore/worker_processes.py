"""Worker processes that end with the process that started them.

The picture and AI pools' workers wait for work on a pipe. When the bot is stopped cleanly
the pools shut them down; when it is killed (kill -9, out of memory) nothing does, and
spawned workers then wait for ever: every hard restart would leave another set behind,
holding memory. So each worker watches its parent and exits as soon as it is gone.
"""

from __future__ import annotations

import os
import threading
import time

PARENT_CHECK_SECONDS = 1.0


def exit_with_parent(parent: int, check_seconds: float = PARENT_CHECK_SECONDS) -> None:
    """Run in a worker process (a pool's initializer, ``parent`` the id of the process that
    started the pool, given by that process: ``initargs=(os.getpid(),)``): end this process
    once that one has gone (its parent id changes when it is re-parented).

    The id comes from the parent, not from ``os.getppid()`` here: a worker takes a moment
    to start (a fresh interpreter), and a bot killed meanwhile left it re-parented before
    it looked, so it watched its new parent (init) for ever."""

    def watch() -> None:
        while os.getppid() == parent:
            time.sleep(check_seconds)
        os._exit(0)  # no clean-up to wait for: the work belonged to the dead parent

    threading.Thread(target=watch, name="exit-with-parent", daemon=True).start()
