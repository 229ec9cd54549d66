"""Board pictures stay readable on a phone, where a picture shows about 360 pixels wide.

Every game at every size and in every theme is drawn as the bot sends it (480 pixels), scaled
to 360 pixels wide the way a phone shows it, and measured:

- the coordinates on the rim: every row number is found in its place and its digits are at
  least ``MIN_GLYPH`` pixels tall (the old pictures had no numbers on the rim and letters
  about 5 pixels high);
- the names in the cells, where a cell carries one: at least as tall as the rim's digits
  (the old Dalen 9 names were about 6 pixels high);
- the last move's mark: compared with the same picture without it (what a neighbouring
  stone of the same colour looks like), it covers a band at least ``MIN_MARK`` pixels thick
  round the stone and changes those pixels strongly (the old ring was 2.2–3.9 pixels).
"""

from __future__ import annotations

import dataclasses
import math
import random
from functools import cache

import pytest
from PIL import Image, ImageChops

from engine import BOARD_GAMES, get_game
from engine.board import BoardState, LastTurn
from render import list_themes, render_board
from render.geometry import BoardGeometry, board_geometry
from render.text import font, text_width
from render.themes import RGB, get_theme

PHONE = 360
BOT_WIDTH = 480
MIN_GLYPH = 7.5  # pixels of a digit's height at 360
MIN_MARK = 4.5  # pixels of the last move's band at 360
MIN_MARK_CHANGE = 60  # mean luminance change over the mark's pixels

ALL_SIZES = [(name, size) for name in BOARD_GAMES for size in get_game(name).sizes]


def _luminance(rgb: tuple[int, ...]) -> float:
    return 0.2126 * rgb[0] + 0.7152 * rgb[1] + 0.0722 * rgb[2]


@cache
def _position(game: str, size: int) -> BoardState:
    """A seeded random game played to 40 % of the board: labels, stones and a last move."""
    rng = random.Random(f"{game}:{size}")
    state = get_game(game).new(size=size)
    cells = 3 * size * (size - 1) + 1
    while state.outcome is None and state.ply < 0.4 * cells:
        state = state.play(rng.choice(sorted(state.legal_moves())))
    return state


def _on_phone(image: Image.Image) -> Image.Image:
    scale = PHONE / image.width
    return image.resize((PHONE, round(image.height * scale)), Image.Resampling.LANCZOS)


def _ink_box(
    image: Image.Image,
    box: tuple[float, float, float, float],
    paper: RGB,
    ink: RGB,
    without: Image.Image | None = None,
) -> tuple[int, int, int, int] | None:
    """The bounding box (in ``box``) of the text drawn there: the pixels whose luminance
    is within 30 % of ``ink``'s on the way to ``paper``'s (the board's edges and lines are
    further from the ink than that), and, given the picture ``without`` the text, that
    differ from it."""
    left, top, right, bottom = (round(v) for v in box)
    crop = image.crop((left, top, right, bottom)).convert("RGB")
    bare = (without if without is not None else image).crop((left, top, right, bottom))
    bare = bare.convert("RGB")
    cut = _luminance(ink) + (0.3 if without is None else 0.5) * (
        _luminance(paper) - _luminance(ink)
    )
    darker = _luminance(ink) < _luminance(paper)
    mask = Image.new("L", crop.size, 0)
    mask.putdata(
        [
            255
            if (_luminance(p) < cut) == darker
            and (without is None or max(abs(a - b) for a, b in zip(p, q, strict=True)) >= 40)
            else 0
            for p, q in zip(
                crop.get_flattened_data(),  # type: ignore[attr-defined]
                bare.get_flattened_data(),  # type: ignore[attr-defined]
                strict=True,
            )
        ]
    )
    return mask.getbbox()


