"""render.lines.curved_line draws the pixels ImageDraw.line(..., joint="curve") draws."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st
from PIL import Image, ImageDraw

from render.lines import core_draw, curved_line


@settings(max_examples=80)
@given(seed=st.integers(0, 2**32 - 1), width=st.sampled_from((1, 4, 5, 8, 9, 12, 17)))
def test_curved_line_draws_what_imagedraw_draws(seed: int, width: int) -> None:
    rng = random.Random(seed)
    for _ in range(10):
        points = [(rng.uniform(0, 120), rng.uniform(0, 120)) for _ in range(rng.randrange(2, 14))]
        if rng.random() < 0.3:  # straight runs, whole and half pixels, as on a board
            points = [(float(rng.randrange(0, 120)), rng.randrange(0, 60) / 2) for _ in points]
        if rng.random() < 0.5:
            points.append(points[0])  # closed, as a loop's outline is
        expected = Image.new("L", (130, 130))
        ImageDraw.Draw(expected).line(points, fill=255, width=width, joint="curve")
        drawn = Image.new("L", (130, 130))
        curved_line(core_draw(drawn), points, 255, width)
        assert drawn.tobytes() == expected.tobytes(), (points, width)


def test_curved_line_on_an_rgb_picture_draws_what_imagedraw_draws() -> None:
    """Board pictures draw the outlines straight onto the RGB picture, in a colour."""
    rng = random.Random(7)
    for width in (5, 9, 14):
        points = [(rng.uniform(0, 120), rng.uniform(0, 120)) for _ in range(9)]
        points.append(points[0])
        expected = Image.new("RGB", (130, 130), (20, 40, 60))
        ImageDraw.Draw(expected).line(points, fill=(200, 120, 30), width=width, joint="curve")
        drawn = Image.new("RGB", (130, 130), (20, 40, 60))
        draw = ImageDraw.Draw(drawn)
        curved_line(draw.draw, points, draw.draw.draw_ink((200, 120, 30)), width)
        assert drawn.tobytes() == expected.tobytes(), width
