"""Threads in the simulator, driven by the real discord.py client: started from a message and
without one, messages and files in them, archive and lock, members, the permissions that gate
each step, Discord's limits and rate limits, the gateway events, and a restart."""

from __future__ import annotations

import asyncio
import io
from typing import Any

import aiohttp
import discord
import pytest
from discord.ext import commands

from discord_sim import DiscordSimulator, World
from discord_sim.models import (
    CREATE_PUBLIC_THREADS,
    MANAGE_THREADS,
    SEND_MESSAGES_IN_THREADS,
)
from discord_sim.state import BOT_PERMISSIONS
from discord_sim.thread_model import HAS_THREAD_FLAG, PUBLIC_THREAD, THREAD_CREATED_MESSAGE

from .toy_bot import board_png


class Seen:
    def __init__(self) -> None:
        self.events: list[tuple[str, Any]] = []

    def names(self) -> list[str]:
        return [name for name, _ in self.events]


def make_bot(seen: Seen) -> commands.Bot:
    bot = commands.Bot(command_prefix="!", intents=discord.Intents.default())

    @bot.event
    async def on_thread_create(thread: discord.Thread) -> None:
        seen.events.append(("create", thread.id))

    @bot.event
    async def on_thread_update(before: discord.Thread, after: discord.Thread) -> None:
        seen.events.append(("update", (after.id, after.archived, after.name)))

    @bot.event
    async def on_thread_member_join(member: discord.ThreadMember) -> None:
        seen.events.append(("member", member.id))

    @bot.tree.command(description="Say where you are")
    async def where(interaction: discord.Interaction) -> None:
        channel = interaction.channel
        kind = "thread" if isinstance(channel, discord.Thread) else "channel"
        await interaction.response.send_message(f"{kind} {channel.id if channel else 0}")

    async def setup_hook() -> None:
        await bot.tree.sync()

    bot.setup_hook = setup_hook  # type: ignore[method-assign]
    return bot


async def eventually(check: Any, timeout: float = 2.0) -> None:
    """Wait until the client has handled what the simulator announced."""
    for _ in range(int(timeout / 0.01)):
        if check():
            return
        await asyncio.sleep(0.01)
    assert check()


async def _text_channel(bot: commands.Bot, world: World) -> discord.TextChannel:
    channel = bot.get_channel(world.channel.id)
    assert isinstance(channel, discord.TextChannel)
    return channel


async def test_a_thread_from_a_message_holds_messages_files_and_edits(
    discord_sim: DiscordSimulator, sim_world: World
) -> None:
    sim, w, seen = discord_sim, sim_world, Seen()
    bot = (await sim.start_bot(lambda: make_bot(seen))).client
    channel = await _text_channel(bot, w)
    start = await channel.send("alice vs bob: the match starts")
    before = len(sim.requests)
    thread = await start.create_thread(name="Lefe · alice vs bob", auto_archive_duration=1440)
    assert thread.id == start.id  # a thread started from a message has the message's id
    board = await thread.send("board", file=discord.File(io.BytesIO(board_png()), "board.png"))
    await board.edit(content="board, move 2")
    await eventually(lambda: ("create", thread.id) in seen.events)

    [sim_thread] = sim.threads(w.channel)
    assert sim_thread.type == PUBLIC_THREAD and sim_thread.parent is w.channel
    assert sim_thread.name == "Lefe · alice vs bob"
    assert [m.content for m in sim_thread.messages] == ["board, move 2"]
    assert sim_thread.messages[0].attachments[0].filename == "board.png"
    assert [m.content for m in w.channel.messages] == ["alice vs bob: the match starts"]
    stored_start = w.channel.messages[0]
    assert stored_start.thread is sim_thread
    assert stored_start.to_payload(sim.base_url)["flags"] & HAS_THREAD_FLAG
    assert sim.state.bot_user.id in sim_thread.thread.members  # the creator joins
    assert ("create", thread.id) in seen.events
    cached = bot.get_channel(thread.id)
    assert isinstance(cached, discord.Thread) and cached.me is not None
    assert sim.request_counts(before) == {"thread": 1, "channel message": 1, "edit": 1}
    sim.assert_no_bot_errors()


