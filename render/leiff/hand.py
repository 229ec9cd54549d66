"""One player's hand for their DM: its layout (the numbered cards, the card held, the
discard pile's top, the totals, the legend) and its picture, whole or as strips."""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

from PIL import Image, ImageDraw

from engine.leiff.views import LeiffView
from i18n import DEFAULT_LANGUAGE, N_, translate
from render.bands import Band
from render.geometry import check_width, scale_of
from render.leiff.cards import CARD_RATIO, place_card
from render.leiff.frame import (
    HEADER_HEIGHT,
    draw_header,
    draw_legend,
    legend_labels,
    picture_file,
    picture_of,
)
from render.leiff.words import hand_status, round_line, seat_name
from render.text import Font, draw_text, fit_text, font, wrap_text
from render.themes import get_theme


@dataclass(frozen=True)
class HandLayout:
    """Where render_hand puts each card (tests sample these boxes)."""

    width: int
    height: int
    header: int
    slots: tuple[tuple[float, float, float, float], ...]  # one box per slot, in slot order
    held: tuple[float, float, float, float] | None  # the card this seat holds, if any
    # the discard pile's top, shown only while this seat holds a card or may take it (the
    # table in the channel shows it always: a hand that showed it would change, and need
    # a new message, with every action at the table)
    discard: tuple[float, float, float, float] | None
    info_x: float
    strip_top: float
    legend_top: float = 0.0  # under the strip: a line per special card shown (as the table's)
    legend: tuple[str, ...] = ()
    line_height: float = 0.0


