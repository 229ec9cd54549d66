"""A tournament's standings as a picture: a pure function of a worded view.

The Discord layer words everything (names, points as "3½", the column headings in the
reader's language) into a :class:`StandingsView`; :func:`render_standings` only draws it:
a header band with the title and subtitle, column headings, then one row per player
(rank, name, points, the tie-breaks, a flame for an arena player on a streak, a dot for a
game under way, greyed when withdrawn). The final standings mark the podium: gold, silver
and bronze discs behind ranks 1 to 3. Rows past ``MAX_ROWS`` are summed up in the
view's ``more`` line. Deterministic: the same view and theme give the same bytes.

Sized for a phone: Discord shows the 720-pixel picture about 360 pixels wide there, so
every size here is halved on screen; the smallest text (the subtitle, the column headings,
the tie-breaks) is drawn at 24 pixels or more, 12 or more as read on a phone (at 18-20, as
first drawn, a German subtitle and the tie-break headings were 9-10 pixels high there).
"""

from __future__ import annotations

from dataclasses import dataclass

from PIL import Image, ImageDraw

from render.encode import png_bytes
from render.text import Font, draw_text, fit_text, font, text_width
from render.themes import RGB, Theme

MAX_ROWS = 24
WIDTH = 720
HEADER = 100
COLUMN_HEADINGS = 42
ROW = 44
FOOTER = 36
PADDING = 18
RANK_X = PADDING + 24  # the centre of the rank column (and of a podium disc)
NAME_X = PADDING + 62  # where the names start
PODIUM_RADIUS = 18
MIN_VALUE_WIDTH, MAX_VALUE_WIDTH, COLUMN_GAP = 64, 170, 26
#: Font sizes (pixels at 720 wide): title, subtitle, headings, rows.
TITLE_SIZE, SUBTITLE_SIZE, HEADING_SIZE, ROW_SIZE = 36, 27, 24, 29
PODIUM: tuple[RGB, RGB, RGB] = ((212, 175, 55), (176, 182, 190), (196, 127, 62))
FLAME: RGB = (232, 96, 28)
PLAYING: RGB = (64, 160, 96)


@dataclass(frozen=True)
class StandingsRow:
    rank: int
    name: str
    points: str
    tiebreaks: tuple[str, ...] = ()
    on_fire: bool = False
    playing: bool = False
    out: bool = False


@dataclass(frozen=True)
class StandingsView:
    title: str
    subtitle: str
    headings: tuple[str, ...]  # rank, player, points, then one per tie-break
    rows: tuple[StandingsRow, ...]
    podium: bool = False
    more: str = ""  # "and 12 more" when rows were left out


def _muted(colour: RGB, background: RGB) -> RGB:
    r, g, b = (round(c * 0.45 + bg * 0.55) for c, bg in zip(colour, background, strict=True))
    return (r, g, b)


