"""Components v2 as strictly as Discord: what the simulator refuses, with Discord's error
shape (400, code 50035, the ``errors`` tree naming the field), and what it keeps.

Requests go through the real discord.py client's HTTP layer, as the bot's do.
"""

from __future__ import annotations

import io
from typing import Any

import discord
import pytest
from discord.http import Route

from discord_sim import DiscordSimulator, World
from discord_sim.rendering import render_html

from .toy_bot import Recorder, make_toy_bot

V2 = 1 << 15


def text(words: str) -> dict[str, Any]:
    return {"type": 10, "content": words}


def button(custom_id: str, label: str = "Go") -> dict[str, Any]:
    return {"type": 2, "style": 1, "label": label, "custom_id": custom_id}


def row(*items: dict[str, Any]) -> dict[str, Any]:
    return {"type": 1, "components": list(items)}


async def post(sim: DiscordSimulator, world: World, body: dict[str, Any]) -> Any:
    client = sim.handles[0].client
    route = Route("POST", "/channels/{channel_id}/messages", channel_id=world.channel.id)
    return await client.http.request(route, json=body)


async def refused(sim: DiscordSimulator, world: World, body: dict[str, Any]) -> str:
    """discord.py's text of the refusal: Discord's message, then a line per field of the
    ``errors`` tree ("In components.0.accessory: ...")."""
    with pytest.raises(discord.HTTPException) as caught:
        await post(sim, world, body)
    error = caught.value
    assert error.status == 400 and error.code == 50035, (error.status, error.code)
    return error.text


BAD = {
    "content with the flag": (
        {"flags": V2, "content": "hi", "components": [text("x")]},
        ("content",),
    ),
    "embeds with the flag": (
        {"flags": V2, "embeds": [{"title": "t"}], "components": [text("x")]},
        ("embeds",),
    ),
    "41 components": (
        {"flags": V2, "components": [text(str(n)) for n in range(41)]},
        ("components",),
    ),
    "a section without accessory": (
        {"flags": V2, "components": [{"type": 9, "components": [text("x")]}]},
        ("components", "0", "accessory"),
    ),
    "a section of four texts": (
        {
            "flags": V2,
            "components": [{"type": 9, "components": [text("a")] * 4, "accessory": button("s")}],
        },
        ("components", "0", "components"),
    ),
    "a container in a container": (
        {
            "flags": V2,
            "components": [{"type": 17, "components": [{"type": 17, "components": [text("a")]}]}],
        },
        ("components", "0", "components", "0", "type"),
    ),
    "a button at the top": (
        {"flags": V2, "components": [button("b")]},
        ("components", "0", "type"),
    ),
    "a thumbnail at the top": (
        {"flags": V2, "components": [{"type": 11, "media": {"url": "https://x/y.png"}}]},
        ("components", "0", "type"),
    ),
    "a gallery of eleven": (
        {
            "flags": V2,
            "components": [{"type": 12, "items": [{"media": {"url": "https://x/y.png"}}] * 11}],
        },
        ("components", "0", "items"),
    ),
    "an empty gallery": (
        {"flags": V2, "components": [{"type": 12, "items": []}]},
        ("components", "0", "items"),
    ),
    "a picture that is not uploaded": (
        {
            "flags": V2,
            "components": [{"type": 12, "items": [{"media": {"url": "attachment://no.png"}}]}],
        },
        ("components", "0", "items", "0", "media", "url"),
    ),
    "an accent beyond white": (
        {
            "flags": V2,
            "components": [{"type": 17, "accent_color": 1 << 24, "components": [text("a")]}],
        },
        ("components", "0", "accent_color"),
    ),
    "a text display without words": (
        {"flags": V2, "components": [text("")]},
        ("components", "0", "content"),
    ),
    "text displays over 4000 characters": (
        {"flags": V2, "components": [text("x" * 2001), text("y" * 2000)]},
        ("components",),
    ),
    "a row with a select and a button": (
        {
            "flags": V2,
            "components": [
                row(
                    {"type": 3, "custom_id": "m", "options": [{"label": "a", "value": "a"}]},
                    button("b"),
                )
            ],
        },
        ("components", "0", "components"),
    ),
    "a row of six buttons": (
        {"flags": V2, "components": [row(*(button(f"b{n}") for n in range(6)))]},
        ("components", "0", "components"),
    ),
    "a text display without the flag": (
        {"content": "hi", "components": [text("x")]},
        ("components", "0", "type"),
    ),
    "no components with the flag": (
        {"flags": V2, "components": []},
        ("components",),
    ),
}


