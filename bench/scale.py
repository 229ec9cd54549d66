"""Scaling benchmark: board moves through 1, 2 and 4 bot processes on PostgreSQL, against one
process on SQLite, in one run (``make bench-scale``).

Each configuration gets a fresh database and a fresh local Discord simulator (in this
process). The bot runs as real separate processes (``python -m bench.scale --child``), each
the real ``LeafBot`` for its shards: with N processes the bot has N shards, process i runs
shard i, and the servers are spread evenly over the shards. Every server hosts one Dalen
match on the 9-board; the two players of each match type ``/move`` as fast as the bot
answers (closed loop: one move in flight per match), for a fixed time. Reported per
configuration: accepted moves per second, the time from dispatching ``/move`` to the bot's
answer with the new board (median, p99), and beside them the requests per move that
Discord's global limit counts (50 per second per token, for all processes together: every
request but the interaction endpoints), the moves per second that limit allows at that
cost, and the requests the simulator refused for it, so that a ceiling of the global limit
is seen as one, not taken for the database's or the processes'; then per move every REST
request the bot made and, on PostgreSQL, the transactions committed and rows written
(from ``pg_stat_database``), and the CPU time per move of the bot processes and of this
one (simulator and players).

The simulator and the players share the machine with the bot processes, so on a small
machine the figures show where the cores go rather than the bot's ceiling.

    python -m bench.scale [--seconds 10] [--matches 24] [--configs sqlite:1,postgresql:1,...]
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import logging
import os
import random
import secrets
import signal
import statistics
import sys
import tempfile
import time
from collections.abc import AsyncIterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from matchcore.storage import Repository

ROOT = Path(__file__).resolve().parent.parent
GAME, SIZE = "dalen", 9
DEFAULT_CONFIGS = "sqlite:1,postgresql:1,postgresql:2,postgresql:4"
ADMIN_URL = os.environ.get(
    "LEAFBOT_BENCH_POSTGRES", "postgresql://postgres@127.0.0.1:5432/postgres"
)


@dataclass
class Figures:
    backend: str
    processes: int
    seconds: float = 0.0
    latencies: list[float] = field(default_factory=list)
    moves: int = 0
    refused: int = 0
    games_finished: int = 0
    requests: int = 0
    # requests that count against Discord's global 50/s: all but the interaction endpoints
    # (callbacks, follow-ups), 429 answers apart
    limited: int = 0
    global_429: int = 0  # requests the simulator refused for the global limit
    commits: int | None = None
    rows_written: int | None = None
    bot_cpu: float = 0.0  # seconds of CPU the bot processes used in the load window
    driver_cpu: float = 0.0  # seconds of CPU of this process (simulator and players)

    def row(self) -> str:
        ordered = sorted(self.latencies) or [0.0]
        p99 = ordered[min(len(ordered) - 1, int(len(ordered) * 0.99))]
        per_move = max(self.moves, 1)
        commits = "–" if self.commits is None else f"{self.commits / per_move:.1f}"
        rows = "–" if self.rows_written is None else f"{self.rows_written / per_move:.1f}"
        counted = self.limited / per_move
        ceiling = f"{GLOBAL_LIMIT / counted:.0f}" if counted else "none"
        return (
            f"| {self.backend} | {self.processes} | {self.moves / self.seconds:.1f} | "
            f"{statistics.median(ordered) * 1000:.0f} | {p99 * 1000:.0f} | "
            f"{counted:.2f} | {ceiling} | {self.global_429} | "
            f"{self.requests / per_move:.1f} | "
            f"{self.bot_cpu / per_move * 1000:.1f} | {self.driver_cpu / per_move * 1000:.1f} | "
            f"{commits} | {rows} | {self.refused} |"
        )


# Discord's global limit: requests per second per bot token, all processes together.
GLOBAL_LIMIT = 50

HEADER = (
    "| database | processes | moves/s | median ms | p99 ms "
    "| requests/move counted in the global limit | moves/s the global limit allows "
    "| global 429s | REST requests/move (all) | bot CPU ms/move | simulator CPU ms/move "
    "| commits/move | rows written/move "
    "| refused |\n|---|---|---|---|---|---|---|---|---|---|---|---|---|---|"
)


def cpu_seconds(pid: int) -> float:
    """User plus system CPU time of a process so far (Linux /proc)."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


