"""Two bot processes, shards 0 and 1 of 2, on one PostgreSQL, against one simulator.

Servers live on both shards; a board match and a four-seat Leiff table (three people and a
bot) live in a server of shard 1, while every click on a Leiff hand arrives by DM at shard
0. Each process is killed with SIGKILL in the middle of the game (one of them while an
interaction is being handled) and started again. Then, from the database and from both
processes' logs:

- nothing acknowledged is lost: every answered action is in the action log at the
  version it got, and each match's log replays to its stored state;
- every button still works: clicks on hand and board messages sent before the kills act;
- no clock tick and no bot turn ran twice: each "clock work" and "bot turn" line of every
  process names a different (match, version), the table timed out exactly once per
  deadline that passed, and each bot action is in the log once.
"""

from __future__ import annotations

import asyncio
import json
import os
import random
import re
import signal
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from discord_sim import DiscordSimulator
from discord_sim.models import SimMessage, SimUser
from engine import get_game
from matchcore.service import leiff_logic
from matchcore.storage import Repository, open_repository
from tests.bot.helpers import LATE_ANSWERS, match_id_of, pick_move
from tests.postgres import fresh_database

pytestmark = pytest.mark.slow

ROOT = Path(__file__).resolve().parents[2]
SHARDS = 2
LEIFF_TURN_SECONDS = 300  # the server default
ANSWERED = (4, 7)  # a message or an updated message: the interaction's real answer
# Under load (a shard just restarted, CI's two cores busy) the bot may acknowledge a click
# first (a deferred update after 1.5 s) and edit the hand afterwards: that is an answer too,
# once its reply has come.
DEFERRED_UPDATE = 6


class BotProcess:
    """One ``tests.bot.shard_child`` process; each start writes a new log file."""

    def __init__(
        self, sim: DiscordSimulator, url: str, shard: int, folder: Path, shards: int = SHARDS
    ) -> None:
        self.sim, self.url, self.shard, self.folder = sim, url, shard, folder
        self.shards = shards
        self.process: asyncio.subprocess.Process | None = None
        self.logs: list[Path] = []

    async def start(self) -> None:
        log = self.folder / f"shard{self.shard}-{len(self.logs)}.log"
        self.logs.append(log)
        with log.open("wb") as sink:
            self.process = await asyncio.create_subprocess_exec(
                sys.executable,
                "-m",
                "tests.bot.shard_child",
                self.sim.base_url,
                self.sim.gateway.url,
                self.sim.token,
                self.url,
                str(self.shard),
                str(self.shards),
                str(self.folder / "clock"),
                cwd=ROOT,
                env={**os.environ, "PYTHONPATH": str(ROOT)},
                stdout=asyncio.subprocess.DEVNULL,
                stderr=sink,
            )
        await self.wait_ready()

    async def wait_ready(self, timeout: float = 60.0) -> None:
        deadline = asyncio.get_running_loop().time() + timeout
        while "connected as" not in self.logs[-1].read_text(errors="replace"):
            assert self.process is not None
            if self.process.returncode is not None:
                raise AssertionError(f"shard {self.shard} stopped:\n{self.log_text()}")
            if asyncio.get_running_loop().time() > deadline:
                raise AssertionError(f"shard {self.shard} not ready:\n{self.log_text()}")
            await asyncio.sleep(0.05)

    async def kill(self) -> None:
        """SIGKILL: no shutdown code runs, open transactions die with the connection."""
        assert self.process is not None
        self.process.send_signal(signal.SIGKILL)
        await self.process.wait()
        # The simulator sees the socket drop; wait until nobody serves this shard.
        for _ in range(200):
            if not any(
                s.websocket is not None and s.shard_id == self.shard
                for s in self.sim.gateway.live_sessions
            ):
                return
            await asyncio.sleep(0.01)

    async def stop(self) -> None:
        if self.process is not None and self.process.returncode is None:
            self.process.send_signal(signal.SIGTERM)
            try:
                await asyncio.wait_for(self.process.wait(), 20)
            except TimeoutError:
                self.process.kill()
                await self.process.wait()

    def log_text(self) -> str:
        return "\n".join(path.read_text(errors="replace") for path in self.logs)


