"""An arena of 500 players on one process: the pairing's time per round, and what it costs.

Two measures:

- **pure pairing** (``matchcore.tournament.arena.pair_arena`` and the step's whole decision,
  ``progress.advance``) for 500 free players, and for the few players a typical tick frees;
- **the service's claimed step** on a real SQLite file: the start (250 matches created in
  one transaction), then "rounds" in which a share of the running games end (members
  resigning through the service, as players would) and one ``tournaments.tick()`` records
  them and pairs the freed players, each committed in one transaction.

From the matches started per minute at an assumed game length it estimates the Discord
requests per minute: each new match posts its board in the event's thread (one channel
message, counted in the global limit), and the standings picture is edited at most once
every ``STANDINGS_EVERY`` seconds. Then it counts them: the bot itself runs the arena
against the Discord simulator for ``--discord-minutes`` simulated minutes
(:mod:`bench.tournament_discord`).

    python -m bench.tournament_arena [--players 500] [--rounds 20] [--share 0.1]
        [--discord-minutes 10] [--only-discord]
"""

from __future__ import annotations

import argparse
import asyncio
import random
import statistics
import tempfile
import time
from pathlib import Path

from bench.tournament_discord import arena_requests
from bot.common.choices import service_choices
from matchcore.service import MatchService
from matchcore.storage import open_repository
from matchcore.tournament import progress
from matchcore.tournament.arena import ArenaEntrant, pair_arena
from matchcore.tournament.model import Entry, Pairing, TournamentState

GUILD, CHANNEL, ADMIN = 10**15, 10**15 + 1, 10**15 + 2
STANDINGS_EVERY = 10.0  # seconds between two edits of the standings picture
GAME_MINUTES = 5.0  # an assumed length of a live arena game


def pure_pairing(players: int) -> dict[str, float]:
    rng = random.Random(500)
    free = [
        ArenaEntrant(p, rng.randrange(0, 60), rng.choice([None, p + 1])) for p in range(players)
    ]
    times = []
    for _ in range(20):
        started = time.perf_counter()
        pair_arena(free)
        times.append(time.perf_counter() - started)
    state = TournamentState(entries=tuple(Entry(p, 0.0) for p in range(players)))
    fmt = progress.Format("arena", minutes=60)
    started = time.perf_counter()
    step = progress.advance(fmt, state, {}, 0.0)
    decide = time.perf_counter() - started
    assert len(step.new_games) == players // 2
    return {"pair_arena_ms": statistics.median(times) * 1000, "advance_all_free_ms": decide * 1000}


def decision_with_history(players: int, games: int) -> dict[str, float]:
    """A later step's decision and the standings with ``games`` games recorded."""
    rng = random.Random(1)
    played = []
    for number in range(games):
        a, b = rng.sample(range(players), 2)
        outcomes = rng.choice((("win", "loss"), ("draw", "draw"), ("loss", "win")))
        points = tuple({"win": 2, "draw": 1, "loss": 0}[o] for o in outcomes)
        played.append(Pairing(number, 0, (a, b), 0.0, points=points, outcomes=outcomes))
    state = TournamentState(tuple(Entry(p, 0.0) for p in range(players)), tuple(played))
    fmt = progress.Format("arena", minutes=60)
    began = time.perf_counter()
    progress.advance(fmt, state, {}, 0.0)
    advance = time.perf_counter() - began
    began = time.perf_counter()
    progress.ranking(fmt, state)
    ranking = time.perf_counter() - began
    began = time.perf_counter()
    text = state.to_json()
    TournamentState.from_json(text)
    json_ms = time.perf_counter() - began
    return {
        f"advance_with_{games}_games_ms": advance * 1000,
        f"ranking_with_{games}_games_ms": ranking * 1000,
        "state_json_round_trip_ms": json_ms * 1000,
        "state_json_kb": len(text) / 1024,
    }


async def service_rounds(players: int, rounds: int, share: float) -> dict[str, float]:
    rng = random.Random(38)
    with tempfile.TemporaryDirectory() as folder:
        repo = await open_repository(Path(folder) / "arena.sqlite3")
        now = [1_800_000_000.0]
        service = MatchService(repo, choices=service_choices(), clock=lambda: now[0])
        await service.start()
        created = await service.tournaments.create(
            GUILD, CHANNEL, ADMIN, True, "lefe", "arena", minutes=360, size=5
        )
        tid = created.tournament.id
        for player in range(1, players + 1):
            await service.tournaments.join(tid, 10**12 + player)
        started = time.perf_counter()
        first = await service.tournaments.start_now(tid, ADMIN, True)
        start_ms = (time.perf_counter() - started) * 1000
        steps, paired = [], []
        for _ in range(rounds):
            matches = await repo.tournament_matches(tid)
            running = [m for m in matches.values() if m.status == "running"]
            for match in rng.sample(running, max(1, int(len(running) * share))):
                user = rng.choice(match.seats).user_id
                assert user is not None
                await service.resign(match.id, user)
            now[0] += 5
            began = time.perf_counter()
            updates = await service.tournaments.tick()
            steps.append((time.perf_counter() - began) * 1000)
            paired.append(sum(len(u.matches) for u in updates))
        await repo.close()
    return {
        "start_ms (250 matches in one commit)": start_ms,
        "first_round_games": float(len(first.matches)),
        "step_median_ms": statistics.median(steps),
        "step_max_ms": max(steps),
        "games_paired_per_step": statistics.mean(paired),
    }


def requests_per_minute(players: int) -> dict[str, float]:
    games_per_minute = players / 2 / GAME_MINUTES
    board_posts = games_per_minute  # one thread message per new match
    standings = 60 / STANDINGS_EVERY
    return {
        "matches_started_per_minute": games_per_minute,
        "requests_per_minute": board_posts + standings,
        "share_of_global_limit": (board_posts + standings) / (50 * 60),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, default=500)
    parser.add_argument("--rounds", type=int, default=20)
    parser.add_argument("--share", type=float, default=0.1)
    parser.add_argument(
        "--discord-minutes",
        type=int,
        default=10,
        help="simulated minutes of the arena run by the bot against the Discord simulator "
        "(0: skip; bench/tournament_discord.py)",
    )
    parser.add_argument("--only-discord", action="store_true", help="only the Discord part")
    args = parser.parse_args()
    results: dict[str, float] = {}
    if not args.only_discord:
        results.update(pure_pairing(args.players))
        results.update(decision_with_history(args.players, 3 * args.players))
        results.update(asyncio.run(service_rounds(args.players, args.rounds, args.share)))
        results.update(requests_per_minute(args.players))
    if args.discord_minutes:
        results.update(asyncio.run(arena_requests(args.players, args.discord_minutes)))
    for name, value in results.items():
        print(f"{name:48} {value:10.2f}")


if __name__ == "__main__":
    main()
