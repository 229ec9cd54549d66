"""A finished Leiff table's replay as an animated GIF (render.table_replay_gif): one frame
a round, each exactly the table picture of the replay's page for that round (the
channel's view at the round's end), so the GIF shows nothing the pages do not; the last
frame stays longest; German words in German."""

from __future__ import annotations

import io
import random

from PIL import Image, ImageChops

import render
from engine.leiff.actions import OUT_OF_TURN_KINDS
from engine.leiff.state import Leiff, LeiffState
from matchcore.service.leiff_replay import round_ends
from render.leiff.frame import leiff_palette
from render.leiff.replay import LAST_ROUND_MS, ROUND_MS

NAMES = ("Ann", "Bob", "Cleo", "Dirk")


def finished_table(seed: int) -> LeiffState:
    """A whole game of four, mostly each step's default so that it lasts several rounds."""
    rng = random.Random(seed)
    state = Leiff().new(4, seed, {"specials": True, "drinking": True, "target": 100})
    for _ in range(20_000):
        if state.outcome is not None:
            return state
        seat = state.waiting_for()["owners"][0]
        calm = [a for a in state.legal_actions(seat) if a.split()[0] not in OUT_OF_TURN_KINDS]
        action = rng.choice(calm) if calm and rng.random() < 0.3 else state.default_action(seat)
        state = state.play(seat, action)
    raise AssertionError("the game did not end")


def test_each_frame_is_the_page_of_its_round_and_the_last_stays_longest() -> None:
    rounds = round_ends(finished_table(5))
    assert len(rounds) > 2 and all(view["viewer"] is None for view in rounds)
    gif = Image.open(io.BytesIO(render.table_replay_gif(rounds, names=NAMES, language="de")))
    assert gif.format == "GIF" and gif.n_frames == len(rounds)
    pages = [render.render_table(v, names=list(NAMES), language="de") for v in rounds]
    height = max(page.height for page in pages)
    assert gif.size == (480, height)
    palette = leiff_palette("classic", 480)
    durations = []
    for number, page in enumerate(pages):
        gif.seek(number)
        durations.append(gif.info["duration"])
        frame = gif.convert("RGB")
        # the page, in the palette every Leiff picture has; below a shorter one the table
        expected = page.quantize(palette=palette, dither=Image.Dither.NONE).convert("RGB")
        assert (
            ImageChops.difference(frame.crop((0, 0, 480, page.height)), expected).getbbox() is None
        )
        if page.height < height:  # one colour below: the table's
            colours = frame.crop((0, page.height, 480, height)).getcolors()
            assert colours is not None and len(colours) == 1
    assert durations == [ROUND_MS] * (len(pages) - 1) + [LAST_ROUND_MS]


def test_a_table_of_one_round_is_one_frame() -> None:
    final = finished_table(5)
    gif = Image.open(io.BytesIO(render.table_replay_gif([final.view(None)], names=NAMES)))
    assert gif.n_frames == 1
