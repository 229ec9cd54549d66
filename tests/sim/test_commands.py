"""Connecting, command sync, slash commands, autocomplete and what the simulator refuses."""

from __future__ import annotations

import io
import re

import discord
import discord.gateway
import discord.http
import pytest
from PIL import Image

from discord_sim import (
    CommandInputError,
    DiscordSimulator,
    InteractionNotAllowed,
    InteractionTimeout,
    NoBotConnected,
    World,
)

from .toy_bot import Recorder, make_toy_bot


async def test_bot_connects_fast_and_sees_the_world(
    discord_sim: DiscordSimulator, sim_world: World, recorder: Recorder
) -> None:
    handle = await discord_sim.start_bot(lambda: make_toy_bot(recorder, members_intent=True))
    client = handle.client
    assert handle.ready_seconds is not None and handle.ready_seconds < 1.0
    assert recorder.ready_count == 1
    assert client.user is not None and client.user.id == discord_sim.bot_user.id
    assert client.application_id == discord_sim.bot_user.id
    guild = client.get_guild(sim_world.guild.id)
    assert guild is not None and guild.name == "Leaf Club"
    assert {c.name for c in guild.text_channels} == {"games", "general"}
    assert guild.get_member(sim_world.alice.id) is not None
    assert guild.chunked


async def test_commands_are_synced_with_their_schema(
    discord_sim: DiscordSimulator, sim_world: World, recorder: Recorder
) -> None:
    await discord_sim.start_bot(lambda: make_toy_bot(recorder))
    commands = {c["name"]: c for c in discord_sim.commands(sim_world.guild)}
    assert {"play", "move", "settings", "hand", "game"} <= set(commands)
    play_options = {o["name"]: o for o in commands["play"]["options"]}
    assert [c["value"] for c in play_options["game"]["choices"]] == ["lefe", "dalen"]
    assert play_options["opponent"]["type"] == 6
    assert commands["settings"]["default_member_permissions"] == str(1 << 5)
    assert all(
        int(c["id"]) > 0 and c["application_id"] == str(discord_sim.bot_user.id)
        for c in commands.values()
    )


async def test_slash_command_with_member_option_file_and_buttons(
    discord_sim: DiscordSimulator, sim_world: World, recorder: Recorder
) -> None:
    await discord_sim.start_bot(lambda: make_toy_bot(recorder))
    result = await discord_sim.slash(
        sim_world.alice, "play", game="lefe", opponent=sim_world.bob, size=6
    )

    seen = recorder.last("play")
    assert seen == {
        "game": "lefe",
        "opponent_id": sim_world.bob.id,
        "opponent_is_member": True,
        "size": 6,
        "manage_guild": False,
        "app_attach_files": True,
        "channel_id": sim_world.channel.id,
    }
    assert result.response_type == 4 and not result.ephemeral
    message = result.message
    assert message is not None and message in sim_world.channel.public_messages
    assert (
        message.content == f"{sim_world.alice.mention} challenges {sim_world.bob.mention} to Lefe"
    )
    assert message.allowed_mentions is not None
    assert message.allowed_mentions["parse"] == []
    assert message.allowed_mentions["users"] == [sim_world.bob.id]
    assert message.pinged_user_ids == {sim_world.bob.id}  # alice is mentioned, not pinged
    assert [(b.label, b.custom_id, b.disabled) for b in message.buttons] == [
        ("Accept", "challenge:accept", False),
        ("Decline", "challenge:decline", False),
    ]
    [attachment] = message.attachments
    assert attachment.filename == "board.png" and attachment.content_type == "image/png"
    image = Image.open(io.BytesIO(attachment.data))
    assert image.size == (64, 48) and image.getpixel((5, 5)) == (20, 120, 40)
    assert message.id > sim_world.guild.id  # snowflakes grow with time
    assert 0 < result.time_to_first_response <= result.time_to_last_reply < 2.0


