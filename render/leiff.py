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

from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache

from PIL import Image, ImageDraw

from engine.leiff.cards import display_name
from engine.leiff.scoring import Drinks
from engine.leiff.views import LeiffView
from render import sprites
from render.geometry import check_width, scale_of
from render.text import Font, draw_text, fit_text, font, wrap_text
from render.themes import RGB, Theme, get_theme

SLOT_MACHINE = "slot"
SPECIALS = ("philosopher", "waiter", "gossip", "belle", "magician")
CARD_RATIO = 1.4  # height / width
HEADER_HEIGHT = 84  # at the reference width of 480 pixels
PILES_HEIGHT = 10 + 62 * CARD_RATIO + 30  # the draw and discard piles with their counts


def _seat_name(names: Sequence[str], seat: int) -> str:
    given = str(names[seat]).strip() if 0 <= seat < len(names) and names[seat] is not None else ""
    return given or f"Player {seat + 1}"


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
        draw.text((rx + reel_w / 2, ry + reel_h / 2), "7", font=reel_font, fill=ink, anchor="mm")
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


def draw_card(
    image: Image.Image, box: tuple[float, float, float, float], label: str | None, theme: Theme
) -> None:
    """One card in ``box``: its face if ``label`` is known, else its back."""
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
        if w >= 40:
            caption = fit_text(display_name(label), font(max(7, round(w * 0.13))), w * 0.9)
            draw.text(
                (x0 + w / 2, y1 - h * 0.08),
                caption,
                font=font(max(7, round(w * 0.13))),
                fill=theme.card("face_text"),
                anchor="mm",
            )
        corner = font(max(7, round(w * 0.16)), "bold")
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
        # a star marks every special card even when the name is too small to read
        star = font(max(8, round(w * 0.3)), "bold")
        draw.text(
            (x0 + w / 2, y0 + h * 0.3), "★", font=star, fill=theme.card("high_text"), anchor="mm"
        )
        name_font, lines = _name_lines(display_name(label), w * 0.88, round(w * 0.15))
        for number, line in enumerate(lines):
            draw.text(
                (x0 + w / 2, y0 + h * (0.56 + 0.13 * number)),
                line,
                font=name_font,
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


# ---- shared pieces --------------------------------------------------------------------------


def _status(view: LeiffView, names: Sequence[str], viewer: int | None) -> str:
    """What the table is waiting for, in words, from the view's ``waiting_for``."""
    outcome = view.get("outcome")
    if outcome:
        winners = [_seat_name(names, s) for s in outcome.get("winner", [])]
        return f"Game over: {' and '.join(winners) or 'nobody'} won. {outcome.get('reason', '')}".strip()
    waiting = view.get("waiting_for") or {}
    step = waiting.get("step")
    turn = waiting.get("turn")

    def who(seat: int | None) -> str:
        if seat is None:
            return "?"
        return "You" if seat == viewer else _seat_name(names, seat)

    if view.get("round_over") or step == "next":
        return "Round over: every hand is shown. Next round when someone is ready."
    if step == "look":
        return "Everyone looks at their first cards."
    if step == "turn":
        return f"{who(turn)}: draw, take the discard or call Leiff."
    if step == "hold":
        return f"{who(turn)}: swap the held card into a slot or discard it."
    if step == "effect":
        card = waiting.get("card")
        shown = display_name(card) if card else "a card"
        return f"{who(turn)}: use or decline the effect of {shown}."
    if step == "spy":
        return "The enchanted player looks at the Magier's cards."
    if step == "exchange":
        return "Magier exchange: best card for worst card."
    return ""


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


def _round_line(view: LeiffView) -> str:
    options = view.get("options") or {}
    parts = [f"Round {view.get('round', 1)}", f"to {options.get('target', 50)} points"]
    if options.get("teams"):
        parts.append("teams")
    if options.get("specials"):
        parts.append("special cards")
    if options.get("drinking"):
        parts.append("water rules" if options.get("water") else "drinking rules")
    return " · ".join(parts)


def _piles(
    image: Image.Image,
    view: LeiffView,
    theme: Theme,
    width: int,
    top: float,
    names: Sequence[str],
    viewer: int | None,
) -> float:
    """Draw pile (a back and its count) and discard pile (its top card and count)."""
    s = scale_of(width)
    draw = ImageDraw.Draw(image)
    card_w = 62 * s
    card_h = card_w * CARD_RATIO
    label_font = font(round(13 * s))
    count_font = font(round(15 * s), "bold")
    y = top + 10 * s
    columns = (width * 0.2, width * 0.45)
    draw_x = columns[0] - card_w / 2
    # a draw pile looks like a stack: two offset backs under the top one
    if view.get("draw_count", 0):
        for depth in (2, 1):
            offset = depth * 2 * s
            draw_card(
                image,
                (draw_x + offset, y + offset, draw_x + card_w + offset, y + card_h + offset),
                None,
                theme,
            )
        draw_card(image, (draw_x, y, draw_x + card_w, y + card_h), None, theme)
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
        f"draw {view.get('draw_count', 0)}",
        count_font,
        theme.card("table_text"),
        "ms",
    )
    discard_x = columns[1] - card_w / 2
    top_card = view.get("discard_top")
    if top_card is not None:
        draw_card(image, (discard_x, y, discard_x + card_w, y + card_h), str(top_card), theme)
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
        f"discard {view.get('discard_count', 0)}",
        count_font,
        theme.card("table_text"),
        "ms",
    )

    # the card someone holds right now: its face only when the view shows it
    holding = view.get("holding")
    right_x = width * 0.64
    text_width = width - right_x - 10 * s
    if holding:
        seat = int(holding.get("seat") or 0)
        held = holding.get("card")
        hx = right_x
        small_w = 44 * s
        draw_card(
            image,
            (hx, y, hx + small_w, y + small_w * CARD_RATIO),
            None if held is None else str(held),
            theme,
        )
        source = "the draw pile" if holding.get("source") == "draw" else "the discard pile"
        who = "You hold" if seat == viewer else f"{_seat_name(names, seat)} holds"
        lines = wrap_text(f"{who} a card from {source}.", label_font, text_width, max_lines=4)
        for number, line in enumerate(lines):
            draw_text(
                draw,
                (hx, y + small_w * CARD_RATIO + (16 + 15 * number) * s),
                line,
                label_font,
                theme.card("table_text"),
                "ls",
            )
    return y + card_h + 30 * s


