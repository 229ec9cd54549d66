"""The newest version of each match a channel shows, so that an older board never lands last.

A match's channel message that answers no interaction (a tournament game's first board, a
clock's update, a message sent again) is a channel post, and a channel's posts share a
bucket of 5 per 5 s: when it is spent, discord.py holds the post until the window resets.
Meanwhile the players may move: ``/move`` and a board's buttons are answered by their
interaction, which another bucket limits, so a newer board can be shown first. Without a
look after the wait, the held post would land below it, and its record would point the
match at the older message (the kill test once saw a thread show the versions 1, 2, 3
and then 0).

:class:`ChannelOrder` keeps, by match, the newest version this process has shown in a
channel. A background post is not sent when a newer version is shown already, and one
that comes back from its wait behind a newer one is deleted and not recorded (the newer
message stays the match's). One process delivers a server's matches, so what it has shown
itself is all there is to know; a start (a new process) begins with nothing held.

The look before a post is not enough on its own: discord.py holds a post for its bucket
inside the request, so a newer version can be shown during that wait, after the look. And
deleting the late board afterwards leaves a window: a process killed between the late
post's landing and its deletion leaves the old board below the new one for good (the
tournament kill test saw exactly that once). So the last look is taken as the request
leaves, after every wait and before every retry: :func:`last_look` is an aiohttp trace
hook on the client's session that refuses a guarded post (:class:`StaleBoard`) when its
match shows a newer version by then. Only a post already on the wire can still come back
late, and that one is deleted as before.
"""

from __future__ import annotations

import logging
from collections import OrderedDict
from collections.abc import Awaitable, Callable
from contextvars import ContextVar
from types import SimpleNamespace

import aiohttp
import discord

from matchcore.service.results import MatchInfo

log = logging.getLogger(__name__)

#: Matches remembered at most (the oldest forgotten first): a post waits a few seconds, so
#: only the matches that moved lately matter.
REMEMBERED = 4096


class StaleBoard(Exception):
    """A guarded background post refused as it was about to leave: its match's channel shows
    a newer version by then."""


# The post under way in this task: the order that guards it, its match and version. The
# trace hook runs in the task that awaits the request, so it sees this.
_guarded: ContextVar[tuple[ChannelOrder, int, int] | None] = ContextVar("guarded", default=None)


async def _look_before_sending(
    session: aiohttp.ClientSession,
    context: SimpleNamespace,
    params: aiohttp.TraceRequestStartParams,
) -> None:
    guarded = _guarded.get()
    if guarded is None or params.method != "POST":
        return
    order, match_id, version = guarded
    if order.outdated(match_id, version):
        raise StaleBoard(f"match {match_id}: version {version} is behind what the channel shows")


def last_look() -> aiohttp.TraceConfig:
    """The hook for the client's HTTP session (``discord.Client(http_trace=...)``): every
    request starts through it, after discord.py's rate-limit waits and at each retry, so a
    guarded post (:meth:`ChannelOrder.post`) overtaken while it waited never goes out."""
    trace = aiohttp.TraceConfig()
    trace.on_request_start.append(_look_before_sending)
    return trace


class ChannelOrder:
    """By match, the newest version shown in its channel by this process."""

    def __init__(self, remembered: int = REMEMBERED) -> None:
        self.remembered = remembered
        self._newest: OrderedDict[int, int] = OrderedDict()

    def shown(self, match_id: int, version: int) -> None:
        """The channel now shows ``version`` of the match (its message was posted)."""
        self._newest[match_id] = max(version, self._newest.get(match_id, -1))
        self._newest.move_to_end(match_id)
        while len(self._newest) > self.remembered:
            self._newest.popitem(last=False)

    def outdated(self, match_id: int, version: int) -> bool:
        """Whether the channel already shows a newer version than ``version``."""
        return self._newest.get(match_id, -1) > version

    async def dropped(self, match_id: int, version: int, posted: discord.Message) -> bool:
        """After a background post of ``version`` came back: if a newer version was shown
        while it waited, delete it (the newer message is below it) and say so."""
        if not self.outdated(match_id, version):
            return False
        log.info("match %s: a board of version %s landed late; deleted", match_id, version)
        try:
            await posted.delete()
        except discord.HTTPException as error:
            log.warning("could not delete a late board of match %s: %s", match_id, error)
        return True

    async def post(
        self, match: MatchInfo | None, send: Callable[[], Awaitable[discord.Message]]
    ) -> discord.Message | None:
        """A background post of ``match`` (``send`` posts it): not sent when the channel
        shows a newer version already, nor when one is shown while discord.py holds it for
        its rate limit (:func:`last_look`), deleted when one was shown while its answer was
        on the way (None then: nothing was posted)."""
        if match is None:
            return await send()
        if self.outdated(match.id, match.version):
            return None
        guard = _guarded.set((self, match.id, match.version))
        try:
            posted = await send()
        except StaleBoard:
            log.info(
                "match %s: a board of version %s was overtaken as it waited; not sent",
                match.id,
                match.version,
            )
            return None
        finally:
            _guarded.reset(guard)
        if await self.dropped(match.id, match.version, posted):
            return None
        self.shown(match.id, match.version)
        return posted
