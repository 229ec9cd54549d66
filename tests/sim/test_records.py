"""What the simulator records: deletions, request logs, injected errors, clean teardown."""

from __future__ import annotations

import asyncio
import threading

import discord
import pytest

from discord_sim import DiscordSimulator, NoBotConnected, World

from .toy_bot import Recorder, make_toy_bot


async def test_deleted_response_is_kept_but_hidden(
    discord_sim: DiscordSimulator, sim_world: World, recorder: Recorder
) -> None:
    await discord_sim.start_bot(lambda: make_toy_bot(recorder))
    result = await discord_sim.slash(sim_world.alice, "vanish")
    assert [kind for kind, _ in result.events] == ["callback", "delete"]
    assert result.message.deleted and result.message.content == "now you see me"
    assert sim_world.channel.messages == [] and sim_world.channel.all_messages == [result.message]
    assert not result.message.is_visible_to(sim_world.alice)


async def test_injected_error_reaches_the_client(
    discord_sim: DiscordSimulator, sim_world: World, recorder: Recorder
) -> None:
    bot = await discord_sim.start_bot(lambda: make_toy_bot(recorder))
    discord_sim.fail_requests(
        "POST /channels/{channel_id}/messages",
        status=403,
        code=50013,
        message="Missing Permissions",
    )
    channel = bot.client.get_channel(sim_world.channel.id)
    with pytest.raises(discord.Forbidden) as refused:
        await channel.send("hello")
    assert refused.value.code == 50013
    sent = await channel.send("hello again")
    assert sim_world.channel.last_message.id == sent.id


async def test_unimplemented_calls_are_listed(
    discord_sim: DiscordSimulator, sim_world: World, recorder: Recorder
) -> None:
    bot = await discord_sim.start_bot(lambda: make_toy_bot(recorder))
    channel = bot.client.get_channel(sim_world.channel.id)
    message = await channel.send("react to me")
    with pytest.raises(discord.NotFound):
        await message.add_reaction("👍")
    [unhandled] = discord_sim.unhandled_requests
    assert unhandled.method == "PUT" and "/reactions/" in unhandled.path
    fetched = await channel.fetch_message(message.id)
    assert fetched.content == "react to me"


async def test_stopped_bot_receives_nothing(
    discord_sim: DiscordSimulator, sim_world: World, recorder: Recorder
) -> None:
    handle = await discord_sim.start_bot(lambda: make_toy_bot(recorder))
    await handle.stop()
    assert discord_sim.bot is None and discord_sim.gateway.live_sessions == []
    with pytest.raises(NoBotConnected):
        await discord_sim.slash(sim_world.alice, "move", cell="a1")


async def test_teardown_leaves_no_tasks_or_threads(recorder: Recorder) -> None:
    threads_before = set(threading.enumerate())
    async with DiscordSimulator() as sim:
        world = sim.populate()
        await sim.start_bot(lambda: make_toy_bot(recorder))
        await sim.slash(world.alice, "play", game="lefe", opponent=world.bob)
        await sim.restart_bot(lambda: make_toy_bot(recorder))
    await asyncio.sleep(0)
    assert asyncio.all_tasks() == {asyncio.current_task()}
    for thread in set(threading.enumerate()) - threads_before:
        thread.join(timeout=1)
        assert not thread.is_alive(), thread


async def test_expired_interaction_token_refuses_followups(recorder: Recorder) -> None:
    async with DiscordSimulator(token_lifetime=0.01) as sim:
        world = sim.populate()
        await sim.start_bot(lambda: make_toy_bot(recorder))
        result = await sim.slash(world.alice, "slow")
        assert result.events == [("callback", 5)]
        assert result.message.flags & (1 << 7)  # still "thinking"
        [record] = sim.bot_errors
        error = record.exc_info[1]
        # discord.py wraps command errors; the cause is the refused edit.
        cause = error.__cause__ or getattr(error, "original", None)
        assert isinstance(cause, discord.HTTPException) and cause.code == 50027