def _rule_lines(view: LeiffView, width: int) -> list[str]:
    rule = view.get("rule")
    if not rule:
        return []
    s = scale_of(width)
    return wrap_text(rule, font(round(14 * s)), width - 40 * s, max_lines=3)


def _rule_box_height(view: LeiffView, width: int) -> float:
    lines = _rule_lines(view, width)
    return (26 + 18 * len(lines) + 8) * scale_of(width) if lines else 0.0


def _rule_box(image: Image.Image, view: LeiffView, theme: Theme, width: int, top: float) -> float:
    """The Klatschtante's table rule in a box under the piles (nothing when none is set)."""
    lines = _rule_lines(view, width)
    if not lines:
        return top
    s = scale_of(width)
    draw = ImageDraw.Draw(image)
    pad = 10 * s
    rule_font = font(round(14 * s))
    title_font = font(round(13 * s), "bold")
    height = _rule_box_height(view, width) - 8 * s
    draw.rounded_rectangle(
        (pad, top, width - pad, top + height),
        radius=round(8 * s),
        fill=theme.card("face"),
        outline=theme.card("face_edge"),
    )
    draw_text(
        draw,
        (2 * pad, top + 18 * s),
        "Klatschtante's rule",
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
    return top + height + 8 * s


def _drinks_text(entry: Drinks | None) -> str:
    if not entry:
        return ""
    parts = []
    if entry.get("shots"):
        parts.append(f"{entry['shots']} shot{'s' if entry['shots'] != 1 else ''}")
    if entry.get("sips"):
        parts.append(f"{entry['sips']} sip{'s' if entry['sips'] != 1 else ''}")
    if entry.get("hand_out"):
        parts.append(f"hands out {entry['hand_out']}")
    return "drinks: " + (", ".join(parts) if parts else "nothing yet")


# ---- the table ----------------------------------------------------------------------------


def _seat_rows(view: LeiffView) -> int:
    return int(view.get("players") or len(view.get("hands") or []))


def render_table(
    view: LeiffView, *, names: list[str], theme: str = "classic", width: int = 480
) -> Image.Image:
    """The Leiff table for the channel, from the spectator view ``state.view(None)``.

    Shows the discard pile's top card, the draw pile's size, every seat with its cards (face
    down unless the view reveals them), whose turn it is, the Klatschtante rule and, when
    drinking rules are on, the drink ledger.
    """
    check_width(width)
    chosen = get_theme(theme)
    s = scale_of(width)
    players = _seat_rows(view)
    hands: list[list[str | None]] = list(view.get("hands") or [[] for _ in range(players)])
    max_cards = max((len(h) for h in hands), default=4)
    drinks = view.get("drinks") if (view.get("options") or {}).get("drinking") else None
    specials = bool((view.get("options") or {}).get("specials"))
    row_height = (62 if drinks or specials else 54) * s
    height = round(
        HEADER_HEIGHT * s
        + PILES_HEIGHT * s
        + _rule_box_height(view, width)
        + players * row_height
        + 8 * s
    )
    image = Image.new("RGB", (width, height), chosen.card("table"))
    top = _header(image, chosen, width, "Leiff", _round_line(view), _status(view, names, None))
    y = _piles(image, view, chosen, width, top, names, None)
    y = _rule_box(image, view, chosen, width, y)
    draw = ImageDraw.Draw(image)
    waiting = view.get("waiting_for") or {}
    turn = waiting.get("turn")
    immune = set(view.get("immune") or [])
    totals = view.get("totals") or []
    round_scores = view.get("round_scores")
    link = view.get("link")
    enchantments = view.get("enchantments") or []
    teams = view.get("teams")
    team_of = {seat: number for number, team in enumerate(teams or []) for seat in team}
    pad = 10 * s
    name_font = font(round(15 * s), "bold")
    small = font(round(12 * s))
    card_w = min(24 * s, (width * 0.5 - pad) / max(1, max_cards) - 3 * s)
    card_h = card_w * CARD_RATIO
    slot_font = font(round(10 * s))
    for seat in range(players):
        row_top = y + seat * row_height
        if seat == turn:
            draw.rounded_rectangle(
                (pad / 2, row_top + 2 * s, width - pad / 2, row_top + row_height - 2 * s),
                radius=round(6 * s),
                fill=chosen.card("empty_slot"),
            )
            sprites.triangle(6 * s, chosen.header_turn).paste_on(
                image, (pad + 4 * s, row_top + row_height * 0.35)
            )
        name_x = pad + 16 * s
        hand = hands[seat] if seat < len(hands) else []
        size = (view.get("hand_sizes") or [len(hand)] * players)[seat]
        cards_left = width * 0.5
        name_room = cards_left - name_x - 8 * s
        draw_text(
            draw,
            (name_x, row_top + 22 * s),
            fit_text(_seat_name(names, seat), name_font, name_room),
            name_font,
            chosen.card("table_text"),
            "ls",
        )
        details = [f"{size} card{'s' if size != 1 else ''}"]
        if seat < len(totals):
            details.append(f"total {totals[seat]}")
        if round_scores and seat < len(round_scores):
            details.append(
                f"round {round_scores[seat]:+d}"
                if isinstance(round_scores[seat], int)
                else f"round {round_scores[seat]}"
            )
        if teams:
            details.append(f"team {team_of.get(seat, 0) + 1}")
        # a second line for what the special cards and the drinking rules did to this seat
        effects = []
        if seat in immune:
            effects.append("Kellner: immune")
        if link and link.get("seat") == seat:
            effects.append(f"drinks with {_seat_name(names, int(link.get('to', 0)))}")
        if any(entry.get("target") == seat for entry in enchantments):
            effects.append("enchanted")
        if drinks and seat < len(drinks):
            effects.append(_drinks_text(drinks[seat]))
        for number, line in enumerate((" · ".join(details), " · ".join(effects))):
            draw_text(
                draw,
                (name_x, row_top + (38 + 14 * number) * s),
                fit_text(line, small, name_room),
                small,
                chosen.card("table_muted"),
                "ls",
            )
        # slot numbers under the cards: they are what a catch ("catch 2.3") names
        cy = row_top + (row_height - card_h - 12 * s) / 2
        for slot, label in enumerate(hand):
            cx = cards_left + slot * (card_w + 3 * s)
            draw_card(
                image,
                (cx, cy, cx + card_w, cy + card_h),
                None if label is None else str(label),
                chosen,
            )
            draw_text(
                draw,
                (cx + card_w / 2, cy + card_h + 11 * s),
                str(slot + 1),
                slot_font,
                chosen.card("table_muted"),
                "ms",
            )
    return image


# ---- one hand -----------------------------------------------------------------------------


@dataclass(frozen=True)
class HandLayout:
    """Where render_hand puts each card (tests sample these boxes)."""

    width: int
    height: int
    header: int
    slots: tuple[tuple[float, float, float, float], ...]  # one box per slot, in slot order
    held: tuple[float, float, float, float] | None  # the card this seat holds, if any
    discard: tuple[float, float, float, float]
    info_x: float
    strip_top: float


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
    discard = (x, strip_top, x + small_w, strip_top + small_h)
    height = round(strip_top + small_h + 34 * s)
    return HandLayout(
        width, height, header, tuple(boxes), held, discard, x + small_w + 3 * gap, strip_top
    )


def render_hand(
    view: LeiffView, seat: int, *, names: list[str], theme: str = "classic", width: int = 480
) -> Image.Image:
    """One player's hand for their DM, from that seat's view ``state.view(seat)``.

    Every slot is numbered like the buttons (1, 2, …); a slot whose value this player knows
    is face up, the others are card backs. A card the player has just drawn is shown apart,
    ringed, with the discard pile's top card beside it for comparison.
    """
    check_width(width)
    chosen = get_theme(theme)
    s = scale_of(width)
    layout = hand_layout(view, seat, width)
    hands = view.get("hands") or []
    hand: list[str | None] = list(hands[seat]) if 0 <= seat < len(hands) else []
    image = Image.new("RGB", (width, layout.height), chosen.card("table"))
    who = _seat_name(names, seat)
    _header(image, chosen, width, f"{who}'s hand", _round_line(view), _status(view, names, seat))
    draw = ImageDraw.Draw(image)
    slot_font = font(round(15 * s), "bold")
    for slot, (label, box) in enumerate(zip(hand, layout.slots, strict=True)):
        draw_card(image, box, None if label is None else str(label), chosen)
        draw_text(
            draw,
            ((box[0] + box[2]) / 2, box[3] + 20 * s),
            str(slot + 1),
            slot_font,
            chosen.card("table_text"),
            "ms",
        )

    caption = font(round(13 * s))
    holding = view.get("holding")
    if layout.held is not None and holding:
        x0, y0, x1, y1 = layout.held
        ring = 4 * s
        draw.rounded_rectangle(
            (x0 - ring / 2, y0 - ring / 2, x1 + ring / 2, y1 + ring / 2),
            radius=round(8 * s),
            outline=chosen.card("drawn_ring"),
            width=max(2, round(ring)),
        )
        held = holding.get("card")
        draw_card(image, layout.held, None if held is None else str(held), chosen)
        source = "drawn" if holding.get("source") == "draw" else "taken from the discard"
        draw_text(
            draw,
            ((x0 + x1) / 2, y1 + 20 * s),
            f"just {source}",
            caption,
            chosen.card("table_text"),
            "ms",
        )
    top_card = view.get("discard_top")
    x0, y0, x1, y1 = layout.discard
    if top_card is not None:
        draw_card(image, layout.discard, str(top_card), chosen)
    else:
        draw.rounded_rectangle(
            layout.discard, radius=round(6 * s), outline=chosen.card("table_muted"), width=1
        )
    draw_text(
        draw, ((x0 + x1) / 2, y1 + 20 * s), "discard top", caption, chosen.card("table_text"), "ms"
    )

    info = [f"draw pile {view.get('draw_count', 0)}", f"discard {view.get('discard_count', 0)}"]
    totals = view.get("totals") or []
    if seat < len(totals):
        info.append(f"your total {totals[seat]}")
    if seat in set(view.get("immune") or []):
        info.append("Kellner: you are immune")
    if view.get("rule"):
        info.append(f"rule: {view['rule']}")
    info_font: Font = font(round(13 * s))
    line_y = layout.strip_top + 14 * s
    for entry in info:
        for line in wrap_text(entry, info_font, width - layout.info_x - 10 * s, max_lines=2):
            if line_y > layout.height - 8 * s:
                break
            draw_text(
                draw, (layout.info_x, line_y), line, info_font, chosen.card("table_text"), "ls"
            )
            line_y += 17 * s
    return image
