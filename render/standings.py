"""A tournament's standings as a picture: a pure function of a worded view.

The Discord layer words everything (names, points as "3½", the column headings in the
reader's language) into a :class:`StandingsView`; :func:`render_standings` only draws it:
a header band with the title and subtitle, column headings, then one row per player
(rank, name, points, the tie-breaks, a flame for an arena player on a streak, a dot for a
game under way, greyed when withdrawn). The final standings mark the podium: gold, silver
and bronze discs behind ranks 1 to 3. Rows past ``MAX_ROWS`` are summed up in the
view's ``more`` line. Deterministic: the same view and theme give the same bytes.
"""

from __future__ import annotations

from dataclasses import dataclass

from PIL import Image, ImageDraw

from render.encode import png_bytes
from render.text import draw_text, fit_text, font
from render.themes import RGB, Theme

MAX_ROWS = 24
WIDTH = 720
HEADER = 84
COLUMN_HEADINGS = 34
ROW = 34
FOOTER = 30
PADDING = 18
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
    title_font, sub_font = font(30, "bold"), font(20)
    draw_text(
        draw,
        (PADDING, 14),
        fit_text(view.title, title_font, WIDTH - 2 * PADDING),
        title_font,
        theme.header_text,
    )
    draw_text(
        draw,
        (PADDING, 52),
        fit_text(view.subtitle, sub_font, WIDTH - 2 * PADDING),
        sub_font,
        theme.header_muted,
    )
    columns = _columns(len(view.headings) - 3)
    heading_font = font(18, "bold")
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
    row_font, bold_font = font(22), font(22, "bold")
    for number, row in enumerate(rows):
        top = HEADER + COLUMN_HEADINGS + number * ROW
        if number % 2:
            draw.rectangle((0, top, WIDTH, top + ROW - 1), fill=theme.cell)
        colour = _muted(theme.label, theme.background) if row.out else theme.label
        centre_y = top + ROW // 2
        x, width, _ = columns[0]
        if view.podium and row.rank <= 3 and not row.out:
            draw.ellipse((x - 15, centre_y - 15, x + 15, centre_y + 15), fill=PODIUM[row.rank - 1])
        draw_text(draw, (x, centre_y), str(row.rank), bold_font, colour, anchor="mm")
        x, width, _ = columns[1]
        marks = 0
        if row.on_fire:
            marks += 22
            _flame(draw, x + 8, centre_y)
        if row.playing:
            draw.ellipse((x + marks + 2, centre_y - 5, x + marks + 12, centre_y + 5), fill=PLAYING)
            marks += 18
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


def _columns(tiebreaks: int) -> list[tuple[float, float, str]]:
    """(x, width, anchor) of each column: rank (centred), name, points, tie-breaks."""
    numbers = 110
    right = WIDTH - PADDING
    value_columns = [(right - numbers * i, numbers - 10, "ra") for i in range(tiebreaks, -1, -1)]
    name_x = PADDING + 56
    name_width = value_columns[0][0] - numbers - name_x
    return [(PADDING + 22, 44, "ma"), (name_x, name_width, "la"), *value_columns]


def _flame(draw: ImageDraw.ImageDraw, x: float, y: float) -> None:
    """A small flame: two tongues of fire, the arena's streak mark."""
    draw.polygon([(x - 7, y + 8), (x, y - 10), (x + 7, y + 8)], fill=FLAME)
    draw.ellipse((x - 7, y - 1, x + 7, y + 10), fill=FLAME)
    draw.polygon([(x - 3, y + 8), (x + 1, y - 2), (x + 4, y + 8)], fill=(252, 196, 64))
