"""Names of any length and script: fitted with an ellipsis, never overflowing, never crashing."""

from __future__ import annotations

import random

import pytest
from PIL import Image, ImageDraw

from engine import BOARD_GAMES
from render import png_bytes, render_board
from render.board import header_layout
from render.geometry import header_height
from render.text import ELLIPSIS, Font, clean_text, fit_text, font, wrap_text
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


def _wrapped_word_by_word(text: str, used: Font, max_width: float, max_lines: int) -> list[str]:
    """The wrap as it was first written (each word tried in turn, the line measured each
    time): what the faster one must still give."""
    words = clean_text(text).split(" ")
    lines: list[str] = []
    current = ""
    index = 0
    while index < len(words) and len(lines) < max_lines:
        word = words[index]
        candidate = f"{current} {word}" if current else word
        if used.getlength(candidate) <= max_width:
            current = candidate
            index += 1
            continue
        if not current:
            lines.append(fit_text(word, used, max_width))
            index += 1
            continue
        lines.append(current)
        current = ""
    if current and len(lines) < max_lines:
        lines.append(current)
        current = ""
    if lines and (index < len(words) or current):
        leftover = " ".join(word for word in (current, *words[index:]) if word)
        lines[-1] = fit_text(f"{lines[-1]} {leftover}", used, max_width)
    return [line for line in lines if line]


def test_wrap_text_gives_the_lines_of_a_word_by_word_wrap() -> None:
    rng = random.Random(21)
    vocabulary = [
        "a", "to", "move", "Last:", "p3.", "Борис", "(light)", "leads", "39–38:", "stones",
        "W" * 40, "Bärbel", "张伟的名字", "محمد", "Überlänge-Schmidt", "🍺", "—", "…",
    ]  # fmt: skip
    for trial in range(400):
        text = " ".join(rng.choice(vocabulary) for _ in range(rng.randint(0, 30)))
        used = font(rng.choice((11, 14, 17)), rng.choice(("regular", "bold")))
        max_width = rng.choice((20, 60, 150, 300, 464, 900)) + rng.random()
        max_lines = rng.randint(1, 4)
        assert wrap_text(text, used, max_width, max_lines) == _wrapped_word_by_word(
            text, used, max_width, max_lines
        ), (trial, text, max_width, max_lines)


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
