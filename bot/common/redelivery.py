"""Messages of committed steps that did not go out yet, sent again until they land.

A step of a match is committed before its messages are sent, so a message Discord keeps
refusing for a while (429s beyond discord.py's retries, its 5xx, the network) must not be
lost: the delivery hands what it missed to :class:`Redelivery`, whose task per match sends
the match *as it is then* until every part went out. A later step's messages replace an
earlier step's that never went out. When all of a step went out, its version is recorded
as delivered; a start sends again every match whose recorded version is behind.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable, Iterable
from dataclasses import dataclass, field
from typing import Any

import aiohttp
import discord

from bot.common.context import Context

log = logging.getLogger(__name__)

# Redelivery waits this long after a failure, doubling up to the longest wait.
REDELIVERY_FIRST_SECONDS = 1.0
REDELIVERY_LONGEST_SECONDS = 60.0
# Recorded with the match's messages: the last version whose messages all went out.
DELIVERED = "delivered"


def is_transient(error: BaseException) -> bool:
    """Worth sending again later: rate limits that outlasted discord.py's retries, Discord's
    own failures, the network. A refusal (400, 403, 404) stays a refusal."""
    if isinstance(error, discord.HTTPException):
        return error.status == 429 or error.status >= 500
    return isinstance(error, discord.RateLimited | aiohttp.ClientError | OSError | TimeoutError)


@dataclass
class Undelivered:
    """What of a match's messages has not gone out yet: the channel message, players' DMs
    (``every_player``: every player's, as after a restart nobody knows which)."""

    public: bool = False
    users: set[int] = field(default_factory=set)
    every_player: bool = False

    def __bool__(self) -> bool:
        return self.public or bool(self.users) or self.every_player

    def add(self, other: Undelivered) -> None:
        self.public |= other.public
        self.users |= other.users
        self.every_player |= other.every_player


class Redelivery:
    """What of each match did not go out yet, and the tasks that send it again."""

    def __init__(self, context: Context, send_again: Callable[[int], Awaitable[None]]) -> None:
        self.context = context
        # sends the match as it is now, for what ``pending`` holds of it
        self.send_again = send_again
        self.pending: dict[int, Undelivered] = {}
        self._tasks: dict[int, asyncio.Task[None]] = {}

    async def settle(
        self, update: Any, missed: Undelivered, done: Undelivered, *, whole: bool
    ) -> None:
        """After a publish: hand what did not go out to the match's redelivery task, or
        record the version as delivered. What went out now replaces what an earlier step
        could not send."""
        match = update.match
        if match is None:
            return
        pending = self.pending.get(match.id)
        if pending is not None:
            pending.public &= not done.public
            pending.users -= done.users
            if not pending:
                del self.pending[match.id]
        if missed:
            self.pending.setdefault(match.id, Undelivered()).add(missed)
            self._start(match.id)
            return
        if whole and match.id not in self.pending:
            await self.record_delivered(match.id, match.version)

    def settle_missed(self, match_id: int, missed: Undelivered) -> None:
        """Hand a part of a match that could not go out now to its redelivery task."""
        self.pending.setdefault(match_id, Undelivered()).add(missed)
        self._start(match_id)

    async def record_delivered(self, match_id: int, version: int) -> None:
        try:
            await self.context.service.record_delivered(match_id, version)
        except Exception:
            log.exception("could not record match %s as delivered", match_id)

    def resume(self, matches: Iterable[Any]) -> int:
        """At start: send again every match whose last step may not have gone out (its
        delivered version is behind its version: the process stopped, or was killed,
        before all of it was sent). Returns how many."""
        count = 0
        for match in matches:
            delivered = match.messages.get(DELIVERED)
            if delivered is None or delivered >= match.version:
                continue
            self.pending[match.id] = Undelivered(public=True, every_player=True)
            self._start(match.id, wait=0.0)
            count += 1
        return count

    def _start(self, match_id: int, wait: float = REDELIVERY_FIRST_SECONDS) -> None:
        task = self._tasks.get(match_id)
        if task is None or task.done():
            self._tasks[match_id] = asyncio.create_task(
                self._loop(match_id, wait), name=f"redeliver-{match_id}"
            )

    async def _loop(self, match_id: int, wait: float) -> None:
        """Send the match as it is now, for every part that has not gone out, until it
        lands. A later step's messages replace an earlier step's that never went out."""
        try:
            while self.pending.get(match_id):
                await asyncio.sleep(wait)
                wait = min(max(wait * 2, REDELIVERY_FIRST_SECONDS), REDELIVERY_LONGEST_SECONDS)
                try:
                    await self.send_again(match_id)
                except asyncio.CancelledError:
                    raise
                except Exception as error:
                    if is_transient(error):
                        log.warning("match %s is still undelivered: %s", match_id, error)
                        continue
                    log.exception("giving up delivering match %s", match_id)
                    self.pending.pop(match_id, None)
        finally:
            if self._tasks.get(match_id) is asyncio.current_task():
                del self._tasks[match_id]

    async def idle(self) -> None:
        """Wait until nothing is waiting to be sent again (tests use it)."""
        while self._tasks:
            await asyncio.gather(*list(self._tasks.values()), return_exceptions=True)

    def stop(self) -> list[asyncio.Task[None]]:
        """Forget everything (the caller cancels and awaits the tasks returned): what is
        still undelivered is sent by the next start, its version being behind."""
        tasks = list(self._tasks.values())
        self._tasks.clear()
        self.pending.clear()
        return tasks
