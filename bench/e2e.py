"""End-to-end load benchmark: the real bot under many concurrent games (``make bench-e2e``).

The bot runs as ``make run`` runs it, in a process of its own (:mod:`bench.e2e_bot`) with
its picture and AI worker processes, against the local Discord simulator, which runs here
together with the simulated players. So the bot's figures are its own: its event-loop lag
is measured inside it, and its memory is that of its whole process tree.

The world (see :func:`record_games`, :func:`build_board_matches`, :func:`open_leiff_tables`):
200 board matches, 50 each of Lefe 7, Dalen 9, Lublache 9 and Les 9, each in a channel of
its own and already at the middle of a seeded random game (the game is recorded first, in
worker processes, and the match is stored at its middle position before the bot starts, as
after a restart), and 40 Leiff tables of three players, each in its own channel, opened
through Discord and played a few actions in. The simulator enforces Discord's rate limits
with their real windows (per channel and per interaction as Discord's; the global limit
raised to ``--global-limit``, 250/s, as Discord grants large bots: the mix needs more than
one token's default 50/s at these rates), and the requests per second counted against the
global limit and any 429 answers are reported. Then the players play at a steady rate (:func:`drive`): board
moves as ``/move`` commands taken from the recorded games, Leiff actions as clicks on the
acting player's DM buttons or menus. Every match plays two moves and every table six
actions before timing starts (the bot's first move in a match after a start works the
position out from storage; that is measured by the restart tests, not here).

Reported per stage: the time from dispatching each interaction to the bot's answer
carrying the new picture (median, p99, max), the bot's event-loop lag (p50, p99, max, and
the longest garbage-collector pause), the memory of the bot's process tree (resident,
summed, and proportional, which counts shared pages once), the moves per second
completed, the CPU milliseconds per move of the bot's process and of its tree, and the REST
requests per move by category. ``--sweep`` raises the rate stage by stage and names the highest one that still
meets both targets (reply p99 ≤ 100 ms, loop-lag p99 ≤ 50 ms).

The simulator's own garbage collector is off during each stage (Discord's servers do not
stall our replies for it; ``--harness-gc`` keeps it on). With ``E2E_TRACE`` set to a folder
the run also writes a timeline there that ``python -m bench.e2e_trace FOLDER`` reads: where
each reply's time went (gateway, the bot's work by part, the callback) and what was long
while replies bunched up.

The simulator checks every request of the bot against Discord's published contract, as in
the tests (docs/discord-simulator.md); its own answers and interactions only with
``--check-answers``.

    python -m bench.e2e [--seconds S] [--board-rate R] [--leiff-rate L] [--sweep]
                        [--matches N] [--tables T] [--global-limit G] [--harness-gc]
                        [--check-answers]
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import gc
import json
import os
import random
import shutil
import signal
import statistics
import sys
import tempfile
import time
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from bot.common.choices import service_choices

if TYPE_CHECKING:
    from discord_sim import SimInteraction

ROOT = Path(__file__).resolve().parent.parent
BOARD_GAMES = (("lefe", 7), ("dalen", 9), ("lublache", 9), ("les", 9))
BOARD_MATCHES = 200
LEIFF_TABLES = 40
LEIFF_PLAYERS = 3
LEIFF_WARM_UP_ACTIONS = 6  # per table, through Discord, before timing
BOARD_WARM_UP_MOVES = 2  # per match, through Discord, before timing (see warm_up())
ADVANCE = 0.5  # share of each recorded game already played when the bot starts
# Discord allows 5 new messages and 5 edits per 5 s in a channel: a match or table that
# plays more than about one move a second in one channel waits for its window. So, as on a
# real server with many games going, every board match and every table has a channel of its
# own (at 120 moves/s offered: a board match moves every ~2 s, a table every ~1.7 s).
BOARD_CHANNEL = "board-{}"
LEIFF_CHANNEL = "leiff-{}"
# Discord's global limit is 50 requests per second per token (interaction callbacks
# excepted); it grants large bots more on request. The mix played here needs about 1.3 such
# requests per move (python -m bench.budget), over 100/s at 80 moves/s, so the simulator
# enforces this many unless --global-limit says otherwise; the requests per second the run
# made against it are reported.
DEFAULT_GLOBAL_LIMIT = 250
DEFAULT_SECONDS = 30.0
DEFAULT_BOARD_RATE = 64.0  # board moves per second over all matches
DEFAULT_LEIFF_RATE = 16.0  # Leiff actions per second over all tables (80 in all)
SWEEP_RATES = (40.0, 60.0, 70.0, 80.0, 90.0, 100.0, 120.0)  # moves/s in all, 4:1
SWEEP_SECONDS = 20.0
SIMULATOR = "simulator and players"  # the benchmark's own process, in the CPU figures
REPLY_P99_TARGET = 0.100
LAG_P99_TARGET = 0.050


# ---- the recorded games ------------------------------------------------------------------


@dataclass(frozen=True)
class RecordedGame:
    """A seeded random game: its moves, who made each, and the position at its middle."""

    game: str
    size: int
    moves: tuple[str, ...]
    movers: tuple[int, ...]  # the seat that made each move
    advance: int  # moves already played when the bot starts
    middle: str  # the position after ``advance`` moves, as engine JSON


def record_game(game_name: str, size: int, seed: int) -> RecordedGame:
    """Play one random game to its end (no swaps: a swap is not a ``/move`` cell)."""
    from engine import get_board_game

    rng = random.Random(seed)
    state = get_board_game(game_name).new(size=size)
    states, moves, movers = [state], [], []
    while state.outcome is None:
        legal = sorted(m for m in state.legal_moves() if m != "swap")
        if not legal:
            break
        move = rng.choice(legal)
        seat = state.seat_to_move
        assert seat is not None  # a running game has a player to move
        movers.append(seat)
        state = state.play(move)
        moves.append(move)
        states.append(state)
    advance = int(len(moves) * ADVANCE)
    return RecordedGame(
        game_name, size, tuple(moves), tuple(movers), advance, states[advance].to_json()
    )


def record_games(count: int, seed: int = 1) -> list[RecordedGame]:
    """``count`` games, the four board games in turn, recorded on every core."""
    specs = [(*BOARD_GAMES[n % len(BOARD_GAMES)], seed * 100_000 + n) for n in range(count)]
    with ProcessPoolExecutor(max_workers=os.cpu_count() or 2) as pool:
        return list(pool.map(record_game, *zip(*specs, strict=True), chunksize=4))


# ---- the world ---------------------------------------------------------------------------


@dataclass
class Figures:
    replies: list[float] = field(default_factory=list)  # seconds, dispatch → picture reply
    leiff_replies: list[float] = field(default_factory=list)
    refused: int = 0
    refusals: list[str] = field(default_factory=list)
    deferred: int = 0
    board_moves: int = 0
    leiff_actions: int = 0
    # when (wall clock, at dispatch) each reply slower than the target was asked for: slow
    # replies bunched in one moment point at a stall, spread out at queueing
    slow_at: list[float] = field(default_factory=list)
    # every reply: (wall clock at dispatch, seconds, "board" or "leiff"), for E2E_TRACE
    asked: list[tuple[float, float, str]] = field(default_factory=list)

    def timed(self, seconds: float | None, into: list[float]) -> None:
        """One answered interaction's reply time (None: no picture reply to time)."""
        if seconds is None:
            return
        into.append(seconds)
        self.asked.append(
            (time.time() - seconds, seconds, "board" if into is self.replies else "leiff")
        )
        if seconds > REPLY_P99_TARGET:
            self.slow_at.append(time.time() - seconds)

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


