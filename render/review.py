"""The pictures of a game's review and of a puzzle: pure functions of their data.

- :func:`evaluation_graph`: the first colour's chance of winning after every move, as a
  band above (first colour ahead) or below (second colour ahead) the middle line, in the
  stones' own colours; the turning points as vertical lines, each player's mistakes as a
  dot in the mover's colour on the curve; move numbers along the bottom.
- :func:`move_picture`: one position with two moves marked: the move played (a no-entry
  sign on its cells) and the better one (a ring on its cells, and a ring round every stone
  it captures or turns); used for a review's mistake and for a puzzle's answer.
- :func:`puzzle_picture`: a puzzle's position with its caption, and the solution line
  drawn once answered (each move's cells numbered in order).

Every word comes in from the caller, already in the reader's language.
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Mapping, Sequence

from PIL import Image, ImageDraw

from engine.board import BoardState
from i18n import DEFAULT_LANGUAGE
from render.annotations import Annotations, board_panel, caption_band
from render.text import draw_text, font
from render.themes import RGB, get_theme

GRAPH_HEIGHT = 230
MAX_RINGED = 12
CELL = re.compile(r"[a-z]+[0-9]+")


def _mix(a: RGB, b: RGB, share: float) -> RGB:
    return (
        round(a[0] + (b[0] - a[0]) * share),
        round(a[1] + (b[1] - a[1]) * share),
        round(a[2] + (b[2] - a[2]) * share),
    )


def evaluation_graph(
    chances: Sequence[float],
    *,
    turning_points: Sequence[int] = (),
    mistakes: Mapping[int, int] | None = None,
    title: str = "",
    axis_label: str = "",
    width: int = 480,
    theme: str = "classic",
) -> Image.Image:
    """The evaluation graph: ``chances[i]`` is the first colour's chance after move i;
    ``mistakes`` maps a move's index to the mover's colour number (0 first, 1 second)."""
    chosen = get_theme(theme)
    band = caption_band(title, width, chosen)
    pad_left, pad_right, pad_top, pad_bottom = 10, 10, 10, 26
    height = GRAPH_HEIGHT
    image = Image.new("RGB", (width, band.height + height), chosen.background)
    image.paste(band, (0, 0))
    draw = ImageDraw.Draw(image)
    top = band.height + pad_top
    bottom = band.height + height - pad_bottom
    left, right = pad_left, width - pad_right
    middle = (top + bottom) / 2
    count = max(1, len(chances))

    def x_of(index: float) -> float:
        return left + (right - left) * (index + 1) / count

    def y_of(chance: float) -> float:
        return bottom - (bottom - top) * min(1.0, max(0.0, chance))

    first, second = chosen.stones[0].fill, chosen.stones[1].fill
    draw.rectangle((left, top, right, bottom), fill=_mix(chosen.background, chosen.cell, 0.5))
    points = [(float(left), middle)] + [(x_of(i), y_of(c)) for i, c in enumerate(chances)]
    # the band between the curve and the middle line, one slice a move
    for (x0, y0), (x1, y1) in itertools.pairwise(points):
        for colour, clip_top in ((first, True), (second, False)):
            ya = min(y0, middle) if clip_top else max(y0, middle)
            yb = min(y1, middle) if clip_top else max(y1, middle)
            draw.polygon([(x0, middle), (x0, ya), (x1, yb), (x1, middle)], fill=colour)
    draw.line([(left, middle), (right, middle)], fill=chosen.cell_edge, width=1)
    for index in turning_points:
        if 0 <= index < count:
            x = x_of(index)
            draw.line([(x, top), (x, bottom)], fill=chosen.placed, width=2)
    draw.line(points, fill=chosen.header_background, width=2)
    for index, colour_number in sorted((mistakes or {}).items()):
        if 0 <= index < count:
            x, y = x_of(index), y_of(chances[index])
            fill = chosen.stones[colour_number].fill
            edge = chosen.stones[colour_number].edge
            draw.ellipse((x - 6, y - 6, x + 6, y + 6), fill=fill, outline=edge, width=2)
    # move numbers every 10 or 20 moves along the bottom
    used = font(13)
    step = 10 if count <= 100 else 20
    for number in range(step, count + 1, step):
        x = x_of(number - 1)
        draw.line([(x, bottom), (x, bottom + 4)], fill=chosen.label, width=1)
        draw_text(draw, (x, bottom + 18), str(number), used, chosen.label, "ms")
    if axis_label:
        draw_text(draw, (left, bottom + 18), axis_label, used, chosen.label, "ls")
    return image


def move_cells(before: BoardState, move: str) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """The cells a move places on, and the stones it removes or turns (Lefe captures,
    Dalen flips, Lublache's flips and removals)."""
    after = before.play(move)
    old, new = before.stones, after.stones
    placed = tuple(sorted(c for c in new if c not in old))
    changed = tuple(sorted(c for c in old if new.get(c) != old[c]))
    if not placed:
        placed = tuple(c for c in CELL.findall(move) if c in new)
    return placed, changed


def move_picture(
    before: BoardState,
    played: str | None,
    better: str,
    *,
    caption: str = "",
    width: int = 480,
    theme: str = "classic",
    language: str = DEFAULT_LANGUAGE,
) -> Image.Image:
    """``before`` with ``played`` (no-entry signs) and ``better`` (rings) marked."""
    here, taken = move_cells(before, better)
    wrong = move_cells(before, played)[0] if played else ()
    marks = Annotations(may_not=tuple(c for c in wrong if c not in here), here=here, about=taken)
    panel = board_panel(before, marks, caption=caption, width=width, theme=theme, language=language)
    # the better move as a ghost of the mover's stone with a bold ring: it reads at once
    chosen = get_theme(theme)
    mover = before.to_move or before.game.colors[0]
    stone = chosen.stones[before.game.colors.index(mover)]
    ghost = _mix(stone.fill, chosen.cell, 0.45)
    draw = ImageDraw.Draw(panel.image)
    radius = panel.geometry.radius * 0.62
    ring = max(3, round(panel.geometry.radius * 0.22))
    for cell in here:
        x, y = panel.centre(cell)
        box = (x - radius, y - radius, x + radius, y + radius)
        draw.ellipse(box, fill=ghost, outline=chosen.placed, width=ring)
    return panel.image


def line_picture(
    start: BoardState,
    line: Sequence[str],
    *,
    caption: str = "",
    width: int = 480,
    theme: str = "classic",
    language: str = DEFAULT_LANGUAGE,
) -> Image.Image:
    """A puzzle's solution drawn: the position after the whole line, every stone the line
    placed ringed, numbered in the order played, the stones it took ringed as well."""
    state = start
    order: list[tuple[str, int]] = []
    taken: set[str] = set()
    for number, move in enumerate(line, 1):
        placed, changed = move_cells(state, move)
        order.extend((cell, number) for cell in placed)
        taken.update(changed)
        state = state.play(move)
    placed_cells = tuple(cell for cell, _ in order)
    # the stones the line took or turned, ringed while they are few enough to read (a Dalen
    # win that turns the whole army is seen on the board itself)
    about = tuple(sorted(taken - set(placed_cells))) if len(taken) <= MAX_RINGED else ()
    marks = Annotations(here=placed_cells, about=about)
    panel = board_panel(state, marks, caption=caption, width=width, theme=theme, language=language)
    image = panel.image
    draw = ImageDraw.Draw(image)
    chosen = get_theme(theme)
    used = font(max(12, round(panel.geometry.radius * 0.9)), "bold")
    for cell, number in order:
        if cell not in state.stones:
            continue
        x, y = panel.centre(cell)
        fill = chosen.stones[0 if state.stones[cell] == state.game.colors[0] else 1].fill
        light = 0.299 * fill[0] + 0.587 * fill[1] + 0.114 * fill[2] > 140
        draw_text(draw, (x, y), str(number), used, (0, 0, 0) if light else (255, 255, 255), "mm")
    return image