# ---- the bot processes -------------------------------------------------------------------
def child(argv: list[str]) -> int:
    """One bot process: ``--child SIM_URL GATEWAY_URL TOKEN DATABASE_URL SHARD COUNT``."""
    import discord.gateway
    import discord.http
    import yarl

    sim_url, gateway_url, token, database_url, shard, count = argv
    discord.http.Route.BASE = sim_url + "/api/v10"
    discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(gateway_url)
    from bot.app import LeafBot, configure_logging
    from bot.settings import Settings

    configure_logging("WARNING")
    logging.getLogger("discord.client").setLevel(logging.ERROR)  # no voice: fine here
    settings = Settings(
        token=token,
        database_url=database_url,
        # Pictures in threads by default (the CPU per move is then all in the process);
        # RENDER_WORKERS=2 measures production's worker processes instead.
        render_workers=int(os.environ.get("RENDER_WORKERS", "0")),
        shard_count=int(count),
        shard_ids=(int(shard),),
    )

    async def main() -> None:
        bot = LeafBot(settings)
        bot._connection.guild_ready_timeout = 0.05

        async def no_wait(shard_id: int | None, *, initial: bool = False) -> None:
            return None

        bot.before_identify_hook = no_wait  # type: ignore[method-assign]  # the simulator's gateway needs no wait
        stop = asyncio.Event()
        asyncio.get_running_loop().add_signal_handler(signal.SIGTERM, stop.set)
        runner = asyncio.create_task(bot.start(token))
        waiter = asyncio.create_task(stop.wait())
        await asyncio.wait({runner, waiter}, return_when=asyncio.FIRST_COMPLETED)
        await bot.close()
        with contextlib.suppress(BaseException):
            await runner

    asyncio.run(main())
    return 0


async def start_children(sim: Any, url: str, count: int) -> list[asyncio.subprocess.Process]:
    children = []
    for shard in range(count):
        children.append(
            await asyncio.create_subprocess_exec(
                sys.executable,
                "-m",
                "bench.scale",
                "--child",
                sim.base_url,
                sim.gateway.url,
                sim.token,
                url,
                str(shard),
                str(count),
                cwd=ROOT,
                env={**os.environ, "PYTHONPATH": str(ROOT)},
                stdout=asyncio.subprocess.DEVNULL,
            )
        )
    deadline = time.monotonic() + 90
    while len([s for s in sim.gateway.live_sessions if s.websocket is not None]) < count or (
        not sim.state.global_commands
    ):
        if any(c.returncode is not None for c in children):
            raise RuntimeError("a bot process stopped during start-up")
        if time.monotonic() > deadline:
            raise RuntimeError("the bot processes did not connect in time")
        await asyncio.sleep(0.05)
    await asyncio.sleep(0.5)  # GUILD_CREATEs and on_ready
    return children


async def stop_children(children: list[asyncio.subprocess.Process]) -> None:
    for process in children:
        if process.returncode is None:
            process.send_signal(signal.SIGTERM)
    for process in children:
        try:
            await asyncio.wait_for(process.wait(), 20)
        except TimeoutError:
            process.kill()
            await process.wait()


# ---- databases ---------------------------------------------------------------------------
@contextlib.asynccontextmanager
async def database(backend: str) -> AsyncIterator[str]:
    if backend == "sqlite":
        with tempfile.TemporaryDirectory(prefix="leafbot-scale-") as folder:
            yield f"sqlite:///{Path(folder) / 'bench.sqlite3'}"
        return
    import asyncpg  # type: ignore[import-untyped]  # asyncpg ships no type hints

    name = f"leafbot_bench_{os.getpid()}_{secrets.token_hex(4)}"
    admin = await asyncpg.connect(ADMIN_URL)
    await admin.execute(f'CREATE DATABASE "{name}"')
    await admin.close()
    try:
        yield ADMIN_URL.rsplit("/", 1)[0] + "/" + name
    finally:
        admin = await asyncpg.connect(ADMIN_URL)
        await admin.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        await admin.close()