async def answered(interaction: SimInteraction, timeout: float = 30.0) -> SimInteraction:
    """The interaction once the bot has answered it completely: after a deferral (the
    bot acknowledges a slow command and posts the picture later) wait for that reply."""
    if interaction.deferred:
        await interaction.wait_for_reply(timeout)
    return interaction


def reply_seconds(interaction: SimInteraction) -> float | None:
    """Dispatch → the answer that carries the picture (the first one unless deferred)."""
    if interaction.response_type in (4, 7):
        return interaction.time_to_first_response
    # deferred: the last answer comes right after the picture was posted
    return interaction.time_to_last_reply


class BoardMatch:
    """One stored board match, played on by its two players from a recorded game."""

    def __init__(self, sim: Any, channel: Any, players: tuple[Any, Any], record: RecordedGame):
        self.sim, self.channel, self.players, self.record = sim, channel, players, record
        self.played = record.advance

    @property
    def over(self) -> bool:
        return self.played >= len(self.record.moves)

    async def move(self, figures: Figures) -> None:
        if self.over:
            return
        move = self.record.moves[self.played]
        mover = self.players[self.record.movers[self.played]]
        result = await answered(
            await self.sim.slash(mover, "move", channel=self.channel, cell=move)
        )
        if result.ephemeral and not figures.deferred_reply(result):
            figures.refuse(result.text)
            return
        self.played += 1
        figures.board_moves += 1
        figures.timed(reply_seconds(result), figures.replies)


