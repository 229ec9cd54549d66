"""Claimed steps across processes, killed with SIGKILL at random moments (PostgreSQL).

Two child processes play a 13-player Swiss's games and run its steps at once; the test
kills one or the other with SIGKILL again and again and starts another. At the end: every
round was played once (none skipped, none paired twice), nobody met anyone twice, every
match a step started is one game of the state and every ended match's result is recorded.
"""

from __future__ import annotations

import asyncio
import os
import random
import signal
import sys
import time
from pathlib import Path

from bot.common.choices import service_choices
from matchcore.service import MatchService
from matchcore.storage import open_repository
from matchcore.tournament.model import TournamentState
from tests.postgres import fresh_database
from tests.tournament.helpers import ADMIN, PLAYERS

ROOT = Path(__file__).resolve().parents[2]


async def spawn(url: str, tournament_id: int, seed: int) -> asyncio.subprocess.Process:
    """A child, once it is ready to work (its imports take seconds on a loaded machine)."""
    child = await asyncio.create_subprocess_exec(
        sys.executable,
        "-m",
        "tests.tournament.kill_child",
        url,
        str(tournament_id),
        str(seed),
        cwd=ROOT,
        stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.DEVNULL,
    )
    assert child.stdout is not None
    line = await asyncio.wait_for(child.stdout.readline(), 180)
    assert line.strip() == b"READY", line
    return child


async def drain(child: asyncio.subprocess.Process) -> None:
    assert child.stdout is not None
    while await child.stdout.readline():
        pass


async def test_killed_processes_lose_no_result_pair_no_one_twice_and_skip_no_round() -> None:
    async with fresh_database() as url:
        repo = await open_repository(url)
        service = MatchService(repo, choices=service_choices())
        await service.start()
        created = await service.tournaments.create(
            1000, 2000, ADMIN, True, "lefe", "swiss", rounds=5, size=5
        )
        tid = created.tournament.id
        for player in PLAYERS[:13]:
            await service.tournaments.join(tid, player)
        await service.tournaments.start_now(tid, ADMIN, True)
        rng = random.Random(38)
        children = [await spawn(url, tid, seed) for seed in (1, 2)]
        drains = [asyncio.create_task(drain(child)) for child in children]
        kills = 0
        deadline = time.monotonic() + 900
        try:
            while time.monotonic() < deadline:
                # a random moment of a ready child's work: in a resignation, a claim, a
                # step's reads or its commit
                await asyncio.sleep(rng.uniform(0.1, 2.5))
                record = await repo.get_tournament(tid)
                assert record is not None
                if record.status == "finished":
                    break
                victim = rng.randrange(len(children))
                os.kill(children[victim].pid, signal.SIGKILL)
                await children[victim].wait()
                kills += 1
                children[victim] = await spawn(url, tid, 100 + kills)
                drains[victim] = asyncio.create_task(drain(children[victim]))
        finally:
            for child in children:
                if child.returncode is None:
                    child.kill()
                await child.wait()
            for task in drains:
                task.cancel()
        record = await repo.get_tournament(tid)
        assert record is not None and record.status == "finished", record
        assert kills >= 3
        state = TournamentState.from_json(record.state)
        assert state.round == 5
        for number in range(1, 6):
            seated = [p for g in state.games if g.round == number for p in g.players]
            assert sorted(seated) == sorted(PLAYERS[:13])  # everyone once a round
        pairs = [frozenset(g.players) for g in state.games if not g.bye]
        assert len(pairs) == len(set(pairs)) == 30
        byes = [g.players[0] for g in state.games if g.bye]
        assert len(byes) == len(set(byes)) == 5
        matches = await repo.tournament_matches(tid)
        assert sorted(matches) == sorted(g.number for g in state.games if not g.bye)
        assert len({m.id for m in matches.values()}) == len(matches)
        for game in state.games:
            assert game.done
            if not game.bye:
                match = matches[game.number]
                assert match.status == "finished"
                winners = set((match.result or {}).get("winners") or ())
                points = tuple(2 if p in winners else 0 for p in game.players)
                assert game.points == points  # the recorded result is the match's
        await repo.close()
