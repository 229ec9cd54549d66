"""kill -9 at random moments right after acknowledged actions loses nothing and doubles
nothing (issue 33): the transactional outbox and the senders' checks before posting again.

One bot process (``tests.bot.shard_child``, shard 0 of 1) plays two board matches between
members, one against the bot itself and a Leiff table of three people against the
simulator, on SQLite and on PostgreSQL. After an
action is answered (a move, a hand clicked in a DM, a /resign that ends a match) the
process is killed with SIGKILL at a random moment within the next instants, and started
again. At the end, once the outbox is drained:

- every board's newest message in its channel shows the match's stored version (its
  buttons carry it: a finished match's Rematch too), and no version of a match was
  posted in its channel twice, counting the boards without buttons (the member's move
  the bot is to answer), which say their version by their picture's name;
- every player at the table has one hand message in their DMs, drawn for the table as
  it is now;
- nothing is left in the outbox for the chat front end.
"""

from __future__ import annotations

import asyncio
import random
import re
from collections import Counter
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

import pytest

from bot.common.custom_ids import BOARD, ComponentId
from discord_sim import DiscordSimulator
from discord_sim.models import SimMessage
from matchcore.storage import open_repository
from tests.bot.helpers import CONFIRMS, match_id_of
from tests.bot.shard_child import __name__ as _child  # noqa: F401  (the process it runs)
from tests.bot.test_shards import (
    BotProcess,
    Game,
    board_match_in,
    channel_answer,
    current_versions,
    hand_message,
    private_answer,
)
from tests.postgres import fresh_database

pytestmark = pytest.mark.slow

KILLS = 11
# A kill comes this long (seconds, drawn uniformly) after the action was answered: while
# the process is still sending the step's other messages and recording them.
KILL_WITHIN = 0.25


@asynccontextmanager
async def database(kind: str, folder: Path) -> Any:
    if kind == "sqlite":
        yield f"sqlite:///{folder / 'kill.sqlite3'}"
    else:
        async with fresh_database() as url:
            yield url


def versions_of(message: SimMessage, match_id: int) -> set[int]:
    """The versions of the match a message shows: its buttons', and its picture's name's
    (a board without buttons says it only so)."""
    found = {
        decoded.version
        for b in message.buttons
        if (decoded := ComponentId.decode(b.custom_id or "")) is not None
        and decoded.target == match_id
        and decoded.scope == BOARD
    }
    for attachment in message.attachments:
        named = re.fullmatch(rf"board-{match_id}-v(\d+)\.png", attachment.filename)
        if named is not None:
            found.add(int(named.group(1)))
    return found


def channel_versions(channel: Any, match_id: int) -> list[int]:
    """The version each of the channel's messages about the match shows, oldest first."""
    found = []
    for message in channel.messages:
        if message.ephemeral:
            continue
        versions = versions_of(message, match_id)
        if versions:
            found.append(max(versions))
    return found


async def solo_move(game: Game, match_id: int, players: list[Any], channel: Any, rng: Any) -> None:
    """The member's move against the bot, once the bot has answered the last one (after a
    kill the next process's clock plays a bot turn left undone, its lease run out)."""
    deadline = asyncio.get_running_loop().time() + 30
    while (await game.state(match_id))[1].seat_to_move != 0:
        assert asyncio.get_running_loop().time() < deadline, "the bot never answered"
        await asyncio.sleep(0.1)
    await game.board_move(match_id, players, channel, rng)


async def resign(sim: DiscordSimulator, game: Game, match_id: int, user: Any, channel: Any) -> None:
    record, _ = await game.state(match_id)
    question = await private_answer(await sim.slash(user, "resign", channel=channel))
    assert question.ephemeral, question.text
    yes = next(b.custom_id for b in question.buttons if b.custom_id.endswith(CONFIRMS))
    answer = await sim.click(user, question, yes)
    if answer.deferred:
        # acknowledged first (a loaded machine): the board then goes to the channel, which
        # the interaction does not see; the resignation is committed before it
        await game.wait_for_version(match_id, record.version)
    await game.record(match_id, record.version, user, "!resign")


