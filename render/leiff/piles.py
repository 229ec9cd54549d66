"""The middle of the table: the draw pile, the discard pile's top card, the card someone
holds, and under them the Klatschtante's rule in its box."""

from __future__ import annotations

from collections.abc import Sequence

from PIL import Image, ImageDraw

from engine.leiff.views import LeiffView
from i18n import DEFAULT_LANGUAGE, N_, translate
from render.geometry import scale_of
from render.leiff.cards import CARD_RATIO, place_card
from render.leiff.frame import PILE_CARD
from render.leiff.words import seat_name
from render.text import draw_text, font, wrap_text
from render.themes import Theme, get_theme

Held = tuple[str | None, str]  # the card someone holds (None: face down) and who holds it


def pile_values(
    view: LeiffView, names: Sequence[str], viewer: int | None, language: str = DEFAULT_LANGUAGE
) -> tuple[int, str | None, int, Held | None]:
    """What the piles show, from the view: the draw pile's size, the discard pile's top
    card and size, and the card someone holds with the words saying who holds it."""
    top_card = view.get("discard_top")
    holding = view.get("holding")
    held: Held | None = None
    if holding:
        seat = int(holding.get("seat") or 0)
        card = holding.get("card")
        from_draw = holding.get("source") == "draw"
        if seat == viewer:
            msgid = (
                N_("picture.leiff.you_hold_drawn")
                if from_draw
                else N_("picture.leiff.you_hold_taken")
            )
            text = translate(language, msgid)
        else:
            msgid = (
                N_("picture.leiff.holds_drawn") if from_draw else N_("picture.leiff.holds_taken")
            )
            text = translate(language, msgid, name=seat_name(names, seat, language))
        held = (None if card is None else str(card), text)
    return (
        view.get("draw_count", 0),
        None if top_card is None else str(top_card),
        view.get("discard_count", 0),
        held,
    )


def draw_piles(
    image: Image.Image,
    theme_name: str,
    width: int,
    language: str,
    top: float,
    piles: tuple[int, str | None, int, Held | None],
    rule: tuple[str, ...],
) -> None:
    """Draw pile (a back and its count), discard pile (its top card and count), the card
    someone holds, and under them the Klatschtante's rule, if one is set."""
    theme = get_theme(theme_name)
    draw_count, top_card, discard_count, held = piles
    s = scale_of(width)
    draw = ImageDraw.Draw(image)
    card_w = PILE_CARD * s
    card_h = card_w * CARD_RATIO
    label_font = font(round(13 * s))
    count_font = font(round(15 * s), "bold")
    y = top + 10 * s
    columns = (width * 0.16, width * 0.42)
    draw_x = columns[0] - card_w / 2
    # a draw pile looks like a stack: two offset backs under the top one
    if draw_count:
        for depth in (2, 1):
            offset = depth * 2 * s
            place_card(
                image,
                (draw_x + offset, y + offset, draw_x + card_w + offset, y + card_h + offset),
                None,
                theme,
            )
        place_card(image, (draw_x, y, draw_x + card_w, y + card_h), None, theme)
    else:
        draw.rounded_rectangle(
            (draw_x, y, draw_x + card_w, y + card_h),
            radius=round(6 * s),
            outline=theme.card("table_muted"),
            width=1,
        )
    draw_text(
        draw,
        (columns[0], y + card_h + 20 * s),
        translate(language, "picture.leiff.draw_count", count=draw_count),
        count_font,
        theme.card("table_text"),
        "ms",
    )
    discard_x = columns[1] - card_w / 2
    if top_card is not None:
        place_card(image, (discard_x, y, discard_x + card_w, y + card_h), top_card, theme, language)
    else:
        draw.rounded_rectangle(
            (discard_x, y, discard_x + card_w, y + card_h),
            radius=round(6 * s),
            outline=theme.card("table_muted"),
            width=1,
        )
    draw_text(
        draw,
        (columns[1], y + card_h + 20 * s),
        translate(language, "picture.leiff.discard_count", count=discard_count),
        count_font,
        theme.card("table_text"),
        "ms",
    )

    # the card someone holds right now: its face only when the view shows it
    right_x = width * 0.64
    text_width = width - right_x - 10 * s
    if held is not None:
        card, text = held
        hx = right_x
        small_w = 44 * s
        place_card(image, (hx, y, hx + small_w, y + small_w * CARD_RATIO), card, theme, language)
        lines = wrap_text(text, label_font, text_width, max_lines=4)
        for number, line in enumerate(lines):
            draw_text(
                draw,
                (hx, y + small_w * CARD_RATIO + (16 + 15 * number) * s),
                line,
                label_font,
                theme.card("table_text"),
                "ls",
            )
    _draw_rule(image, theme, width, y + card_h + 30 * s, rule, language)


def rule_lines(view: LeiffView, width: int) -> list[str]:
    rule = view.get("rule")
    if not rule:
        return []
    s = scale_of(width)
    return wrap_text(rule, font(round(14 * s)), width - 40 * s, max_lines=3)


def rule_box_height(view: LeiffView, width: int) -> float:
    lines = rule_lines(view, width)
    return (26 + 18 * len(lines) + 8) * scale_of(width) if lines else 0.0


def _draw_rule(
    image: Image.Image,
    theme: Theme,
    width: int,
    top: float,
    lines: Sequence[str],
    language: str = DEFAULT_LANGUAGE,
) -> None:
    """The Klatschtante's table rule (its wrapped ``lines``) in a box under the piles."""
    if not lines:
        return
    s = scale_of(width)
    draw = ImageDraw.Draw(image)
    pad = 10 * s
    rule_font = font(round(14 * s))
    title_font = font(round(13 * s), "bold")
    height = (26 + 18 * len(lines) + 8) * s - 8 * s  # as rule_box_height's, to the last bit
    draw.rounded_rectangle(
        (pad, top, width - pad, top + height),
        radius=round(8 * s),
        fill=theme.card("face"),
        outline=theme.card("face_edge"),
    )
    draw_text(
        draw,
        (2 * pad, top + 18 * s),
        translate(language, "picture.leiff.rule_title"),
        title_font,
        theme.card("high_text"),
        "ls",
    )
    for number, line in enumerate(lines):
        draw_text(
            draw,
            (2 * pad, top + (36 + 18 * number) * s),
            line,
            rule_font,
            theme.card("face_text"),
            "ls",
        )