async def build_board_matches(
    database: Path,
    guild: Any,
    channels: list[Any],
    pairs: list[tuple[Any, Any]],
    records: list[RecordedGame],
) -> list[tuple[int, RecordedGame]]:
    """Store one match per recorded game through the match service (challenge, accept),
    then at the middle of its game, before the bot starts: the bot finds them as after a
    restart. Returns (match id, record) pairs."""
    from engine import get_board_game
    from matchcore.records import ActionRecord
    from matchcore.service import MatchService
    from matchcore.service.board_logic import seats_with_colours
    from matchcore.storage import open_repository

    repo = await open_repository(database)
    service = MatchService(repo, choices=service_choices())
    stored = []
    try:
        for number, (record, (first, second)) in enumerate(zip(records, pairs, strict=True)):
            channel = channels[number % len(channels)]
            offer = await service.challenge(
                guild.id, channel.id, first.id, record.game, second.id, size=record.size
            )
            assert offer.challenge_id is not None
            started = await service.accept_challenge(offer.challenge_id, second.id)
            assert started.match_id is not None
            match = await repo.get_match(started.match_id)
            assert match is not None
            state = get_board_game(record.game).from_json(record.middle)
            now = time.time()
            middle = match.evolve(
                state=record.middle,
                seats=seats_with_colours(match, state),
                version=match.version + 1,
                updated_at=now,
            )
            note = ActionRecord(match.id, middle.version, None, None, "bench: to mid-game", now)
            await repo.commit_match(middle, match.version, [note])
            stored.append((match.id, record))
    finally:
        await repo.close()
    return stored


class LeiffTable:
    """One Leiff table: the stored state tells whose click comes next and which one."""

    def __init__(self, sim: Any, channel: Any, players: list[Any], repo: Any) -> None:
        self.sim, self.channel, self.players, self.repo = sim, channel, players, repo
        self.match_id = 0
        self.state: Any = None

    async def open(self) -> None:
        host, *guests = self.players
        lobby = (
            await self.sim.slash(host, "play", channel=self.channel, game="leiff")
        ).last_message
        for guest in guests:
            await self.sim.click(guest, lobby, "Join")
        await self.sim.click(host, lobby, "Start")
        self.match_id = int(lobby.content.split("table #", 1)[1].split()[0])

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

    def _offered(self, user: Any, action: str) -> tuple[Any, Any] | None:
        """The newest DM message of ``user`` offering ``action``, and its button or menu."""
        for message in reversed(self.sim.dms(user)):
            for button in message.buttons:
                if (button.custom_id or "").rsplit("|", 1)[-1] == action:
                    return message, button
            for menu in message.selects:
                if action in menu.values:
                    return message, menu
        return None

    async def _control(self, user: Any, actions: list[str]) -> tuple[Any, Any, str] | None:
        """What ``user`` clicks, as a player clicks what they see: the chosen action (the
        first) when their DMs offer it, else, after a second, any other legal one offered
        (not every legal action has a control of its own); None if nothing is offered
        within 30 s (a liveness bound, not a measurement: under rate limits and a loaded
        machine a DM update can take seconds)."""
        started = time.monotonic()
        while True:
            waited = time.monotonic() - started
            for action in actions if waited > 1.0 else actions[:1]:
                found = self._offered(user, action)
                if found is not None:
                    return (*found, action)
            if waited > 30.0:
                return None
            await asyncio.sleep(0.005)

    async def act(self, figures: Figures) -> None:
        from engine import get_game

        record = await self.repo.get_match(self.match_id)
        self.state = get_game("leiff").from_json(record.state)
        if self.state.outcome is not None:
            return
        seat, action = self.choose()
        user = self.players[seat]
        others = [a for a in self.state.legal_actions(seat) if a != action]
        control = await self._control(user, [action, *others])
        if control is None:
            figures.refuse(f"no DM of seat {seat} offers {action!r} or another legal action")
            return
        message, component, action = control
        if hasattr(component, "values"):
            result = await self.sim.select(user, message, component.custom_id, action)
        else:
            result = await self.sim.click(user, message, component.custom_id)
        result = await answered(result)
        if result.ephemeral and not figures.deferred_reply(result):
            figures.refuse(result.text)
            return
        figures.leiff_actions += 1
        figures.timed(reply_seconds(result), figures.leiff_replies)


async def open_leiff_tables(
    sim: Any, channels: list[Any], seats: list[list[Any]], database: Path
) -> tuple[list[LeiffTable], Any]:
    """Open, fill and start the tables through Discord and play a few actions on each.
    Returns the tables and the read-only repository they look their state up in."""
    from matchcore.storage import open_repository

    repo = await open_repository(database)
    tables = [
        LeiffTable(sim, channels[number % len(channels)], players, repo)
        for number, players in enumerate(seats)
    ]
    for table in tables:
        await table.open()
    warm_up = Figures()
    for _ in range(LEIFF_WARM_UP_ACTIONS):
        await asyncio.gather(*(table.act(warm_up) for table in tables))
    return tables, repo


