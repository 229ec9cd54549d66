"""The speed work keeps every picture pixel for pixel (issue 21).

A recorded sample (``golden_pictures.json``, see :mod:`tests.render.picture_cases`) holds
digests of the pixels the renderer and the PNG encoder produced before the speed work:
boards of every game, size range, theme and width from empty to finished, and Leiff tables
and hands for two to six seats. Drawing them again must give the same pixels, and so must
their PNG files once decoded.
"""

from __future__ import annotations

import io
import json
import random
from pathlib import Path

from PIL import Image, ImageDraw

from engine import BOARD_GAMES, get_game
from render import list_themes, png_bytes, render_board
from render.text import draw_text, font
from tests.render.helpers import decode, random_position
from tests.render.picture_cases import digests

GOLDEN = Path(__file__).with_name("golden_pictures.json")


def test_the_recorded_sample_keeps_its_pixels_drawn_and_decoded() -> None:
    recorded = json.loads(GOLDEN.read_text(encoding="utf-8"))
    current = digests()
    assert sorted(current) == sorted(recorded)
    changed = [name for name in recorded if current[name] != recorded[name]]
    assert changed == []


def test_remembered_text_paints_what_pillow_paints_on_any_background() -> None:
    """Text is laid out once and its glyph bitmaps replayed: on a different background,
    at fractional positions, with every anchor, the pixels equal a fresh draw.text()."""
    samples = [("Anna (black) to move.", "ls"), ("Борис 🐉", "rs"), ("?", "mm"), ("f13", "la")]
    for weight in ("regular", "bold"):
        used = font(17, weight)
        for background in ((250, 244, 230), (20, 30, 60)):
            for text, anchor in samples:
                xy = (13.4, 21.7)
                expected = Image.new("RGB", (160, 40), background)
                ImageDraw.Draw(expected).text(
                    xy, text, font=used, fill=(200, 10, 90), anchor=anchor
                )
                for _ in range(2):  # laid out afresh, then replayed from memory
                    painted = Image.new("RGB", (160, 40), background)
                    draw_text(ImageDraw.Draw(painted), xy, text, used, (200, 10, 90), anchor)
                    assert painted.tobytes() == expected.tobytes(), (text, anchor)


def _previous_png(image: Image.Image) -> bytes:
    """The encoder before issue 21, frozen: Pillow's quantiser and PNG writer at level 6."""
    indexed = image.convert("RGB").quantize(
        colors=256, method=Image.Quantize.FASTOCTREE, dither=Image.Dither.NONE
    )
    buffer = io.BytesIO()
    indexed.save(buffer, format="PNG", compress_level=6, optimize=False)
    return buffer.getvalue()


def test_png_files_decode_to_the_pixels_of_the_previous_encoder() -> None:
    """Random boards of every game, size and theme: the new file (libdeflate, written
    here) decodes to exactly the pixels of the file the previous encoder wrote."""
    rng = random.Random(21)
    for number in range(24):
        game_name = BOARD_GAMES[number % len(BOARD_GAMES)]
        size = rng.choice(get_game(game_name).sizes)
        state = random_position(game_name, size, rng)
        theme = rng.choice(list_themes())
        image = render_board(state, names=("Ann", "Bob"), theme=theme, width=rng.choice((360, 480)))
        new, old = png_bytes(image), _previous_png(image)
        assert decode(new).tobytes() == decode(old).tobytes(), (game_name, size, theme)
        assert png_bytes(image) == new  # deterministic
