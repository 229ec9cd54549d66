"""What a table and a hand share: their sizes at the reference width, the header (title,
subtitle, status), the legend of the special cards shown, and the palette and PNG file
every table and hand is made with."""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache

from PIL import Image, ImageDraw

from engine.leiff.cards import display_name
from i18n import DEFAULT_LANGUAGE
from render import sprites
from render.bands import Band, band_cuts, bands_png, draw_bands
from render.encode import LEVEL_INFO, PALETTE_INFO, SEGMENTS_INFO, palette_of
from render.geometry import scale_of
from render.leiff.cards import (
    CARD_RATIO,
    SHORT_NAMES,
    SLOT_MACHINE,
    SPECIALS,
    SUBTITLE_IDS,
    draw_card,
    special_subtitle,
)
from render.text import draw_text, fit_text, font, text_width, wrap_text
from render.themes import Theme, get_theme

LEIFF_LEVEL = 3  # the PNG compression level of tables and hands (see render.encode)


HEADER_HEIGHT = 84  # at the reference width of 480 pixels


PILE_CARD = 72  # wide enough for a special card's name and what it does


PILES_HEIGHT = 10 + PILE_CARD * CARD_RATIO + 30  # the draw and discard piles with their counts


TABLE_CARD, TABLE_GAP = 46, 5  # a seat's cards at 480 pixels: 34 on a phone's 360


@lru_cache(maxsize=16)
def leiff_palette(theme_name: str, width: int) -> Image.Image:
    """The palette every table and hand picture of this theme and width gets (see
    ``render.encode``): the octree's colours of a sample holding what they draw: every
    card, face up and down, at the sizes of the table, the piles and the hands; text in
    each colour on the header, the table, a highlighted row and a card; the legend's chips,
    the rule's box and the ring round a drawn card. It depends only on its arguments."""
    theme = get_theme(theme_name)
    s = scale_of(width)
    labels: list[str | None] = [
        None,
        *(str(n) for n in range(-1, 14) if n),
        SLOT_MACHINE,
        *SPECIALS,
    ]
    sizes = sorted({round(TABLE_CARD * s), round(PILE_CARD * s), round(44 * s), 70, 84, 107})
    rows = []
    for paper in (theme.card("table"), theme.card("empty_slot")):
        for size in sizes:
            height = round(size * CARD_RATIO)
            row = Image.new("RGB", ((size + 4) * len(labels), height + 4), paper)
            for number, label in enumerate(labels):
                x = number * (size + 4)
                draw_card(row, (x, 0, x + size, height), label, theme, DEFAULT_LANGUAGE)
            rows.append(row)
    text = Image.new("RGB", (width, round(200 * s)), theme.header_background)
    draw = ImageDraw.Draw(text)
    backgrounds = (
        (theme.header_background, (theme.header_text, theme.header_muted, theme.header_turn)),
        (theme.card("table"), (theme.card("table_text"), theme.card("table_muted"))),
        (theme.card("empty_slot"), (theme.card("table_text"), theme.card("table_muted"))),
        (theme.card("face"), (theme.card("face_text"), theme.card("high_text"))),
        (theme.card("special_face"), (theme.card("face_text"),)),
        (theme.card("slot_face"), (theme.card("face_text"),)),
    )
    band = 200 * s / len(backgrounds)
    for number, (paper, inks) in enumerate(backgrounds):
        top = number * band
        draw.rectangle((0, top, width, top + band), fill=paper)
        for column, ink in enumerate(inks):
            for size, weight in ((18, "bold"), (15, "bold"), (13, "regular"), (12, "regular")):
                draw_text(
                    draw,
                    ((10 + 150 * column) * s, top + 4 * s),
                    "Aa Gg 0123 ·▶",
                    font(round(size * s), weight),
                    ink,
                    "la",
                )
    draw.rounded_rectangle(
        (width * 0.6, 4 * s, width * 0.9, 60 * s),
        radius=round(8 * s),
        outline=theme.card("drawn_ring"),
        width=max(2, round(4 * s)),
    )
    sprites.triangle(6 * s, theme.header_turn).paste_on(text, (width * 0.95, 20 * s))
    sample = Image.new(
        "RGB", (max(row.width for row in (*rows, text)), sum(r.height for r in (*rows, text)))
    )
    y = 0
    for row in (*rows, text):
        sample.paste(row, (0, y))
        y += row.height
    return palette_of(sample)