class Game:
    """The test's view: the database (the truth) and what was acknowledged."""

    def __init__(self, sim: DiscordSimulator, repo: Repository) -> None:
        self.sim = sim
        self.repo = repo
        # (match id, version, user id, action) of every answered action
        self.acknowledged: list[tuple[int, int, int, str]] = []

    async def record(
        self, match_id: int, version_before: int, user: SimUser, action: str, *, hand: bool = False
    ) -> bool:
        """Note an answered action: it must be in the log already (the commit comes before
        the answer). False only for a click in a hand that someone else had moved on
        meanwhile (``hand``): its answer was the redrawn hand, not an acceptance."""
        log = await self.repo.actions(match_id)
        row = next(
            (
                a
                for a in log
                if a.version > version_before and a.user_id == user.id and a.action == action
            ),
            None,
        )
        if row is None and hand and log and log[-1].version > version_before:
            return False
        assert row is not None, f"{user.name}'s answered {action!r} is not in the log: {log[-5:]}"
        self.acknowledged.append((match_id, row.version, user.id, action))
        return True

    async def state(self, match_id: int) -> tuple[Any, Any]:
        record = await self.repo.get_match(match_id)
        assert record is not None
        return record, get_game(record.game).from_json(record.state)

    async def board_move(
        self, match_id: int, players: list[SimUser], channel: Any, rng: random.Random
    ) -> Any:
        record, state = await self.state(match_id)
        mover = players[state.seat_to_move]
        move = pick_move(state, rng)
        answer = await self.sim.slash(mover, "move", cell=move, channel=channel)
        if answer.deferred:  # acknowledged privately first; the board follows in the channel
            await answer.wait_for_reply(15.0)
        else:
            assert not answer.ephemeral, answer.text
        await self.record(match_id, record.version, mover, move)
        return answer

    async def leiff_step(self, table: int, players: list[SimUser]) -> bool:
        """One human action at the table, clicked in the player's DM; False when only the
        bot is to act (then it waits for the bot)."""
        for _ in range(20):
            record, state = await self.state(table)
            waiting = state.waiting_for()
            humans = [seat for seat in waiting["owners"] if seat < len(players)]
            if not humans:
                await self.wait_for_version(table, record.version)
                return False
            seat = humans[0]
            user = players[seat]
            current = current_versions(record, state, seat)
            answer, action = await click_in_hand(self.sim, user, choices(state, seat), current)
            if answer is None or action is None:
                await self.refresh_hand(user, current)
                continue
            if answer.response_type == DEFERRED_UPDATE:
                await answer.wait_for_reply(15.0)
            else:
                assert answer.response_type in ANSWERED, (answer.events, answer.text)
            assert not answer.ephemeral, answer.text
            if await self.record(table, record.version, user, action, hand=True):
                return True
            # The bot acted between our look and the click: "moved on", the hand is redrawn.
        message = hand_message(self.sim, user)
        offered = [b.custom_id for b in message.buttons] + [
            (m.custom_id, m.values) for m in message.selects
        ]
        raise AssertionError(
            f"{user.name}'s hand never offered {choices(state, seat)[:3]} at {record.version}; "
            f"waiting for {waiting}; offered {offered}"
        )

    async def refresh_hand(self, user: SimUser, current: set[int]) -> None:
        """A hand drawn before the last change and never redrawn (its process was killed
        between the commit and the DM): any of its buttons answers "moved on" and redraws it."""
        message = hand_message(self.sim, user)
        buttons = [b for b in message.buttons if b.custom_id and not b.disabled]
        selects = [m for m in message.selects if not m.disabled and m.values]
        custom_id = (buttons[0] if buttons else selects[0]).custom_id or ""
        if int(custom_id.split("|")[3]) in current:
            return  # up to date: the redraw is still on its way
        if buttons:
            answer = await self.sim.click(user, message, custom_id)
        else:
            answer = await self.sim.select(user, message, custom_id, selects[0].values[0])
        if answer.response_type == DEFERRED_UPDATE:
            await answer.wait_for_reply(15.0)  # acknowledged first, redrawn by an edit
        else:
            assert answer.response_type == 7, answer.events  # the redrawn hand

    async def wait_for_version(self, match_id: int, version: int, timeout: float = 15.0) -> None:
        deadline = asyncio.get_running_loop().time() + timeout
        while (await self.state(match_id))[0].version <= version:
            assert asyncio.get_running_loop().time() < deadline, "the match did not move on"
            await asyncio.sleep(0.05)


def hand_message(sim: DiscordSimulator, user: SimUser) -> SimMessage:
    found = [m for m in sim.dms(user) if m.buttons or m.selects]
    assert found, f"{user.name} has no hand message"
    return found[-1]


