"""The bot seats' turns, started by the core right after the commit that makes them due.

A commit that leaves a bot seat to act (a member's move against the bot, a Leiff action
after which bot seats follow, a table started with bots to play first) asks
:class:`BotTurns` for the bot's turns before the call that made it returns: one task per
match plays every bot action due (:meth:`BotOpponent.advance_bots`, the search in a
worker process) and hands the updates, in order, to every front end that listens
(:meth:`BotTurns.listen`). So the bot starts thinking while the front end is still showing
the member's move, and no front end has to remember to ask: a front end only shows what it
is handed. A request while the task runs makes it look once more before it ends; the
bot's own steps ask nothing (its loop goes on by itself).

What a process leaves undone (killed while the bot was thinking) is found by the clock's
tick (``matches_bot_due``, once the dead process's claim has run out) and, at a start, by
:meth:`BotTurns.resume`, which reads the matches a bot is due in, a page at a time, in the
background.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable, Sequence

from matchcore.service.results import Update
from matchcore.service.vs_bot import BotOpponent
from matchcore.storage import MatchRecord

log = logging.getLogger(__name__)

# A front end's listener: ``(match id, the updates of the bot's turns, the version of the
# step that made the bot due, or None when a start found it due)``.
BotTurnsListener = Callable[[int, Sequence[Update], int | None], Awaitable[None]]


class BotTurns:
    """Background tasks that play the bot seats' turns, one per match."""

    def __init__(self, bots: BotOpponent) -> None:
        self.bots = bots
        self.listeners: list[BotTurnsListener] = []
        self._tasks: dict[int, asyncio.Task[None]] = {}
        # by match: the version of the newest step that asked for the bot's turns (None:
        # asked by a start), while the task has not begun another round for it
        self._wanted: dict[int, int | None] = {}
        self._resuming: asyncio.Task[None] | None = None
        self._stopped = False

    def listen(self, listener: BotTurnsListener) -> None:
        """Hand every batch of the bot's updates to ``listener`` (a front end shows them)."""
        self.listeners.append(listener)

    def committed(self, record: MatchRecord) -> None:
        """After a commit (or a new match): if a bot seat is due now, let it act."""
        if record.status != "running" or not record.bot_due:
            return
        task = self._tasks.get(record.id)
        if task is not None and task is asyncio.current_task():
            return  # the bot's own step: its task goes on until no bot is due
        self.request(record.id, record.version)

    def request(self, match_id: int, version: int | None) -> None:
        """Play the match's bot turns in the background (``version``: the step that made
        them due, for the listeners' order)."""
        if self._stopped:
            return
        self._wanted[match_id] = version
        task = self._tasks.get(match_id)
        if task is None or task.done():
            self._tasks[match_id] = asyncio.create_task(
                self._play(match_id), name=f"bot-turns-{match_id}"
            )

    async def _play(self, match_id: int) -> None:
        try:
            while match_id in self._wanted:
                cause = self._wanted.pop(match_id)
                updates = await self.bots.advance_bots(match_id)
                if not updates:
                    continue
                for listener in self.listeners:
                    try:
                        await listener(match_id, updates, cause)
                    except asyncio.CancelledError:
                        raise
                    except Exception:
                        log.exception("could not hand the bot's turns in match %s on", match_id)
        except asyncio.CancelledError:
            raise
        except Exception:
            # the next clock tick plays whatever is still due
            log.exception("the bot could not take its turn in match %s", match_id)
        finally:
            if self._tasks.get(match_id) is asyncio.current_task():
                del self._tasks[match_id]
            self._wanted.pop(match_id, None)

    def resume(self, matches: Callable[[], Awaitable[Sequence[MatchRecord]]]) -> None:
        """At a start, in the background: play the bot turns a stopped process left due
        (``matches`` reads them, claimed for this process)."""
        self._resuming = asyncio.create_task(self._resume(matches), name="bot-turns-resume")

    async def _resume(self, matches: Callable[[], Awaitable[Sequence[MatchRecord]]]) -> None:
        try:
            for record in await matches():
                self.request(record.id, None)
        except Exception:
            log.exception("could not look for the bot turns left over")  # the tick will

    def running(self, match_id: int) -> asyncio.Task[None] | None:
        """The task playing this match's bot turns, while it runs."""
        task = self._tasks.get(match_id)
        return task if task is not None and not task.done() else None

    def running_count(self) -> int:
        return len(self._tasks)

    async def idle(self) -> None:
        """Wait until no bot turn is being played or handed on (tests and shutdown)."""
        if self._resuming is not None:
            await asyncio.gather(self._resuming, return_exceptions=True)
        while self._tasks:
            await asyncio.gather(*list(self._tasks.values()), return_exceptions=True)

    async def stop(self) -> None:
        """Cancel every task and wait for them; a bot move cut short is played again by
        the next start (its match is still due)."""
        self._stopped = True
        tasks = list(self._tasks.values())
        if self._resuming is not None:
            tasks.append(self._resuming)
        self._tasks.clear()
        self._wanted.clear()
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
