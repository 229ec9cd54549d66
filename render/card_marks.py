"""Marks and strips for Leiff pictures: slots ringed on a hand, a row of cards shown large.

Like :mod:`render.annotations` for the boards, everything here draws over (or beside) the
pictures of :mod:`render.leiff` and never changes them: a hand without marks is exactly
:func:`render.leiff.render_hand`'s picture. The tutorials ring the slots a rule is about
and show cards large enough for their subtitles (:func:`render_cards`).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from PIL import Image, ImageDraw

from engine.leiff.views import LeiffView
from i18n import DEFAULT_LANGUAGE
from render.encode import PALETTE_INFO
from render.geometry import check_width, scale_of
from render.leiff import CARD_RATIO, draw_card, hand_layout, render_hand
from render.text import draw_text, fit_text, font
from render.themes import get_theme

Box = tuple[float, float, float, float]


def slot_ring(box: Box, width: int) -> tuple[Box, float]:
    """The ring drawn round a slot's card: its box and line width (tests sample it)."""
    s = scale_of(width)
    line = max(3.0, 5 * s)
    x0, y0, x1, y1 = box
    gap = 3 * s + line / 2
    return (x0 - gap, y0 - gap, x1 + gap, y1 + gap), line


def ring_slots(
    image: Image.Image,
    view: LeiffView,
    seat: int,
    slots: Sequence[int],
    *,
    theme: str = "classic",
) -> None:
    """Ring the cards of ``seat``'s ``slots`` (numbered from 1, as on the picture) on a
    :func:`render_hand` picture of that view."""
    chosen = get_theme(theme)
    colour = chosen.annotations.get("about", chosen.placed)
    boxes = hand_layout(view, seat, image.width).slots
    draw = ImageDraw.Draw(image)
    for slot in slots:
        if 1 <= slot <= len(boxes):
            box, line = slot_ring(boxes[slot - 1], image.width)
            draw.rounded_rectangle(box, radius=round(line * 2), outline=colour, width=round(line))


def render_hand_marked(
    view: LeiffView,
    seat: int,
    slots: Sequence[int] = (),
    *,
    names: list[str],
    theme: str = "classic",
    width: int = 480,
    language: str = DEFAULT_LANGUAGE,
) -> Image.Image:
    """:func:`render_hand` with the cards of ``slots`` ringed (the same picture without)."""
    image = render_hand(view, seat, names=names, theme=theme, width=width, language=language)
    # the rings' colour is not in the hand's own palette: the encoder builds one
    image.info.pop(PALETTE_INFO, None)
    if slots:
        ring_slots(image, view, seat, slots, theme=theme)
    return image


@dataclass(frozen=True)
class CardRow:
    """A row of cards: the picture and each card's box (tests sample them)."""

    image: Image.Image
    boxes: tuple[Box, ...]


def render_cards(
    labels: Sequence[str | None],
    *,
    captions: Sequence[str] = (),
    theme: str = "classic",
    width: int = 480,
    language: str = DEFAULT_LANGUAGE,
) -> CardRow:
    """Cards side by side on the table's green, as large as the width allows (at most 150
    pixels wide at 480, so special cards show their subtitle), each with an optional
    caption under it. ``None`` is a card's back."""
    check_width(width)
    chosen = get_theme(theme)
    s = scale_of(width)
    pad, gap = 12 * s, 10 * s
    count = max(1, len(labels))
    card_w = min(150 * s, (width - 2 * pad - (count - 1) * gap) / count)
    card_h = card_w * CARD_RATIO
    caption_font = font(round(14 * s), "bold")
    caption_band = 26 * s if captions else 0
    height = round(pad + card_h + caption_band + pad)
    image = Image.new("RGB", (width, height), chosen.card("table"))
    draw = ImageDraw.Draw(image)
    row_width = count * card_w + (count - 1) * gap
    left = (width - row_width) / 2
    boxes = []
    for number, label in enumerate(labels):
        x = left + number * (card_w + gap)
        box = (x, pad, x + card_w, pad + card_h)
        draw_card(image, box, label, chosen, language)
        boxes.append(box)
        if number < len(captions):
            text = fit_text(captions[number], caption_font, card_w + gap)
            draw_text(
                draw,
                (x + card_w / 2, pad + card_h + 20 * s),
                text,
                caption_font,
                chosen.card("table_text"),
                "ms",
            )
    return CardRow(image, tuple(boxes))
