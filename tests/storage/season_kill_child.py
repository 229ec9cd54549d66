"""Child process of the season kill test: closes the seasons that ended, again and again.

Usage: ``python -m tests.storage.season_kill_child URL NOW SEED``. It calls
``close_seasons(NOW)`` one season at a time until it is killed; two run at once on one
database, and the test kills them with SIGKILL at random moments.
"""

from __future__ import annotations

import asyncio
import random
import sys

from bot.common.choices import service_choices
from matchcore.service import MatchService
from matchcore.storage import open_repository


async def run(url: str, now: float, seed: int) -> None:
    repo = await open_repository(url)
    service = MatchService(repo, choices=service_choices())
    print("READY", flush=True)
    rng = random.Random(seed)
    try:
        while True:
            due = await repo.seasons_to_close(now)
            if due:  # one at a time, in a random order: the two children meet
                season = rng.choice(due)
                if await repo.close_season(season.guild_id, season.season, now):
                    print("CLOSED", season.guild_id, season.season, flush=True)
            else:
                await service.close_seasons(now)
            await asyncio.sleep(rng.uniform(0.02, 0.1))
    finally:
        await repo.close()


if __name__ == "__main__":
    asyncio.run(run(sys.argv[1], float(sys.argv[2]), int(sys.argv[3])))
