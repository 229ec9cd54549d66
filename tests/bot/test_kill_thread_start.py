"""kill -9 while a match's thread is being opened (``match_threads``): the start line is in
the channel, and the thread either is not there yet or is there without its id stored. One
bot process (``tests.bot.shard_child``) on SQLite, killed with SIGKILL while Discord holds
the thread request (a 429 it waits out, or a slow answer of a thread already made), then
started again. Once the outbox is drained: one start line, one thread started from it and
stored with the match, the board in it and none in the channel; the match plays on in the
thread and its end posts the result line and archives the thread."""

from __future__ import annotations

import asyncio
import random
from pathlib import Path

import pytest

from discord_sim import DiscordSimulator
from i18n import translate
from matchcore.storage import open_repository
from tests.bot.shard_child import __name__ as _child  # noqa: F401  (the process it runs)
from tests.bot.test_kill_delivery import channel_versions, resign
from tests.bot.test_kill_threads import a_guild_with_match_threads
from tests.bot.test_shards import BotProcess, Game

pytestmark = pytest.mark.slow

THREAD_ROUTE = "POST /channels/{channel_id}/messages/{message_id}/threads"
START = translate("en", "bot.thread.started", name="**Lefe · alice vs bob**")


async def _until(check, what: str, seconds: float = 30.0) -> None:
    deadline = asyncio.get_running_loop().time() + seconds
    while not await check():
        assert asyncio.get_running_loop().time() < deadline, what
        await asyncio.sleep(0.1)


@pytest.mark.parametrize("held", ["429", "slow"])
async def test_a_kill_while_the_thread_opens_leaves_nothing_orphaned(
    tmp_path: Path, held: str
) -> None:
    (tmp_path / "clock").write_text("0")
    url = f"sqlite:///{tmp_path / 'kill.sqlite3'}"
    async with DiscordSimulator(interaction_timeout=20) as sim:
        repo = await open_repository(url)
        process = BotProcess(sim, url, 0, tmp_path, shards=1)
        try:
            guild, channel, alice, bob = await a_guild_with_match_threads(sim, process)
            game = Game(sim, repo)
            # Discord holds the thread: a 429 the bot waits out (no thread yet), or the
            # thread made and its answer late (a thread the bot never heard of)
            if held == "429":
                fault = sim.rate_limit(THREAD_ROUTE, retry_after=60.0)
            else:
                fault = sim.slow_answer(THREAD_ROUTE, seconds=60.0)
            offer = await sim.slash(
                alice, "play", game="lefe", opponent=bob, size=5, channel=channel
            )
            await sim.click(bob, offer.last_message, "Accept")
            (match,) = await repo.matches_of_user(alice.id, ("running",), guild.id)

            async def held_up() -> bool:
                if held == "slow":  # made, its answer on its way
                    return bool(sim.threads(channel))
                route = THREAD_ROUTE.split(" ", 1)[1]
                return any(r.route == route and r.status == 429 for r in sim.requests)

            await _until(held_up, "the thread was never asked for")
            assert [m.text for m in channel.public_messages].count(START) == 1
            await process.kill()
            fault.remaining = 0
            await process.start()

            async def drained() -> bool:
                return not await repo.undelivered_matches()

            await _until(drained, "the outbox never drained")
            await asyncio.sleep(1.0)
            record, _ = await game.state(match.id)
            starts = [m for m in channel.public_messages if m.text == START]
            assert len(starts) == 1, [m.text for m in channel.public_messages]
            (thread,) = sim.threads(channel)
            assert thread.id == starts[0].id and record.thread_id == thread.id
            assert channel_versions(channel, match.id) == []
            assert channel_versions(thread, match.id)[-1] == record.version

            # the match plays on in its thread, and its end closes it
            for _ in range(2):
                await game.board_move(match.id, [alice, bob], thread, random.Random(7))
            assert channel_versions(channel, match.id) == []
            await resign(sim, game, match.id, alice, thread)
            await _until(drained, "the result was never delivered")
            await _until(lambda: asyncio.sleep(0, thread.archived), "the thread was never archived")
            results = [m for m in channel.public_messages if f"/{thread.id}" in m.text]
            assert len(results) == 1 and "**bob**" in results[0].text
        except BaseException:
            lines = process.log_text().splitlines()
            print("--- bot ---", *lines[-80:], sep="\n")
            raise
        finally:
            await process.stop()
            await repo.close()
