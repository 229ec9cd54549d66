"""Leiff's table stays readable on a phone (about 360 pixels wide).

A six-seat table with special cards is drawn at the bot's 480 pixels, one seat holding a
16-card hand at the end of a round with every kind of card face up, and scaled to 360 the
way a phone shows it. Measured there: every card of the long row keeps its size (the row
wraps instead of shrinking) and its value or short name stays tall; every special card
shown is explained by a legend line (its German name and what it does, in the reader's
language) whose letters are tall enough to read. The old table shrank a 16-card row to
cards 8 pixels wide with values about 4 pixels high.
"""

from __future__ import annotations

import random

import pytest
from PIL import Image, ImageChops

from engine import get_game
from engine.leiff import random_action
from engine.leiff.views import LeiffView
from render import list_themes, render_hand, render_table
from render.leiff import SUBTITLE_IDS, hand_layout, special_subtitle, table_layout
from render.themes import RGB, get_theme

PHONE = 360
BOT_WIDTH = 480
MIN_CARD = 30  # pixels of a table card's width at 360
MIN_VALUE = 11  # pixels of a card value's height at 360
MIN_LEGEND = 7.5  # pixels of the legend's letters at 360
OPTIONS = {"target": 50, "specials": True, "drinking": True, "water": False, "teams": False}
NAMES = ["Anna", "Bärbel", "Jan", "Lara", "", "Tom"]
LONG_HAND = [
    "3", "philosopher", "12", "-1", "slot", "7", "waiter", "13",
    "1", "belle", "5", "magician", "gossip", "9", "10", "2",
]  # fmt: skip


def _long_row_view() -> LeiffView:
    """A real table after 40 actions, with seat 1's hand revealed as 16 cards."""
    rng = random.Random(3)
    state = get_game("leiff").new(players=6, seed=3, options=OPTIONS)
    for _ in range(40):
        if not state.actors():
            break
        seat, action = random_action(state, rng)
        state = state.play(seat, action)
    view = dict(state.view(None))
    hands = [list(hand) for hand in view["hands"]]
    hands[1] = list(LONG_HAND)
    view["hands"] = hands
    view["hand_sizes"] = [len(hand) for hand in hands]
    return view  # type: ignore[return-value]


def _on_phone(image: Image.Image) -> Image.Image:
    return image.resize(
        (PHONE, round(image.height * PHONE / image.width)), Image.Resampling.LANCZOS
    )


def _luminance(rgb: tuple[int, ...]) -> float:
    return 0.2126 * rgb[0] + 0.7152 * rgb[1] + 0.0722 * rgb[2]


def _ink_height(image: Image.Image, box: tuple[float, ...], paper: RGB) -> int:
    """The height of what is drawn in ``box`` (pixels far from ``paper`` in luminance)."""
    crop = image.crop(tuple(round(v) for v in box)).convert("RGB")
    mask = Image.new("L", crop.size, 0)
    mask.putdata(
        [
            255 if abs(_luminance(p) - _luminance(paper)) > 70 else 0
            for p in crop.get_flattened_data()  # type: ignore[attr-defined]
        ]
    )
    found = mask.getbbox()
    return 0 if found is None else found[3] - found[1]


