"""What one step costs the web table to show, without the database: the frames a commit
builds, one per open table (each member's own, in their language), for Leiff and Dalen.

A match of each is opened through the match core on a SQLite file of its own (its
``MatchInfo``: seats, names), then played by the engine alone (random legal steps, a fixed
seed) while every member's frame is built after each step, as ``WebTable.committed``
builds them for the sockets watching the match, and serialised as they are sent. Leiff
steps go round many tables, as the web table serves many at once (``--tables``: each its
own game and its members' own names, one step each in turn). One sample is one step's
frames (one a member), in CPU time of the building thread; the figures are the median and
the 90th percentile over the steps, and the mean per frame.

    python -m bench.web_frames [--steps 400] [--players 4] [--seed 1] [--tables 50]
"""

from __future__ import annotations

import argparse
import asyncio
import functools
import json
import random
import statistics
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from engine.board import BoardState
from engine.leiff import random_action
from engine.leiff.state import LeiffState
from matchcore.service import MatchService
from matchcore.service.results import MatchInfo
from matchcore.storage import open_repository
from web.leiff_frame import leiff_frame
from web.local import LOCAL, prepare_local, service_choices
from web.server import LOCAL_BOT
from web.sessions import Identity
from web.snapshot import board_frame

FIRST_MEMBER = 5000
Names = dict[int, Identity]


async def opened(players: int) -> tuple[MatchInfo, LeiffState, MatchInfo, BoardState, Names]:
    """A started Leiff table of ``players`` members and a Dalen match of two, as stored."""
    with tempfile.TemporaryDirectory(prefix="leafbot-frames-") as folder:
        repo = await open_repository(Path(folder) / "frames.sqlite3")
        service = MatchService(repo, bot_user_id=LOCAL_BOT, choices=service_choices())
        try:
            await prepare_local(service)
            members = [FIRST_MEMBER + seat for seat in range(players)]
            lobby = await service.open_lobby(LOCAL.guild_id, 100, members[0])
            assert lobby.match is not None
            for member in members[1:]:
                await service.join_lobby(lobby.match.id, member)
            await service.start_lobby(lobby.match.id, members[0])
            leiff, table = await service.match_state(lobby.match.id)
            dalen = await service.challenge(LOCAL.guild_id, 101, members[0], "dalen", members[1])
            if dalen.match is None:
                assert dalen.challenge is not None
                dalen = await service.accept_challenge(dalen.challenge.id, members[1])
            assert dalen.match is not None
            board, position = await service.match_state(dalen.match.id)
        finally:
            await repo.close()
    assert isinstance(table, LeiffState) and isinstance(position, BoardState)
    names = {m: Identity(m, f"P{m}", "en") for m in members}
    return leiff, table, board, position, names


def timed(build: Callable[[], None]) -> float:
    """The CPU time of the thread building the frames: a shared machine's load waits
    outside it (wall time on a loaded 2-core machine is mostly other processes' turns)."""
    started = time.thread_time()
    build()
    return time.thread_time() - started


def run(steps: int, players: int, seed: int, tables: int = 1) -> dict[str, Any]:
    """``steps`` steps of each game; Leiff's round the ``tables`` tables (each its own
    game and its members' own names), as the web table serves many at once."""
    leiff_info, first_table, dalen_info, first_position, names = asyncio.run(opened(players))
    members = sorted(names)
    rng = random.Random(seed)
    # each table's members by names of its own (the same seats and ids: one stored table)
    table_names = [
        {m: Identity(m, f"T{n}P{m}", "en") for m in members} if n else names for n in range(tables)
    ]

    def leiff_step(shown: LeiffState, named: Names) -> None:
        for member in members:
            frame = leiff_frame(leiff_info, shown, viewer=member, names=named, language="en")
            json.dumps(frame, separators=(",", ":"))

    def dalen_step(shown: BoardState) -> None:
        # as many open tables as Leiff's: each member's own (the two seats and watchers)
        for member in members:
            viewer = {member: names[member]}
            frame = board_frame(dalen_info, shown, viewer=viewer, names=names, language="en")
            json.dumps(frame, separators=(",", ":"))

    leiff_samples: list[float] = []
    games = [first_table] * tables
    while len(leiff_samples) < steps:
        number = len(leiff_samples) % tables
        try:
            seat, action = random_action(games[number], rng)
        except ValueError:  # the game is over: again from the deal
            games[number] = first_table
            continue
        games[number] = games[number].play(seat, action)
        step = functools.partial(leiff_step, games[number], table_names[number])
        leiff_samples.append(timed(step))

    dalen_samples: list[float] = []
    position = first_position
    while len(dalen_samples) < steps:
        moves = position.legal_moves()
        if not moves or position.is_over:
            position = first_position
            continue
        position = position.play(rng.choice(moves))
        dalen_samples.append(timed(functools.partial(dalen_step, position)))
    return {"leiff": figures(leiff_samples, players), "dalen": figures(dalen_samples, players)}


def figures(samples: list[float], tables: int) -> dict[str, float]:
    ordered = sorted(samples)
    return {
        "steps": len(samples),
        "p50_ms": round(statistics.median(ordered) * 1000, 2),
        "p90_ms": round(ordered[int(len(ordered) * 0.9)] * 1000, 2),
        "per_frame_ms": round(statistics.fmean(ordered) * 1000 / tables, 3),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--steps", type=int, default=400)
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--tables", type=int, default=50, help="Leiff tables, stepped in turn")
    args = parser.parse_args()
    result = run(args.steps, args.players, args.seed, args.tables)
    result["leiff_over_dalen"] = round(result["leiff"]["p50_ms"] / result["dalen"]["p50_ms"], 1)
    print(json.dumps(result, indent=2))


if __name__ == "__main__":
    main()
