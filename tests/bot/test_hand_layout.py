"""A Leiff hand in Components v2, through the simulator in English and German.

Each player's hand (their DM, or the private answer of **Show my hand**) is one box: its
words, the hand picture in a media gallery, a line per slot saying what the player knows
of the card there with the slot's action as a button beside it (a section), the other
controls below; within Discord's 40 components. The buttons beside the slots play, also
after a restart; the picture decodes and is the player's own view; nothing of a hand
reaches the channel (the table driver audits every message for cards their audience may
not know).
"""

from __future__ import annotations

import io
import re

from PIL import Image

import render
from bot.common.pictures import HAND_WIDTH
from i18n import translate
from tests.bot.leiff_driver import LeiffTable
from tests.bot.test_leiff import open_table


def slot_of(custom_id: str) -> int | None:
    action = custom_id.split("|", 4)[-1]
    found = re.fullmatch(r"(?:swap|match|look|peek|give|slot discard|belle show) (\d+)", action)
    return int(found.group(1)) if found else None


def assert_hand_layout(hand, view, seat: int, language: str) -> None:
    assert hand.is_v2 and not hand.content and not hand.embeds
    assert hand.component_count <= 40
    (box,) = hand.components
    assert box["type"] == 17
    kinds = [c["type"] for c in box["components"]]
    assert kinds[:2] == [10, 12], kinds  # the words, then the picture
    # the picture in the gallery: the player's own view, decoded
    (picture,) = hand.gallery_pictures
    assert picture.filename == "hand.png"
    Image.open(io.BytesIO(picture.data)).load()
    # each slot: what the player knows of it, in their language
    texts = "\n".join(hand.texts)
    for number, label in enumerate(view["hands"][seat], start=1):
        if label is None:
            line = translate(language, "bot.leiff.slot_unknown", slot=number)
        else:
            line = translate(language, "bot.leiff.slot_known", slot=number, card=f"[{label}]")
        assert line in texts, (line, texts)
    # a section per slot with an action, its button that slot's
    for section in hand.sections:
        (words,) = section["components"]
        number = slot_of(section["accessory"]["custom_id"])
        assert number is not None and words["content"].startswith(
            translate(language, "bot.leiff.slot_known", slot=number, card="").split("·")[0]
        )


async def test_a_hand_is_a_box_with_each_slot_beside_its_action(sim, world, language, bot):
    players = [world.alice, world.bob]
    match_id, _ = await open_table(sim, world, players, language)
    table = LeiffTable(
        sim,
        bot,
        match_id,
        players,
        world.channel,
        channel_language=language,
        languages={user.id: language for user in players},
    )
    state = await table.state()
    for seat, user in enumerate(players):
        assert_hand_layout(await table.hand_message(user), state.view(seat), seat, language)

    # the player to move draws: each slot then offers to put the card there, beside it
    mover = state.waiting_for()["owners"][0]
    await table.act(players[mover], "draw")
    state = await table.state()
    hand = await table.hand_message(players[mover])
    assert_hand_layout(hand, state.view(mover), mover, language)
    beside = {slot_of(s["accessory"]["custom_id"]): s["accessory"] for s in hand.sections}
    assert set(beside) == set(range(1, len(state.view(mover)["hands"][mover]) + 1))
    assert {b["label"] for b in beside.values()} == {translate(language, "bot.leiff.beside.swap")}
    # the picture is exactly the player's view
    names = await table.names()
    expected = render.png_bytes(
        render.render_hand(
            state.view(mover), mover, names=names, width=HAND_WIDTH, language=language
        )
    )
    assert hand.gallery_pictures[0].data == expected

    # clicking the button beside slot 2 puts the card there
    await sim.click(players[mover], hand, beside[2]["custom_id"])
    after = await table.state()
    assert after.version > state.version
    assert after.view(mover)["hands"][mover][1] is not None  # they know the card they put
    await table.audit()
    sim.assert_no_bot_errors()


async def test_the_buttons_beside_the_slots_work_after_a_restart(sim, world, bot, make_bot):
    players = [world.alice, world.bob]
    match_id, _ = await open_table(sim, world, players)
    table = LeiffTable(sim, bot, match_id, players, world.channel)
    state = await table.state()
    mover = state.waiting_for()["owners"][0]
    await table.act(players[mover], "draw")
    hand = await table.hand_message(players[mover])
    beside = {slot_of(s["accessory"]["custom_id"]): s["accessory"] for s in hand.sections}
    before = (await table.state()).version

    restarted = await sim.restart_bot(make_bot)
    table.handle = restarted
    await sim.click(players[mover], hand, beside[1]["custom_id"])
    assert (await table.state()).version > before
    assert (await table.hand_message(players[mover])).is_v2
    await table.audit()
    sim.assert_no_bot_errors()