def current_versions(record: Any, state: Any, seat: int) -> set[int]:
    """The versions a click in the seat's hand may carry and be judged now: the match's, or
    the player's hand version (it changes only when something changed for that player)."""
    return {record.version, leiff_logic.hand_version(state.view(seat), seat)}


def _control(message: SimMessage, action: str, current: set[int]) -> tuple[str, str] | None:
    """("button" | "select", custom id) of the control for ``action``, drawn for the
    position as it is now (its version among ``current``)."""
    for button in message.buttons:
        parts = (button.custom_id or "").split("|", 4)
        if len(parts) == 5 and parts[4] == action and int(parts[3]) in current:
            return "button", button.custom_id
    for select in message.selects:
        parts = (select.custom_id or "").split("|", 4)
        if action in select.values and int(parts[3]) in current:
            return "select", select.custom_id
    return None


async def click_in_hand(
    sim: DiscordSimulator,
    user: SimUser,
    actions: list[str],
    current: set[int],
    **options: Any,
) -> tuple[Any, str] | tuple[None, None]:
    """Click the first of ``actions`` that the user's hand DM offers, once the hand is drawn
    for the position as it is now (a player's hand is redrawn after the click that changed
    it was answered). (None, None) when it does not show up: the game moved on, look again."""
    for _ in range(40):
        message = hand_message(sim, user)
        for action in actions:
            found = _control(message, action, current)
            if found is None:
                continue
            kind, custom_id = found
            if kind == "button":
                return await sim.click(user, message, custom_id, **options), action
            return await sim.select(user, message, custom_id, action, **options), action
        await asyncio.sleep(0.025)
    return None, None


def choices(state: Any, seat: int) -> list[str]:
    """What a player would pick: the engine's default action first, then any other turn
    action (a long family of choices may leave no room for the default's button)."""
    others = [
        a
        for a in state.legal_actions(seat)
        if not a.startswith(("match", "catch", "penalty", "rule", "leiff"))
    ]
    default = state.default_action(seat)
    return [default, *(a for a in others if a != default)]


async def private_answer(interaction: Any) -> SimMessage:
    """The private answer to a click: at once, or after the bot acknowledged the click
    first (a deferral: a loaded machine, a process just started) and then answered."""
    if interaction.deferred:
        return await interaction.wait_for_reply(15.0)
    return interaction.last_message


async def channel_answer(
    sim: DiscordSimulator,
    user: SimUser,
    command: str,
    channel: Any,
    check: Callable[[SimMessage], bool],
    **options: Any,
) -> SimMessage:
    """The message (passing ``check``) a slash command posts in ``channel``: its answer, or,
    when the bot put the answer off privately (a loaded machine, a process just started:
    bot/common/responder.py), the message it then posted in the channel itself, once its
    placeholder says so."""
    newest = channel.messages[-1].id if channel.messages else 0
    answer = await sim.slash(user, command, channel=channel, **options)
    if answer.deferred:
        placeholder = await answer.wait_for_reply(15.0)
        assert placeholder.text in LATE_ANSWERS, placeholder.text
        return await sim.wait_for_message(check, channel=channel, after=newest, timeout=15.0)
    assert not answer.ephemeral and check(answer.last_message), answer.text
    return answer.last_message


async def board_match_in(
    sim: DiscordSimulator, channel: Any, first: SimUser, second: SimUser
) -> int:
    """A Lefe match of size 5 that ``first`` offers ``second`` by /play in ``channel`` and
    ``second`` accepts: its id, read from the board posted in the channel."""
    offer = await channel_answer(
        sim,
        first,
        "play",
        channel,
        lambda m: any(b.label == "Accept" for b in m.buttons),
        game="lefe",
        opponent=second,
        size=5,
    )
    await sim.click(second, offer, "Accept")
    board = await sim.wait_for_message(lambda m: "match #" in m.text, channel=channel, after=offer)
    return match_id_of(board)


def is_board_at(message: SimMessage, version: int) -> bool:
    """Whether ``message`` is a board with live buttons drawn at ``version``."""
    return (
        "match #" in message.text
        and any(b.label == "Offer a draw" and not b.disabled for b in message.buttons)
        and button_version(message, "Offer a draw") == version
    )


def latest_board(channel: Any) -> SimMessage:
    """The newest board message with live buttons."""
    return next(
        m
        for m in reversed(channel.messages)
        if "match #" in m.text and any(not b.disabled for b in m.buttons)
    )


def button_version(message: SimMessage, label: str) -> int:
    button = next(b for b in message.buttons if b.label == label)
    return int((button.custom_id or "").split("|")[3])