async def warm_up(matches: list[BoardMatch], moves: int = BOARD_WARM_UP_MOVES) -> None:
    """Play a couple of moves in every match before timing. The bot has just started, so
    its first move in a match works the position out from its stored form (a Lublache
    9-board costs tens of milliseconds then, a few after); timing those would measure a
    restart, not a running bot."""
    figures = Figures()
    for _ in range(moves):
        for start in range(0, len(matches), 20):
            await asyncio.gather(*(m.move(figures) for m in matches[start : start + 20]))


# ---- the bot's process -------------------------------------------------------------------


class BotProcess:
    """The bot in its own process (``bench.e2e_bot``), pointed at the simulator."""

    def __init__(self, sim: Any, guild: Any, database: Path, folder: Path) -> None:
        self.sim, self.guild, self.database = sim, guild, database
        self.stats_path = folder / "bot-stats.json"
        self.process: asyncio.subprocess.Process | None = None
        # The bot's stderr goes to a file, never a pipe: under overload it logs a warning per
        # held-up message, and a pipe nobody reads fills at 64 KB and freezes the bot in
        # its next log call (a sweep once hung that way, the bot idle and the run waiting).
        self.stderr_path = folder / "bot-stderr.log"

    async def start(self, timeout: float = 60.0) -> None:
        env = {
            **os.environ,
            "DISCORD_TOKEN": self.sim.token,
            "DATABASE_PATH": str(self.database),
            "DEV_GUILD_ID": str(self.guild.id),
            "LOG_LEVEL": "WARNING",
            "PYTHONPATH": str(ROOT),
            "E2E_STATS": str(self.stats_path),
        }
        with self.stderr_path.open("wb") as stderr:
            self.process = await asyncio.create_subprocess_exec(
                sys.executable,
                "-m",
                "bench.e2e_bot",
                self.sim.base_url,
                self.sim.gateway.url,
                cwd=ROOT,
                env=env,
                stdout=asyncio.subprocess.DEVNULL,
                stderr=stderr,
            )
        deadline = time.monotonic() + timeout
        while not (self.sim.gateway.live_sessions and self.sim.commands(self.guild)):
            if self.process.returncode is not None:
                raise RuntimeError(self.stderr_path.read_text(errors="replace"))
            if time.monotonic() > deadline:
                raise RuntimeError("the bot did not connect in time")
            await asyncio.sleep(0.05)
        await asyncio.sleep(1.0)  # its picture workers warm up after connecting

    async def stop(self) -> dict[str, list[tuple[float, float]]]:
        """SIGTERM, as a service manager stops it; its loop and GC samples."""
        assert self.process is not None
        self.process.send_signal(signal.SIGTERM)
        try:
            await asyncio.wait_for(self.process.wait(), 30)
        except TimeoutError:
            self.process.kill()
            await self.process.wait()
        return json.loads(self.stats_path.read_text()) if self.stats_path.exists() else {}

    def memory_mb(self) -> tuple[float, float, int]:
        """(resident summed, proportional summed, processes) over the bot's process tree."""
        assert self.process is not None
        return tree_memory_mb(self.process.pid)


def _children(pid: int) -> list[int]:
    found: list[int] = []
    with contextlib.suppress(OSError):
        for task in Path(f"/proc/{pid}/task").iterdir():
            text = (task / "children").read_text().split()
            found.extend(int(child) for child in text)
    return found


def _cpu_seconds(pid: int) -> float:
    with contextlib.suppress(OSError):
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
    return 0.0


def tree_cpu_seconds(root: int) -> dict[int, float]:
    """CPU seconds (user + system) used so far by ``root`` and each of its descendants."""
    found: dict[int, float] = {}
    stack = [root]
    while stack:
        pid = stack.pop()
        found[pid] = _cpu_seconds(pid)
        stack.extend(_children(pid))
    return found


def tree_memory_mb(root: int) -> tuple[float, float, int]:
    """Resident and proportional set sizes summed over ``root`` and its descendants."""
    rss = pss = 0.0
    count = 0
    stack = [root]
    while stack:
        pid = stack.pop()
        with contextlib.suppress(OSError):
            for line in Path(f"/proc/{pid}/smaps_rollup").read_text().splitlines():
                if line.startswith("Rss:"):
                    rss += int(line.split()[1]) / 1024
                elif line.startswith("Pss:"):
                    pss += int(line.split()[1]) / 1024
            count += 1
        stack.extend(_children(pid))
    return rss, pss, count


# ---- driving the load --------------------------------------------------------------------