@pytest.mark.parametrize("case", list(BAD))
async def test_components_v2_breaking_discords_rules_are_refused(
    case: str, discord_sim: DiscordSimulator, sim_world: World, recorder: Recorder
) -> None:
    await discord_sim.start_bot(lambda: make_toy_bot(recorder))
    body, where = BAD[case]
    before = len(sim_world.channel.messages)
    errors = await refused(discord_sim, sim_world, body)
    assert f"In {'.'.join(where)}: " in errors, errors
    assert len(sim_world.channel.messages) == before  # nothing was posted
    assert discord_sim.take_spec_violations(), "the refusal is recorded as a broken rule"


async def test_a_v2_message_is_kept_as_its_tree_and_stays_v2(
    discord_sim: DiscordSimulator, sim_world: World, recorder: Recorder
) -> None:
    handle = await discord_sim.start_bot(lambda: make_toy_bot(recorder))
    picture = io.BytesIO()
    from PIL import Image

    Image.new("RGB", (40, 30), (200, 30, 30)).save(picture, "PNG")
    layout = [
        {
            "type": 17,
            "accent_color": 0x1B1B1B,
            "components": [
                text(f"**Title** for <@{sim_world.bob.id}>"),
                {"type": 12, "items": [{"media": {"url": "attachment://p.png"}}]},
                {
                    "type": 9,
                    "components": [text("slot 1")],
                    "accessory": button("slot1", "Put here"),
                },
                {"type": 14, "divider": True, "spacing": 2},
                row(button("a"), button("b")),
            ],
        }
    ]
    channel = handle.client.get_partial_messageable(sim_world.channel.id)

    class Layout:
        __discord_ui_view__ = True
        timeout = None

        def to_components(self) -> list[dict[str, Any]]:
            return layout

        def has_components_v2(self) -> bool:
            return True

        def is_finished(self) -> bool:
            return True

        def is_dispatchable(self) -> bool:
            return False

    picture.seek(0)
    sent = await channel.send(
        view=Layout(),  # type: ignore[arg-type]
        file=discord.File(picture, "p.png"),
        allowed_mentions=discord.AllowedMentions(users=[discord.Object(sim_world.bob.id)]),
    )
    assert sent.flags.components_v2
    message = discord_sim.state.messages[sent.id]
    assert message.is_v2 and message.content in (None, "")
    assert message.accent_color == 0x1B1B1B and message.component_count == 10
    assert message.texts == [f"**Title** for <@{sim_world.bob.id}>", "slot 1"]
    assert message.pinged_user_ids == {sim_world.bob.id}
    assert [a.filename for a in message.gallery_pictures] == ["p.png"]
    assert {b.custom_id for b in message.buttons} == {"slot1", "a", "b"}
    page = render_html(message, width=360, names={sim_world.bob.id: "bob"})
    assert "@bob" in page and "#1b1b1b" in page and "data:image/png;base64," in page

    # an edit cannot take the flag away, nor bring content back
    with pytest.raises(discord.HTTPException) as caught:
        await sent.edit(content="plain again", view=None)
    assert caught.value.code == 50035
    assert discord_sim.state.messages[sent.id].is_v2
    assert discord_sim.take_spec_violations()