def work_lines(
    processes: list[BotProcess],
) -> tuple[list[tuple[str, int, int]], list[tuple[int, int]]]:
    """(kind, match, version) of every "clock work" line and (match, version) of every
    "bot turn" line, in all the logs of all the processes."""
    text = "\n".join(p.log_text() for p in processes)
    clock = [
        (kind, int(match), int(version))
        for kind, match, version in re.findall(
            r"clock work: (\w+) of match (\d+) at version (\d+)", text
        )
    ]
    bots = [
        (int(match), int(version))
        for match, version in re.findall(r"bot turn: match (\d+) to version (\d+)", text)
    ]
    return clock, bots


async def check_log_replays(repo: Repository, match_id: int) -> None:
    record = await repo.get_match(match_id)
    assert record is not None
    log = await repo.actions(match_id)
    assert [a.version for a in log] == list(range(1, record.version + 1))
    moves = [a for a in log if not a.action.startswith("!")]
    if record.game == "leiff":
        seed = json.loads(record.state)["seed"]
        rebuilt = get_game("leiff").replay(
            seed, len(record.seats), record.options, [(a.seat, a.action) for a in moves]
        )
    else:
        rebuilt = get_game(record.game).new(record.options["size"], **record.options["options"])
        for action in moves:
            rebuilt = rebuilt.play(action.action)
    assert rebuilt.to_json() == record.state