async def paced(workers: list[Any], rate: float, seconds: float, figures: Figures) -> None:
    """Call a randomly chosen idle worker at ``rate`` per second for ``seconds``."""
    busy: set[int] = set()
    tasks: set[asyncio.Task[None]] = set()
    interval = 1.0 / rate
    next_at = time.perf_counter()
    deadline = next_at + seconds
    rng = random.Random(5)
    while time.perf_counter() < deadline:
        idle = [i for i in range(len(workers)) if i not in busy]
        if idle:
            index = rng.choice(idle)
            busy.add(index)

            async def run(i: int = index) -> None:
                try:
                    await workers[i](figures)
                finally:
                    busy.discard(i)

            task = asyncio.create_task(run())
            tasks.add(task)
            task.add_done_callback(tasks.discard)
        next_at += interval
        await asyncio.sleep(max(0.0, next_at - time.perf_counter()))
    if tasks:
        await asyncio.gather(*tasks)


class HarnessPauses:
    """The garbage collector's pauses in this process: the simulator's and the players'.

    They are Discord's side of the wire, not the bot's, yet a long one holds up every reply
    in flight and lands in the reply figures. The simulator keeps every request and message
    it has seen, so its heap grows from stage to stage; before each stage its objects are
    collected once and frozen (:meth:`freeze`) and the collector is off during the stage
    (``--harness-gc`` keeps it on; its pauses are then reported beside the bot's)."""

    def _on_gc(self, phase: str, info: dict[str, int]) -> None:
        if phase == "start":
            self._started = time.perf_counter()
        else:
            self.pauses.append((time.time(), time.perf_counter() - self._started))

    def __init__(self, collect_during_stages: bool = False) -> None:
        self.pauses: list[tuple[float, float]] = []  # (wall-clock end, seconds)
        self._started = 0.0
        self.collect_during_stages = collect_during_stages
        gc.callbacks.append(self._on_gc)

    def freeze(self) -> None:
        """Collect once and leave everything alive now out of later collections; then,
        unless asked to collect during stages, switch this process's collector off until
        :meth:`thaw`. Discord's servers do not pause for a Python collector, and a
        stage allocates a few hundred MB at most here."""
        gc.collect()
        gc.freeze()
        if not self.collect_during_stages:
            gc.disable()

    def thaw(self) -> None:
        gc.enable()

    def between(self, started: float, ended: float) -> list[float]:
        return [p for at, p in self.pauses if started <= at <= ended]


@dataclass
class Stage:
    board_rate: float
    leiff_rate: float
    seconds: float
    figures: Figures
    started: float  # wall-clock time
    ended: float
    memory: tuple[float, float, int]  # the largest (rss, pss, processes) seen
    cpu: dict[str, float] = field(default_factory=dict)  # CPU seconds per second, by process
    # the bot's loop-lag and GC samples of the whole run (known once the bot has stopped)
    samples: dict[str, list[tuple[float, float]]] = field(default_factory=dict)
    # REST requests the bot made during the stage, by category (the simulator's)
    requests: dict[str, int] = field(default_factory=dict)
    # requests the simulator refused with a 429 during the stage, by scope
    refused_429: dict[str, int] = field(default_factory=dict)
    # this process's (the simulator's and players') GC pauses during the stage, seconds
    harness_pauses: list[float] = field(default_factory=list)

    def lags(self, samples: dict[str, list[tuple[float, float]]]) -> list[float]:
        return [lag for at, lag in samples.get("lags", []) if self.started <= at <= self.ended]

    def pauses(self, samples: dict[str, list[Any]]) -> list[float]:
        return [p[1] for p in samples.get("pauses", []) if self.started <= p[0] <= self.ended]

    def pauses_by_generation(self, samples: dict[str, list[Any]]) -> dict[int, list[float]]:
        """The stage's GC pauses by the oldest generation each collected (-1: unknown)."""
        found: dict[int, list[float]] = {}
        for pause in samples.get("pauses", []):
            if self.started <= pause[0] <= self.ended:
                generation = int(pause[2]) if len(pause) > 2 else -1
                found.setdefault(generation, []).append(pause[1])
        return found


