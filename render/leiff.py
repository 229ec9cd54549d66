"""Leiff pictures: the table for the channel and one player's hand for their DM.

Both functions draw a *view* (``state.view(None)`` or ``state.view(seat)``, see
``docs/leiff-engine.md``) and nothing else: they never see the engine state, so a picture
cannot show a card its viewer may not know. A slot whose label the view gives is drawn face
up; a slot whose entry is ``None`` is drawn as a card back.

Card faces are readable at a glance: the value large in the middle, special cards named in
full (German names from the engine), the slot machine ("Spielautomat") drawn as a little
machine with three reels and a lever.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache

from PIL import Image, ImageDraw

from engine.leiff.cards import display_name
from engine.leiff.scoring import Drinks
from engine.leiff.state import SPEC
from engine.leiff.views import LeiffView
from i18n import DEFAULT_LANGUAGE, N_, outcome_reason, translate, translate_plural
from render import sprites
from render.bands import Band, band_cuts, bands_png, draw_bands
from render.encode import LEVEL_INFO, PALETTE_INFO, SEGMENTS_INFO, palette_of
from render.geometry import check_width, scale_of
from render.text import Font, draw_text, fit_text, font, text_width, wrap_text
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
LEIFF_LEVEL = 3  # the PNG compression level of tables and hands (see render.encode)
HEADER_HEIGHT = 84  # at the reference width of 480 pixels
PILE_CARD = 72  # wide enough for a special card's name and what it does
PILES_HEIGHT = 10 + PILE_CARD * CARD_RATIO + 30  # the draw and discard piles with their counts
TABLE_CARD, TABLE_GAP = 46, 5  # a seat's cards at 480 pixels: 34 on a phone's 360


def _seat_name(names: Sequence[str], seat: int, language: str = DEFAULT_LANGUAGE) -> str:
    given = str(names[seat]).strip() if 0 <= seat < len(names) and names[seat] is not None else ""
    return given or translate(language, "picture.leiff.player", number=seat + 1)


# ---- cards -------------------------------------------------------------------------------


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


# ---- shared pieces --------------------------------------------------------------------------


def score_details(view: LeiffView, seat: int, language: str = DEFAULT_LANGUAGE) -> list[str]:
    """A seat's scores as its table row shows them: "total 37", "round +12"; in a team game
    the team's, labelled so ("team 1: total 15, round +15"), since those are the totals
    that count there."""
    totals = view.get("totals") or []
    round_scores = view.get("round_scores")
    teams = view.get("teams")
    if teams and seat < len(totals):
        team = next((number for number, members in enumerate(teams) if seat in members), 0)
        if not round_scores:
            return [
                translate(language, "picture.leiff.team_total", number=team + 1, total=totals[seat])
            ]
        team_round = sum(int(round_scores[s]) for s in teams[team] if s < len(round_scores))
        return [
            translate(
                language,
                "picture.leiff.team_scores",
                number=team + 1,
                total=totals[seat],
                score=f"{team_round:+d}",
            )
        ]
    details = []
    if seat < len(totals):
        details.append(translate(language, "picture.leiff.total", total=totals[seat]))
    if round_scores and seat < len(round_scores):
        score = round_scores[seat]
        shown = f"{score:+d}" if isinstance(score, int) else str(score)
        details.append(translate(language, "picture.leiff.round_score", score=shown))
    return details


def _status(
    view: LeiffView,
    names: Sequence[str],
    viewer: int | None,
    language: str = DEFAULT_LANGUAGE,
) -> str:
    """What the table is waiting for, in words, from the view's ``waiting_for``."""
    outcome = view.get("outcome")
    if outcome:
        winners = [_seat_name(names, s, language) for s in outcome.get("winner", [])]
        reason = outcome_reason(language, outcome)
        reason = reason[:1].upper() + reason[1:]  # it follows a full stop
        if not winners:
            return translate(language, "picture.leiff.game_over_nobody", reason=reason).strip()
        return translate_plural(
            language,
            "picture.leiff.game_over",
            "picture.leiff.game_over.plural",
            len(winners),
            winners=_and_list(language, winners),
            reason=reason,
        ).strip()
    waiting = view.get("waiting_for") or {}
    step = waiting.get("step")
    turn = waiting.get("turn")
    # what the seat to act must do: said to "you" on their own picture, else by name
    mine = turn is not None and turn == viewer
    name = "?" if turn is None else _seat_name(names, turn, language)

    if view.get("round_over") or step == "next":
        return translate(language, "picture.leiff.round_over")
    if step == "look":
        return translate(language, "picture.leiff.look")
    if step == "turn":
        if mine:
            return translate(language, "picture.leiff.turn_you")
        return translate(language, "picture.leiff.turn", name=name)
    if step == "hold":
        if mine:
            return translate(language, "picture.leiff.hold_you")
        return translate(language, "picture.leiff.hold", name=name)
    if step == "effect":
        card = waiting.get("card")
        if not card:
            if mine:
                return translate(language, "picture.leiff.effect_you_unknown")
            return translate(language, "picture.leiff.effect_unknown", name=name)
        if mine:
            return translate(language, "picture.leiff.effect_you", card=display_name(card))
        return translate(language, "picture.leiff.effect", name=name, card=display_name(card))
    if step == "spy":
        return translate(language, "picture.leiff.spy")
    if step == "exchange":
        return translate(language, "picture.leiff.exchange")
    return ""


