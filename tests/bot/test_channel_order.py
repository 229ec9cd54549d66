"""The newest version shown per match (``bot.delivery.channel_order.ChannelOrder``): a
background post is not sent behind a newer version, not even after discord.py held it for
a rate limit (the last look as the request leaves), and one that comes back behind a newer
one is deleted and reported as not posted."""

from __future__ import annotations

import asyncio
from dataclasses import dataclass
from typing import Any

from bot.delivery.channel_order import ChannelOrder
from tests.bot.helpers import last_board_message, start_board_match, stored_match
from tests.bot.test_restart_delivery import (
    move,
    stop_and_recover,
    undelivered_move,
    versions_on,
)
from tests.bot.test_stalls import idle


@dataclass
class Match:
    id: int
    version: int


class Posted:
    """A posted message as delivery holds it: it can be deleted."""

    def __init__(self) -> None:
        self.deleted = False

    async def delete(self) -> None:
        self.deleted = True


async def test_a_post_behind_a_newer_version_is_not_sent() -> None:
    order = ChannelOrder()
    order.shown(7, 3)
    sent: list[int] = []

    async def send() -> Any:
        sent.append(1)
        return Posted()

    assert await order.post(Match(7, 2), send) is None  # type: ignore[arg-type]
    assert sent == []
    assert await order.post(Match(7, 3), send) is not None  # type: ignore[arg-type]
    assert await order.post(Match(8, 0), send) is not None  # type: ignore[arg-type]
    assert sent == [1, 1]


async def test_a_post_overtaken_while_it_waited_is_deleted() -> None:
    order = ChannelOrder()
    posted = Posted()

    async def send() -> Any:
        order.shown(7, 1)  # an interaction's answer landed while this post waited
        return posted

    assert await order.post(Match(7, 0), send) is None  # type: ignore[arg-type]
    assert posted.deleted
    assert order.outdated(7, 0) and not order.outdated(7, 1)


def test_only_the_latest_matches_are_remembered() -> None:
    order = ChannelOrder(remembered=2)
    for match_id in (1, 2, 3):
        order.shown(match_id, 5)
    assert not order.outdated(1, 0)  # forgotten
    assert order.outdated(2, 0) and order.outdated(3, 0)


async def test_a_board_held_for_its_rate_limit_is_not_sent_once_a_newer_one_is_shown(
    sim, world, bot, make_bot
):
    """The real client against the simulator: a start sends a move's board again, Discord
    holds that post with a 429, and meanwhile the next move is answered with the newer
    board. The older board must never reach Discord (posting then deleting it leaves a
    window where a kill keeps it below the newer one)."""
    match_id, _ = await start_board_match(sim, world.alice, world.bob, "lefe", 5)
    faults = await undelivered_move(sim, bot, world, match_id)
    stale = (await stored_match(bot, match_id)).version
    await stop_and_recover(bot, faults)
    # the redelivered post meets a 429 long enough for the next move to be answered first
    held = sim.rate_limit(f"POST /channels/{world.channel.id}/messages", retry_after=4.0)

    restarted = await sim.start_bot(make_bot)
    for _ in range(300):
        if held.hits:
            break
        await asyncio.sleep(0.02)
    assert held.hits == 1, "the start never sent the board again"
    moved = await move(sim, restarted, world, match_id, 5)
    await idle(restarted, moved)

    match = await stored_match(restarted, match_id)
    assert match.version == stale + 1
    ever_shown = [
        max(versions_on(m))
        for m in world.channel.all_messages
        if versions_on(m) and not m.ephemeral
    ]
    assert stale not in ever_shown, f"the overtaken board reached Discord: {ever_shown}"
    last = last_board_message(world.channel)
    assert versions_on(last) == {match.version} and last.id == match.messages["board"]
    sim.assert_no_bot_errors()
