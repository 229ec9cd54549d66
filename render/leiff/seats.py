"""One seat's block on the table: its name and the lines under it (card count, scores, what
the special cards and the drinking rules did to it), packed whole into the text column,
and its cards with their slot numbers."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from PIL import Image, ImageDraw

from engine.leiff.views import LeiffView
from i18n import translate, translate_plural
from render import sprites
from render.geometry import scale_of
from render.leiff.cards import paste_card
from render.leiff.words import drinks_text, score_details, seat_name
from render.text import Font, draw_text, fit_text, font, text_width, wrap_text
from render.themes import get_theme


def seat_rows(view: LeiffView) -> int:
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
    players = seat_rows(view)
    hand = (view.get("hands") or [[] for _ in range(players)])[seat]
    size = (view.get("hand_sizes") or [len(hand)] * players)[seat]
    name = fit_text(seat_name(names, seat, language), font(round(15 * s), "bold"), room)
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
        partner = seat_name(names, int(link.get("to", 0)), language)
        effects.append(translate(language, "picture.leiff.drinks_with", name=partner))
    if any(entry.get("target") == seat for entry in view.get("enchantments") or []):
        effects.append(translate(language, "picture.leiff.enchanted"))
    drinks = view.get("drinks") if (view.get("options") or {}).get("drinking") else None
    if drinks and seat < len(drinks):
        settled = bool(view.get("round_over") or view.get("outcome"))
        effects.append(drinks_text(drinks[seat], language, settled=settled))
    small = font(round(12 * s))
    return name, (*_packed(details, small, room), *_packed(effects, small, room))


def draw_seat(
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
