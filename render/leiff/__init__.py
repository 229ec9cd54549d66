"""Leiff pictures: the table for the channel and one player's hand for their DM.

Both draw a *view* (``state.view(None)`` or ``state.view(seat)``, see
``docs/leiff-engine.md``) and nothing else: they never see the engine state, so a picture
cannot show a card its viewer may not know. A slot whose label the view gives is drawn face
up; a slot whose entry is ``None`` is drawn as a card back.

The package is split by what it draws, each module below the ones after it:

- :mod:`~render.leiff.cards` — one card, face up or down, at any size;
- :mod:`~render.leiff.frame` — the sizes, the header, the legend, the palette and file;
- :mod:`~render.leiff.words` — the pictures' words in the reader's language;
- :mod:`~render.leiff.piles` — the draw and discard piles, the held card, the rule;
- :mod:`~render.leiff.seats` — one seat's block on the table;
- :mod:`~render.leiff.table` — the table: its layout and picture;
- :mod:`~render.leiff.hand` — one player's hand: its layout and picture.
"""

from __future__ import annotations

from render.leiff.cards import (
    CARD_RATIO,
    SHORT_NAMES,
    SLOT_MACHINE,
    SPECIALS,
    SUBTITLE_IDS,
    draw_card,
    paste_card,
    place_card,
    special_subtitle,
)
from render.leiff.frame import LEIFF_LEVEL, leiff_palette
from render.leiff.hand import HandLayout, hand_bands, hand_layout, hand_png, render_hand
from render.leiff.seats import SeatBlock, seat_texts
from render.leiff.table import TableLayout, render_table, table_bands, table_layout, table_png
from render.leiff.words import score_details

__all__ = [
    "CARD_RATIO",
    "LEIFF_LEVEL",
    "SHORT_NAMES",
    "SLOT_MACHINE",
    "SPECIALS",
    "SUBTITLE_IDS",
    "HandLayout",
    "SeatBlock",
    "TableLayout",
    "draw_card",
    "hand_bands",
    "hand_layout",
    "hand_png",
    "leiff_palette",
    "paste_card",
    "place_card",
    "render_hand",
    "render_table",
    "score_details",
    "seat_texts",
    "special_subtitle",
    "table_bands",
    "table_layout",
    "table_png",
]
