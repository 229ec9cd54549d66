"""discord.py's idle rate-limit buckets are swept at doublings, not on every new bucket."""

from __future__ import annotations

import asyncio

import discord.http

from bot.common.rate_buckets import FIRST_SWEEP, amortise_bucket_sweeps


def _route(channel: int) -> discord.http.Route:
    return discord.http.Route("PATCH", "/channels/{channel_id}/messages/1", channel_id=channel)


async def test_buckets_are_scanned_at_doublings_and_idle_ones_dropped() -> None:
    http = discord.http.HTTPClient(asyncio.get_running_loop())
    amortise_bucket_sweeps(http)
    scans = 0
    inactive = discord.http.Ratelimit.is_inactive

    def counted(bucket: discord.http.Ratelimit) -> bool:
        nonlocal scans
        scans += 1
        return inactive(bucket)

    discord.http.Ratelimit.is_inactive = counted  # type: ignore[method-assign]
    try:
        for channel in range(4 * FIRST_SWEEP):
            http.get_ratelimit(_route(channel).key + f":{channel}")
        # discord.py scans on each new bucket from the 256th on (about 490,000 looks in
        # all); doublings scan at 256, 512 and 1024 buckets only
        assert scans == FIRST_SWEEP + 2 * FIRST_SWEEP + 4 * FIRST_SWEEP
        assert len(http._buckets) == 4 * FIRST_SWEEP  # none idle: all kept

        # five idle minutes later, the sweep at the next doubling drops them
        for bucket in http._buckets.values():
            bucket._last_request -= 301
        new = [f"new:{number}" for number in range(4 * FIRST_SWEEP)]
        for key in new[:-1]:
            http.get_ratelimit(key)
        assert len(http._buckets) == 8 * FIRST_SWEEP - 1  # not swept yet
        http.get_ratelimit(new[-1])
        assert list(http._buckets) == new
    finally:
        discord.http.Ratelimit.is_inactive = inactive  # type: ignore[method-assign]
        await http.close()