async def _version(repo: Repository, match_id: int) -> int:
    match = await repo.get_match(match_id)
    if match is None:
        raise RuntimeError(f"match {match_id} is not stored")
    return match.version


async def pg_counters(url: str) -> tuple[int, int]:
    """(transactions committed, rows inserted + updated + deleted) of the bench database."""
    import asyncpg

    name = url.rsplit("/", 1)[1]
    admin = await asyncpg.connect(ADMIN_URL)
    try:
        await admin.execute("SELECT pg_stat_clear_snapshot()")
        row = await admin.fetchrow(
            "SELECT xact_commit, tup_inserted + tup_updated + tup_deleted AS written "
            "FROM pg_stat_database WHERE datname = $1",
            name,
        )
    finally:
        await admin.close()
    return int(row["xact_commit"]), int(row["written"])


# ---- the players -------------------------------------------------------------------------
@dataclass
class Table:
    guild: Any
    channel: Any
    players: list[Any]
    state: Any = None


async def set_up(
    sim: Any, backend_url: str, processes: int, matches: int
) -> tuple[list[Table], list[asyncio.subprocess.Process]]:
    """The servers (spread over the shards), the bot processes, and one match per server."""
    from engine import get_game

    tables, admins = [], []
    for number in range(matches):
        guild = sim.add_guild(f"server {number}", shard=(number % processes, processes))
        first = sim.add_member(guild, f"p{number}a")
        second = sim.add_member(guild, f"p{number}b")
        admins.append(sim.add_member(guild, f"admin{number}", manage_guild=True))
        tables.append(Table(guild, guild.channels[0], [first, second]))
    children = await start_children(sim, backend_url, processes)
    try:
        for table, admin in zip(tables, admins, strict=True):
            await sim.slash(
                admin,
                "settings",
                key="challenge_cooldown_seconds",
                value="0",
                channel=table.channel,
            )
            await new_game(sim, table, get_game)
    except BaseException:
        await stop_children(children)
        raise
    return tables, children


async def new_game(sim: Any, table: Table, get_game: Any) -> None:
    first, second = table.players
    offer = await sim.slash(
        first, "play", game=GAME, opponent=second, size=SIZE, channel=table.channel, timeout=30
    )
    await sim.click(second, offer.last_message, "Accept", timeout=30)
    table.state = get_game(GAME).new(SIZE)


async def play(sim: Any, table: Table, until: float, figures: Figures, seed: int) -> None:
    from engine import get_game

    rng = random.Random(seed)
    while time.monotonic() < until:
        state = table.state
        if state.outcome is not None:
            figures.games_finished += 1
            table.players.reverse()
            await new_game(sim, table, get_game)
            continue
        moves = sorted(m for m in state.legal_moves() if m != "swap") or ["swap"]
        move = rng.choice(moves)
        mover = table.players[state.seat_to_move]
        answer = await sim.slash(mover, "move", cell=move, channel=table.channel, timeout=60)
        if answer.ephemeral and "see the channel" not in answer.text:
            figures.refused += 1
            await asyncio.sleep(0.2)
            continue
        figures.moves += 1
        if answer.time_to_first_response is not None:
            figures.latencies.append(answer.time_to_first_response)
        table.state = state.play(move)


