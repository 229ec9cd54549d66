"""Sharding in the simulator, as Discord does it: each shard gets its own guilds and their
events, DMs and DM interactions go to shard 0 only, and a restarted shard takes over."""

from __future__ import annotations

import asyncio
from typing import Any

import discord
from discord import app_commands

from discord_sim import DiscordSimulator
from discord_sim.gateway import shard_of


class ShardBot(discord.AutoShardedClient):
    """Runs some shards of a sharded bot; one command says which process answered."""

    def __init__(self, name: str, shard_ids: list[int], shard_count: int) -> None:
        super().__init__(
            intents=discord.Intents.default(), shard_count=shard_count, shard_ids=shard_ids
        )
        self.name = name
        self.tree = app_commands.CommandTree(self)
        self.seen: list[tuple[str, Any]] = []

        @self.tree.command(name="where", description="Which process answers")
        async def where(interaction: discord.Interaction) -> None:
            guild = interaction.guild_id
            shard = None if guild is None else shard_of(guild, shard_count)
            await interaction.response.send_message(f"{self.name} shard {shard}")

    async def setup_hook(self) -> None:
        await self.tree.sync()

    async def on_guild_channel_create(self, channel: Any) -> None:
        self.seen.append(("channel", channel.id))

    async def on_message(self, message: discord.Message) -> None:
        if message.guild is None:
            self.seen.append(("dm", message.id))


async def until(condition: Any, timeout: float = 2.0) -> None:
    """Wait for events already sent to reach the clients' handlers."""
    deadline = asyncio.get_running_loop().time() + timeout
    while not condition():
        assert asyncio.get_running_loop().time() < deadline, "the events did not arrive"
        await asyncio.sleep(0.01)


async def start_two_shards(sim: DiscordSimulator) -> tuple[ShardBot, ShardBot]:
    first = (await sim.start_bot(lambda: ShardBot("one", [0], 2))).client
    second = (await sim.start_bot(lambda: ShardBot("two", [1], 2))).client
    return first, second  # type: ignore[return-value]


async def test_each_shard_receives_only_the_guilds_of_its_shard() -> None:
    async with DiscordSimulator() as sim:
        guilds = [sim.add_guild(f"g{i}", shard=(i % 2, 2)) for i in range(4)]
        assert [shard_of(g.id, 2) for g in guilds] == [0, 1, 0, 1]
        first, second = await start_two_shards(sim)
        assert {g.id for g in first.guilds} == {guilds[0].id, guilds[2].id}
        assert {g.id for g in second.guilds} == {guilds[1].id, guilds[3].id}
        identified = sorted(s.shard for s in sim.gateway.live_sessions)
        assert identified == [[0, 2], [1, 2]]


async def test_guild_events_go_to_the_guild_shard_and_dm_events_to_shard_zero() -> None:
    async with DiscordSimulator() as sim:
        on_one = sim.add_guild("one", shard=(1, 2))
        alice = sim.add_user("alice")
        on_one.add_member(alice)
        first, second = await start_two_shards(sim)
        channel = on_one.add_text_channel("new")
        message = await sim.send_user_message(alice, sim.dm_channel(alice), "hello")
        await until(lambda: second.seen and first.seen)
        assert second.seen == [("channel", channel.id)]
        assert first.seen == [("dm", message.id)]


async def test_interactions_go_to_the_guild_shard_and_dms_to_shard_zero() -> None:
    async with DiscordSimulator() as sim:
        zero = sim.add_guild("zero", shard=(0, 2))
        one = sim.add_guild("one", shard=(1, 2))
        alice = sim.add_user("alice")
        zero.add_member(alice)
        one.add_member(alice)
        await start_two_shards(sim)
        in_one = await sim.slash(alice, "where", channel=one.channels[0])
        in_zero = await sim.slash(alice, "where", channel=zero.channels[0])
        in_dm = await sim.slash(alice, "where", channel=sim.dm_channel(alice))
        assert in_one.message.content == "two shard 1"
        assert in_zero.message.content == "one shard 0"
        assert in_dm.message.content == "one shard None"


async def test_a_restarted_shard_takes_over_its_guilds() -> None:
    async with DiscordSimulator() as sim:
        one = sim.add_guild("one", shard=(1, 2))
        alice = sim.add_user("alice")
        one.add_member(alice)
        first, second = await start_two_shards(sim)
        handle = next(h for h in sim.handles if h.client is second)
        await handle.stop()
        assert sim.gateway.session_for(one.id) is None  # nobody serves shard 1 now
        replacement = (await sim.start_bot(lambda: ShardBot("three", [1], 2))).client
        assert [g.id for g in replacement.guilds] == [one.id]
        answered = await sim.slash(alice, "where", channel=one.channels[0])
        assert answered.message.content == "three shard 1"
        assert first.is_ready()
