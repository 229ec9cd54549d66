"""One Leiff card at any size, face up or down: the value large in the middle, special cards
named in full (German names from the engine) with what they do under the name, or a short
name on a card too narrow for it, the slot machine ("Spielautomat") as a little machine with
three reels and a lever, a card back's lattice; and the cached tiles a table pastes."""

from __future__ import annotations

import math
from functools import lru_cache

from PIL import Image, ImageDraw

from engine.leiff.cards import display_name
from i18n import DEFAULT_LANGUAGE, N_, translate
from render.text import Font, fit_text, font, wrap_text
from render.themes import RGB, Theme, get_theme

SLOT_MACHINE = "slot"


SPECIALS = ("philosopher", "waiter", "gossip", "belle", "magician")


# What each special card does, in a few words under its German name (the name itself is the
# same in every language, as printed on the real cards).
SUBTITLE_IDS = {
    "philosopher": N_("card.subtitle.philosopher"),
    "waiter": N_("card.subtitle.waiter"),
    "gossip": N_("card.subtitle.gossip"),
    "belle": N_("card.subtitle.belle"),
    "magician": N_("card.subtitle.magician"),
    "slot": N_("card.subtitle.slot"),
}


# On a card too narrow for its name (a table row) a special card shows these letters, big,
# and the table's legend says which card they stand for and what it does. They are cut
# from the German names, which are the same in every language.
SHORT_NAMES = {
    "philosopher": "KP",
    "waiter": "KE",
    "gossip": "KT",
    "belle": "DS",
    "magician": "HM",
}


SUBTITLE_MIN_WIDTH = 70  # narrower cards (table rows) show the short name, big


CARD_RATIO = 1.4  # height / width


def _value_colour(label: str, theme: Theme) -> RGB:
    if label == "-1":
        return theme.card("negative_text")
    if label.lstrip("-").isdigit() and int(label) >= 10:
        return theme.card("high_text")
    return theme.card("face_text")


@lru_cache(maxsize=64)
def _back_lattice(width: int, height: int, theme_name: str) -> Image.Image:
    """The diamond lattice inside a card back (cached: every back of a size is the same)."""
    theme = get_theme(theme_name)
    tile = Image.new("RGB", (max(1, width), max(1, height)), theme.card("back"))
    draw = ImageDraw.Draw(tile)
    step = max(4, round(width * 0.3))
    line = max(1, round(width * 0.05))
    for offset in range(-height, width + height, step):
        draw.line(
            [(offset, 0), (offset + height, height)], fill=theme.card("back_pattern"), width=line
        )
        draw.line(
            [(offset, height), (offset + height, 0)], fill=theme.card("back_pattern"), width=line
        )
    return tile


def _draw_back(image: Image.Image, box: tuple[float, float, float, float], theme: Theme) -> None:
    draw = ImageDraw.Draw(image)
    x0, y0, x1, y1 = box
    width = x1 - x0
    radius = max(2, round(width * 0.1))
    draw.rounded_rectangle(
        box, radius=radius, fill=theme.card("back"), outline=theme.card("face_edge"), width=1
    )
    inset = max(2, round(width * 0.12))
    left, top = round(x0) + inset, round(y0) + inset
    right, bottom = round(x1) - inset, round(y1) - inset
    if right > left and bottom > top:
        image.paste(_back_lattice(right - left, bottom - top, theme.name), (left, top))
        draw.rectangle(
            (left, top, right - 1, bottom - 1),
            outline=theme.card("back_pattern"),
            width=max(1, round(width * 0.04)),
        )


def _draw_slot_machine(
    draw: ImageDraw.ImageDraw, box: tuple[float, float, float, float], theme: Theme
) -> None:
    """A one-armed bandit: body, three reels showing 7, and a lever with a knob."""
    x0, y0, x1, y1 = box
    w, h = x1 - x0, y1 - y0
    ink = theme.card("face_text")
    body = (x0 + w * 0.14, y0 + h * 0.22, x0 + w * 0.74, y0 + h * 0.78)
    draw.rounded_rectangle(
        body,
        radius=max(1, round(w * 0.06)),
        fill=theme.card("high_text"),
        outline=ink,
        width=max(1, round(w * 0.025)),
    )
    reel_w = (body[2] - body[0]) * 0.26
    reel_h = (body[3] - body[1]) * 0.42
    gap = ((body[2] - body[0]) - 3 * reel_w) / 4
    reel_font = font(max(6, round(reel_h * 0.9)), "bold")
    for k in range(3):
        rx = body[0] + gap + k * (reel_w + gap)
        ry = body[1] + (body[3] - body[1]) * 0.2
        draw.rectangle((rx, ry, rx + reel_w, ry + reel_h), fill=theme.card("face"), outline=ink)
        if w >= SUBTITLE_MIN_WIDTH:
            # smaller, the sevens would read as any digit: the reels stay plain there
            draw.text(
                (rx + reel_w / 2, ry + reel_h / 2), "7", font=reel_font, fill=ink, anchor="mm"
            )
    lever_x = body[2] + w * 0.08
    draw.line(
        [
            (body[2], body[1] + (body[3] - body[1]) * 0.6),
            (lever_x, body[1] + (body[3] - body[1]) * 0.6),
        ],
        fill=ink,
        width=max(1, round(w * 0.03)),
    )
    draw.line(
        [(lever_x, body[1] + (body[3] - body[1]) * 0.6), (lever_x, y0 + h * 0.16)],
        fill=ink,
        width=max(1, round(w * 0.03)),
    )
    knob = max(2.0, w * 0.05)
    draw.ellipse(
        (lever_x - knob, y0 + h * 0.16 - knob, lever_x + knob, y0 + h * 0.16 + knob),
        fill=theme.card("negative_text"),
        outline=ink,
    )