async def drive(
    bot: BotProcess,
    matches: list[BoardMatch],
    tables: list[LeiffTable],
    board_rate: float,
    leiff_rate: float,
    seconds: float,
) -> Stage:
    """Play at the given rates for ``seconds``, sampling the bot's memory every second."""
    figures = Figures()
    peak = (0.0, 0.0, 0)
    done = asyncio.Event()

    async def sample_memory() -> None:
        nonlocal peak
        while not done.is_set():
            now = bot.memory_mb()
            peak = max(peak, now)
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(done.wait(), 1.0)

    sampler = asyncio.create_task(sample_memory())
    assert bot.process is not None
    cpu_before, own_before = tree_cpu_seconds(bot.process.pid), time.process_time()
    started = time.time()
    requests_before = len(bot.sim.requests)
    limiter = bot.sim.state.rate_limiter
    refused_before = dict(limiter.refused)
    playing = [m.move for m in matches if not m.over]
    loads = [paced(playing, board_rate, seconds, figures)]
    if leiff_rate > 0:
        loads.append(paced([t.act for t in tables], leiff_rate, seconds, figures))
    await asyncio.gather(*loads)
    ended = time.time()
    cpu_after, own_after = tree_cpu_seconds(bot.process.pid), time.process_time()
    done.set()
    await sampler
    elapsed = ended - started
    cpu = {SIMULATOR: (own_after - own_before) / elapsed}
    for number, pid in enumerate(sorted(cpu_after)):
        name = "bot" if pid == bot.process.pid else f"worker {number}"
        cpu[name] = (cpu_after[pid] - cpu_before.get(pid, 0.0)) / elapsed
    stage = Stage(board_rate, leiff_rate, elapsed, figures, started, ended, peak, cpu)
    stage.requests = dict(bot.sim.request_counts(requests_before))
    stage.refused_429 = {
        scope: count - refused_before.get(scope, 0)
        for scope, count in limiter.refused.items()
        if count > refused_before.get(scope, 0)
    }
    return stage


# ---- report ------------------------------------------------------------------------------


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    index = min(len(ordered) - 1, max(0, round(share * (len(ordered) - 1))))
    return ordered[index]


def describe(values: list[float]) -> str:
    if not values:
        return "no samples"
    return (
        f"n={len(values)}, median {statistics.median(values) * 1000:.1f} ms, "
        f"p99 {percentile(values, 0.99) * 1000:.1f} ms, max {max(values) * 1000:.1f} ms"
    )


def cpu_ms_per_move(stage: Stage, process: str = "bot") -> float:
    """CPU milliseconds of one process (``"bot"``, a worker) per move done in the stage."""
    actions = stage.figures.board_moves + stage.figures.leiff_actions
    return stage.cpu.get(process, 0.0) * stage.seconds / actions * 1000 if actions else 0.0


def meets_targets(stage: Stage, samples: dict[str, list[tuple[float, float]]]) -> bool:
    replies = stage.figures.replies + stage.figures.leiff_replies
    lags = stage.lags(samples)
    return (
        bool(replies)
        and bool(lags)
        and percentile(replies, 0.99) <= REPLY_P99_TARGET
        and percentile(lags, 0.99) <= LAG_P99_TARGET
        and stage.figures.refused == 0
    )


