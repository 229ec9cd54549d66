"""The speed work keeps every picture pixel for pixel, or within a shade (issue 21).

A recorded sample (``golden_pictures.json``, see :mod:`tests.render.picture_cases`) holds
digests of the pixels the renderer and the PNG encoder produced before the speed work:
boards of every game, size range, theme and width from empty to finished, and Leiff tables
and hands for two to six seats. Drawing them again must give the same pixels, and so must
their PNG files once decoded (re-recorded when pictures changed on purpose). Pictures
with a palette of their own are held to its nearest colours, within a few shades.
"""

from __future__ import annotations

import io
import json
import random
from pathlib import Path

from PIL import Image, ImageChops, ImageDraw

from engine import BOARD_GAMES, get_game
from engine.leiff import random_action
from render import list_themes, png_bytes, render_board, render_hand, render_table
from render.board import board_background, board_palette
from render.encode import PALETTE_INFO
from render.leiff import draw_card, leiff_palette, paste_card
from render.text import draw_text, font
from render.themes import get_theme
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


def test_png_files_without_a_palette_of_their_own_decode_to_the_previous_encoder_s_pixels() -> None:
    """Random boards of every game, size and theme, their own palette dropped (as marks
    drawn over them do): the file (libdeflate, written here) decodes to exactly the pixels
    of the file the previous encoder wrote."""
    rng = random.Random(21)
    for number in range(12):
        game_name = BOARD_GAMES[number % len(BOARD_GAMES)]
        size = rng.choice(get_game(game_name).sizes)
        state = random_position(game_name, size, rng)
        theme = rng.choice(list_themes())
        image = render_board(state, names=("Ann", "Bob"), theme=theme, width=rng.choice((360, 480)))
        image.info.pop(PALETTE_INFO)
        new, old = png_bytes(image), _previous_png(image)
        assert decode(new).tobytes() == decode(old).tobytes(), (game_name, size, theme)
        assert png_bytes(image) == new  # deterministic


def _pictures(rng: random.Random) -> list[Image.Image]:
    pictures = []
    for number in range(12):
        game_name = BOARD_GAMES[number % len(BOARD_GAMES)]
        size = rng.choice(get_game(game_name).sizes)
        state = random_position(game_name, size, rng)
        theme = rng.choice(list_themes())
        width = rng.choice((360, 480))
        pictures.append(render_board(state, names=("Ann", "Bob"), theme=theme, width=width))
    leiff = get_game("leiff").new(players=5, seed=4, options={"specials": True, "drinking": True})
    for _ in range(30):
        if not leiff.actors():
            break
        seat, action = random_action(leiff, rng)
        leiff = leiff.play(seat, action)
    for theme in list_themes():
        pictures.append(
            render_table(leiff.view(None), names=["A", "B", "C", "D", "E"], theme=theme)
        )
        pictures.append(render_hand(leiff.view(1), 1, names=["A", "B", "C", "D", "E"], theme=theme))
    return pictures


def test_png_files_keep_every_pixel_within_a_shade_of_the_picture() -> None:
    """A board or Leiff picture carries its own palette: the file holds each pixel's
    nearest colour of it, deterministically, whatever was drawn before in the process (the
    palette comes from a fixed sample), and no pixel moves by more than a few shades."""
    pictures = _pictures(random.Random(5))
    files = [png_bytes(image) for image in pictures]
    for image, data in zip(pictures, files, strict=True):
        palette = image.info[PALETTE_INFO]
        nearest = image.quantize(palette=palette, dither=Image.Dither.NONE).convert("RGB")
        decoded = decode(data)
        assert decoded.tobytes() == nearest.tobytes()
        histogram = ImageChops.difference(image, decoded).convert("L").histogram()
        worst = max(value for value, count in enumerate(histogram) if count)
        mean = sum(value * count for value, count in enumerate(histogram)) / sum(histogram)
        assert worst <= 24 and mean <= 2.5, (worst, mean)
    # the palettes made afresh (as in a new process) give the very same files
    board_palette.cache_clear()
    board_background.cache_clear()
    leiff_palette.cache_clear()
    again = [png_bytes(image) for image in _pictures(random.Random(5))]
    assert again == files


def test_a_card_pasted_from_the_cache_is_the_card_drawn_in_place() -> None:
    theme = get_theme("night")
    labels = [None, "-1", "7", "13", "slot", "philosopher", "magician", "belle"]
    for width in (35, 46, 72):
        height = round(width * 1.4)
        for paper in (theme.card("table"), theme.card("empty_slot")):
            for label in labels:
                drawn = Image.new("RGB", (120, 140), paper)
                draw_card(drawn, (7, 9, 7 + width, 9 + height), label, theme, "de")
                pasted = Image.new("RGB", (120, 140), paper)
                paste_card(pasted, (7, 9, 7 + width, 9 + height), label, theme, "de", paper)
                assert pasted.tobytes() == drawn.tobytes(), (label, width)
