"""The newest version shown per match (``bot.delivery.channel_order.ChannelOrder``): a
background post is not sent behind a newer version, and one that comes back behind a
newer one is deleted and reported as not posted."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from bot.delivery.channel_order import ChannelOrder


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