def render_standings(view: StandingsView, theme: Theme) -> bytes:
    """The standings picture (PNG) of ``view`` in ``theme``."""
    rows = view.rows[:MAX_ROWS]
    height = HEADER + COLUMN_HEADINGS + ROW * max(len(rows), 1) + FOOTER
    image = Image.new("RGB", (WIDTH, height), theme.background)
    draw = ImageDraw.Draw(image)
    draw.rectangle((0, 0, WIDTH, HEADER), fill=theme.header_background)
    title_font, sub_font = font(TITLE_SIZE, "bold"), font(SUBTITLE_SIZE)
    draw_text(
        draw,
        (PADDING, 12),
        fit_text(view.title, title_font, WIDTH - 2 * PADDING),
        title_font,
        theme.header_text,
    )
    draw_text(
        draw,
        (PADDING, 58),
        fit_text(view.subtitle, sub_font, WIDTH - 2 * PADDING),
        sub_font,
        theme.header_muted,
    )
    heading_font = font(HEADING_SIZE, "bold")
    row_font, bold_font = font(ROW_SIZE), font(ROW_SIZE, "bold")
    columns = _columns(view, rows, heading_font, row_font, bold_font)
    y = HEADER + 8
    for index, heading in enumerate(view.headings):
        x, width, anchor = columns[index]
        text = fit_text(heading, heading_font, width)
        draw_text(draw, (x, y), text, heading_font, theme.label, anchor=anchor)
    draw.line(
        (PADDING, HEADER + COLUMN_HEADINGS - 2, WIDTH - PADDING, HEADER + COLUMN_HEADINGS - 2),
        fill=theme.cell_edge,
        width=2,
    )
    for number, row in enumerate(rows):
        top = HEADER + COLUMN_HEADINGS + number * ROW
        if number % 2:
            draw.rectangle((0, top, WIDTH, top + ROW - 1), fill=theme.cell)
        colour = _muted(theme.label, theme.background) if row.out else theme.label
        centre_y = top + ROW // 2
        x, width, _ = columns[0]
        if view.podium and row.rank <= 3 and not row.out:
            r = PODIUM_RADIUS
            draw.ellipse((x - r, centre_y - r, x + r, centre_y + r), fill=PODIUM[row.rank - 1])
        draw_text(draw, (x, centre_y), str(row.rank), bold_font, colour, anchor="mm")
        x, width, _ = columns[1]
        marks = 0
        if row.on_fire:
            marks += 28
            _flame(draw, x + 10, centre_y)
        if row.playing:
            draw.ellipse((x + marks + 2, centre_y - 7, x + marks + 16, centre_y + 7), fill=PLAYING)
            marks += 24
        name = fit_text(row.name, row_font, width - marks)
        draw_text(draw, (x + marks, centre_y), name, row_font, colour, anchor="lm")
        values = (row.points, *row.tiebreaks)
        for index, value in enumerate(values[: len(columns) - 2]):
            x, width, anchor = columns[2 + index]
            used = bold_font if index == 0 else row_font
            draw_text(
                draw,
                (x, centre_y),
                fit_text(value, used, width),
                used,
                colour,
                anchor=anchor.replace("a", "m").replace("ra", "rm"),
            )
    if view.more or not rows:
        foot = view.more
        top = HEADER + COLUMN_HEADINGS + ROW * max(len(rows), 1)
        draw_text(
            draw,
            (PADDING, top + 4),
            fit_text(foot, sub_font, WIDTH - 2 * PADDING),
            sub_font,
            _muted(theme.label, theme.background),
        )
    return png_bytes(image)


def _columns(
    view: StandingsView,
    rows: tuple[StandingsRow, ...],
    heading_font: Font,
    row_font: Font,
    bold_font: Font,
) -> list[tuple[float, float, str]]:
    """(x, width, anchor) of each column: rank (centred), name, points, tie-breaks. Each
    value column is as wide as its heading or its widest value (within bounds), so the
    names keep the rest: a long heading ("Buchholz") shows whole without a fixed width
    every column would pay for."""
    right: float = WIDTH - PADDING
    widths: list[float] = []
    for index, heading in enumerate(view.headings[2:]):
        values = [
            (row.points, *row.tiebreaks)[index] for row in rows if index <= len(row.tiebreaks)
        ]
        used = [text_width(heading, heading_font)]
        used += [text_width(v, bold_font if index == 0 else row_font) for v in values]
        widths.append(min(max(max(used), MIN_VALUE_WIDTH), MAX_VALUE_WIDTH))
    value_columns: list[tuple[float, float, str]] = []
    for width in reversed(widths):  # right to left
        value_columns.insert(0, (right, width, "ra"))
        right -= width + COLUMN_GAP
    name_width = right - NAME_X
    return [(RANK_X, 48, "ma"), (NAME_X, name_width, "la"), *value_columns]


def _flame(draw: ImageDraw.ImageDraw, x: float, y: float) -> None:
    """A small flame: two tongues of fire, the arena's streak mark."""
    draw.polygon([(x - 9, y + 10), (x, y - 13), (x + 9, y + 10)], fill=FLAME)
    draw.ellipse((x - 9, y - 1, x + 9, y + 13), fill=FLAME)
    draw.polygon([(x - 4, y + 10), (x + 1, y - 3), (x + 5, y + 10)], fill=(252, 196, 64))