def _hand_status(
    view: LeiffView, names: Sequence[str], seat: int, language: str = DEFAULT_LANGUAGE
) -> str:
    """A hand's status line: what the table waits for from this seat, or, while others
    are playing their turns, only that (whose turn it is changes with every action and is
    the table's to show; the hand picture stays the same until this seat's part changes)."""
    waiting = view.get("waiting_for") or {}
    others = seat not in (waiting.get("owners") or ())
    if others and not view.get("outcome") and waiting.get("step") in ("turn", "hold", "effect"):
        return translate(language, "picture.leiff.others_turn")
    return _status(view, names, seat, language)


def _and_list(language: str, items: Sequence[str]) -> str:
    """Names joined "a and b and c" in the language."""
    joined = items[0]
    for item in items[1:]:
        joined = translate(language, "list.and", left=joined, right=item)
    return joined


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


def _round_line(view: LeiffView, language: str = DEFAULT_LANGUAGE) -> str:
    options = view.get("options") or {}
    parts = [
        translate(language, "picture.leiff.round", number=view.get("round", 1)),
        translate(language, "picture.leiff.target", target=options.get("target", 50)),
    ]
    if options.get("teams"):
        parts.append(translate(language, "picture.leiff.teams"))
    if options.get("specials"):
        parts.append(translate(language, "picture.leiff.specials"))
    if options.get("drinking"):
        if options.get("water"):
            parts.append(translate(language, "picture.leiff.water_rules"))
        else:
            parts.append(translate(language, "picture.leiff.drinking_rules"))
    return " · ".join(parts)


Held = tuple[str | None, str]  # the card someone holds (None: face down) and who holds it


