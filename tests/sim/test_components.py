"""Buttons, selects, modals, ephemeral messages, DMs and plain channel messages."""

from __future__ import annotations

import io

import discord
import pytest
from PIL import Image

from discord_sim import DiscordSimulator, InteractionNotAllowed, World

from .toy_bot import Recorder, make_toy_bot


async def test_click_updates_the_message_and_keeps_its_history(
    discord_sim: DiscordSimulator, sim_world: World, recorder: Recorder
) -> None:
    await discord_sim.start_bot(lambda: make_toy_bot(recorder))
    challenge = await discord_sim.slash(
        sim_world.alice, "play", game="lefe", opponent=sim_world.bob
    )
    clicked = await discord_sim.click(sim_world.bob, challenge.message, "Accept")

    assert recorder.last("accept") == {
        "user_id": sim_world.bob.id,
        "message_id": challenge.message.id,
    }
    assert clicked.response_type == 7 and clicked.message is challenge.message
    message = challenge.message
    assert message.content == f"Accepted by {sim_world.bob.mention}"
    assert message.button("challenge:accept").disabled and not message.button("Decline").disabled
    assert message.embeds[0]["title"] == "Match 1"
    assert message.embed_text == "Match 1\nLefe, 6 per side\nTo move\nbob\nmove 0"
    assert message.edited and message.history[0].content.endswith("to Lefe")
    assert message.history[0].embeds == []
    assert message.attachments[0].filename == "board.png"  # kept through the edit
    with pytest.raises(InteractionNotAllowed, match="is disabled"):
        await discord_sim.click(sim_world.bob, message, "Accept")
    with pytest.raises(InteractionNotAllowed, match="no button 'Rematch'"):
        await discord_sim.click(sim_world.bob, message, "Rematch")


async def test_ephemeral_replies_are_seen_only_by_their_user(
    discord_sim: DiscordSimulator, sim_world: World, recorder: Recorder
) -> None:
    await discord_sim.start_bot(lambda: make_toy_bot(recorder))
    challenge = await discord_sim.slash(
        sim_world.alice, "play", game="lefe", opponent=sim_world.bob
    )
    declined = await discord_sim.click(sim_world.carol, challenge.message, "Decline")

    reply = declined.message
    assert declined.ephemeral and reply.ephemeral and reply.visible_to is sim_world.carol
    assert reply.message_reference == {
        "message_id": str(challenge.message.id),
        "channel_id": str(sim_world.channel.id),
        "type": 0,
    }
    assert reply in discord_sim.visible_messages(sim_world.carol)
    assert reply not in discord_sim.visible_messages(sim_world.alice)
    assert reply not in sim_world.channel.public_messages
    assert reply in sim_world.channel.messages


async def test_select_menu_on_an_ephemeral_message(
    discord_sim: DiscordSimulator, sim_world: World, recorder: Recorder
) -> None:
    await discord_sim.start_bot(lambda: make_toy_bot(recorder))
    menu = await discord_sim.slash(sim_world.alice, "pick")
    select = menu.message.select("capture")
    assert select.values == ["t1", "t2", "t3"] and (select.min_values, select.max_values) == (1, 2)

    with pytest.raises(InteractionNotAllowed, match="cannot see"):
        await discord_sim.select(sim_world.bob, menu.message, "capture", ["t1"])
    with pytest.raises(InteractionNotAllowed, match="no option"):
        await discord_sim.select(sim_world.alice, menu.message, "capture", ["t9"])
    with pytest.raises(InteractionNotAllowed, match=r"takes 1\.\.2 values"):
        await discord_sim.select(sim_world.alice, menu.message, "capture", ["t1", "t2", "t3"])

    picked = await discord_sim.select(sim_world.alice, menu.message, "capture", ["t1", "t3"])
    assert recorder.last("capture") == {"values": ["t1", "t3"]}
    assert picked.response_type == 7
    assert menu.message.content == "Captured t1, t3" and menu.message.select().disabled


async def test_modal_submit_reaches_the_bot(
    discord_sim: DiscordSimulator, sim_world: World, recorder: Recorder
) -> None:
    await discord_sim.start_bot(lambda: make_toy_bot(recorder))
    opened = await discord_sim.slash(sim_world.admin, "settings")
    modal = opened.modal
    assert modal is not None and modal.title == "Server settings"
    assert [f["label"] for f in modal.fields] == ["Prefix", "Note"]

    with pytest.raises(InteractionNotAllowed, match="'Prefix' is required"):
        await discord_sim.submit_modal(sim_world.admin, opened, {"Note": "hi"})
    with pytest.raises(InteractionNotAllowed, match="≤ 3 characters"):
        await discord_sim.submit_modal(sim_world.admin, opened, {"prefix": "toolong"})
    with pytest.raises(InteractionNotAllowed, match="shown to admin"):
        await discord_sim.submit_modal(sim_world.alice, opened, {"Prefix": "?"})

    saved = await discord_sim.submit_modal(
        sim_world.admin, opened, {"Prefix": "?", "note": "be nice"}
    )
    assert recorder.last("settings") == {"prefix": "?", "note": "be nice"}
    assert saved.ephemeral and saved.message.content == "Saved prefix ?"


