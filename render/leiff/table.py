"""The Leiff table for the channel: its layout (header, piles and rule, one block per seat,
the legend) and its picture, whole or as strips (:mod:`render.bands`)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from PIL import Image

from engine.leiff.state import SPEC
from engine.leiff.views import LeiffView
from i18n import DEFAULT_LANGUAGE
from render.bands import Band
from render.geometry import check_width, scale_of
from render.leiff.cards import CARD_RATIO
from render.leiff.frame import (
    HEADER_HEIGHT,
    PILES_HEIGHT,
    TABLE_CARD,
    TABLE_GAP,
    draw_header,
    draw_legend,
    legend_labels,
    picture_file,
    picture_of,
)
from render.leiff.piles import draw_piles, pile_values, rule_box_height, rule_lines
from render.leiff.seats import SEAT_LINES, TEXT_COLUMN, SeatBlock, draw_seat, seat_rows, seat_texts
from render.leiff.words import round_line, table_status


@dataclass(frozen=True)
class TableLayout:
    """Where render_table puts each seat, each card and the legend (tests measure them)."""

    width: int
    height: int
    seats_top: float
    seats: tuple[SeatBlock, ...]
    legend_top: float
    legend: tuple[str, ...]  # the labels the legend explains, in order
    line_height: float


def table_layout(
    view: LeiffView,
    width: int,
    names: Sequence[str] = (),
    language: str = DEFAULT_LANGUAGE,
) -> TableLayout:
    """The table picture's layout: under the header, the piles and the rule, one block per
    seat (a text column with the name, the scores and what happened to the seat, and beside
    it the cards, wrapping after as many as fit the width, never shrinking; a block is as
    tall as its cards or its lines, whichever is taller), then a legend of the special
    cards shown."""
    s = scale_of(width)
    players = seat_rows(view)
    hands: list[list[str | None]] = list(view.get("hands") or [[] for _ in range(players)])
    pad = 10 * s
    # whole pixels, so that a card can be drawn once and pasted (see render.leiff.cards.paste_card)
    card_w, gap = round(TABLE_CARD * s), round(TABLE_GAP * s)
    card_h = round(card_w * CARD_RATIO)
    cards_left = round(pad + TEXT_COLUMN * s)
    per_row = max(1, int((width - pad - cards_left + gap) // (card_w + gap)))
    row_step = card_h + round(16 * s)
    top = round(HEADER_HEIGHT * s + PILES_HEIGHT * s + rule_box_height(view, width))
    y = top
    seats = []
    for seat in range(players):
        name, lines = seat_texts(view, names, seat, width, language)
        baselines = tuple((20 + 16 * line) * s for line in range(1 + len(lines)))
        lowest = (20 + 16 * max(SEAT_LINES, len(lines))) * s
        count = len(hands[seat]) if seat < len(hands) else 0
        rows = max(1, -(-count // per_row))
        boxes = []
        for slot in range(count):
            row, column = divmod(slot, per_row)
            x = cards_left + column * (card_w + gap)
            cy = y + round(6 * s) + row * row_step
            boxes.append((x, cy, x + card_w, cy + card_h))
        bottom = y + round(max(6 * s + rows * row_step, lowest + 8 * s) + 2 * s)
        seats.append(
            SeatBlock(
                (pad / 2, y, width - pad / 2, bottom),
                tuple(y + b for b in baselines),
                TEXT_COLUMN * s - 22 * s,
                tuple(boxes),
                name,
                lines,
            )
        )
        y = bottom
    holding = view.get("holding")
    legend = legend_labels(hands, view.get("discard_top"), holding.get("card") if holding else None)
    line_height = 19 * s
    legend_top = y + (6 * s if legend else 0)
    height = round(legend_top + line_height * len(legend) + 8 * s)
    return TableLayout(width, height, top, tuple(seats), legend_top, legend, line_height)


def render_table(
    view: LeiffView,
    *,
    names: list[str],
    theme: str = "classic",
    width: int = 480,
    language: str = DEFAULT_LANGUAGE,
) -> Image.Image:
    """The Leiff table for the channel, from the spectator view ``state.view(None)``.

    Shows the discard pile's top card, the draw pile's size, every seat with its cards (face
    down unless the view reveals them), whose turn it is, the Klatschtante rule and, when
    drinking rules are on, the drink ledger; its words in the reader's ``language``. A
    seat's cards keep one size (legible on a phone) and wrap onto more rows when there are
    many; special cards there show a short name, explained by a legend under the seats.
    """
    check_width(width)
    layout, bands = table_bands(view, names, theme, width, language)
    return picture_of(bands, layout.height, theme, width)


def table_png(
    view: LeiffView,
    *,
    names: Sequence[str],
    theme: str = "classic",
    width: int = 480,
    language: str = DEFAULT_LANGUAGE,
) -> bytes:
    """The PNG file of :func:`render_table` (byte for byte ``png_bytes`` of it), drawing
    only the strips of the table that earlier pictures did not have (see render.bands)."""
    check_width(width)
    layout, bands = table_bands(view, names, theme, width, language)
    return picture_file(bands, layout.height, theme, width)


def table_bands(
    view: LeiffView, names: Sequence[str], theme: str, width: int, language: str
) -> tuple[TableLayout, list[Band]]:
    """The table's layout and its strips, top to bottom: the header, the piles with the
    rule, one block per seat, the legend (every row in exactly one)."""
    s = scale_of(width)
    layout = table_layout(view, width, names, language)
    players = len(layout.seats)
    hands: list[list[str | None]] = list(view.get("hands") or [[] for _ in range(players)])
    # the header's rectangle takes the row under it too (Pillow's boxes include their end)
    header = round(HEADER_HEIGHT * s) + 1
    title = (
        SPEC.title.english,
        round_line(view, language),
        table_status(view, names, None, language),
    )
    bands = [
        Band(0, header, draw_header, (theme, width, *title)),
        Band(
            header,
            round(layout.seats_top),
            draw_piles,
            (
                theme,
                width,
                language,
                round(HEADER_HEIGHT * s),
                pile_values(view, names, None, language),
                tuple(rule_lines(view, width)),
            ),
        ),
    ]
    turn = (view.get("waiting_for") or {}).get("turn")
    for seat, block in enumerate(layout.seats):
        hand = hands[seat] if seat < len(hands) else []
        labels = tuple(None if label is None else str(label) for label in hand)
        bands.append(
            Band(
                round(block.box[1]),
                round(block.box[3]),
                draw_seat,
                (theme, width, language, block, seat == turn, labels),
            )
        )
    legend = (theme, width, language, layout.legend_top, layout.line_height, layout.legend)
    bands.append(Band(bands[-1].bottom, layout.height, draw_legend, legend))
    return layout, bands