async def test_admin_permission_reaches_the_bot(
    discord_sim: DiscordSimulator, sim_world: World, recorder: Recorder
) -> None:
    await discord_sim.start_bot(lambda: make_toy_bot(recorder))
    await discord_sim.slash(sim_world.admin, "play", game="dalen", opponent=sim_world.carol)
    assert recorder.last("play")["manage_guild"] is True
    assert recorder.last("play")["size"] is None


@pytest.mark.parametrize(
    ("command", "options", "complaint"),
    [
        ("nosuch", {}, "no slash command /nosuch"),
        ("play", {"game": "lefe"}, "missing required option(s) ['opponent']"),
        ("play", {"game": "chess", "opponent": None}, "must be one of"),
        ("play", {"game": "lefe", "opponent": "bob"}, "takes a user"),
        ("play", {"game": "lefe", "opponent": None, "size": 8}, "must be one of"),
        ("play", {"game": "lefe", "opponent": None, "colour": "red"}, "no option(s) ['colour']"),
        ("move", {"cell": "a1", "confirm": "yes"}, "takes a boolean"),
        ("game", {}, "needs a subcommand"),
        ("game rules show", {"page": 4}, "must be ≤ 3"),
        ("game stop", {}, "no subcommand 'stop'"),
    ],
)
async def test_simulator_refuses_what_discord_would_not_send(
    discord_sim: DiscordSimulator,
    sim_world: World,
    recorder: Recorder,
    command: str,
    options: dict[str, object],
    complaint: str,
) -> None:
    await discord_sim.start_bot(lambda: make_toy_bot(recorder))
    filled = {k: (sim_world.bob if v is None else v) for k, v in options.items()}
    with pytest.raises(CommandInputError, match=re.escape(complaint)):
        await discord_sim.slash(sim_world.alice, command, **filled)
    assert discord_sim.interactions == []


async def test_subcommand_groups_dispatch_to_the_right_callback(
    discord_sim: DiscordSimulator, sim_world: World, recorder: Recorder
) -> None:
    await discord_sim.start_bot(lambda: make_toy_bot(recorder))
    started = await discord_sim.slash(sim_world.alice, "game start", rated=False)
    shown = await discord_sim.slash(sim_world.alice, "game rules show", page=2)
    assert recorder.last("game start") == {"rated": False}
    assert recorder.last("game rules show") == {"page": 2}
    assert started.message.content == "Started (rated=False)"
    assert shown.ephemeral and shown.message.visible_to is sim_world.alice


async def test_permission_gated_command_is_hidden_from_ordinary_members(
    discord_sim: DiscordSimulator, sim_world: World, recorder: Recorder
) -> None:
    await discord_sim.start_bot(lambda: make_toy_bot(recorder))
    with pytest.raises(InteractionNotAllowed, match="lacks the permissions"):
        await discord_sim.slash(sim_world.alice, "settings")
    opened = await discord_sim.slash(sim_world.admin, "settings")
    assert opened.response_type == 9 and opened.modal is not None


async def test_guild_only_commands_are_not_offered_in_dms(
    discord_sim: DiscordSimulator, sim_world: World, recorder: Recorder
) -> None:
    await discord_sim.start_bot(lambda: make_toy_bot(recorder))
    dm = discord_sim.dm_channel(sim_world.alice)
    with pytest.raises(InteractionNotAllowed, match="cannot be used in DMs"):
        await discord_sim.slash(
            sim_world.alice, "play", channel=dm, game="lefe", opponent=sim_world.bob
        )
    result = await discord_sim.slash(sim_world.alice, "move", channel=dm, cell="a1")
    assert result.message.channel is dm and recorder.last("move") == {
        "cell": "a1",
        "confirm": False,
    }
    with pytest.raises(InteractionNotAllowed, match="not a member"):
        await discord_sim.slash(sim_world.outsider, "move", cell="a1")


async def test_guild_synced_commands_resolve_through_data_guild_id(
    discord_sim: DiscordSimulator, sim_world: World, recorder: Recorder
) -> None:
    await discord_sim.start_bot(lambda: make_toy_bot(recorder, guild_sync=sim_world.guild.id))
    assert discord_sim.commands() == []
    result = await discord_sim.slash(sim_world.bob, "move", cell="e2")
    assert result.message.content == "Played e2"


