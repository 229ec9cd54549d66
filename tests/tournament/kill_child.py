"""Child process of the kill test: plays a tournament's games and runs its steps.

Usage: ``python -m tests.tournament.kill_child URL TOURNAMENT_ID SEED``. It ends every
running game of the tournament (a random player resigns, as a member would) and calls
``tournaments.tick()``, again and again, until it is killed. Several run at once on one
PostgreSQL database; the test kills them with SIGKILL at random moments.
"""

from __future__ import annotations

import asyncio
import contextlib
import random
import sys

from bot.common.choices import service_choices
from matchcore.service import MatchService, ServiceError
from matchcore.storage import open_repository


async def run(url: str, tournament_id: int, seed: int) -> None:
    repo = await open_repository(url)
    # a short lease: a killed child's claim is taken over within two seconds
    service = MatchService(repo, choices=service_choices(), claim_seconds=2.0)
    await service.start()
    print("READY", flush=True)
    rng = random.Random(seed)
    try:
        while True:
            # one game ended at a time, so that a kill finds steps under way
            running = [
                m
                for m in (await repo.tournament_matches(tournament_id)).values()
                if m.status == "running"
            ]
            if running:
                match = rng.choice(running)
                user = rng.choice(match.seats).user_id
                assert user is not None
                with contextlib.suppress(ServiceError):  # another child ended it first
                    await service.resign(match.id, user)
            for update in await service.tournaments.tick():
                print("STEP", update.kind, update.tournament.round, len(update.matches), flush=True)
            await asyncio.sleep(rng.uniform(0.05, 0.3))
    finally:
        await repo.close()


if __name__ == "__main__":
    asyncio.run(run(sys.argv[1], int(sys.argv[2]), int(sys.argv[3])))