async def run_config(backend: str, processes: int, seconds: float, matches: int) -> Figures:
    from discord_sim import DiscordSimulator
    from discord_sim.ratelimits import is_interaction_endpoint

    figures = Figures(backend, processes)
    async with (
        database(backend) as url,
        DiscordSimulator(interaction_timeout=60, response_deadline=60) as sim,
    ):
        from matchcore.storage import open_repository

        await (await open_repository(url)).close()  # migrate before the bots start
        tables, children = await set_up(sim, url, processes, matches)
        try:
            before = await pg_counters(url) if backend == "postgresql" else None
            requests_before = len(sim.requests)
            global_before = sim.state.rate_limiter.refused.get("global", 0)
            bot_before = sum(cpu_seconds(c.pid) for c in children)
            driver_before = time.process_time()
            started = time.monotonic()
            until = started + seconds
            await asyncio.gather(
                *(play(sim, table, until, figures, n) for n, table in enumerate(tables))
            )
            figures.seconds = time.monotonic() - started
            await asyncio.sleep(1.0)  # the last answers' follow-up edits land
            window = sim.requests[requests_before:]
            figures.requests = len(window)
            figures.limited = sum(
                1 for r in window if r.status != 429 and not is_interaction_endpoint(r.route)
            )
            figures.global_429 = sim.state.rate_limiter.refused.get("global", 0) - global_before
            figures.bot_cpu = sum(cpu_seconds(c.pid) for c in children) - bot_before
            figures.driver_cpu = time.process_time() - driver_before
        finally:
            await stop_children(children)
        if before is not None:
            await asyncio.sleep(1.2)  # statistics reach pg_stat_database within a second
            after = await pg_counters(url)
            figures.commits = after[0] - before[0]
            figures.rows_written = after[1] - before[1]
    return figures


async def leiff_requests(actions: int) -> None:
    """REST requests per Leiff action: a table of three people and a bot on SQLite, each
    action clicked in the acting player's DM (the engine's default action). The bot's own
    actions in between are updates too, so the count is given per click and per version."""
    import re

    from discord_sim import DiscordSimulator
    from discord_sim.ratelimits import is_interaction_endpoint
    from engine.leiff import Leiff
    from matchcore.storage import open_repository

    async with database("sqlite") as url, DiscordSimulator(interaction_timeout=30) as sim:
        repo = await open_repository(url)
        guild = sim.add_guild("cards")
        people = [sim.add_member(guild, name) for name in ("ann", "ben", "cat")]
        children = await start_children(sim, url, 1)
        try:
            channel = guild.channels[0]
            opened = await sim.slash(people[0], "play", game="leiff", channel=channel)
            lobby = opened.last_message
            found = re.search(r"table #(\d+)", lobby.content or "")
            if found is None:
                raise RuntimeError(f"no table number in the lobby: {lobby.content!r}")
            table = int(found[1])
            for guest in people[1:]:
                await sim.click(guest, lobby, "Join")
            await sim.click(people[0], lobby, "Add bot seat")
            await sim.click(people[0], lobby, "Start")
            await asyncio.sleep(1.0)
            before, done, started = len(sim.requests), 0, None
            cpu_before = cpu_seconds(children[0].pid)
            first_version = await _version(repo, table)
            while done < actions:
                record = await repo.get_match(table)
                assert record is not None and record.state is not None
                if record.status != "running":
                    break
                state = Leiff().from_json(record.state)
                humans = [s for s in state.waiting_for()["owners"] if s < len(people)]
                if not humans:
                    await asyncio.sleep(0.05)
                    continue
                seat = humans[0]
                action = state.default_action(seat)
                assert action is not None  # the seat owns the step it waits for
                hand = [m for m in sim.dms(people[seat]) if m.buttons or m.selects][-1]
                custom = next(
                    (
                        b.custom_id
                        for b in hand.buttons
                        if (b.custom_id or "").endswith("|" + action)
                    ),
                    None,
                )
                select = next((m for m in hand.selects if action in m.values), None)
                if custom is None and select is None:
                    await asyncio.sleep(0.05)
                    continue
                started = started or time.monotonic()
                if custom is not None:
                    await sim.click(people[seat], hand, custom)
                else:
                    assert select is not None
                    await sim.select(people[seat], hand, select.custom_id, action)
                done += 1
                await asyncio.sleep(0.3)  # the other players' hands and the table go out
            window = sim.requests[before:]
            bot_cpu = cpu_seconds(children[0].pid) - cpu_before
            after_version = await _version(repo, table)
        finally:
            await stop_children(children)
            await repo.close()
    routes: dict[str, int] = {}
    for request in window:
        key = f"{request.method} {request.route}"
        routes[key] = routes.get(key, 0) + 1
    limited = sum(1 for r in window if r.status != 429 and not is_interaction_endpoint(r.route))
    steps = after_version - first_version  # the people's actions and the bot's
    print(
        f"{done} Leiff actions clicked by DM; with the bot's the table moved on "
        f"{steps} versions (each an update: table message, changed hands by DM)"
    )
    print(
        f"per click: {len(window) / done:.1f} REST requests, {limited / done:.1f} counted "
        f"in the global limit; per version: {len(window) / steps:.1f} and {limited / steps:.1f}"
    )
    for key, count in sorted(routes.items(), key=lambda item: -item[1]):
        print(f"  {count / done:.2f} per click  {key}")
    workers = os.environ.get("RENDER_WORKERS", "0")
    print(
        f"bot CPU (the bot process itself, RENDER_WORKERS={workers}): "
        f"{bot_cpu / done * 1000:.0f} ms per click, {bot_cpu / steps * 1000:.0f} per version"
    )


def rss_mb(pid: int) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return 0.0


async def idle_memory(guilds: int) -> tuple[float, float]:
    """Resident memory (MB) of one bot process connected to no server, and to ``guilds``
    servers of two members and a channel each (what a shard's servers cost at rest)."""
    from discord_sim import DiscordSimulator

    sizes = []
    for count in (0, guilds):
        async with database("postgresql") as url, DiscordSimulator() as sim:
            from matchcore.storage import open_repository

            await (await open_repository(url)).close()
            for number in range(count):
                guild = sim.add_guild(f"server {number}")
                sim.add_member(guild, f"a{number}")
                sim.add_member(guild, f"b{number}")
            children = await start_children(sim, url, 1)
            try:
                deadline = time.monotonic() + 120
                while sim.gateway.live_sessions[0].sequence < count + 1:
                    if time.monotonic() > deadline:
                        raise RuntimeError("the guilds were not all sent in time")
                    await asyncio.sleep(0.1)
                await asyncio.sleep(2.0)  # parsed and settled
                sizes.append(rss_mb(children[0].pid))
            finally:
                await stop_children(children)
    return sizes[0], sizes[1]


async def run(configs: list[tuple[str, int]], seconds: float, matches: int) -> list[Figures]:
    results = []
    for backend, processes in configs:
        figures = await run_config(backend, processes, seconds, matches)
        print(figures.row(), flush=True)
        results.append(figures)
    return results


def main(argv: list[str]) -> int:
    if argv[:1] == ["--child"]:
        return child(argv[1:])
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seconds", type=float, default=10.0)
    parser.add_argument("--matches", type=int, default=24)
    parser.add_argument("--configs", default=DEFAULT_CONFIGS)
    parser.add_argument(
        "--idle-guilds",
        type=int,
        default=0,
        help="instead: the resident memory of one bot process with this many servers",
    )
    parser.add_argument(
        "--leiff-actions",
        type=int,
        default=0,
        help="instead: REST requests per Leiff action over this many DM clicks",
    )
    options = parser.parse_args(argv)
    if options.leiff_actions:
        from bench.__main__ import machine_line

        print(f"machine: {machine_line()}")
        print(f"command: python -m bench.scale --leiff-actions {options.leiff_actions}")
        asyncio.run(leiff_requests(options.leiff_actions))
        return 0
    if options.idle_guilds:
        from bench.__main__ import machine_line

        empty, full = asyncio.run(idle_memory(options.idle_guilds))
        per_guild = (full - empty) * 1024 / options.idle_guilds
        print(f"machine: {machine_line()}")
        print(f"command: python -m bench.scale --idle-guilds {options.idle_guilds}")
        print(
            f"resident memory: {empty:.0f} MB with no server, {full:.0f} MB with "
            f"{options.idle_guilds} servers: {per_guild:.1f} KB per server"
        )
        return 0
    configs = [(c.split(":")[0], int(c.split(":")[1])) for c in options.configs.split(",")]
    from bench.__main__ import machine_line

    print(f"machine: {machine_line()}")
    print(
        f"command: python -m bench.scale --seconds {options.seconds:g} "
        f"--matches {options.matches} --configs {options.configs}"
    )
    print(f"{options.matches} Dalen 9-board matches, one per server, players typing /move\n")
    print(HEADER, flush=True)
    asyncio.run(run(configs, options.seconds, options.matches))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
