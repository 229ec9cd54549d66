"""The web table's speed: from a click on one open table to the move shown on another, with
many tables open on one process; and the server's memory per open table (issue 34).

The server is ``python -m bot`` without a token (the web table alone, on a SQLite file of
its own), in a process of its own; this process plays the browsers: ``--tables`` sockets
over ``--matches`` hot-seat games of Dalen (the local player may run 50 at once), each
socket watching one match. A move is sent on one socket of a match (the "click"); the time
until another socket of the same match receives the frame of the new version is one
sample. ``--moves`` samples, one at a time, round the matches. Memory: the server's
resident set before the sockets open and after they all watch, divided by the tables.

Leiff (``--game leiff``): ``--matches`` tables of ``--players`` members (50 of 4: 200
open tables, each a member's own seat, signed in as Discord's sign-in would), served by
``bench.web_table_server`` (the same ``WebTable`` over a SQLite file of its own). A step
is one member's action, picked at random among those their own frame offers (their turn's
choices, matching and catching out of turn, the next deal), sent as the page sends it;
one sample is the time until another member's table at that table receives the frame of
the new version (built from that member's own seat's view).

    python -m bench.web_latency [--game dalen|leiff] [--tables 200] [--matches 50]
        [--players 4] [--moves 1000]
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import aiohttp

ROOT = Path(__file__).resolve().parent.parent
# Leiff's actions out of turn (anyone may, any time): the rest are the turn's own.
OUT_OF_TURN = ("match", "catch")


def rss_kib(pid: int) -> int:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1])
    raise RuntimeError("no VmRSS")


def start_server(folder: Path) -> tuple[subprocess.Popen[str], str]:
    env = {
        **os.environ,
        "DISCORD_TOKEN": "",
        "DATABASE_URL": f"sqlite:///{folder / 'bench.sqlite3'}",
        "WEB_PORT": "0",
        "LOG_LEVEL": "WARNING",
    }
    process = subprocess.Popen(
        [sys.executable, "-m", "bot"],
        cwd=ROOT,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        text=True,
    )
    assert process.stdout is not None
    for line in process.stdout:
        if "http://" in line:
            return process, line[line.index("http://") :].split()[0]
    raise RuntimeError("the server did not start")


async def frames(ws: aiohttp.ClientWebSocketResponse, kind: str) -> dict[str, Any]:
    while True:
        data: dict[str, Any] = json.loads((await ws.receive()).data)
        if data["type"] == kind:
            return data
        if data["type"] == "error":
            raise RuntimeError(data["text"])


async def run(tables: int, matches: int, moves: int, address: str, pid: int) -> dict[str, Any]:
    ws_address = address.replace("http", "ws")
    # no cap on connections: aiohttp allows 100 by default, and every table holds one
    async with aiohttp.ClientSession(connector=aiohttp.TCPConnector(limit=0)) as http:
        token = (await (await http.post(f"{address}/api/local-session", json={})).json())["token"]
        opener = await http.ws_connect(f"{ws_address}/ws?session={token}")
        await frames(opener, "welcome")
        match_ids = []
        for _ in range(matches):
            await opener.send_json({"type": "new_game", "game": "dalen", "opponent": "hotseat"})
            match_ids.append((await frames(opener, "started"))["match"])
            await asyncio.sleep(0.11)  # within the socket's rate limit
        await opener.close()
        print(f"{len(match_ids)} matches", file=sys.stderr, flush=True)
        await asyncio.sleep(0.5)
        before = rss_kib(pid)
        sockets: dict[int, list[aiohttp.ClientWebSocketResponse]] = {m: [] for m in match_ids}
        latest: dict[int, dict[str, Any]] = {}
        for n in range(tables):
            match = match_ids[n % matches]
            ws = await http.ws_connect(f"{ws_address}/ws?session={token}")
            await frames(ws, "welcome")
            await ws.send_json({"type": "watch", "match": match})
            latest[match] = await frames(ws, "state")
            sockets[match].append(ws)
        await asyncio.sleep(0.5)
        after = rss_kib(pid)
        print(f"{tables} tables open", file=sys.stderr, flush=True)

        # every socket keeps reading (as a page would); the observer's frames are timed
        arrived: dict[tuple[int, int], float] = {}
        events: dict[tuple[int, int], asyncio.Event] = {}

        async def read(match: int, ws: aiohttp.ClientWebSocketResponse) -> None:
            async for message in ws:
                data = json.loads(message.data)
                if data["type"] == "state":
                    key = (match, data["version"])
                    if ws is sockets[match][1]:
                        arrived[key] = time.perf_counter()
                        events.setdefault(key, asyncio.Event()).set()
                    if ws is sockets[match][0]:
                        latest[match] = data

        readers = [asyncio.create_task(read(m, ws)) for m, group in sockets.items() for ws in group]
        rng = random.Random(1)
        samples: list[float] = []
        live = list(match_ids)
        while len(samples) < moves and live:
            match = live[len(samples) % len(live)]
            state = latest[match]
            if not state["legal"]:
                live.remove(match)
                continue
            move = rng.choice(state["legal"])
            key = (match, state["version"] + 1)
            event = events.setdefault(key, asyncio.Event())
            sent = time.perf_counter()
            await sockets[match][0].send_json(
                {"type": "move", "match": match, "move": move, "version": state["version"]}
            )
            await asyncio.wait_for(event.wait(), 10)
            samples.append(arrived[key] - sent)
            while latest[match]["version"] < key[1]:
                await asyncio.sleep(0)
        for task in readers:
            task.cancel()
    samples.sort()
    return {
        "tables": tables,
        "matches": matches,
        "moves": len(samples),
        "p50_ms": 1000 * statistics.median(samples),
        "p99_ms": 1000 * samples[min(len(samples) - 1, int(0.99 * len(samples)))],
        "max_ms": 1000 * samples[-1],
        "rss_before_kib": before,
        "rss_after_kib": after,
        "kib_per_table": (after - before) / tables,
    }


def start_leiff_server(
    folder: Path, matches: int, players: int
) -> tuple[subprocess.Popen[str], str, list[dict[str, Any]]]:
    process = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "bench.web_table_server",
            str(folder / "bench.sqlite3"),
            str(matches),
            str(players),
        ],
        cwd=ROOT,
        stdout=subprocess.PIPE,
        text=True,
    )
    assert process.stdout is not None
    line = process.stdout.readline()
    if not line:
        raise RuntimeError("the server did not start")
    started = json.loads(line)
    return process, started["address"], started["tables"]


async def run_leiff(
    tables: list[dict[str, Any]], moves: int, address: str, pid: int
) -> dict[str, Any]:
    ws_address = address.replace("http", "ws")
    rng = random.Random(1)
    async with aiohttp.ClientSession(connector=aiohttp.TCPConnector(limit=0)) as http:
        await asyncio.sleep(0.5)
        before = rss_kib(pid)
        # (match, member) -> its socket and the newest state frame it was sent
        sockets: dict[tuple[int, int], aiohttp.ClientWebSocketResponse] = {}
        latest: dict[tuple[int, int], dict[str, Any]] = {}
        for entry in tables:
            for member, token in entry["tokens"].items():
                ws = await http.ws_connect(f"{ws_address}/ws?session={token}")
                await frames(ws, "welcome")
                await ws.send_json({"type": "watch", "match": entry["match"]})
                key = (entry["match"], int(member))
                latest[key] = await frames(ws, "state")
                sockets[key] = ws
        await asyncio.sleep(0.5)
        after = rss_kib(pid)
        print(f"{len(sockets)} tables open", file=sys.stderr, flush=True)

        arrived: dict[tuple[int, int, int], float] = {}
        changed = asyncio.Event()
        refused: list[str] = []

        async def read(key: tuple[int, int], ws: aiohttp.ClientWebSocketResponse) -> None:
            async for message in ws:
                data = json.loads(message.data)
                if data["type"] == "state":
                    arrived.setdefault((*key, data["version"]), time.perf_counter())
                    latest[key] = data
                    changed.set()
                elif data["type"] == "error":
                    refused.append(data["text"])
                    changed.set()

        readers = [asyncio.create_task(read(key, ws)) for key, ws in sockets.items()]
        members = {entry["match"]: [int(member) for member in entry["tokens"]] for entry in tables}
        samples: list[float] = []
        kinds: dict[str, int] = {}  # the actions sent, by their first word
        live = list(members)
        turn = 0
        while len(samples) < moves and live:
            match = live[turn % len(live)]
            turn += 1
            frames_now = {m: latest[(match, m)] for m in members[match]}
            version = max(f["version"] for f in frames_now.values())
            # mostly the turn's own choices (and the next deal), now and then a match or a
            # catch out of turn, as people play
            out_of_turn = rng.random() < 0.1
            offers = {
                m: [
                    a
                    for a in f["actions"]
                    if (a["action"].split(" ", 1)[0] in OUT_OF_TURN) == out_of_turn
                ]
                for m, f in frames_now.items()
                if f["version"] == version
            }
            able = [m for m, offered in offers.items() if offered]
            if not able:
                able = [m for m, f in frames_now.items() if f["actions"]]
                offers = {m: frames_now[m]["actions"] for m in able}
            if frames_now[members[match][0]]["status"] != "running" or not able:
                live.remove(match)
                continue
            actor = rng.choice(able)
            offered = frames_now[actor]
            # a round's end is called now and then, not at the first chance
            calls = [a for a in offers[actor] if a["action"] == "leiff"]
            others = [a for a in offers[actor] if a["action"] != "leiff"]
            action = rng.choice(calls if calls and (not others or rng.random() < 0.05) else others)
            text = f"{action['action']} bench" if action["free"] else action["action"]
            kinds[text.split(" ", 1)[0]] = kinds.get(text.split(" ", 1)[0], 0) + 1
            watcher = next(m for m in members[match] if m != actor)
            errors = len(refused)
            sent = time.perf_counter()
            await sockets[(match, actor)].send_json(
                {
                    "type": "leiff",
                    "match": match,
                    "action": text,
                    "version": offered["handVersion"],
                }
            )
            awaited = (match, watcher, version + 1)
            deadline = sent + 10
            while awaited not in arrived and len(refused) == errors:
                changed.clear()
                await asyncio.wait_for(changed.wait(), max(0.01, deadline - time.perf_counter()))
            if awaited in arrived:
                samples.append(arrived[awaited] - sent)
            # every member's table has the new version before the next step is picked
            while any(latest[(match, m)]["version"] < version + 1 for m in members[match]):
                if len(refused) != errors:
                    break
                changed.clear()
                await asyncio.wait_for(changed.wait(), 10)
        for task in readers:
            task.cancel()
    samples.sort()
    return {
        "game": "leiff",
        "tables": len(latest),
        "matches": len(tables),
        "moves": len(samples),
        "refused": len(refused),
        "actions": dict(sorted(kinds.items(), key=lambda item: -item[1])),
        "p50_ms": 1000 * statistics.median(samples),
        "p99_ms": 1000 * samples[min(len(samples) - 1, int(0.99 * len(samples)))],
        "max_ms": 1000 * samples[-1],
        "rss_before_kib": before,
        "rss_after_kib": after,
        "kib_per_table": (after - before) / len(latest),
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", choices=["dalen", "leiff"], default="dalen")
    parser.add_argument("--players", type=int, default=4, help="Leiff: members a table")
    parser.add_argument("--tables", type=int, default=200)
    parser.add_argument("--matches", type=int, default=50)
    parser.add_argument("--moves", type=int, default=1000)
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory(prefix="leafbot-web-bench-") as folder:
        if args.game == "leiff":
            process, address, tables = start_leiff_server(Path(folder), args.matches, args.players)
        else:
            process, address = start_server(Path(folder))
        try:
            if args.game == "leiff":
                result = asyncio.run(run_leiff(tables, args.moves, address, process.pid))
            else:
                result = asyncio.run(
                    run(args.tables, args.matches, args.moves, address, process.pid)
                )
        finally:
            process.terminate()
            process.wait(20)
    print(json.dumps(result, indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(main())