async def test_a_thread_without_a_message_leaves_a_system_message_in_the_channel(
    discord_sim: DiscordSimulator, sim_world: World
) -> None:
    sim, w, seen = discord_sim, sim_world, Seen()
    bot = (await sim.start_bot(lambda: make_bot(seen))).client
    channel = await _text_channel(bot, w)
    thread = await channel.create_thread(
        name="Leiff table 7", type=discord.ChannelType.public_thread
    )
    await thread.send("deal")
    notice = w.channel.messages[-1]
    assert notice.type == THREAD_CREATED_MESSAGE and notice.content == "Leiff table 7"
    assert notice.message_reference is not None
    assert notice.message_reference["channel_id"] == str(thread.id)
    assert [m.content for m in sim.threads()[0].messages] == ["deal"]
    # discord.py makes a private thread unless told otherwise: not simulated, and said so
    with pytest.raises(discord.NotFound):
        await channel.create_thread(name="private")
    assert sim.unhandled_requests[-1].route == "/channels/{channel_id}/threads"
    sim.assert_no_bot_errors()


async def test_discord_refuses_bad_names_durations_and_a_second_thread(
    discord_sim: DiscordSimulator, sim_world: World
) -> None:
    sim, w, seen = discord_sim, sim_world, Seen()
    bot = (await sim.start_bot(lambda: make_bot(seen))).client
    channel = await _text_channel(bot, w)
    message = await channel.send("start")
    with pytest.raises(discord.HTTPException) as too_long:
        await message.create_thread(name="x" * 101)
    assert too_long.value.code == 50035
    with pytest.raises(discord.HTTPException) as blank:
        await message.create_thread(name="   ")
    assert blank.value.code == 50035
    with pytest.raises(discord.HTTPException) as duration:
        await message.create_thread(name="ok", auto_archive_duration=30)  # type: ignore[arg-type]
    assert duration.value.code == 50035
    violations = sim.take_spec_violations()
    assert {v.where for v in violations} == {"simulator", "body"}
    thread = await message.create_thread(name="x" * 100)
    assert len(thread.name) == 100
    with pytest.raises(discord.HTTPException) as again:
        await message.create_thread(name="second")
    assert again.value.code == 160004
    with pytest.raises(discord.HTTPException) as nested:
        first = await thread.send("in the thread")
        await first.create_thread(name="a thread in a thread")
    assert nested.value.code == 50024


async def test_an_archived_thread_refuses_messages_and_edits_until_unarchived(
    discord_sim: DiscordSimulator, sim_world: World
) -> None:
    sim, w, seen = discord_sim, sim_world, Seen()
    bot = (await sim.start_bot(lambda: make_bot(seen))).client
    channel = await _text_channel(bot, w)
    thread = await (await channel.send("start")).create_thread(name="match")
    board = await thread.send("board")
    archived = await thread.edit(archived=True)  # the owner may archive its thread
    assert archived.archived
    await sim.gateway.settle()
    assert sim.threads()[0].archived
    await eventually(lambda: ("update", (thread.id, True, "match")) in seen.events)
    assert bot.get_channel(thread.id) is None  # discord.py drops archived threads
    for attempt in (thread.send("late"), board.edit(content="late"), board.delete()):
        with pytest.raises(discord.HTTPException) as refused:
            await attempt
        assert refused.value.code == 50083
    with pytest.raises(discord.HTTPException) as renamed:
        await thread.edit(name="other")
    assert renamed.value.code == 50083
    await thread.edit(archived=False)
    await thread.send("back")
    assert [m.content for m in sim.threads()[0].messages] == ["board", "back"]
    sim.assert_no_bot_errors()


