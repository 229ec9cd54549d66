"""Themes through the simulator: the server's theme (``/settings theme``) colours the
pictures in its channels, a member's own (``/prefs theme``) the pictures only they see.

The pictures are decoded and their header's background sampled (the top-left corner,
where no text is drawn) against each theme's.
"""

from __future__ import annotations

import io

from PIL import Image

from render.themes import get_theme
from tests.bot.helpers import close, decode_png, resign, start_board_match
from tests.bot.test_leiff import open_table


def background(image: Image.Image) -> tuple[int, ...]:
    return tuple(image.convert("RGB").getpixel((2, 2)))  # type: ignore[arg-type]


def theme_of(image: Image.Image) -> str:
    """The theme whose header background the picture shows."""
    found = [
        name
        for name in ("classic", "night", "paper")
        if close(background(image), get_theme(name).header_background, 6)
    ]
    assert len(found) == 1, (background(image), found)
    return found[0]


def hand_picture(sim, user) -> Image.Image:
    message = [m for m in sim.dms(user) if m.attachments][-1]
    return decode_png(message)


async def test_the_server_theme_colours_its_channels_and_members_choose_their_own(
    sim, world, bot, clock
):
    _, board = await start_board_match(sim, world.alice, world.bob, "lefe", 5)
    assert theme_of(decode_png(board)) == "classic"

    changed = await sim.slash(world.admin, "settings", key="theme", value="night")
    assert changed.ephemeral and "Colours of the pictures in channels: **night**" in changed.text
    chosen = await sim.slash(world.alice, "prefs", theme="paper")
    assert chosen.ephemeral and "paper" in chosen.text
    world.bob.locale = "de"
    german = await sim.slash(world.bob, "prefs")
    assert "**Deine Vorlieben**" in german.text and "die des Servers" in german.text

    # The channel's board is everybody's: the server's theme, whatever Alice chose.
    moved = await sim.slash(world.alice, "move", cell="c3")
    assert theme_of(decode_png(moved.last_message)) == "night"

    # Pictures only one member sees: their own theme, else the server's.
    alice_page = await sim.slash(world.alice, "rules", game="dalen")
    assert theme_of(decode_png(alice_page.last_message)) == "paper"
    bob_page = await sim.slash(world.bob, "rules", game="dalen")
    assert theme_of(decode_png(bob_page.last_message)) == "night"
    await sim.click(world.alice, alice_page.last_message, "Next")
    assert theme_of(decode_png(sim.state.messages[alice_page.last_message.id])) == "paper"

    # Leiff: the table in the channel in the server's theme, each hand in its owner's.
    clock.advance(60)
    await resign(sim, world.alice)
    table_id, _ = await open_table(sim, world, [world.alice, world.carol])
    assert theme_of(hand_picture(sim, world.alice)) == "paper"
    assert theme_of(hand_picture(sim, world.carol)) == "night"
    table = next(
        m
        for m in reversed(world.channel.messages)
        if not m.ephemeral and m.attachments and f"#{table_id}" in m.text
    )
    assert theme_of(decode_png(table)) == "night"

    # A member may choose the server's theme too.
    await sim.slash(world.alice, "prefs", theme="night")
    again = await sim.slash(world.alice, "rules", game="les")
    assert theme_of(decode_png(again.last_message)) == "night"
    sim.assert_no_bot_errors()


async def test_a_replay_is_drawn_in_the_member_s_theme(sim, world, bot, clock):
    match_id, _ = await start_board_match(sim, world.alice, world.bob, "dalen", 5)
    await sim.slash(world.alice, "move", cell="e5")
    await sim.slash(world.bob, "move", cell="a1")
    await resign(sim, world.bob)
    await sim.slash(world.carol, "prefs", theme="night")
    replay = await sim.slash(world.carol, "replay", match=match_id)
    # the replay opens as a page at its last position, drawn in carol's theme
    page = Image.open(io.BytesIO(replay.last_message.attachments[0].data))
    assert page.format == "PNG" and theme_of(page) == "night"
    plain = await sim.slash(world.bob, "replay", match=match_id)
    assert theme_of(Image.open(io.BytesIO(plain.last_message.attachments[0].data))) == "classic"
    sim.assert_no_bot_errors()