# where the German compound names of the special cards break best (index of the cut)
_COMPOUND_BREAKS = {
    "Kneipenphilosoph": 7,
    "Dorfschönheit": 4,
    "Klatschtante": 7,
    "Hinterhältiger": 6,
}


def _hyphenate(word: str, used_font: Font, room: float) -> list[str]:
    """Split a word too long for a line into pieces that fit, each but the last ending "-"."""
    pieces: list[str] = []
    rest = word
    while rest and used_font.getlength(rest) > room:
        cut = len(rest) - 1
        while cut > 1 and used_font.getlength(rest[:cut] + "-") > room:
            cut -= 1
        pieces.append(rest[:cut] + "-")
        rest = rest[cut:]
    return [*pieces, rest] if rest else pieces


def _name_lines(name: str, room: float, size: int) -> tuple[Font, list[str]]:
    """A special card's name in at most three lines: break a compound at its joint first,
    then try a smaller font, and hyphenate anywhere only as a last resort."""
    smallest = max(7, round(size * 0.7))
    for attempt in range(max(size, smallest), smallest - 1, -1):
        used = font(attempt, "bold")
        words: list[str] = []
        for word in name.split():
            if used.getlength(word) <= room:
                words.append(word)
                continue
            cut = _COMPOUND_BREAKS.get(word)
            if not cut or max(used.getlength(word[:cut] + "-"), used.getlength(word[cut:])) > room:
                break
            words.extend((word[:cut] + "-", word[cut:]))
        else:
            return used, wrap_text(" ".join(words), used, room, max_lines=3)
    used = font(smallest, "bold")
    pieces = [piece for word in name.split() for piece in _hyphenate(word, used, room)]
    return used, wrap_text(" ".join(pieces), used, room, max_lines=3)


def special_subtitle(label: str, language: str = DEFAULT_LANGUAGE) -> str | None:
    """What a special card does, in a few words in ``language`` (None for other cards)."""
    msgid = SUBTITLE_IDS.get(label)
    return translate(language, msgid) if msgid else None