def picture_of(bands: Sequence[Band], height: int, theme: str, width: int) -> Image.Image:
    """A table's or hand's strips drawn on the table's colour, with the palette and the
    compression level its file is made with."""
    image = Image.new("RGB", (width, height), get_theme(theme).card("table"))
    draw_bands(image, bands)
    image.info[PALETTE_INFO] = leiff_palette(theme, width)
    image.info[LEVEL_INFO] = LEIFF_LEVEL
    image.info[SEGMENTS_INFO] = (image.size, band_cuts(bands))
    return image


def picture_file(bands: Sequence[Band], height: int, theme: str, width: int) -> bytes:
    """The PNG file of :func:`picture_of`, drawing only the strips not kept from before."""
    paper = get_theme(theme).card("table")
    return bands_png((width, height), paper, leiff_palette(theme, width), bands, LEIFF_LEVEL)


def _header(
    image: Image.Image, theme: Theme, width: int, title: str, subtitle: str, status: str
) -> int:
    """Title, a muted subtitle and a two-line status; returns the y below the header."""
    s = scale_of(width)
    draw = ImageDraw.Draw(image)
    pad = 10 * s
    height = round(HEADER_HEIGHT * s)
    draw.rectangle((0, 0, width, height), fill=theme.header_background)
    title_font = font(round(18 * s), "bold")
    small = font(round(13 * s))
    draw_text(
        draw,
        (pad, 24 * s),
        fit_text(title, title_font, width - 2 * pad),
        title_font,
        theme.header_text,
        "ls",
    )
    draw_text(
        draw,
        (pad, 42 * s),
        fit_text(subtitle, small, width - 2 * pad),
        small,
        theme.header_muted,
        "ls",
    )
    status_font = font(round(14 * s), "bold")
    for number, line in enumerate(wrap_text(status, status_font, width - 2 * pad, max_lines=2)):
        draw_text(
            draw,
            (pad, (61 + 17 * number) * s),
            line,
            status_font,
            theme.header_turn if number == 0 else theme.header_text,
            "ls",
        )
    return height


def draw_header(
    image: Image.Image, theme_name: str, width: int, title: str, subtitle: str, status: str
) -> None:
    _header(image, get_theme(theme_name), width, title, subtitle, status)


def legend_labels(
    hands: Sequence[Sequence[str | None]], discard_top: object, held: object
) -> tuple[str, ...]:
    """Every special card and slot machine face up in a picture, once, in the order they
    show: the hands' cards, then the discard pile's top and the held card."""
    shown: list[str] = []
    for label in (*(label for hand in hands for label in hand), discard_top, held):
        if label is not None and str(label) in SUBTITLE_IDS and str(label) not in shown:
            shown.append(str(label))
    return tuple(shown)


def draw_legend(
    image: Image.Image,
    theme_name: str,
    width: int,
    language: str,
    top: float,
    line_height: float,
    labels: tuple[str, ...],
) -> None:
    """One line per special card shown (``labels``), from ``top`` on: its short name on a
    little card, its German name and what it does ("KP Kneipenphilosoph – reorders a
    player's hand")."""
    theme = get_theme(theme_name)
    s = scale_of(width)
    draw = ImageDraw.Draw(image)
    pad = 10 * s
    bold, regular = font(round(15 * s), "bold"), font(round(14 * s))
    chip = font(round(12 * s), "bold")
    for number, label in enumerate(labels):
        row = top + number * line_height
        baseline = row + 14 * s
        x = pad
        short = SHORT_NAMES.get(label)
        if short is not None:
            chip_w = 26 * s
            draw.rounded_rectangle(
                (x, row + 1 * s, x + chip_w, row + 17 * s),
                radius=round(3 * s),
                fill=theme.card("special_face"),
                outline=theme.card("face_edge"),
            )
            draw_text(
                draw, (x + chip_w / 2, row + 9 * s), short, chip, theme.card("face_text"), "mm"
            )
        else:  # the slot machine: a yellow chip
            chip_w = 26 * s
            draw.rounded_rectangle(
                (x, row + 1 * s, x + chip_w, row + 17 * s),
                radius=round(3 * s),
                fill=theme.card("slot_face"),
                outline=theme.card("face_edge"),
            )
            draw_text(draw, (x + chip_w / 2, row + 9 * s), "0", chip, theme.card("face_text"), "mm")
        x += chip_w + 6 * s
        name = display_name(label)
        draw_text(draw, (x, baseline), name, bold, theme.card("table_text"), "ls")
        x += text_width(name, bold) + text_width(" ", regular)
        effect = fit_text(f"– {special_subtitle(label, language) or ''}", regular, width - pad - x)
        draw_text(draw, (x, baseline), effect, regular, theme.card("table_muted"), "ls")
