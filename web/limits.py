"""Per-socket limits: a token bucket against floods of messages, and the largest frame."""

from __future__ import annotations

import time
from collections.abc import Callable

# The largest frame a page sends is a move of a few bytes; anything past this is refused
# (aiohttp closes the socket with 1009, "message too big").
MAX_FRAME_BYTES = 4096
# A socket may send RATE messages a second on average, BURST at once.
RATE = 10.0
BURST = 20.0
# A socket that keeps flooding after this many refusals in a row is closed.
MAX_REFUSALS = 50


class TokenBucket:
    """``take()`` is True while the socket stays within ``rate`` messages a second, with
    bursts up to ``burst``."""

    def __init__(
        self,
        rate: float = RATE,
        burst: float = BURST,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.rate = rate
        self.burst = burst
        self.clock = clock
        self.tokens = burst
        self.at = clock()

    def take(self) -> bool:
        now = self.clock()
        self.tokens = min(self.burst, self.tokens + (now - self.at) * self.rate)
        self.at = now
        if self.tokens < 1.0:
            return False
        self.tokens -= 1.0
        return True