def report(stage: Stage, samples: dict[str, list[tuple[float, float]]]) -> None:
    figures = stage.figures
    offered = stage.board_rate + stage.leiff_rate
    done = (figures.board_moves + figures.leiff_actions) / stage.seconds
    print(
        f"\n-- {offered:g} moves/s offered ({stage.board_rate:g} board + "
        f"{stage.leiff_rate:g} Leiff) for {stage.seconds:.0f} s: {done:.1f} moves/s done "
        f"({figures.board_moves} board, {figures.leiff_actions} Leiff, {figures.refused} "
        f"refused, {figures.deferred} deferred after 1.5 s)"
    )
    for text in figures.refusals:
        print(f"   refused: {text}")
    print(f"   board /move → board picture:    {describe(figures.replies)}")
    print(f"   Leiff DM click → hand picture:  {describe(figures.leiff_replies)}")
    print(f"   all replies:                    {describe(figures.replies + figures.leiff_replies)}")
    if figures.slow_at:
        moments = sorted(figures.slow_at)
        seconds = sorted({int(at - stage.started) for at in moments})
        print(
            f"   replies over {REPLY_P99_TARGET * 1000:.0f} ms: {len(moments)}, asked for in "
            f"{len(seconds)} distinct seconds of the stage, from +{moments[0] - stage.started:.1f}"
            f" s to +{moments[-1] - stage.started:.1f} s"
        )
    lags, pauses = stage.lags(samples), stage.pauses(samples)
    if lags:
        print(
            f"   bot event-loop lag (10 ms sleep overshoot): p50 "
            f"{statistics.median(lags) * 1000:.1f} ms, p99 {percentile(lags, 0.99) * 1000:.1f}"
            f" ms, max {max(lags) * 1000:.1f} ms; longest GC pause "
            f"{max(pauses, default=0.0) * 1000:.1f} ms ({len(pauses)} collections, "
            f"{sum(pauses) * 1000:.0f} ms in all)"
        )
        by_generation = stage.pauses_by_generation(samples)
        if by_generation:
            print(
                "   bot GC by generation: "
                + "; ".join(
                    f"gen {generation}: {len(found)} collections, "
                    f"{sum(found) * 1000:.0f} ms, longest {max(found) * 1000:.1f} ms"
                    for generation, found in sorted(by_generation.items())
                )
            )
    if stage.harness_pauses:
        print(
            f"   simulator and players' own GC (Discord's side): longest pause "
            f"{max(stage.harness_pauses) * 1000:.1f} ms ({len(stage.harness_pauses)} "
            f"collections, {sum(stage.harness_pauses) * 1000:.0f} ms in all)"
        )
    actions = figures.board_moves + figures.leiff_actions
    if actions:
        per = ", ".join(
            f"{category} {count / actions:.2f}"
            for category, count in sorted(stage.requests.items())
        )
        outside = sum(
            stage.requests.get(c, 0) for c in ("channel message", "edit", "follow-up", "DM")
        )
        print(
            f"   REST requests per move (board and Leiff mixed): {per}; outside the callback "
            f"{outside / actions:.2f} (per kind of action: python -m bench.budget)"
        )
    if stage.seconds:
        # interaction endpoints (callbacks, follow-ups) are spared by the global limit
        counted = sum(
            n for category, n in stage.requests.items() if category not in ("callback", "follow-up")
        )
        refused = ", ".join(f"{scope} {n}" for scope, n in sorted(stage.refused_429.items()))
        print(
            f"   requests counted in Discord's global limit: {counted / stage.seconds:.0f}/s; "
            f"429 answers: {refused or 'none'}"
        )
    shares = ", ".join(f"{name} {share:.2f}" for name, share in stage.cpu.items())
    print(f"   CPU seconds per second: {shares}")
    if actions:
        workers = sum(cpu_ms_per_move(stage, name) for name in stage.cpu if name != SIMULATOR)
        print(
            f"   CPU per move: bot process {cpu_ms_per_move(stage):.2f} ms, bot with its workers "
            f"{workers:.2f} ms, simulator and players {cpu_ms_per_move(stage, SIMULATOR):.2f} ms"
        )
    rss, pss, count = stage.memory
    print(
        f"   bot process tree ({count} processes): {rss:.0f} MB resident summed, "
        f"{pss:.0f} MB proportional (peak of 1 s samples)"
    )
    verdict = "meets" if meets_targets(stage, samples) else "misses"
    print(f"   {verdict} the targets (reply p99 <= 100 ms, loop-lag p99 <= 50 ms)")


# ---- the whole run -----------------------------------------------------------------------


