"""A member's rating graphs (``/profile``) as one picture: a pure function of a worded view.

The Discord layer words everything (the title, each panel's game and pool, the rating as
shown, the first and last dates, a note for a graph with too few points) into a
:class:`GraphView`; :func:`render_rating_graph` only draws it: a header band with the title,
then one panel a game and rating pool: its name and the rating now, the rating over time
as a line (time along the bottom, the first and last dates under it, the lowest and
highest ratings at the left, each game a dot while they are few), the last point ringed.
Sized to be read on a phone (360 px wide: every text at least 11 px there).
Deterministic: the same view and theme give the same bytes.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from PIL import Image, ImageDraw

from render.encode import png_bytes
from render.text import draw_text, fit_text, font
from render.themes import RGB, Theme

WIDTH = 640
HEADER = 60
PANEL_TOP = 44  # the panel's name and rating
PLOT = 150
PANEL_BOTTOM = 40  # the dates
PANEL = PANEL_TOP + PLOT + PANEL_BOTTOM
PADDING = 18
AXIS = 72  # the ratings at the left of a plot
MAX_PANELS = 10
DOTS_UP_TO = 40  # each game is a dot while there are at most this many points
LINE_WIDTH = 4


@dataclass(frozen=True)
class GraphPanel:
    """One game and pool: ``points`` are (when, rating shown), oldest first; ``note`` is
    said in the plot when there are fewer than two points."""

    title: str
    rating: str
    points: tuple[tuple[float, int], ...]
    start: str
    end: str
    note: str = ""


@dataclass(frozen=True)
class GraphView:
    title: str
    panels: tuple[GraphPanel, ...]


def _mix(a: RGB, b: RGB, share: float) -> RGB:
    r, g, bl = (round(x + (y - x) * share) for x, y in zip(a, b, strict=True))
    return (r, g, bl)


def _scale(points: Sequence[tuple[float, int]]) -> tuple[int, int]:
    """The lowest and highest rating of the plot: the points' with a margin, rounded to
    tens, at least 60 points apart."""
    low = min(rating for _, rating in points)
    high = max(rating for _, rating in points)
    middle = (low + high) / 2
    half = max(30.0, (high - low) / 2 * 1.15)
    return int((middle - half) // 10 * 10), int(-(-(middle + half) // 10) * 10)


def plot_box(index: int) -> tuple[int, int, int, int]:
    """Where the plot of panel ``index`` is (left, top, right, bottom)."""
    top = HEADER + index * PANEL + PANEL_TOP
    return PADDING + AXIS, top, WIDTH - PADDING, top + PLOT


def point_xy(panel: GraphPanel, index: int, number: int) -> tuple[float, float]:
    """Where point ``number`` of the panel at ``index`` is drawn."""
    left, top, right, bottom = plot_box(index)
    inner_left, inner_right = left + 10, right - 10
    times = [when for when, _ in panel.points]
    first, last = times[0], times[-1]
    when, rating = panel.points[number]
    if last > first:
        x = inner_left + (inner_right - inner_left) * (when - first) / (last - first)
    else:  # all at one moment: side by side
        x = inner_left + (inner_right - inner_left) * number / max(1, len(times) - 1)
    low, high = _scale(panel.points)
    y = bottom - 8 - (bottom - top - 16) * (rating - low) / (high - low)
    return x, y


def _panel(draw: ImageDraw.ImageDraw, panel: GraphPanel, index: int, theme: Theme) -> None:
    name_font, rating_font, small = font(24, "bold"), font(28, "bold"), font(20)
    muted = _mix(theme.label, theme.background, 0.35)
    top = HEADER + index * PANEL
    rating_width = draw.textlength(panel.rating, font=rating_font)
    draw_text(
        draw,
        (PADDING, top + PANEL_TOP // 2 + 2),
        fit_text(panel.title, name_font, WIDTH - 3 * PADDING - rating_width),
        name_font,
        theme.label,
        "lm",
    )
    draw_text(
        draw,
        (WIDTH - PADDING, top + PANEL_TOP // 2 + 2),
        panel.rating,
        rating_font,
        theme.label,
        "rm",
    )
    left, plot_top, right, bottom = plot_box(index)
    draw.rectangle((left, plot_top, right, bottom), fill=_mix(theme.background, theme.cell, 0.35))
    draw.rectangle((left, plot_top, right, bottom), outline=theme.cell_edge, width=1)
    if len(panel.points) < 2:
        middle_x, middle_y = (left + right) / 2, (plot_top + bottom) / 2
        if panel.points:  # the one point in the middle, the note under it
            draw.ellipse(
                (middle_x - 8, middle_y - 22, middle_x + 8, middle_y - 6), fill=theme.placed
            )
        draw_text(
            draw,
            (middle_x, middle_y + 22 if panel.points else middle_y),
            fit_text(panel.note, small, right - left - 20),
            small,
            muted,
            "mm",
        )
        return
    low, high = _scale(panel.points)
    for value in (low, (low + high) // 2, high):
        y = bottom - 8 - (bottom - plot_top - 16) * (value - low) / (high - low)
        draw.line((left + 1, y, right - 1, y), fill=_mix(theme.background, theme.cell_edge, 0.4))
        draw_text(draw, (left - 8, y), str(value), small, muted, "rm")
    xy = [point_xy(panel, index, number) for number in range(len(panel.points))]
    draw.line(xy, fill=theme.placed, width=LINE_WIDTH, joint="curve")
    if len(xy) <= DOTS_UP_TO:
        for x, y in xy:
            draw.ellipse((x - 4, y - 4, x + 4, y + 4), fill=theme.placed)
    x, y = xy[-1]
    draw.ellipse((x - 8, y - 8, x + 8, y + 8), outline=theme.placed, width=3)
    draw_text(draw, (left, bottom + 8), panel.start, small, muted, "la")
    draw_text(draw, (right, bottom + 8), panel.end, small, muted, "ra")


def render_rating_graph(view: GraphView, theme: Theme) -> bytes:
    """The rating graphs (PNG) of ``view`` in ``theme``: at most :data:`MAX_PANELS`."""
    panels = view.panels[:MAX_PANELS]
    height = HEADER + PANEL * max(1, len(panels)) + 8
    image = Image.new("RGB", (WIDTH, height), theme.background)
    draw = ImageDraw.Draw(image)
    draw.rectangle((0, 0, WIDTH, HEADER), fill=theme.header_background)
    title_font = font(28, "bold")
    draw_text(
        draw,
        (PADDING, HEADER // 2),
        fit_text(view.title, title_font, WIDTH - 2 * PADDING),
        title_font,
        theme.header_text,
        "lm",
    )
    for index, panel in enumerate(panels):
        _panel(draw, panel, index, theme)
    return png_bytes(image)