@pytest.mark.parametrize("kind", ["sqlite", "postgresql"])
async def test_kills_after_acknowledged_actions_lose_and_double_nothing(
    kind: str, tmp_path: Path
) -> None:
    rng = random.Random(33)
    (tmp_path / "clock").write_text("0")
    async with database(kind, tmp_path) as url, DiscordSimulator(interaction_timeout=20) as sim:
        repo = await open_repository(url)  # migrates before the bot starts
        process = BotProcess(sim, url, 0, tmp_path, shards=1)
        try:
            guild = sim.add_guild("Kills", shard=(0, 1), channels=("one", "two", "cards", "solo"))
            alice, bob, carol = (sim.add_user(n) for n in ("alice", "bob", "carol"))
            for user in (alice, bob, carol):
                guild.add_member(user)
            one, two, cards, solo = guild.channels
            await process.start()
            game = Game(sim, repo)

            boards: dict[int, tuple[int, list[Any], Any]] = {}
            for channel, (first, second) in ((one, (alice, bob)), (two, (bob, carol))):
                match_id = await board_match_in(sim, channel, first, second)
                boards[channel.id] = (match_id, [first, second], channel)
            # carol has challenged nobody yet: no cooldown
            started = await channel_answer(
                sim,
                carol,
                "play",
                solo,
                lambda m: "match #" in m.text,
                game="lefe",
                opponent=sim.bot_user,
                size=5,
                level="easy",
            )
            boards[solo.id] = (match_id_of(started), [carol, sim.bot_user], solo)

            lobby = await channel_answer(
                sim, alice, "play", cards, lambda m: "table #" in m.text, game="leiff"
            )
            table = int(re.search(r"table #(\d+)", lobby.text).group(1))
            for guest in (bob, carol):
                await sim.click(guest, lobby, "Join")
            await sim.click(alice, lobby, "Start")
            people = [alice, bob, carol]
            for user in people:
                await sim.wait_for_message(
                    lambda m: bool(m.attachments), channel=sim.dm_channel(user), timeout=10
                )

            # Each round: an action answered, then SIGKILL a random instant later, then a
            # new process. The last rounds end the board matches by /resign.
            plan = ["board", "solo", "leiff"] * 2 + ["solo", "solo"] + ["resign"] * 3
            assert len(plan) == KILLS
            finished = moved = 0
            for step in plan:
                if step == "board":
                    # each match between members in turn: its first player has moved before
                    # the /resign that ends it (which would be an abort otherwise)
                    moved += 1
                    match_id, players, channel = boards[(one.id, two.id)[moved % 2]]
                    await game.board_move(match_id, players, channel, rng)
                elif step == "solo":
                    await solo_move(game, *boards[solo.id], rng)
                elif step == "leiff":
                    await game.leiff_step(table, people)
                else:
                    match_id, players, channel = list(boards.values())[finished]
                    finished += 1
                    await resign(sim, game, match_id, players[0], channel)
                await asyncio.sleep(rng.uniform(0.0, KILL_WITHIN))
                await process.kill()
                await process.start()

            # Left alone: the outbox drains.
            deadline = asyncio.get_running_loop().time() + 30
            while await repo.undelivered_matches():
                assert asyncio.get_running_loop().time() < deadline, "the outbox never drained"
                await asyncio.sleep(0.2)
            await asyncio.sleep(1.0)  # what a last send does after its record, if anything
            await process.stop()

            for match_id, _, channel in boards.values():
                record, _ = await game.state(match_id)
                assert record.status == "finished"
                shown = channel_versions(channel, match_id)
                assert shown and shown[-1] == record.version, (shown, record.version)
                twice = [v for v, n in Counter(shown).items() if n > 1]
                assert not twice, f"match {match_id}: versions posted twice: {twice}"
            record, state = await game.state(table)
            for seat, user in enumerate(people):
                hands = [m for m in sim.dms(user) if m.buttons or m.selects]
                assert len(hands) == 1, f"{user.name} has {len(hands)} hand messages"
                drawn = {
                    int((b.custom_id or "").split("|")[3])
                    for b in hand_message(sim, user).buttons
                    if b.custom_id
                }
                assert drawn & current_versions(record, state, seat), (user.name, drawn)
            assert await repo.undelivered_matches() == []
        except BaseException:
            lines = process.log_text().splitlines()
            print("--- bot ---", *lines[-80:], sep="\n")
            raise
        finally:
            await process.stop()
            await repo.close()