async def test_autocomplete_returns_the_bots_choices(
    discord_sim: DiscordSimulator, sim_world: World, recorder: Recorder
) -> None:
    await discord_sim.start_bot(lambda: make_toy_bot(recorder))
    choices = await discord_sim.autocomplete(sim_world.alice, "move", option="cell", value="e")
    assert [c["value"] for c in choices] == ["e1", "e2", "e3"]
    assert recorder.last("move-autocomplete") == {"current": "e"}
    with pytest.raises(CommandInputError, match="has no autocomplete"):
        await discord_sim.autocomplete(sim_world.alice, "move", option="confirm", value="t")


async def test_deferred_command_with_edits_and_followup(
    discord_sim: DiscordSimulator, sim_world: World, recorder: Recorder
) -> None:
    await discord_sim.start_bot(lambda: make_toy_bot(recorder))
    result = await discord_sim.slash(sim_world.alice, "slow")
    assert result.deferred and result.response_type == 5
    assert [kind for kind, _ in result.events] == ["callback", "edit", "followup", "edit"]
    original = result.message
    assert original.content == "Step 1, revised"
    assert [r.content for r in original.history] == ["Step 1"]
    assert [m.content for m in result.followups] == ["Step 2"]
    assert [m.content for m in result.messages] == ["Step 1, revised", "Step 2"]
    assert result.time_to_last_reply >= result.time_to_first_response


async def test_unanswered_interaction_fails_clearly(
    discord_sim: DiscordSimulator, sim_world: World, recorder: Recorder
) -> None:
    await discord_sim.start_bot(lambda: make_toy_bot(recorder))
    with pytest.raises(
        InteractionTimeout, match=r"/mute by alice in games: the bot did not respond"
    ):
        await discord_sim.slash(sim_world.alice, "mute")
    quiet = await discord_sim.slash(sim_world.alice, "mute", expect_response=False)
    assert not quiet.responded and recorder.last("mute") == {}


async def test_bot_exceptions_are_reported(
    discord_sim: DiscordSimulator, sim_world: World, recorder: Recorder
) -> None:
    await discord_sim.start_bot(lambda: make_toy_bot(recorder))
    with pytest.raises(InteractionTimeout, match="toy bot crashed on purpose"):
        await discord_sim.slash(sim_world.alice, "crash")
    with pytest.raises(AssertionError, match="logged 1 error"):
        discord_sim.assert_no_bot_errors()


async def test_late_first_response_is_refused_with_10062(
    sim_world: World, recorder: Recorder, discord_sim: DiscordSimulator
) -> None:
    discord_sim.server.response_deadline = 0.05
    await discord_sim.start_bot(lambda: make_toy_bot(recorder))
    result = await discord_sim.slash(sim_world.alice, "late", delay=0.1, expect_response=False)
    assert result.late_response and not result.responded
    assert recorder.last("late-refused") == {"code": 10062}


async def test_no_bot_means_no_interaction(discord_sim: DiscordSimulator, sim_world: World) -> None:
    with pytest.raises(CommandInputError):
        await discord_sim.slash(sim_world.alice, "play")
    discord_sim.state.global_commands = [{"name": "ping", "type": 1, "id": "1", "options": []}]
    with pytest.raises(NoBotConnected):
        await discord_sim.slash(sim_world.alice, "ping")


async def test_closing_restores_discord_endpoints(recorder: Recorder) -> None:
    real_base = discord.http.Route.BASE
    real_gateway = discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY
    async with DiscordSimulator() as sim:
        sim.populate()
        assert discord.http.Route.BASE.startswith("http://127.0.0.1:")
        handle = await sim.start_bot(lambda: make_toy_bot(recorder))
    assert handle.client.is_closed() and not handle.running
    assert real_base == discord.http.Route.BASE
    assert real_gateway == discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY
