"""An arena of 500 run by one bot process against the Discord simulator: the requests it
costs a minute, counted, not estimated.

The real ``LeafBot`` (discord.py, the match service on a SQLite file, pictures drawn in
threads) runs one arena in one server of ``players`` members. The admin creates it with
``/tournament create`` (the announcement and the event's thread), the members join (through
the service: a click's answer is an interaction callback, which Discord's global limit
spares), ``/tournament start`` pairs everyone. Then the service's clock runs in ticks of
``TICK`` seconds, as the bot's clock loop does: each game ends after a length drawn between
2 and 8 minutes (5 on average; a resignation through the service, published by the bot as
after a click), and each tick's claimed step records the games that ended and pairs their
players again. The simulator counts every REST request by what it was for; the minutes
after the start are the steady state (the start's own requests are reported apart).

The simulator's rate-limit windows are compressed (``TIME_SCALE``): the counts are
Discord's, the waiting is not. The standings' coalescing gap is set to nothing, so each
step that changed them costs an edit: an upper bound (with ticks every 5 s, 12 a minute;
the bot's 3 s gap would allow 20). The games' own moves are not played: each move of a
game costs what it costs in any match (its board), whatever the tournament.
"""

from __future__ import annotations

import asyncio
import random
import tempfile
import time
from pathlib import Path
from typing import Any

from bot.app import LeafBot
from bot.settings import Settings
from discord_sim.harness import DiscordSimulator

TICK = 5.0  # seconds between two clock ticks (the bot's TICK_SECONDS)
TIME_SCALE = 0.02  # the simulator's rate-limit windows, compressed
START = 1_800_000_000.0
GLOBAL_LIMIT_PER_MINUTE = 50 * 60  # Discord's 50 requests a second, interaction callbacks spared


class Clock:
    def __init__(self) -> None:
        self.now = START

    def __call__(self) -> float:
        return self.now


async def arena_requests(players: int, minutes: int, seed: int = 38) -> dict[str, float]:
    """Run the arena (see the module's docstring); the figures."""
    rng = random.Random(seed)
    clock = Clock()
    with tempfile.TemporaryDirectory() as folder:
        async with DiscordSimulator(rate_limit_time_scale=TIME_SCALE) as sim:
            guild = sim.add_guild("Arena", channels=("arena",))
            admin = sim.add_member(guild, "admin", manage_guild=True)
            members = [sim.add_member(guild, f"player{n}") for n in range(players)]
            settings = Settings(
                token="simulated",
                database_path=Path(folder) / "arena.sqlite3",
                dev_guild_id=guild.id,
                render_workers=0,
            )
            handle = await sim.start_bot(
                lambda: LeafBot(settings, service_options={"clock": clock}, tick_seconds=None)
            )
            client: Any = handle.client
            client.tournament_posts.edits.gap = 0.0
            service = client.service
            made = await sim.slash(
                admin,
                "tournament create",
                game="lefe",
                format="arena",
                minutes=360,
                size=5,
                clock="move:86400",
            )
            button = next(b for b in made.last_message.buttons if b.custom_id)
            tournament = int(str(button.custom_id).split("|")[2])
            for member in members:
                await service.tournaments.join(tournament, member.id)

            async def settle() -> None:
                await client.tournament_posts.idle()
                await client.delivery.deliveries_idle()

            began = time.perf_counter()
            mark = len(sim.requests)
            started = await sim.slash(admin, "tournament start", tournament=tournament)
            # the answer goes first; the start's boards follow in the command's own task
            await asyncio.gather(*started.handler_tasks)
            await settle()
            start_seconds = time.perf_counter() - began
            start_counts = sim.request_counts(since=mark)
            ends: dict[int, float] = {}
            mark = len(sim.requests)
            began = time.perf_counter()
            ended = 0
            for _ in range(int(minutes * 60 / TICK)):
                clock.now += TICK
                matches = await service.store.repo.tournament_matches(tournament)
                for match in matches.values():
                    if match.status != "running":
                        continue
                    end = ends.setdefault(match.id, clock.now + rng.uniform(120, 480))
                    if end <= clock.now:
                        loser = rng.choice(match.seats).user_id
                        await client.delivery.publish_quietly(await service.resign(match.id, loser))
                        ended += 1
                await client.tick_once()
                await settle()
            steady_seconds = time.perf_counter() - began
            counts = sim.request_counts(since=mark)
            info = await service.tournaments.get(tournament)
            await handle.stop()
    spared = counts.get("callback", 0)
    counted = sum(v for k, v in counts.items() if k not in ("callback", "429"))
    return {
        "start: requests (boards, lines, standings)": float(
            sum(v for k, v in start_counts.items() if k not in ("callback", "429"))
        ),
        "start: channel messages (boards in the thread, lines)": float(
            start_counts.get("channel message", 0)
        ),
        "start: other (names read for the standings, ...)": float(start_counts.get("other", 0)),
        "start: wall seconds (compressed limits)": start_seconds,
        "games ended in the steady minutes": float(ended),
        "steady: requests per minute (all)": counted / minutes,
        "steady: channel messages per minute": counts.get("channel message", 0) / minutes,
        "steady: edits per minute": counts.get("edit", 0) / minutes,
        "steady: DMs per minute": counts.get("DM", 0) / minutes,
        "steady: other per minute": counts.get("other", 0) / minutes,
        "steady: interaction callbacks (spared)": float(spared),
        "steady: 429s": float(counts.get("429", 0)),
        "steady: share of the global limit": counted / minutes / GLOBAL_LIMIT_PER_MINUTE,
        "steady: wall seconds for the simulated minutes": steady_seconds,
        "games recorded": float(sum(r.games for r in info.standings) / 2),
    }
