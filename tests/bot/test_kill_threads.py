"""kill -9 while a match plays in its own thread (``match_threads``) loses nothing and doubles
nothing: one bot process (``tests.bot.shard_child``) on SQLite, killed with SIGKILL a random
instant after each answered move and after the /resign that ends the match, and started
again. Once the outbox is drained: every version of the match was posted once, all of
them in its thread (none in the channel), the newest shows the match's stored version;
the channel got the start line and the result line once each; the thread is archived."""

from __future__ import annotations

import asyncio
import random
from collections import Counter
from pathlib import Path
from typing import Any

import pytest

from discord_sim import DiscordSimulator
from matchcore.storage import open_repository
from tests.bot.shard_child import __name__ as _child  # noqa: F401  (the process it runs)
from tests.bot.test_kill_delivery import KILL_WITHIN, channel_versions, resign
from tests.bot.test_shards import BotProcess, Game

pytestmark = pytest.mark.slow

MOVES = 4


async def a_guild_with_match_threads(
    sim: DiscordSimulator, process: BotProcess
) -> tuple[Any, Any, Any, Any]:
    """A guild of Alice and Bob on shard 0 of 1, served by ``process`` (started here), whose
    admin has its matches played in threads (/settings match_threads on): the guild, its
    channel, Alice and Bob."""
    guild = sim.add_guild("Kills", shard=(0, 1), channels=("games",))
    (channel,) = guild.channels
    alice, bob = (sim.add_user(n) for n in ("alice", "bob"))
    for user in (alice, bob):
        guild.add_member(user)
    admin = sim.add_member(guild, "admin", manage_guild=True)
    await process.start()
    changed = await sim.slash(admin, "settings", key="match_threads", value="on", channel=channel)
    assert changed.ephemeral
    return guild, channel, alice, bob


async def test_kills_in_a_thread_match_lose_and_double_nothing(tmp_path: Path) -> None:
    rng = random.Random(35)
    (tmp_path / "clock").write_text("0")
    url = f"sqlite:///{tmp_path / 'kill.sqlite3'}"
    async with DiscordSimulator(interaction_timeout=20) as sim:
        repo = await open_repository(url)  # migrates before the bot starts
        process = BotProcess(sim, url, 0, tmp_path, shards=1)
        try:
            guild, channel, alice, bob = await a_guild_with_match_threads(sim, process)
            game = Game(sim, repo)
            offer = await sim.slash(
                alice, "play", game="lefe", opponent=bob, size=5, channel=channel
            )
            await sim.click(bob, offer.last_message, "Accept")
            (match,) = await repo.matches_of_user(alice.id, ("running",), guild.id)
            deadline = asyncio.get_running_loop().time() + 20
            while not (
                sim.threads(channel) and channel_versions(sim.threads(channel)[0], match.id)
            ):
                assert asyncio.get_running_loop().time() < deadline, "no board in a thread"
                await asyncio.sleep(0.1)
            (thread,) = sim.threads(channel)

            players = [alice, bob]
            for _ in range(MOVES):
                await game.board_move(match.id, players, thread, rng)
                await asyncio.sleep(rng.uniform(0.0, KILL_WITHIN))
                await process.kill()
                await process.start()
            record, _ = await game.state(match.id)
            await resign(sim, game, match.id, players[0], thread)
            await asyncio.sleep(rng.uniform(0.0, KILL_WITHIN))
            await process.kill()
            await process.start()

            deadline = asyncio.get_running_loop().time() + 30
            while await repo.undelivered_matches():
                assert asyncio.get_running_loop().time() < deadline, "the outbox never drained"
                await asyncio.sleep(0.2)
            await asyncio.sleep(1.0)
            await process.stop()

            record, _ = await game.state(match.id)
            assert record.status == "finished" and record.thread_id == thread.id
            shown = channel_versions(thread, match.id)
            assert shown[-1] == record.version, (shown, record.version)
            twice = [v for v, n in Counter(shown).items() if n > 1]
            assert not twice, f"versions posted twice: {twice}"
            assert channel_versions(channel, match.id) == []
            public = [m for m in channel.messages if not m.ephemeral]
            starts = [m for m in public if m.id == thread.id]
            results = [m for m in public if f"/{thread.id}" in m.text]
            assert len(starts) == 1 and len(results) == 1, [m.text for m in public]
            assert thread.archived
        except BaseException:
            lines = process.log_text().splitlines()
            print("--- bot ---", *lines[-80:], sep="\n")
            raise
        finally:
            await process.stop()
            await repo.close()