def _pile_values(
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
            text = translate(language, msgid, name=_seat_name(names, seat, language))
        held = (None if card is None else str(card), text)
    return (
        view.get("draw_count", 0),
        None if top_card is None else str(top_card),
        view.get("discard_count", 0),
        held,
    )


def _draw_piles(
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


def _rule_lines(view: LeiffView, width: int) -> list[str]:
    rule = view.get("rule")
    if not rule:
        return []
    s = scale_of(width)
    return wrap_text(rule, font(round(14 * s)), width - 40 * s, max_lines=3)


def _rule_box_height(view: LeiffView, width: int) -> float:
    lines = _rule_lines(view, width)
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
    height = (26 + 18 * len(lines) + 8) * s - 8 * s  # as _rule_box_height's, to the last bit
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


def _drinks_text(
    entry: Drinks | None, language: str = DEFAULT_LANGUAGE, *, settled: bool = False
) -> str:
    """A seat's drinks this round ("drinks: 1 shot, 4 sips"); ``settled`` once the round
    is over, when "nothing yet" would promise more."""
    if not entry:
        return ""
    parts = []
    if entry.get("shots"):
        parts.append(
            translate_plural(
                language, "picture.leiff.shots", "picture.leiff.shots.plural", entry["shots"]
            )
        )
    if entry.get("sips"):
        parts.append(
            translate_plural(
                language, "picture.leiff.sips", "picture.leiff.sips.plural", entry["sips"]
            )
        )
    if entry.get("hand_out"):
        parts.append(
            translate_plural(
                language,
                "picture.leiff.hands_out",
                "picture.leiff.hands_out.plural",
                entry["hand_out"],
            )
        )
    if not parts:
        if settled:
            return translate(language, "picture.leiff.drinks_none")
        return translate(language, "picture.leiff.drinks_nothing")
    return translate(language, "picture.leiff.drinks", drinks=", ".join(parts))


# ---- the table ----------------------------------------------------------------------------


def _seat_rows(view: LeiffView) -> int:
    return int(view.get("players") or len(view.get("hands") or []))


@dataclass(frozen=True)
class SeatBlock:
    """One seat on the table picture: its box, its name and lines of text with where each
    goes, and its cards."""

    box: tuple[float, float, float, float]
    baselines: tuple[float, ...]  # the name's, then one per line
    text_width: float  # the room of the text column
    cards: tuple[tuple[float, float, float, float], ...]  # one box per slot, in slot order
    name: str = ""
    lines: tuple[str, ...] = ()  # the scores, then what happened to the seat


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


TEXT_COLUMN = 150  # at 480 pixels: a seat's name, scores and effects, left of its cards
SEAT_LINES = 3  # lines under a seat's name that fit beside one row of cards
PART_LINES = 3  # lines one part of a seat's text may take before it is cut with "…"
SEPARATOR = " · "  # between the parts of a seat's line
CLAUSE = ", "  # between the clauses of one part ("drinks: 1 shot, 4 sips")


def _packed(parts: Sequence[str], used_font: Font, room: float) -> list[str]:
    """``parts`` on lines ``room`` wide: whole parts joined by the separator while they fit
    a line, a part too wide for a line wrapped by itself (see :func:`_wrapped_part`). So
    a line never starts or ends with a separator."""
    lines: list[str] = []
    joinable = False  # whether the last line holds whole parts only
    for part in parts:
        if not part:
            continue
        joined = f"{lines[-1]}{SEPARATOR}{part}" if lines and joinable else ""
        if joined and text_width(joined, used_font) <= room:
            lines[-1] = joined
            continue
        wrapped = _wrapped_part(part, used_font, room)
        lines.extend(wrapped)
        joinable = len(wrapped) == 1
    return lines


def _wrapped_part(part: str, used_font: Font, room: float) -> list[str]:
    """One part on lines ``room`` wide, broken after its commas where it can ("drinks: 1
    shot," over "hands out 1", not "drinks: 1 shot, hands" over "out 1"), by words within a
    clause too wide for a line; cut with "…" only past PART_LINES lines."""
    clauses = part.split(CLAUSE)
    lines: list[str] = []
    joinable = False
    for number, clause in enumerate(clauses):
        piece = clause + CLAUSE.strip() if number < len(clauses) - 1 else clause
        joined = f"{lines[-1]} {piece}" if lines and joinable else ""
        if joined and text_width(joined, used_font) <= room:
            lines[-1] = joined
            continue
        wrapped = wrap_text(piece, used_font, room, max_lines=PART_LINES)
        lines.extend(wrapped)
        joinable = len(wrapped) == 1
    if len(lines) > PART_LINES:
        rest = " ".join(lines[PART_LINES - 1 :])
        lines[PART_LINES - 1 :] = [fit_text(rest, used_font, room)]
    return lines


def seat_texts(
    view: LeiffView, names: Sequence[str], seat: int, width: int, language: str
) -> tuple[str, tuple[str, ...]]:
    """A seat's name (cut to the text column) and the lines under it: its card count and
    scores, then what the special cards and the drinking rules did to it, each group on
    as many lines as it needs (see :func:`_packed`)."""
    s = scale_of(width)
    room = TEXT_COLUMN * s - 22 * s
    players = _seat_rows(view)
    hand = (view.get("hands") or [[] for _ in range(players)])[seat]
    size = (view.get("hand_sizes") or [len(hand)] * players)[seat]
    name = fit_text(_seat_name(names, seat, language), font(round(15 * s), "bold"), room)
    details = score_details(view, seat, language)
    if not view.get("teams"):
        # (a team row needs its room for the team's scores; the slot numbers under the
        # cards count them)
        details.insert(
            0, translate_plural(language, "picture.leiff.cards", "picture.leiff.cards.plural", size)
        )
    effects = []
    if seat in set(view.get("immune") or []):
        effects.append(translate(language, "picture.leiff.immune"))
    link = view.get("link")
    if link and link.get("seat") == seat:
        partner = _seat_name(names, int(link.get("to", 0)), language)
        effects.append(translate(language, "picture.leiff.drinks_with", name=partner))
    if any(entry.get("target") == seat for entry in view.get("enchantments") or []):
        effects.append(translate(language, "picture.leiff.enchanted"))
    drinks = view.get("drinks") if (view.get("options") or {}).get("drinking") else None
    if drinks and seat < len(drinks):
        settled = bool(view.get("round_over") or view.get("outcome"))
        effects.append(_drinks_text(drinks[seat], language, settled=settled))
    small = font(round(12 * s))
    return name, (*_packed(details, small, room), *_packed(effects, small, room))


def _legend_labels(
    hands: Sequence[Sequence[str | None]], discard_top: object, held: object
) -> tuple[str, ...]:
    """Every special card and slot machine face up in a picture, once, in the order they
    show: the hands' cards, then the discard pile's top and the held card."""
    shown: list[str] = []
    for label in (*(label for hand in hands for label in hand), discard_top, held):
        if label is not None and str(label) in SUBTITLE_IDS and str(label) not in shown:
            shown.append(str(label))
    return tuple(shown)


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
    players = _seat_rows(view)
    hands: list[list[str | None]] = list(view.get("hands") or [[] for _ in range(players)])
    pad = 10 * s
    # whole pixels, so that a card can be drawn once and pasted (see _card_tile)
    card_w, gap = round(TABLE_CARD * s), round(TABLE_GAP * s)
    card_h = round(card_w * CARD_RATIO)
    cards_left = round(pad + TEXT_COLUMN * s)
    per_row = max(1, int((width - pad - cards_left + gap) // (card_w + gap)))
    row_step = card_h + round(16 * s)
    top = round(HEADER_HEIGHT * s + PILES_HEIGHT * s + _rule_box_height(view, width))
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
    legend = _legend_labels(
        hands, view.get("discard_top"), holding.get("card") if holding else None
    )
    line_height = 19 * s
    legend_top = y + (6 * s if legend else 0)
    height = round(legend_top + line_height * len(legend) + 8 * s)
    return TableLayout(width, height, top, tuple(seats), legend_top, legend, line_height)


def _draw_legend(
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
    return _picture(bands, layout.height, theme, width)


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
    return _file(bands, layout.height, theme, width)


def _picture(bands: Sequence[Band], height: int, theme: str, width: int) -> Image.Image:
    """A table's or hand's strips drawn on the table's colour, with the palette and the
    compression level its file is made with."""
    image = Image.new("RGB", (width, height), get_theme(theme).card("table"))
    draw_bands(image, bands)
    image.info[PALETTE_INFO] = leiff_palette(theme, width)
    image.info[LEVEL_INFO] = LEIFF_LEVEL
    image.info[SEGMENTS_INFO] = (image.size, band_cuts(bands))
    return image


def _file(bands: Sequence[Band], height: int, theme: str, width: int) -> bytes:
    """The PNG file of :func:`_picture`, drawing only the strips not kept from before."""
    paper = get_theme(theme).card("table")
    return bands_png((width, height), paper, leiff_palette(theme, width), bands, LEIFF_LEVEL)


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
    title = (SPEC.title.english, _round_line(view, language), _status(view, names, None, language))
    bands = [
        Band(0, header, _header_band, (theme, width, *title)),
        Band(
            header,
            round(layout.seats_top),
            _draw_piles,
            (
                theme,
                width,
                language,
                round(HEADER_HEIGHT * s),
                _pile_values(view, names, None, language),
                tuple(_rule_lines(view, width)),
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
                _draw_seat,
                (theme, width, language, block, seat == turn, labels),
            )
        )
    legend = (theme, width, language, layout.legend_top, layout.line_height, layout.legend)
    bands.append(Band(bands[-1].bottom, layout.height, _draw_legend, legend))
    return layout, bands


def _header_band(
    image: Image.Image, theme_name: str, width: int, title: str, subtitle: str, status: str
) -> None:
    _header(image, get_theme(theme_name), width, title, subtitle, status)


def _draw_seat(
    image: Image.Image,
    theme_name: str,
    width: int,
    language: str,
    block: SeatBlock,
    turn: bool,
    labels: tuple[str | None, ...],
) -> None:
    """One seat's block: highlighted while it is to act, its name, every line of scores
    and effects under it, and its cards with their slot numbers."""
    chosen = get_theme(theme_name)
    s = scale_of(width)
    draw = ImageDraw.Draw(image)
    pad = 10 * s
    if turn:
        x0, y0, x1, y1 = block.box
        draw.rounded_rectangle(
            (x0, y0 + 2 * s, x1, y1 - 2 * s),
            radius=round(6 * s),
            fill=chosen.card("empty_slot"),
        )
        sprites.triangle(6 * s, chosen.header_turn).paste_on(
            image, (pad + 4 * s, block.baselines[0] - 5 * s)
        )
    name_x = pad + 16 * s
    name_font = font(round(15 * s), "bold")
    small = font(round(12 * s))
    slot_font = font(round(11 * s))
    draw_text(
        draw, (name_x, block.baselines[0]), block.name, name_font, chosen.card("table_text"), "ls"
    )
    for baseline, line in zip(block.baselines[1:], block.lines, strict=True):
        draw_text(draw, (name_x, baseline), line, small, chosen.card("table_muted"), "ls")
    # slot numbers under the cards: they are what a catch ("catch 2.3") names
    paper = chosen.card("empty_slot") if turn else chosen.card("table")
    for slot, (label, box) in enumerate(zip(labels, block.cards, strict=False)):
        x0, y0, x1, y1 = (round(v) for v in box)
        paste_card(image, (x0, y0, x1, y1), label, chosen, language, paper)
        draw_text(
            draw,
            ((box[0] + box[2]) / 2, box[3] + 13 * s),
            str(slot + 1),
            slot_font,
            chosen.card("table_muted"),
            "ms",
        )


# ---- one hand -----------------------------------------------------------------------------


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
    legend = _legend_labels(
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
    return _picture(bands, layout.height, theme, width)


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
    return _file(bands, layout.height, theme, width)


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
    who = _seat_name(names, seat, language)
    title = (
        translate(language, "picture.leiff.hand_title", name=who),
        _round_line(view, language),
        _hand_status(view, names, seat, language),
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
        Band(0, header, _header_band, (theme, width, *title)),
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
    _draw_legend(
        image, theme_name, width, language, layout.legend_top, layout.line_height, layout.legend
    )