async def run(
    stages: list[tuple[float, float, float]],
    board_matches: int = BOARD_MATCHES,
    leiff_tables: int = LEIFF_TABLES,
    global_limit: int = DEFAULT_GLOBAL_LIMIT,
    harness_gc: bool = False,
    check_answers: bool = False,
) -> list[Stage]:
    """Build the world, start the bot, play each (board rate, Leiff rate, seconds) stage."""
    from discord_sim.harness import DiscordSimulator
    from discord_sim.ratelimits import RateLimiter

    recording_started = time.perf_counter()
    records = record_games(board_matches)
    print(
        f"recorded {len(records)} random games in {time.perf_counter() - recording_started:.1f}"
        f" s; matches start at their middle (median ply {statistics.median(r.advance for r in records):.0f})",
        flush=True,
    )
    with tempfile.TemporaryDirectory() as folder:
        database = Path(folder) / "bench.sqlite3"
        # Discord's limits on, as it enforces them (real windows): 5 messages and 5 edits
        # per 5 s in each channel, and the global limit (see DEFAULT_GLOBAL_LIMIT).
        # Every request of the bot is checked against Discord's contract as in the tests;
        # the simulator's own answers and interactions only with --check-answers (they are
        # the tests' business, and checking them is the simulator's CPU, not the bot's).
        async with DiscordSimulator(
            interaction_timeout=30.0, validate_responses=check_answers
        ) as sim:
            sim.state.rate_limiter = RateLimiter(enabled=True, global_limit=global_limit)
            names = [BOARD_CHANNEL.format(n) for n in range(board_matches)]
            names += [LEIFF_CHANNEL.format(t) for t in range(leiff_tables)]
            guild = sim.add_guild("Bench", channels=tuple(names))
            channels = list(guild.text_channels)
            board_channels, table_channels = channels[:board_matches], channels[board_matches:]
            pairs = [
                (sim.add_member(guild, f"p{n}a"), sim.add_member(guild, f"p{n}b"))
                for n in range(board_matches)
            ]
            seats = [
                [sim.add_member(guild, f"t{t}s{s}") for s in range(LEIFF_PLAYERS)]
                for t in range(leiff_tables)
            ]
            setup_started = time.perf_counter()
            stored = await build_board_matches(database, guild, board_channels, pairs, records)
            matches = [
                BoardMatch(sim, board_channels[n], pairs[n], record)
                for n, (_, record) in enumerate(stored)
            ]
            bot = BotProcess(sim, guild, database, Path(folder))
            await bot.start()
            print("the bot is connected; opening the Leiff tables", flush=True)
            tables, repo = await open_leiff_tables(sim, table_channels, seats, database)
            await warm_up(matches)
            rss, pss, count = bot.memory_mb()
            print(
                f"set-up: {len(matches)} board matches at mid-game and {len(tables)} Leiff "
                f"tables in {time.perf_counter() - setup_started:.1f} s; bot process tree "
                f"({count} processes) {rss:.0f} MB resident summed, {pss:.0f} MB proportional"
            )
            done = []
            harness = HarnessPauses(collect_during_stages=harness_gc)
            try:
                for board_rate, leiff_rate, seconds in stages:
                    harness.freeze()
                    try:
                        stage = await drive(bot, matches, tables, board_rate, leiff_rate, seconds)
                    finally:
                        harness.thaw()
                    stage.harness_pauses = harness.between(stage.started, stage.ended)
                    done.append(stage)
            finally:
                await repo.close()
                samples = await bot.stop()
                trace = os.environ.get("E2E_TRACE")
                if trace and done:
                    # bench.e2e_trace lines these up with the bot's own trace
                    trace_dir = Path(trace)
                    shutil.copy(bot.stats_path, trace_dir / "bot-stats.json")
                    (trace_dir / "replies.json").write_text(json.dumps(done[-1].figures.asked))
                    (trace_dir / "harness-gc.json").write_text(json.dumps(harness.pauses))
                    now_wall, now_clock = time.time(), time.perf_counter()
                    (trace_dir / "interactions.json").write_text(
                        json.dumps(
                            {
                                str(i.id): (
                                    now_wall - (now_clock - i.dispatched_at),
                                    now_wall - (now_clock - i.first_response_at),
                                )
                                for i in sim.interactions
                                if i.first_response_at is not None
                                and i.dispatched_at >= now_clock - (now_wall - done[-1].started)
                            }
                        )
                    )
            late = sum(1 for i in sim.interactions if i.late_response)
    for stage in done:
        stage.samples = samples
        report(stage, samples)
    print(f"\ninteractions answered after Discord's 3 s: {late}")
    if len(done) > 1:
        passing = [s.board_rate + s.leiff_rate for s in done if meets_targets(s, samples)]
        print(
            "highest rate meeting both targets: "
            + (f"{max(passing):g} moves/s offered" if passing else "none of the stages")
        )
    return done


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seconds", type=float, default=DEFAULT_SECONDS)
    parser.add_argument("--board-rate", type=float, default=DEFAULT_BOARD_RATE)
    parser.add_argument("--leiff-rate", type=float, default=DEFAULT_LEIFF_RATE)
    parser.add_argument("--sweep", action="store_true", help="raise the rate stage by stage")
    parser.add_argument("--matches", type=int, default=BOARD_MATCHES, help="board matches")
    parser.add_argument("--tables", type=int, default=LEIFF_TABLES, help="Leiff tables")
    parser.add_argument(
        "--global-limit",
        type=int,
        default=DEFAULT_GLOBAL_LIMIT,
        help="Discord's global limit the simulator enforces (requests/s; Discord's default: 50)",
    )
    parser.add_argument(
        "--harness-gc",
        action="store_true",
        help="keep the simulator's own garbage collector on during the stages",
    )
    parser.add_argument(
        "--check-answers",
        action="store_true",
        help="check the simulator's answers and interactions against Discord's contract too "
        "(the bot's requests always are)",
    )
    args = parser.parse_args(argv)
    trace = os.environ.get("E2E_TRACE")
    if trace:
        Path(trace).mkdir(parents=True, exist_ok=True)  # the bot's process writes there too
    if args.sweep:
        stages = [(rate * 0.8, rate * 0.2, SWEEP_SECONDS) for rate in SWEEP_RATES]
    else:
        stages = [(args.board_rate, args.leiff_rate, args.seconds)]
    asyncio.run(
        run(
            stages,
            args.matches,
            args.tables,
            args.global_limit,
            args.harness_gc,
            args.check_answers,
        )
    )


if __name__ == "__main__":
    from bench.__main__ import machine_line

    print(f"machine: {machine_line()}")
    main()