async def test_dm_with_a_picture_and_a_refused_dm(
    discord_sim: DiscordSimulator, sim_world: World, recorder: Recorder
) -> None:
    await discord_sim.start_bot(lambda: make_toy_bot(recorder))
    sent = await discord_sim.slash(sim_world.alice, "hand")
    assert sent.response_type == 5 and sent.ephemeral
    assert (
        sent.message.content == "Sent to your DMs." and sent.message.visible_to is sim_world.alice
    )
    assert sent.messages == [sent.message] == sent.followups and not sent.message.edited
    [dm] = discord_sim.dms(sim_world.alice)
    assert dm.channel.is_dm and dm.content == "Your hand"
    assert Image.open(io.BytesIO(dm.attachments[0].data)).getpixel((0, 0)) == (200, 0, 0)
    assert dm.is_visible_to(sim_world.alice) and not dm.is_visible_to(sim_world.bob)

    discord_sim.close_dms(sim_world.bob)
    refused = await discord_sim.slash(sim_world.bob, "hand")
    assert recorder.last("hand-refused") == {"code": 50007}
    assert refused.message.content == "I cannot DM you: your DMs are closed."
    assert discord_sim.dms(sim_world.bob) == []
    assert any(
        r.status == 403 and r.route == "/channels/{channel_id}/messages"
        for r in discord_sim.requests
    )


async def test_buttons_work_on_dm_messages(
    discord_sim: DiscordSimulator, sim_world: World, recorder: Recorder
) -> None:
    await discord_sim.start_bot(lambda: make_toy_bot(recorder))
    dm = discord_sim.dm_channel(sim_world.alice)
    posted = await discord_sim.slash(sim_world.alice, "poke", channel=dm)
    assert posted.message.channel is dm
    with pytest.raises(InteractionNotAllowed, match="cannot see"):
        await discord_sim.click(sim_world.bob, posted.message, "Poke")
    poked = await discord_sim.click(sim_world.alice, posted.message, "Poke")
    assert recorder.last("poke") == {"user_id": sim_world.alice.id}
    assert poked.message.content == "Poked." and poked.message.channel is dm


async def test_channel_sends_and_replies(
    discord_sim: DiscordSimulator, sim_world: World, recorder: Recorder
) -> None:
    await discord_sim.start_bot(lambda: make_toy_bot(recorder))
    await discord_sim.slash(
        sim_world.alice, "announce", text="@everyone hello", channel=sim_world.other_channel
    )
    first_id = recorder.last("announce")["message_id"]
    first, reply = sim_world.other_channel.public_messages
    assert first.id == first_id and first.content == "@everyone hello"
    assert first.allowed_mentions == {"parse": []} and not first.pings_everyone
    assert reply.content == "and a reply" and reply.type == 19
    assert reply.message_reference["message_id"] == str(first.id)
    found = await discord_sim.wait_for_message(
        lambda m: m.content == "and a reply", channel=sim_world.other_channel
    )
    assert found is reply


async def test_discord_limits_are_enforced(
    discord_sim: DiscordSimulator, sim_world: World, recorder: Recorder
) -> None:
    bot = await discord_sim.start_bot(lambda: make_toy_bot(recorder))
    channel = bot.client.get_channel(sim_world.channel.id)
    with pytest.raises(discord.HTTPException) as too_long:
        await channel.send("x" * 2001)
    assert too_long.value.code == 50035 and "2000" in str(too_long.value)
    with pytest.raises(discord.HTTPException) as empty:
        await channel.send(embeds=[])
    assert empty.value.code == 50006
    assert sim_world.channel.messages == []
    [violation] = discord_sim.take_spec_violations()
    assert violation.operation == "create_message" and violation.json_path == "$.content"


async def test_uploads_above_the_attachment_size_limit_are_refused(recorder: Recorder) -> None:
    async with DiscordSimulator(attachment_size_limit=1000) as sim:
        world = sim.populate()
        bot = await sim.start_bot(lambda: make_toy_bot(recorder))
        channel = bot.client.get_channel(world.channel.id)
        with pytest.raises(discord.HTTPException) as refused:
            await channel.send(file=discord.File(io.BytesIO(bytes(1001)), "big.bin"))
        assert refused.value.status == 413 and refused.value.code == 40005
        sent = await channel.send(file=discord.File(io.BytesIO(bytes(1000)), "fits.bin"))
        assert sent.attachments[0].size == 1000
        assert world.channel.last_message.attachments[0].data == bytes(1000)
