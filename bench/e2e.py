"""End-to-end load benchmark: the real bot under many concurrent games (``make bench-e2e``).

Runs the real ``LeafBot`` (real discord.py client, real SQLite file, real pictures) against
the local Discord simulator in one process, sets up 200 board-game matches and 20 Leiff
tables of three players, then plays them all at a steady move rate for a fixed time: board
moves as ``/move`` commands, Leiff actions as clicks on each player's DM buttons. It reports
the time from dispatching each interaction to the bot's reply carrying the new picture
(median, p99, max), the largest event-loop lag, memory, and moves per second.

The simulator, the clients' "users" and the bot share one event loop and the same two cores,
so the figures include the simulator's own work: they are an upper bound of the bot's cost.

    python -m bench.e2e [seconds] [board moves per second] [Leiff actions per second]
"""

from __future__ import annotations

import asyncio
import contextlib
import gc
import logging
import os
import random
import statistics
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

BOARD_MATCHES = 200
LEIFF_TABLES = 20
LEIFF_PLAYERS = 3
BOARD_GAMES = (("lefe", 7), ("dalen", 9), ("lublache", 9))
CHANNELS = 10  # the games are spread over this many channels of one server
DEFAULT_SECONDS = 30.0
DEFAULT_BOARD_RATE = 20.0  # moves per second over all board matches
DEFAULT_LEIFF_RATE = 5.0  # actions per second over all Leiff tables
START_TIME = 1_800_000_000.0
RENDER_WORKERS = int(os.environ.get("RENDER_WORKERS", "2"))


@dataclass
class Figures:
    replies: list[float] = field(default_factory=list)  # seconds, dispatch → picture reply
    leiff_replies: list[float] = field(default_factory=list)
    refused: int = 0
    board_moves: int = 0
    leiff_actions: int = 0
    finished_games: int = 0
    max_lag: float = 0.0
    refusals: list[str] = field(default_factory=list)

    deferred: int = 0

    def deferred_reply(self, result: Any) -> bool:
        """A slow command: the bot deferred privately and posted the board in the channel."""
        if "see the channel" in result.text:
            self.deferred += 1
            return True
        return False

    def refuse(self, text: str) -> None:
        self.refused += 1
        if len(self.refusals) < 5:
            self.refusals.append(text)


def _gc_timer(pauses: list[float]) -> Any:
    """A gc callback recording how long each collection stopped the world."""
    started = [0.0]

    def callback(phase: str, info: dict[str, Any]) -> None:
        if phase == "start":
            started[0] = time.perf_counter()
        else:
            pauses.append(time.perf_counter() - started[0])

    return callback


def rss_mb(field_name: str = "VmRSS") -> float:
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith(field_name + ":"):
            return int(line.split()[1]) / 1024
    return float("nan")


def reply_seconds(interaction: Any) -> float | None:
    """Dispatch → the answer that carries the picture (the first one unless deferred)."""
    if interaction.response_type in (4, 7):
        return interaction.time_to_first_response
    # deferred: the last answer comes right after the picture was posted
    return interaction.time_to_last_reply


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    index = min(len(ordered) - 1, max(0, round(share * (len(ordered) - 1))))
    return ordered[index]


async def watch_loop_lag(figures: Figures, stop: asyncio.Event, period: float = 0.01) -> None:
    while not stop.is_set():
        started = time.perf_counter()
        await asyncio.sleep(period)
        figures.max_lag = max(figures.max_lag, time.perf_counter() - started - period)


class BoardMatch:
    """One board match as its two players see it, with a local copy of the position."""

    def __init__(
        self,
        sim: Any,
        channel: Any,
        players: tuple[Any, Any],
        game: str,
        size: int,
        rng: random.Random,
        bot: Any,
    ) -> None:
        self.sim = sim
        self.bot = bot
        self.match_id = 0
        self.channel = channel
        self.players = players
        self.game = game
        self.size = size
        self.rng = rng
        self.state: Any = None

    async def start(self) -> None:
        from engine import get_game

        challenger, opponent = self.players
        offer = await self.sim.slash(
            challenger,
            "play",
            channel=self.channel,
            game=self.game,
            opponent=opponent,
            size=self.size,
        )
        accepted = await self.sim.click(opponent, offer.last_message, "Accept")
        assert not accepted.ephemeral, accepted.text
        self.match_id = int(accepted.last_message.content.split("match #", 1)[1].split()[0])
        self.state = get_game(self.game).new(size=self.size)

    async def reload(self) -> None:
        """The position as stored after a move. Re-reading it is cheaper than playing the
        move again here (a Lublache move costs the engine ~20 ms), so the benchmark's own
        bookkeeping stays small next to the bot's work."""
        from engine import get_game

        record = await self.bot.service.repo.get_match(self.match_id)
        self.state = get_game(self.game).from_json(record.state)

    async def move(self, figures: Figures) -> None:
        if self.state.outcome is not None:
            self.players = (self.players[1], self.players[0])
            await self.start()
            figures.finished_games += 1
            return
        moves = sorted(m for m in self.state.legal_moves() if m != "swap")
        move = self.rng.choice(moves)
        mover = self.players[self.state.seat_to_move]
        result = await self.sim.slash(mover, "move", channel=self.channel, cell=move)
        if result.ephemeral and not figures.deferred_reply(result):
            figures.refuse(result.text)
            return
        await self.reload()
        figures.board_moves += 1
        seconds = reply_seconds(result)
        if seconds is not None:
            figures.replies.append(seconds)


class LeiffDriver:
    """One Leiff table: the engine copy tells whose click comes next and which one."""

    def __init__(self, sim: Any, channel: Any, players: list[Any], bot: Any) -> None:
        self.sim = sim
        self.channel = channel
        self.players = players
        self.bot = bot
        self.match_id = 0
        self.state: Any = None

    async def start(self) -> None:
        from engine import get_game

        host, *guests = self.players
        lobby = (
            await self.sim.slash(host, "play", channel=self.channel, game="leiff")
        ).last_message
        for guest in guests:
            await self.sim.click(guest, lobby, "Join")
        await self.sim.click(host, lobby, "Start")
        self.match_id = int(lobby.content.split("table #", 1)[1].split()[0])
        record = await self.bot.service.repo.get_match(self.match_id)
        self.state = get_game("leiff").from_json(record.state)

    def choose(self) -> tuple[int, str]:
        waiting = self.state.waiting_for()
        step, turn = waiting["step"], waiting["turn"]
        if step == "turn":
            return turn, "draw"
        if step == "hold":
            holding = self.state.view(turn)["holding"]
            return turn, "discard" if holding["source"] == "draw" else "swap 1"
        owner = waiting["owners"][0]
        if step == "effect":
            return owner, "decline"
        return owner, self.state.default_action(owner)

    async def act(self, figures: Figures) -> None:
        if self.state.outcome is not None:
            return
        seat, action = self.choose()
        user = self.players[seat]
        message = next(m for m in reversed(self.sim.dms(user)) if m.buttons or m.selects)
        target = next(
            (
                b.custom_id
                for b in message.buttons
                if b.custom_id and b.custom_id.rsplit("|", 1)[-1] == action
            ),
            None,
        )
        if target is None:
            select = next(s for s in message.selects if action in s.values)
            result = await self.sim.select(user, message, select.custom_id, action)
        else:
            result = await self.sim.click(user, message, target)
        if result.ephemeral and not figures.deferred_reply(result):
            figures.refuse(result.text)
            return
        self.state = self.state.play(seat, action)
        figures.leiff_actions += 1
        seconds = reply_seconds(result)
        if seconds is not None:
            figures.leiff_replies.append(seconds)


async def paced(
    worker: Any, rate: float, seconds: float, figures: Figures, stop: asyncio.Event
) -> None:
    """Call ``worker.step`` for randomly chosen idle workers at ``rate`` per second."""
    busy: set[int] = set()
    tasks: set[asyncio.Task[None]] = set()
    interval = 1.0 / rate
    next_at = time.perf_counter()
    deadline = next_at + seconds
    pool = list(range(len(worker)))
    rng = random.Random(5)
    while time.perf_counter() < deadline:
        idle = [i for i in pool if i not in busy]
        if idle:
            index = rng.choice(idle)
            busy.add(index)

            async def run(i: int = index) -> None:
                try:
                    await worker[i](figures)
                finally:
                    busy.discard(i)

            task = asyncio.create_task(run())
            tasks.add(task)
            task.add_done_callback(tasks.discard)
        next_at += interval
        await asyncio.sleep(max(0.0, next_at - time.perf_counter()))
    if tasks:
        await asyncio.gather(*tasks)


async def run(seconds: float, board_rate: float, leiff_rate: float) -> Figures:
    from bot.app import LeafBot
    from bot.settings import Settings
    from tests.discord_sim.harness import DiscordSimulator

    logging.basicConfig(level=logging.WARNING)
    figures = Figures()
    rng = random.Random(1)
    clock_now = [START_TIME]
    seeds = iter(range(10_000, 1_000_000))
    with tempfile.TemporaryDirectory() as folder:
        async with DiscordSimulator(interaction_timeout=30.0) as sim:
            guild = sim.add_guild("Bench", channels=tuple(f"games-{i}" for i in range(CHANNELS)))
            channels = guild.text_channels
            admin = sim.add_member(guild, "admin", manage_guild=True)
            settings = Settings(
                token="bench", database_path=Path(folder) / "bench.sqlite3", dev_guild_id=guild.id
            )

            def make() -> LeafBot:
                return LeafBot(
                    settings,
                    service_options={
                        "clock": lambda: clock_now[0],
                        "seed_source": lambda: next(seeds),
                    },
                    tick_seconds=None,
                )

            handle = await sim.start_bot(make)
            await sim.slash(admin, "settings", key="challenge_cooldown_seconds", value="0")

            setup_started = time.perf_counter()
            matches = []
            for number in range(BOARD_MATCHES):
                pair = (sim.add_member(guild, f"p{number}a"), sim.add_member(guild, f"p{number}b"))
                game, size = BOARD_GAMES[number % len(BOARD_GAMES)]
                channel = channels[number % len(channels)]
                matches.append(
                    BoardMatch(sim, channel, pair, game, size, random.Random(number), handle.client)
                )
            tables = [
                LeiffDriver(
                    sim,
                    channels[t % len(channels)],
                    [sim.add_member(guild, f"t{t}s{s}") for s in range(LEIFF_PLAYERS)],
                    handle.client,
                )
                for t in range(LEIFF_TABLES)
            ]
            for start in range(0, len(matches), 20):
                await asyncio.gather(*(m.start() for m in matches[start : start + 20]))
            for table in tables:
                await table.start()
            setup_seconds = time.perf_counter() - setup_started
            rss_before = rss_mb()
            gc.collect()
            gc.freeze()  # the set-up (users, guild, simulator records) lives for the whole run
            pauses: list[float] = []
            gc.callbacks.append(_gc_timer(pauses))

            stop = asyncio.Event()
            watcher = asyncio.create_task(watch_loop_lag(figures, stop))
            started = time.perf_counter()
            await asyncio.gather(
                paced([m.move for m in matches], board_rate, seconds, figures, stop),
                paced([t.act for t in tables], leiff_rate, seconds, figures, stop),
            )
            elapsed = time.perf_counter() - started
            stop.set()
            with contextlib.suppress(asyncio.CancelledError):
                await watcher
            gc.callbacks.clear()
            late = sum(1 for i in sim.interactions if i.late_response)
            errors = len(sim.bot_errors)
            rss_after = rss_mb()
            await handle.stop()
    del rng
    print(
        f"setup: {BOARD_MATCHES} board matches and {LEIFF_TABLES} Leiff tables in {setup_seconds:.1f} s"
    )
    print(
        f"ran {elapsed:.1f} s at {board_rate:g} board moves/s and {leiff_rate:g} Leiff actions/s requested"
    )
    report("board /move → board picture", figures.replies)
    report("Leiff DM click → hand picture", figures.leiff_replies)
    both = figures.replies + figures.leiff_replies
    print(
        f"moves per second: {(figures.board_moves + figures.leiff_actions) / elapsed:.1f} "
        f"({figures.board_moves} board moves, {figures.leiff_actions} Leiff actions, "
        f"{figures.finished_games} games finished and restarted, {figures.refused} refused, "
        f"{figures.deferred} deferred after 1.5 s)"
    )
    for text in figures.refusals:
        print(f"  refused: {text}")
    print(
        f"largest event-loop lag: {figures.max_lag * 1000:.1f} ms "
        f"(longest garbage-collector pause: {max(pauses, default=0) * 1000:.1f} ms)"
    )
    print(
        f"slowest reply: {max(both) * 1000:.0f} ms; answered after 3 s: {late}; bot errors: {errors}"
    )
    print(
        f"memory (RSS): {rss_before:.0f} MB after set-up, {rss_after:.0f} MB at the end, "
        f"peak {rss_mb('VmHWM'):.0f} MB"
    )
    return figures


def report(label: str, values: list[float]) -> None:
    if not values:
        print(f"{label}: no samples")
        return
    print(
        f"{label}: n={len(values)}, median {statistics.median(values) * 1000:.1f} ms, "
        f"p99 {percentile(values, 0.99) * 1000:.1f} ms, max {max(values) * 1000:.1f} ms"
    )


def main(argv: list[str] | None = None) -> None:
    args = list(sys.argv[1:] if argv is None else argv)
    seconds = float(args[0]) if len(args) > 0 else DEFAULT_SECONDS
    board_rate = float(args[1]) if len(args) > 1 else DEFAULT_BOARD_RATE
    leiff_rate = float(args[2]) if len(args) > 2 else DEFAULT_LEIFF_RATE
    asyncio.run(run(seconds, board_rate, leiff_rate))


if __name__ == "__main__":
    from bench.__main__ import machine_line

    print(f"machine: {machine_line()}")
    main()
