"""Names of any length and script: fitted with an ellipsis, never overflowing, never crashing."""

from __future__ import annotations

import pytest
from PIL import Image, ImageDraw

from engine import BOARD_GAMES
from render import png_bytes, render_board
from render.board import header_layout
from render.geometry import header_height
from render.text import ELLIPSIS, clean_text, fit_text, font, wrap_text
from render.themes import get_theme
from tests.render.helpers import decode, played_game

NASTY_NAMES = [
    "",
    "A",
    "W" * 300,
    "🐉🔥 Drachenfeuer 🔥🐉" * 5,
    "张伟的非常长的名字" * 8,
    "محمد عبد الله الطويل جدا",
    "Ẓ̷̢̛a̸͎͑l̵̰̈́g̶̣͝o̴̥͊" * 6,
    "line\nbreak\tand\x00nul",
    "\u202eevil bidi override\u202c",
    "👨‍👩‍👧‍👦 family",
    "\U0010fffd private use",
]


@pytest.mark.parametrize("name", NASTY_NAMES)
def test_fit_text_never_exceeds_the_width(name: str) -> None:
    used = font(17, "bold")
    for width in (0, 5, 40, 200):
        fitted = fit_text(name, used, width)
        assert used.getlength(fitted) <= width or fitted == ""
        assert "\n" not in fitted and "\u202e" not in fitted


def test_long_text_is_cut_with_an_ellipsis_and_short_text_kept() -> None:
    used = font(14)
    assert fit_text("Ann", used, 200) == "Ann"
    cut = fit_text("Bartholomew " * 10, used, 120)
    assert cut.endswith(ELLIPSIS) and len(cut) < 60
    assert clean_text("  two\n lines\t ") == "two lines"


def test_wrap_text_keeps_to_its_line_count_and_marks_the_cut() -> None:
    used = font(14)
    lines = wrap_text("word " * 80, used, 150, max_lines=2)
    assert len(lines) == 2
    assert lines[-1].endswith(ELLIPSIS)
    assert all(used.getlength(line) <= 150 for line in lines)
    assert wrap_text("short", used, 150, max_lines=2) == ["short"]


@pytest.mark.parametrize("game_name", BOARD_GAMES)
@pytest.mark.parametrize("width", [240, 480, 1000])
def test_header_text_boxes_stay_inside_the_header(game_name: str, width: int) -> None:
    state = played_game(game_name, 5, seed=3, moves=200)  # played to the end: a long reason
    theme = get_theme("classic")
    probe = ImageDraw.Draw(Image.new("RGB", (1, 1)))
    for first, second in zip(NASTY_NAMES, reversed(NASTY_NAMES), strict=True):
        for item in header_layout(state, (first, second), theme, width).texts:
            if not item.text:
                continue
            left, top, right, bottom = probe.textbbox(
                item.xy, item.text, font=item.font, anchor=item.anchor
            )
            assert left >= 0 and right <= width, (item.text, left, right)
            assert top >= 0 and bottom <= header_height(width), (item.text, top, bottom)


@pytest.mark.parametrize("name", NASTY_NAMES)
def test_any_name_renders_a_picture(name: str) -> None:
    state = played_game("lefe", 5, seed=1, moves=3)
    image = decode(png_bytes(render_board(state, names=(name, name[::-1]))))
    assert image.width == 480