async def test_two_shard_processes_on_one_database_survive_kills(tmp_path: Path) -> None:
    rng = random.Random(22)
    (tmp_path / "clock").write_text("0")
    async with fresh_database() as url, DiscordSimulator(interaction_timeout=20) as sim:
        repo = await open_repository(url)  # migrates before the bots start
        processes: list[BotProcess] = []
        try:
            zero = sim.add_guild("Shard zero", shard=(0, SHARDS), channels=("games",))
            one = sim.add_guild("Shard one", shard=(1, SHARDS), channels=("games", "cards"))
            alice, bob, carol, dave = (sim.add_user(n) for n in ("alice", "bob", "carol", "dave"))
            for guild in (zero, one):
                for user in (alice, bob, carol, dave):
                    guild.add_member(user)
            here, cards, there = one.channels[0], one.channels[1], zero.channels[0]
            processes = [BotProcess(sim, url, shard, tmp_path) for shard in range(SHARDS)]
            await asyncio.gather(*(p.start() for p in processes))
            game = Game(sim, repo)

            # A board match on shard 0's server and one on shard 1's.
            boards = {}
            for guild_channel, (first, second) in ((there, (carol, dave)), (here, (alice, bob))):
                match_id = await board_match_in(sim, guild_channel, first, second)
                boards[guild_channel.id] = (match_id, [first, second])
            for _ in range(3):
                for channel in (there, here):
                    match_id, players = boards[channel.id]
                    await game.board_move(match_id, players, channel, rng)

            # The Leiff table in shard 1's server: three people and a bot.
            lobby = await channel_answer(
                sim, alice, "play", cards, lambda m: "table #" in m.text, game="leiff"
            )
            table = int(re.search(r"table #(\d+)", lobby.text).group(1))
            for guest in (bob, carol):
                await sim.click(guest, lobby, "Join")
            await sim.click(alice, lobby, "Add bot seat")
            await sim.click(alice, lobby, "Start")
            people = [alice, bob, carol]
            for user in people:  # the hands go out after the click is answered
                await sim.wait_for_message(
                    lambda m: bool(m.attachments), channel=sim.dm_channel(user), timeout=10
                )

            # Hands are played by DM: those clicks arrive at shard 0.
            for _ in range(6):
                await game.leiff_step(table, people)

            # Shard 1 dies with SIGKILL in the middle of a board move of its server.
            board_id, board_players = boards[here.id]
            record, state = await game.state(board_id)
            mover = board_players[state.seat_to_move]
            move = pick_move(state, rng)
            pending = asyncio.create_task(
                sim.slash(mover, "move", cell=move, channel=here, expect_response=False, timeout=3)
            )
            await asyncio.sleep(0.02)
            await processes[1].kill()
            cut = await pending
            if cut.response_type in ANSWERED:
                assert not cut.ephemeral, cut.text
                await game.record(board_id, record.version, mover, move)
            # Its server is dark, but the table plays on: DM clicks still reach shard 0,
            # which posts to shard 1's channel itself (REST is not sharded).
            for _ in range(3):
                await game.leiff_step(table, people)
            await processes[1].start()
            # The board message sent before the kill still works: it acts if it shows the
            # stored position, and says the board moved on if the killed process committed
            # a move it could not post any more (then /board draws it again).
            record, state = await game.state(board_id)
            before = latest_board(here)
            offerer = board_players[state.seat_to_move]
            if button_version(before, "Offer a draw") < record.version:
                stale = await private_answer(await sim.click(offerer, before, "Offer a draw"))
                assert stale.ephemeral and "moved on" in stale.text, stale.text
                before = await channel_answer(
                    sim,
                    offerer,
                    "board",
                    here,
                    lambda m: is_board_at(m, record.version),
                )
            offered = await sim.click(offerer, before, "Offer a draw")
            assert not offered.ephemeral, offered.text
            await game.record(board_id, record.version, offerer, "!offer_draw")
            answer = await sim.wait_for_message(
                lambda m: any(b.label == "Decline the draw" for b in m.buttons),
                channel=here,
                after=before,
            )
            declined = await sim.click(
                board_players[1 - state.seat_to_move], answer, "Decline the draw"
            )
            assert not declined.ephemeral, declined.text
            for _ in range(2):
                await game.board_move(board_id, board_players, here, rng)

            # A deadline passes while both run: exactly one of them times the player out.
            record, _ = await game.state(table)
            deadline_version = record.version
            assert work_lines(processes)[0] == []  # no deadline has passed so far
            (tmp_path / "clock").write_text(str(LEIFF_TURN_SECONDS + 60))
            await game.wait_for_version(table, record.version)
            await asyncio.sleep(1.0)  # every process ticks a few more times meanwhile

            # Shard 0 dies with SIGKILL in the middle of a DM click; then comes back.
            record, state = await game.state(table)
            humans = [s for s in state.waiting_for()["owners"] if s < 3]
            if humans:
                pending = asyncio.create_task(
                    click_in_hand(
                        sim,
                        people[humans[0]],
                        choices(state, humans[0]),
                        current_versions(record, state, humans[0]),
                        expect_response=False,
                        timeout=3,
                    )
                )
                await asyncio.sleep(0.02)
                await processes[0].kill()
                cut, action = await pending
                if cut is not None and cut.response_type in ANSWERED and not cut.ephemeral:
                    assert action is not None
                    await game.record(table, record.version, people[humans[0]], action, hand=True)
            else:
                await processes[0].kill()
            await processes[0].start()
            # Hand messages sent before the kill carry on.
            for _ in range(6):
                await game.leiff_step(table, people)
            await game.board_move(*boards[there.id], there, rng)

            for process in processes:
                await process.stop()

            # Nothing acknowledged is lost, and every log replays to its stored state.
            for match_id, version, user_id, action in game.acknowledged:
                log = {a.version: a for a in await repo.actions(match_id)}
                assert (log[version].user_id, log[version].action) == (user_id, action)
            for match_id in (table, *(m for m, _ in boards.values())):
                await check_log_replays(repo, match_id)

            # No clock work and no bot turn ran twice, in any process: each line names a
            # different (match, version), and each is in the action log once.
            clock, bot_turns = work_lines(processes)
            log = await repo.actions(table)
            assert len(clock) == len(set(clock))
            timeouts = [(m, v) for kind, m, v in clock if kind == "timeout"]
            assert timeouts == [(table, deadline_version)]  # one deadline passed: one timeout
            by_clock = [a for a in log if a.user_id is None]  # the defaults the clock played
            assert by_clock and all(a.version > deadline_version for a in by_clock)
            assert max(a.version for a in by_clock) <= deadline_version + len(by_clock)
            assert len(bot_turns) == len(set(bot_turns)) and bot_turns
            previous = 0
            for match_id, version in sorted(bot_turns):
                assert match_id == table
                assert any(
                    a.user_id is not None and a.user_id < 0 and previous < a.version <= version
                    for a in log
                ), f"bot turn to version {version} is not in the log"
                previous = version
            bot_rows = [a for a in log if a.user_id is not None and a.user_id < 0]
            # A bot action killed between its commit and its log line has no line; no line
            # stands for two actions.
            assert len(bot_turns) <= len(bot_rows)
        except BaseException:
            for process in processes:  # shown by pytest with the failure
                lines = process.log_text().splitlines()
                print(f"--- shard {process.shard} ---", *lines[-60:], sep="\n")
            raise
        finally:
            for process in processes:
                await process.stop()
            await repo.close()
