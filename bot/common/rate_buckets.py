"""Keeping discord.py's rate-limit buckets cheap when a bot talks to many channels.

discord.py keeps one bucket per route and channel (or webhook, or DM) it has sent to, and
forgets one only after five idle minutes. Once it holds 256 buckets, every request to a
route it has no bucket for yet scans all of them for idle ones to drop: with a thousand
channels and DMs in use that is a scan of a thousand buckets on nearly every new
conversation, on the event loop, growing with the bot (issue 21 found it in the profile of
the end-to-end benchmark). :func:`amortise_bucket_sweeps` makes the scan run only when the
number of buckets has doubled since the last one, so its cost per new bucket stays constant;
idle buckets are still dropped, the memory stays within twice what is in use.
"""

from __future__ import annotations

import discord.http

# discord.py's own threshold: below it nothing is scanned
FIRST_SWEEP = 256


def amortise_bucket_sweeps(http: discord.http.HTTPClient) -> None:
    """Replace ``http``'s sweep of idle buckets with one that runs at doublings only."""
    next_sweep = FIRST_SWEEP

    def sweep() -> None:
        nonlocal next_sweep
        buckets = http._buckets
        if len(buckets) < next_sweep:
            return
        for key in [key for key, bucket in buckets.items() if bucket.is_inactive()]:
            del buckets[key]
        next_sweep = max(FIRST_SWEEP, 2 * len(buckets))

    http._try_clear_expired_ratelimits = sweep  # type: ignore[method-assign]  # replaces discord.py's sweep (see above)