@pytest.mark.parametrize("theme", list_themes())
def test_a_sixteen_card_row_wraps_and_stays_legible(theme: str) -> None:
    view = _long_row_view()
    colours = get_theme(theme)
    layout = table_layout(view, BOT_WIDTH)
    image = _on_phone(render_table(view, names=NAMES, theme=theme))
    assert image.size == (PHONE, round(layout.height * PHONE / BOT_WIDTH))
    k = PHONE / BOT_WIDTH
    boxes = layout.seats[1].cards
    assert len(boxes) == 16
    assert len({round(box[1]) for box in boxes}) >= 2  # more than one row
    for label, box in zip(LONG_HAND, boxes, strict=True):
        x0, y0, x1, y1 = (v * k for v in box)
        assert x1 - x0 >= MIN_CARD, label
        assert x0 >= 0 and x1 <= PHONE and y1 <= image.height
        # the middle of the card: the value, or a special card's short name
        middle = (
            x0 + 0.12 * (x1 - x0),
            y0 + 0.3 * (y1 - y0),
            x1 - 0.12 * (x1 - x0),
            y1 - 0.2 * (y1 - y0),
        )
        if label == "slot":
            continue  # a drawn machine, no letters; the legend names it
        paper = colours.card("special_face") if label in SUBTITLE_IDS else colours.card("face")
        assert _ink_height(image, middle, paper) >= MIN_VALUE, label
    # no two cards of any seat overlap
    for block in layout.seats:
        for one, other in zip(block.cards, block.cards[1:], strict=False):
            assert one[2] <= other[0] or one[1] >= other[3] or one[3] <= other[1]


@pytest.mark.parametrize("language", ["en", "de"])
def test_every_special_card_shown_has_a_legend_line(language: str) -> None:
    view = _long_row_view()
    layout = table_layout(view, BOT_WIDTH)
    shown = [label for label in LONG_HAND if label in SUBTITLE_IDS]
    if view.get("discard_top") in SUBTITLE_IDS:
        shown.append(str(view["discard_top"]))
    assert set(layout.legend) == set(shown)
    assert all(special_subtitle(label, language) for label in layout.legend)
    theme = get_theme("classic")
    image = _on_phone(render_table(view, names=NAMES, language=language))
    k = PHONE / BOT_WIDTH
    for number in range(len(layout.legend)):
        top = (layout.legend_top + number * layout.line_height) * k
        line = (0, top, PHONE, top + layout.line_height * k)
        assert _ink_height(image, line, theme.card("table")) >= MIN_LEGEND, layout.legend[number]
    # the legend speaks the reader's language: English and German lines differ
    other = _on_phone(render_table(view, names=NAMES, language="de" if language == "en" else "en"))
    top = round(layout.legend_top * k)
    assert ImageChops.difference(
        image.crop((0, top, PHONE, image.height)), other.crop((0, top, PHONE, other.height))
    ).getbbox()


@pytest.mark.parametrize("language", ["en", "de"])
def test_a_hand_explains_its_special_cards_too(language: str) -> None:
    """A big hand's cards are too narrow for names (six a row): the hand picture has the
    table's legend, a legible line for each special card it shows."""
    state = get_game("leiff").new(players=3, seed=3, options=OPTIONS)
    view = dict(state.view(0))
    hands = [list(hand) for hand in view["hands"]]
    hands[0] = [
        "3",
        "philosopher",
        None,
        "slot",
        "belle",
        "7",
        "13",
        "-1",
        "waiter",
        "2",
        "1",
        None,
    ]
    view["hands"] = hands
    view["hand_sizes"] = [len(hand) for hand in hands]
    view["discard_top"] = "gossip"
    layout = hand_layout(view, 0, BOT_WIDTH)  # type: ignore[arg-type]
    assert layout.legend == ("philosopher", "slot", "belle", "waiter", "gossip")
    image = _on_phone(render_hand(view, 0, names=NAMES[:3], language=language))  # type: ignore[arg-type]
    k = PHONE / BOT_WIDTH
    assert image.height == round(layout.height * k)
    table = get_theme("classic").card("table")
    for number, label in enumerate(layout.legend):
        top = (layout.legend_top + number * layout.line_height) * k
        assert (
            _ink_height(image, (0, top, PHONE, top + layout.line_height * k), table) >= MIN_LEGEND
        ), label
    # below the legend, nothing but the table's colour
    bottom = image.crop(
        (
            0,
            round((layout.legend_top + len(layout.legend) * layout.line_height) * k) + 2,
            PHONE,
            image.height,
        )
    )
    assert _ink_height(bottom, (0, 0, bottom.width, bottom.height), table) == 0