def hand_layout(view: LeiffView, seat: int, width: int) -> HandLayout:
    s = scale_of(width)
    hands = view.get("hands") or []
    slots = len(hands[seat]) if 0 <= seat < len(hands) else 0
    pad, gap = 10 * s, 10 * s
    # four cards a row fill the width on a phone; bigger hands wrap, up to six a row
    per_row = 4 if slots <= 4 else min(6, max(4, (slots + 1) // 2))
    rows = max(1, -(-slots // per_row))
    card_w = (width - 2 * pad - (per_row - 1) * gap) / per_row
    card_h = card_w * CARD_RATIO
    header = round(HEADER_HEIGHT * s)
    top = header + 12 * s
    boxes = []
    for slot in range(slots):
        row, column = divmod(slot, per_row)
        x = pad + column * (card_w + gap)
        y = top + row * (card_h + 28 * s)
        boxes.append((x, y, x + card_w, y + card_h))
    strip_top = top + rows * (card_h + 28 * s)
    small_w = 62 * s
    small_h = small_w * CARD_RATIO
    holding = view.get("holding")
    x = pad
    held = None
    if holding and holding.get("seat") == seat:
        held = (x, strip_top, x + small_w, strip_top + small_h)
        x += small_w + 3 * gap
    discard = None
    if held is not None or "take" in (view.get("legal_actions") or ()):
        discard = (x, strip_top, x + small_w, strip_top + small_h)
        x += small_w + 3 * gap
    hand = hands[seat] if 0 <= seat < len(hands) else []
    legend = legend_labels(
        [hand],
        view.get("discard_top") if discard is not None else None,
        holding.get("card") if held is not None and holding else None,
    )
    legend_top = strip_top + small_h + 34 * s
    line_height = 19 * s
    height = round(legend_top + (line_height * len(legend) + 8 * s if legend else 0))
    return HandLayout(
        width,
        height,
        header,
        tuple(boxes),
        held,
        discard,
        x,
        strip_top,
        legend_top,
        legend,
        line_height,
    )


def render_hand(
    view: LeiffView,
    seat: int,
    *,
    names: list[str],
    theme: str = "classic",
    width: int = 480,
    language: str = DEFAULT_LANGUAGE,
) -> Image.Image:
    """One player's hand for their DM, from that seat's view ``state.view(seat)``.

    Every slot is numbered like the buttons (1, 2, …); a slot whose value this player knows
    is face up, the others are card backs. A card the player has just drawn is shown apart,
    ringed, with the discard pile's top card beside it for comparison. Its words are in the
    reader's ``language``.
    """
    check_width(width)
    layout, bands = hand_bands(view, seat, names, theme, width, language)
    return picture_of(bands, layout.height, theme, width)


def hand_png(
    view: LeiffView,
    seat: int,
    *,
    names: Sequence[str],
    theme: str = "classic",
    width: int = 480,
    language: str = DEFAULT_LANGUAGE,
) -> bytes:
    """The PNG file of :func:`render_hand` (byte for byte ``png_bytes`` of it), drawing
    only the strips of the hand that earlier pictures did not have (see render.bands)."""
    check_width(width)
    layout, bands = hand_bands(view, seat, names, theme, width, language)
    return picture_file(bands, layout.height, theme, width)


def hand_bands(
    view: LeiffView, seat: int, names: Sequence[str], theme: str, width: int, language: str
) -> tuple[HandLayout, list[Band]]:
    """The hand's layout and its strips, top to bottom: the header, the cards, and the
    strip under them (the card held, the discard pile's top, the totals, the legend)."""
    s = scale_of(width)
    layout = hand_layout(view, seat, width)
    hands = view.get("hands") or []
    hand = hands[seat] if 0 <= seat < len(hands) else []
    labels = tuple(None if label is None else str(label) for label in hand)
    who = seat_name(names, seat, language)
    title = (
        translate(language, "picture.leiff.hand_title", name=who),
        round_line(view, language),
        hand_status(view, names, seat, language),
    )
    held = None
    holding = view.get("holding")
    if layout.held is not None and holding:
        card = holding.get("card")
        from_draw = holding.get("source") == "draw"
        msgid = N_("picture.leiff.just_drawn") if from_draw else N_("picture.leiff.just_taken")
        held = (None if card is None else str(card), translate(language, msgid))
    top_card = view.get("discard_top")
    # Only what changes with this seat's own play: the piles are the table's.
    info = []
    totals = view.get("totals") or []
    if seat < len(totals):
        if view.get("teams"):  # the total that counts is the team's
            info.append(translate(language, "picture.leiff.your_team_total", total=totals[seat]))
        else:
            info.append(translate(language, "picture.leiff.your_total", total=totals[seat]))
    if seat in set(view.get("immune") or []):
        info.append(translate(language, "picture.leiff.you_are_immune"))
    if view.get("rule"):
        info.append(translate(language, "picture.leiff.rule", rule=view["rule"]))
    header = round(HEADER_HEIGHT * s) + 1  # (the header's rectangle takes the row under it)
    # the cards' strip ends between the last row's slot numbers and the held card's ring
    cut = math.floor(layout.strip_top - 4 * s)
    strip = (
        theme,
        width,
        language,
        layout,
        held,
        None if top_card is None else str(top_card),
        tuple(info),
    )
    return layout, [
        Band(0, header, draw_header, (theme, width, *title)),
        Band(header, cut, _draw_hand_cards, (theme, width, language, layout.slots, labels)),
        Band(cut, layout.height, _draw_hand_strip, strip),
    ]


def _draw_hand_cards(
    image: Image.Image,
    theme_name: str,
    width: int,
    language: str,
    slots: tuple[tuple[float, float, float, float], ...],
    labels: tuple[str | None, ...],
) -> None:
    """A hand's cards in their ``slots``, each numbered like its button."""
    chosen = get_theme(theme_name)
    s = scale_of(width)
    draw = ImageDraw.Draw(image)
    slot_font = font(round(15 * s), "bold")
    for slot, (label, box) in enumerate(zip(labels, slots, strict=True)):
        place_card(image, box, label, chosen, language)
        draw_text(
            draw,
            ((box[0] + box[2]) / 2, box[3] + 20 * s),
            str(slot + 1),
            slot_font,
            chosen.card("table_text"),
            "ms",
        )


def _draw_hand_strip(
    image: Image.Image,
    theme_name: str,
    width: int,
    language: str,
    layout: HandLayout,
    held: tuple[str | None, str] | None,
    top_card: str | None,
    info: tuple[str, ...],
) -> None:
    """Under a hand's cards: the card this seat holds (ringed, with its caption), the
    discard pile's top, the ``info`` lines (totals, immunity, the rule) and the legend."""
    chosen = get_theme(theme_name)
    s = scale_of(width)
    draw = ImageDraw.Draw(image)
    caption = font(round(13 * s))
    if layout.held is not None and held is not None:
        x0, y0, x1, y1 = layout.held
        ring = 4 * s
        draw.rounded_rectangle(
            (x0 - ring / 2, y0 - ring / 2, x1 + ring / 2, y1 + ring / 2),
            radius=round(8 * s),
            outline=chosen.card("drawn_ring"),
            width=max(2, round(ring)),
        )
        card, words = held
        place_card(image, layout.held, card, chosen, language)
        # kept to its column: a longer caption would run into the discard pile's
        draw_text(
            draw,
            ((x0 + x1) / 2, y1 + 20 * s),
            fit_text(words, caption, (x1 - x0) + 2 * 10 * s),
            caption,
            chosen.card("table_text"),
            "ms",
        )
    if layout.discard is not None:
        x0, y0, x1, y1 = layout.discard
        if top_card is not None:
            place_card(image, layout.discard, top_card, chosen, language)
        else:
            draw.rounded_rectangle(
                layout.discard, radius=round(6 * s), outline=chosen.card("table_muted"), width=1
            )
        draw_text(
            draw,
            ((x0 + x1) / 2, y1 + 20 * s),
            translate(language, "picture.leiff.discard_top"),
            caption,
            chosen.card("table_text"),
            "ms",
        )
    info_font: Font = font(round(13 * s))
    line_y = layout.strip_top + 14 * s
    for entry in info:
        for line in wrap_text(entry, info_font, width - layout.info_x - 10 * s, max_lines=2):
            if line_y > layout.legend_top - 8 * s:
                break
            draw_text(
                draw, (layout.info_x, line_y), line, info_font, chosen.card("table_text"), "ls"
            )
            line_y += 17 * s
    draw_legend(
        image, theme_name, width, language, layout.legend_top, layout.line_height, layout.legend
    )
