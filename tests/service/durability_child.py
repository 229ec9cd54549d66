"""Child process of the durability test: applies a stream of moves through the service.

Usage: ``python -m tests.service.durability_child DB_PATH SEED``. It continues the running
match in the database (or starts one), plays random legal moves, and prints
``ACK <match id> <version> <move>`` after each call has returned (so after its commit).
When a match ends it starts the next. It runs until it is killed.
"""

from __future__ import annotations

import asyncio
import random
import sys
import time

from bot.common.choices import service_choices
from engine import get_game
from matchcore.service import MatchService
from matchcore.storage import SqliteRepository, open_repository

GUILD, CHANNEL, FIRST, SECOND = 1000, 2000, 11, 12


async def run(path: str, seed: int) -> None:
    repo = await open_repository(path)
    try:
        await play_forever(repo, seed)
    finally:
        # aiosqlite's worker thread would keep a failed child alive (and the test waiting).
        await repo.close()


async def play_forever(repo: SqliteRepository, seed: int) -> None:
    # The real clock: every run of the child continues the same timeline.
    service = MatchService(repo, choices=service_choices(), clock=time.time)
    await service.update_settings(GUILD, FIRST, True, challenge_cooldown_seconds=0)
    await service.start()
    rng = random.Random(seed)
    running = await service.user_matches(FIRST, GUILD)
    match_id = running[0].id if running else None
    while True:
        if match_id is None:
            offer = await service.challenge(GUILD, CHANNEL, FIRST, "lefe", SECOND, size=5)
            match_id = (await service.accept_challenge(offer.challenge_id, SECOND)).match_id
            print(f"NEW {match_id}", flush=True)
        record = await repo.get_match(match_id)
        state = get_game(record.game).from_json(record.state)
        move = rng.choice(state.legal_moves())
        user = record.user_of(state.seat_to_move)
        update = await service.play(match_id, user, move, version=record.version)
        print(f"ACK {match_id} {update.version} {move}", flush=True)
        if update.match.status != "running":
            match_id = None


if __name__ == "__main__":
    asyncio.run(run(sys.argv[1], int(sys.argv[2])))