def draw_card(
    image: Image.Image,
    box: tuple[float, float, float, float],
    label: str | None,
    theme: Theme,
    language: str = DEFAULT_LANGUAGE,
) -> None:
    """One card in ``box``: its face if ``label`` is known, else its back. Card names are
    the game's German names in every language; ``language`` is for the words under them."""
    if label is None:
        _draw_back(image, box, theme)
        return
    draw = ImageDraw.Draw(image)
    x0, y0, x1, y1 = box
    w, h = x1 - x0, y1 - y0
    radius = max(2, round(w * 0.1))
    edge = theme.card("face_edge")
    if label == SLOT_MACHINE:
        draw.rounded_rectangle(
            box, radius=radius, fill=theme.card("slot_face"), outline=edge, width=1
        )
        _draw_slot_machine(draw, (x0, y0 + h * 0.05, x1, y1 - h * 0.12), theme)
        if w >= SUBTITLE_MIN_WIDTH:
            caption = fit_text(display_name(label), font(max(7, round(w * 0.13))), w * 0.9)
            draw.text(
                (x0 + w / 2, y1 - h * 0.08),
                caption,
                font=font(max(7, round(w * 0.13))),
                fill=theme.card("face_text"),
                anchor="mm",
            )
        corner = font(max(7, round(w * (0.16 if w >= SUBTITLE_MIN_WIDTH else 0.3))), "bold")
        draw.text(
            (x0 + w * 0.08, y0 + h * 0.04),
            "0",
            font=corner,
            fill=theme.card("face_text"),
            anchor="la",
        )
        return
    if label in SPECIALS:
        draw.rounded_rectangle(
            box,
            radius=radius,
            fill=theme.card("special_face"),
            outline=edge,
            width=max(1, round(w * 0.04)),
        )
        if w < SUBTITLE_MIN_WIDTH:
            # too narrow for the name: a star and the short name, big (the legend of the
            # table names the card and says what it does)
            star = font(max(7, round(w * 0.26)), "bold")
            draw.text(
                (x0 + w / 2, y0 + h * 0.2),
                "★",
                font=star,
                fill=theme.card("high_text"),
                anchor="mm",
            )
            short = font(max(8, round(w * 0.46)), "bold")
            draw.text(
                (x0 + w / 2, y0 + h * 0.6),
                SHORT_NAMES[label],
                font=short,
                fill=theme.card("face_text"),
                anchor="mm",
            )
            return
        # a star marks every special card; the card also says what it does, under the name
        subtitled = True
        star = font(max(8, round(w * (0.24 if subtitled else 0.3))), "bold")
        draw.text(
            (x0 + w / 2, y0 + h * (0.2 if subtitled else 0.3)),
            "★",
            font=star,
            fill=theme.card("high_text"),
            anchor="mm",
        )
        name_font, lines = _name_lines(display_name(label), w * 0.88, round(w * 0.15))
        first, step = (0.4, 0.12) if subtitled else (0.56, 0.13)
        for number, line in enumerate(lines):
            draw.text(
                (x0 + w / 2, y0 + h * (first + step * number)),
                line,
                font=name_font,
                fill=theme.card("face_text"),
                anchor="mm",
            )
        if subtitled:
            subtitle_font = font(max(8, round(w * 0.11)))
            subtitle = special_subtitle(label, language) or ""
            top = first + step * len(lines) + 0.02
            room = 3 if len(lines) < 3 else 2
            for number, line in enumerate(wrap_text(subtitle, subtitle_font, w * 0.86, room)):
                draw.text(
                    (x0 + w / 2, y0 + h * (top + 0.085 * number)),
                    line,
                    font=subtitle_font,
                    fill=theme.card("face_text"),
                    anchor="mm",
                )
        corner = font(max(7, round(w * 0.16)), "bold")
        draw.text(
            (x0 + w * 0.08, y0 + h * 0.04),
            "4",
            font=corner,
            fill=theme.card("face_text"),
            anchor="la",
        )
        return
    draw.rounded_rectangle(box, radius=radius, fill=theme.card("face"), outline=edge, width=1)
    text = display_name(label)
    colour = _value_colour(label, theme)
    big = font(max(8, round(min(w * (0.55 if len(text) < 2 else 0.45), h * 0.5))), "bold")
    draw.text((x0 + w / 2, y0 + h / 2), text, font=big, fill=colour, anchor="mm")
    if w >= 36:
        corner = font(max(7, round(w * 0.16)), "bold")
        draw.text((x0 + w * 0.08, y0 + h * 0.04), text, font=corner, fill=colour, anchor="la")
        draw.text((x1 - w * 0.08, y1 - h * 0.04), text, font=corner, fill=colour, anchor="rd")


def place_card(
    image: Image.Image,
    box: tuple[float, float, float, float],
    label: str | None,
    theme: Theme,
    language: str = DEFAULT_LANGUAGE,
) -> None:
    """:func:`draw_card` in any ``box``, the same pixels, from a cache of drawn cards.

    A card drawn with its box moved by an even number of pixels is the same card moved:
    Pillow's rasteriser floors and rounds in C, and the rounding in Python (half to even)
    keeps its result under even shifts too. So each card is drawn once per label, size
    and place modulo 2 pixels, on a transparent canvas, and pasted through its opacity
    (every pixel of a card is opaque: nothing of it is blended with what lies under it).
    A table and a hand draw the same few cards at the same places again and again."""
    x0, y0, x1, y1 = box
    left, top = x0 % 2.0, y0 % 2.0
    colour, opaque = _placed_card(label, left, top, x1 - x0, y1 - y0, theme.name, language)
    image.paste(colour, (round(x0 - left), round(y0 - top)), opaque)


@lru_cache(maxsize=512)
def _placed_card(
    label: str | None,
    left: float,
    top: float,
    width: float,
    height: float,
    theme_name: str,
    language: str,
) -> tuple[Image.Image, Image.Image]:
    canvas = Image.new("RGBA", (math.ceil(left + width) + 2, math.ceil(top + height) + 2))
    draw_card(
        canvas, (left, top, left + width, top + height), label, get_theme(theme_name), language
    )
    return canvas.convert("RGB"), canvas.getchannel("A")


@lru_cache(maxsize=512)
def _card_tile(
    label: str | None, width: int, height: int, theme_name: str, language: str, paper: RGB
) -> Image.Image:
    """One card drawn on ``paper`` (the colour round its corners), ``width`` × ``height``
    pixels plus the last row and column a box's edge takes: pasted at a whole pixel it
    gives the pixels :func:`draw_card` draws there, at a paste's cost (a table shows the
    same few cards again and again)."""
    tile = Image.new("RGB", (width + 1, height + 1), paper)
    draw_card(tile, (0, 0, width, height), label, get_theme(theme_name), language)
    return tile


def paste_card(
    image: Image.Image,
    box: tuple[int, int, int, int],
    label: str | None,
    theme: Theme,
    language: str,
    paper: RGB,
) -> None:
    """:func:`draw_card` in a whole-pixel ``box`` over ``paper``, from the tile cache."""
    x0, y0, x1, y1 = box
    image.paste(_card_tile(label, x1 - x0, y1 - y0, theme.name, language, paper), (x0, y0))
