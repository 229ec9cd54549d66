"""A finished Leiff table's replay gives its rounds as an animated GIF and its record as
text, like a board game's replay, through the simulator (a real discord.py client), in
both languages: the GIF's frames are the replay's pages (the channel's views at each
round's end, never a player's own), the record each round's open hands and points as the
pages show them."""

from __future__ import annotations

import io

import pytest
from PIL import Image, ImageChops

import render
from bot.features.history.table_record import table_record
from engine.leiff.cards import display_name
from i18n import translate
from tests.bot.test_history import button
from tests.bot.test_leiff import enable_expansions, open_table
from tests.bot.test_leiff_again import _play_to_the_end


@pytest.mark.compressed_rate_limits
async def test_a_table_replay_gives_its_rounds_as_a_gif_and_its_record(sim, world, language, bot):
    await enable_expansions(sim, world, language)
    players = [world.alice, world.bob, world.carol]
    match_id, _ = await open_table(sim, world, players, language)
    service = bot.client.service
    await _play_to_the_end(service, match_id, players, seed=4)
    replay = await service.table_replay(match_id)
    names = ("alice", "bob", "carol")
    assert len(replay.rounds) > 1 and all(v["viewer"] is None for v in replay.rounds)

    page = (await sim.slash(world.carol, "history", member=world.alice)).last_message
    option = next(v for v in page.selects[0].values if v == f"~replay:{match_id}")
    shown = (await sim.select(world.carol, page, page.selects[0].custom_id, option)).last_message
    labels = [b.label for b in shown.buttons]
    assert translate(language, "bot.replay.gif") in labels
    assert translate(language, "bot.replay.export") in labels

    answer = (await sim.click(world.carol, shown, button(shown, "~gif"))).last_message
    assert answer.ephemeral and answer.attachments[0].filename == f"match-{match_id}.gif"
    gif = Image.open(io.BytesIO(answer.attachments[0].data))
    assert gif.format == "GIF" and gif.n_frames == len(replay.rounds)
    # every frame is a page of the replay: the same round's table, drawn the same
    expected = render.table_replay_gif(replay.rounds, names=names, language=language)
    again = Image.open(io.BytesIO(expected))
    for number in range(gif.n_frames):
        gif.seek(number)
        again.seek(number)
        assert ImageChops.difference(gif.convert("RGB"), again.convert("RGB")).getbbox() is None

    exported = (await sim.click(world.carol, shown, button(shown, "~export"))).last_message
    assert exported.attachments[0].filename == f"match-{match_id}.txt"
    text = exported.attachments[0].data.decode("utf-8")
    assert text == table_record(replay, names)
    assert f'[Match "{match_id}"]' in text and '[Players "alice, bob, carol"]' in text
    body = text.split("\n\n", 1)[1].splitlines()
    assert len(body) == len(replay.rounds)
    for line, view in zip(body, replay.rounds, strict=True):
        assert line.startswith(f"{view['round']}. alice: ")
        for seat, hand in enumerate(view["hands"]):
            cards = " ".join(display_name(label) for label in hand)
            assert f"{names[seat]}: {cards} = {view['round_scores'][seat]:+d}" in line
    sim.assert_no_bot_errors()