def _glyph_heights(
    image: Image.Image, bare: Image.Image, geo: BoardGeometry, state: BoardState, theme: str
) -> tuple[list[float], dict[str, float]]:
    """``bare`` is the same picture drawn with ``show_labels=False``."""
    """The heights at phone width of the rim's numbers and of the cells' names that show."""
    colours = get_theme(theme)
    k = PHONE / geo.width
    rim = geo.rim_size * k
    numbers = []
    for label in geo.rim:
        if not label.text.isdigit():
            continue
        x, y = label.x * k, label.y * k
        # the number's own width (and a pixel): the board's edge is close beside it
        half = text_width(label.text, font(geo.rim_size, "bold")) * k / 2 + 1
        found = _ink_box(
            image,
            (x - half, y - 0.55 * rim, x + half, y + 0.55 * rim),
            colours.background,
            colours.border_label,
        )
        assert found is not None, f"rim number {label.text} missing"
        numbers.append(found[3] - found[1])
    names = {}
    shaded = {cell for area in state.holes() for cell in area[1]}
    marked = set(state.last_turn.placed) | set(state.last_turn.captured)
    marked |= set(state.last_turn.removed)
    for index, name in enumerate(state.grid.names):
        if state.cells[index] or name in shaded | marked:
            continue
        x, y = geo.centres[index]
        x, y = x * k, y * k
        half_width = 0.7 * geo.radius * k
        half_height = min(0.7 * geo.radius, 0.6 * geo.label_size) * k
        found = _ink_box(
            image,
            (x - half_width, y - half_height, x + half_width, y + half_height),
            colours.cell,
            colours.label,
            bare,
        )
        if found is not None:
            names[name] = found[3] - found[1]
    return numbers, names


@pytest.mark.parametrize("theme", list_themes())
@pytest.mark.parametrize(("game", "size"), ALL_SIZES)
def test_coordinates_are_legible_at_phone_width(game: str, size: int, theme: str) -> None:
    state = _position(game, size)
    geo = board_geometry(size, BOT_WIDTH, game == "les")
    image = _on_phone(render_board(state, names=("Ann", "Bob"), theme=theme))
    bare = _on_phone(render_board(state, names=("Ann", "Bob"), theme=theme, show_labels=False))
    numbers, names = _glyph_heights(image, bare, geo, state, theme)
    assert len(numbers) == 4 * size - 3  # the inner columns' tops, the outer columns' cells
    assert min(numbers) >= MIN_GLYPH, numbers
    # a number stands alone in its place: nothing else is taken for its ink
    assert max(numbers) <= geo.rim_size * PHONE / BOT_WIDTH, numbers
    if geo.cell_labels:
        empty = sum(1 for code in state.cells if not code)
        assert len(names) >= empty // 2, "cell names missing"
        assert min(names.values()) >= min(numbers) - 0.5, names
    else:
        assert names == {}, f"cell names where they would be too small: {sorted(names)}"


def test_only_small_boards_carry_cell_names() -> None:
    """The strategy per size: names in the cells where they fit in the rim's size, the rim
    alone on the largest boards and on Les's points from side 6 on."""
    carried = {
        (game, size)
        for game, size in ALL_SIZES
        if board_geometry(size, BOT_WIDTH, game == "les").cell_labels
    }
    assert ("dalen", 9) not in carried and ("les", 9) not in carried
    assert {("lefe", 5), ("lefe", 7), ("dalen", 7), ("les", 5)} <= carried


def _mark_band(state: BoardState, theme: str) -> tuple[Image.Image, Image.Image, BoardGeometry]:
    names = ("Ann", "Bob")
    marked = _on_phone(render_board(state, names=names, theme=theme))
    plain = _on_phone(
        render_board(dataclasses.replace(state, last_turn=LastTurn()), names=names, theme=theme)
    )
    return marked, plain, board_geometry(state.size, BOT_WIDTH, state.game.name == "les")


@pytest.mark.parametrize("theme", list_themes())
@pytest.mark.parametrize(("game", "size"), ALL_SIZES)
def test_the_last_move_stands_out_at_phone_width(game: str, size: int, theme: str) -> None:
    state = _position(game, size)
    marked, plain, geo = _mark_band(state, theme)
    k = PHONE / geo.width
    difference = ImageChops.difference(marked, plain).convert("L")
    assert state.last_turn.placed
    for name in state.last_turn.placed:
        x, y = geo.centre(name)
        reach = geo.radius * k
        box = (
            math.floor(x * k - reach),
            math.floor(y * k - reach),
            math.ceil(x * k + reach) + 1,
            math.ceil(y * k + reach) + 1,
        )
        changed = [v for v in difference.crop(box).get_flattened_data() if v >= 40]  # type: ignore[attr-defined]
        # the band's thickness: its area over the stone's circumference
        thickness = len(changed) / (2 * math.pi * geo.stone_radius * k)
        assert thickness >= MIN_MARK, (name, round(thickness, 2))
        before = plain.crop(box).convert("L").get_flattened_data()  # type: ignore[attr-defined]
        after = marked.crop(box).convert("L").get_flattened_data()  # type: ignore[attr-defined]
        strong = [abs(a - b) for a, b in zip(after, before, strict=True) if abs(a - b) >= 40]
        assert sum(strong) / len(strong) >= MIN_MARK_CHANGE, (name, sum(strong) / len(strong))