async def test_permissions_gate_threads_as_on_discord(
    discord_sim: DiscordSimulator, sim_world: World
) -> None:
    sim, w, seen = discord_sim, sim_world, Seen()
    bot = (await sim.start_bot(lambda: make_bot(seen))).client
    channel = await _text_channel(bot, w)
    me = channel.guild.me
    assert channel.permissions_for(me).create_public_threads
    thread = await (await channel.send("start")).create_thread(name="match")
    with pytest.raises(discord.Forbidden) as lock:
        await thread.edit(locked=True)  # locking needs Manage Threads
    assert lock.value.code == 50013

    sim.set_bot_permissions(w.guild, BOT_PERMISSIONS & ~CREATE_PUBLIC_THREADS)
    await eventually(lambda: not channel.permissions_for(me).create_public_threads)
    reply = await sim.slash(w.alice, "where")
    assert not discord.Permissions(int(reply.payload["app_permissions"])).create_public_threads
    with pytest.raises(discord.Forbidden):
        await (await channel.send("again")).create_thread(name="no")

    sim.set_bot_permissions(w.guild, BOT_PERMISSIONS & ~SEND_MESSAGES_IN_THREADS)
    with pytest.raises(discord.Forbidden):
        await thread.send("no")

    sim.set_bot_permissions(w.guild, BOT_PERMISSIONS | MANAGE_THREADS)
    await thread.edit(locked=True, archived=True)
    await thread.edit(archived=False, locked=False)
    assert not sim.threads()[0].locked
    sim.assert_no_bot_errors()


async def test_members_join_and_commands_run_inside_a_thread(
    discord_sim: DiscordSimulator, sim_world: World
) -> None:
    sim, w, seen = discord_sim, sim_world, Seen()
    bot = (await sim.start_bot(lambda: make_bot(seen))).client
    channel = await _text_channel(bot, w)
    thread = await (await channel.send("start")).create_thread(name="match")
    await thread.add_user(discord.Object(w.alice.id))
    sim_thread = sim.threads()[0]
    assert w.alice.id in sim_thread.thread.members
    with pytest.raises(discord.NotFound):
        await thread.add_user(discord.Object(w.outsider.id))
    answer = await sim.slash(w.bob, "where", channel=sim_thread)
    assert answer.text == f"thread {thread.id}"
    assert answer.message.channel is sim_thread
    sim.assert_no_bot_errors()


async def test_active_threads_come_back_after_a_restart_archived_ones_do_not(
    discord_sim: DiscordSimulator, sim_world: World
) -> None:
    sim, w, seen = discord_sim, sim_world, Seen()
    bot = (await sim.start_bot(lambda: make_bot(seen))).client
    channel = await _text_channel(bot, w)
    open_thread = await (await channel.send("one")).create_thread(name="open")
    closed = await (await channel.send("two")).create_thread(name="closed")
    await closed.edit(archived=True)
    bot = (await sim.restart_bot(lambda: make_bot(seen))).client
    assert isinstance(bot.get_channel(open_thread.id), discord.Thread)
    assert bot.get_channel(closed.id) is None
    fetched = await bot.fetch_channel(closed.id)
    assert isinstance(fetched, discord.Thread) and fetched.archived
    await fetched.edit(archived=False)
    await fetched.send("reopened")
    sim.assert_no_bot_errors()


async def test_renaming_is_limited_to_two_per_ten_minutes(
    discord_sim: DiscordSimulator, sim_world: World
) -> None:
    sim, w, seen = discord_sim, sim_world, Seen()
    bot = (await sim.start_bot(lambda: make_bot(seen))).client
    channel = await _text_channel(bot, w)
    thread = await (await channel.send("start")).create_thread(name="match")
    await thread.edit(name="match 1")
    await thread.edit(name="match 2")
    headers = {"Authorization": f"Bot {sim.token}", "Content-Type": "application/json"}
    async with (
        aiohttp.ClientSession() as session,
        session.patch(
            f"{sim.base_url}/api/v10/channels/{thread.id}", json={"name": "3"}, headers=headers
        ) as response,
    ):
        body = await response.json()
        assert response.status == 429
        assert body["retry_after"] > 590 and response.headers["X-RateLimit-Scope"] == "user"
    await thread.edit(archived=True)  # other changes are not held by the names' bucket
    assert sim.threads()[0].name == "match 2"
