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
        kills = 0

        async def finished() -> bool:
            record = await repo.get_tournament(tid)
            return record is not None and record.status == "finished"

        async def slot(number: int) -> None:
            """A child after another: each killed at a random moment of its work."""
            nonlocal kills
            while not await finished():
                child = await spawn(url, tid, number * 1000 + kills)
                drained = asyncio.create_task(drain(child))
                try:
                    await asyncio.sleep(rng.uniform(0.3, 3.0))
                finally:
                    if child.returncode is None:
                        os.kill(child.pid, signal.SIGKILL)
                    await child.wait()
                    drained.cancel()
                kills += 1

        await asyncio.wait_for(asyncio.gather(slot(1), slot(2)), 900)
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
