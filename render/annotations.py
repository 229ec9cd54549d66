"""Marks drawn on top of a board picture: move hints, the marks of a tutorial page, and why a
move was refused.

Everything here draws *over* a finished :func:`render.board.render_board` picture, so a
board without annotations is exactly the picture it always was. The marks differ in shape
as well as colour (the theme's ``annotations`` colours, from the Okabe–Ito family):

- **may** — a small dot in a cell where a stone may go (lichess's move hints);
- **may not** — a no-entry sign (a circle with a slash) on a cell where it may not;
- **about** — a bold ring round a stone a rule is about (the stones that touch, the leaves,
  the tree that will be captured);
- **here** — a ring in the "placed" colour on the empty cell where the move shown goes
  (the same ring marks the stone once it is placed);
- **loop** — a band joining the stones of a loop, drawn between the stones;
- **shade** — a tint over empty cells or points (the points a Les stone may go to);
- **owned** — empty cells or points tinted in their owner's colour (Les holes): the first
  colour's flat blue, the second colour's orange stripes, as owned loops are drawn.

:func:`board_panel` cuts a board picture down to its board (no header), optionally to the
part of the board around some cells, with a caption above; :func:`figure` sets panels side
by side or one above the other (a before/after pair). Panels and figures know where every
cell's centre ended up, so tests can sample the marks.
"""

from __future__ import annotations

import math
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from functools import lru_cache

from PIL import Image, ImageChops, ImageDraw

from engine.spec import BoardView
from i18n import DEFAULT_LANGUAGE
from render import sprites
from render.board import (
    BOARD_LEVEL,
    board_background,
    board_palette_panels,
    is_point_game,
    owned_loops,
    palette_sample,
    render_board,
)
from render.encode import LEVEL_INFO, PALETTE_INFO, palette_of
from render.geometry import MAX_WIDTH, MIN_WIDTH, SQRT3, BoardGeometry, board_geometry
from render.text import draw_text, font, wrap_text
from render.themes import RGB, Theme, get_theme

# what a canonical move places first: its leading cell name ("e5xg6" -> "e5", "e5+b2" -> "e5")
_LEADING_CELL = re.compile(r"[a-z]+\d+")


@dataclass(frozen=True)
class Annotations:
    """The marks on one board picture, by cell name (see the module docstring)."""

    may: tuple[str, ...] = ()
    may_not: tuple[str, ...] = ()
    about: tuple[str, ...] = ()
    here: tuple[str, ...] = ()
    loops: tuple[tuple[str, ...], ...] = ()  # cells of each loop in walking order
    shade: tuple[str, ...] = ()
    owned: tuple[tuple[str, tuple[str, ...]], ...] = ()  # (owner colour, its cells)

    def __bool__(self) -> bool:
        return any(
            (self.may, self.may_not, self.about, self.here, self.loops, self.shade, self.owned)
        )

    def cells(self) -> set[str]:
        """Every cell some mark is on."""
        found = {*self.may, *self.may_not, *self.about, *self.here, *self.shade}
        for loop in self.loops:
            found.update(loop)
        for _, owned in self.owned:
            found.update(owned)
        return found


# ---- what to mark ---------------------------------------------------------------------------


def hint_cells(state: BoardView, legal_moves: Iterable[str]) -> tuple[str, ...]:
    """The cells where the player to move may put a stone now (for Les, the first stone of a
    turn), in notation order, from the game's canonical moves: a move's leading cell name is
    where its stone goes; words (``swap``, ``pass``, ``black``) place nothing."""
    grid = state.grid
    # Most canonical moves are a cell's name and nothing else: a dictionary look-up finds
    # them (this runs on the bot's event loop for every board picture with hints, some
    # seventy moves each); the others are parsed.
    by_name = grid.index_by_name
    found: set[int] = set()
    for move in legal_moves:
        index = by_name.get(move)
        if index is None:
            match = _LEADING_CELL.match(move)
            index = grid.index(match[0]) if match else None
        if index is not None:
            found.add(index)
    return tuple(grid.names[index] for index in sorted(found))


def refusal_annotations(code: str, params: dict[str, object]) -> Annotations | None:
    """The marks that show why a move was refused, from the refusal's parameters: the cell
    refused (``cell``) gets a no-entry sign, the stones it is about (``stones``) a ring, and
    a loop (``loop``) its band. None when the refusal names no stones and no loop (a picture
    would add nothing to the sentence)."""
    del code  # the parameters say everything; the code is for the words
    stones = _names(params.get("stones"))
    loop = _names(params.get("loop"))
    if not stones and not loop:
        return None
    cell = params.get("cell")
    return Annotations(
        may_not=(cell,) if isinstance(cell, str) else (),
        about=stones,
        loops=(loop,) if loop else (),
    )


def _names(value: object) -> tuple[str, ...]:
    if isinstance(value, list | tuple):
        return tuple(str(item) for item in value)
    return ()


# ---- drawing --------------------------------------------------------------------------------


def _colour(theme: Theme, key: str, fallback: RGB) -> RGB:
    return theme.annotations.get(key, fallback)


def _index(state: BoardView, name: str) -> int | None:
    return state.grid.index(name)


def _stone_discs(state: BoardView, geo: BoardGeometry) -> Image.Image:
    """A mask of every stone on the board (the marks drawn between stones leave them be)."""
    mask = Image.new("L", (geo.width, geo.height), 0)
    draw = ImageDraw.Draw(mask)
    r = geo.stone_radius + 0.5
    for index, code in enumerate(state.cells):
        if code:
            x, y = geo.centres[index]
            draw.ellipse((x - r, y - r, x + r, y + r), fill=255)
    return mask


def _tint_mask(
    size: tuple[int, int], state: BoardView, geo: BoardGeometry, cells: Sequence[str], level: int
) -> Image.Image:
    """Coverage of the given empty cells (hexagons) or points (discs), stones left out."""
    mask = Image.new("L", size, 0)
    draw = ImageDraw.Draw(mask)
    for name in cells:
        index = _index(state, name)
        if index is None:
            continue
        if geo.points:
            x, y = geo.centres[index]
            r = geo.radius * 0.78
            draw.ellipse((x - r, y - r, x + r, y + r), fill=level)
        else:
            draw.polygon(geo.hexagon(index, 0.9), fill=level)
    return ImageChops.subtract(mask, _stone_discs(state, geo))


@lru_cache(maxsize=8)
def _hatching(width: int, height: int, period: int) -> Image.Image:
    """Diagonal stripes as a coverage mask (the texture of the second colour's tint)."""
    mask = Image.new("L", (width, height), 0)
    draw = ImageDraw.Draw(mask)
    for offset in range(-height, width, period):
        draw.line([(offset, height), (offset + height, 0)], fill=255, width=max(2, period * 2 // 5))
    return mask


def _draw_shade(
    image: Image.Image, state: BoardView, geo: BoardGeometry, theme: Theme, cells: Sequence[str]
) -> None:
    mask = _tint_mask(image.size, state, geo, cells, 120)
    image.paste(_colour(theme, "may", theme.placed), (0, 0), mask)


def _draw_owned(
    image: Image.Image,
    state: BoardView,
    geo: BoardGeometry,
    theme: Theme,
    owned: Sequence[tuple[str, Sequence[str]]],
) -> None:
    first = state.game.colors[0]
    for owner, cells in owned:
        if owner == first:
            image.paste(theme.loop_first, (0, 0), _tint_mask(image.size, state, geo, cells, 110))
        else:
            mask = _tint_mask(image.size, state, geo, cells, 200)
            stripes = _hatching(image.width, image.height, max(6, round(geo.radius * 0.5)))
            image.paste(theme.loop_second, (0, 0), ImageChops.multiply(mask, stripes))


def _draw_loop_bands(
    image: Image.Image,
    state: BoardView,
    geo: BoardGeometry,
    theme: Theme,
    loops: Sequence[Sequence[str]],
) -> None:
    """Each loop lightly tinted inside and outlined by a band through its stones, like an
    owned loop of the board picture but in the "about" colour; the stones stay on top."""
    band = max(3, round(geo.radius * 0.42))
    tint = Image.new("L", image.size, 0)
    outline = Image.new("L", image.size, 0)
    halo = Image.new("L", image.size, 0)
    for loop in loops:
        path = [geo.centres[i] for i in (_index(state, c) for c in loop) if i is not None]
        if len(path) < 3:
            continue
        ImageDraw.Draw(tint).polygon(path, fill=70)
        ImageDraw.Draw(halo).line([*path, path[0]], fill=255, width=band + 4, joint="curve")
        ImageDraw.Draw(outline).line([*path, path[0]], fill=255, width=band, joint="curve")
    stones = _stone_discs(state, geo)
    about = _colour(theme, "about", theme.placed)
    image.paste(about, (0, 0), ImageChops.subtract(tint, stones))
    image.paste(_colour(theme, "halo", theme.background), (0, 0), ImageChops.subtract(halo, stones))
    image.paste(about, (0, 0), ImageChops.subtract(outline, stones))


@dataclass(frozen=True)
class MarkSizes:
    """Where and how big the marks are on one board geometry (tests sample them here)."""

    dot_radius: float  # cells: a dot below the cell's name; points: a ring round the name
    dot_drop: float  # the dot sits this far below the cell's centre
    may_ring: bool  # points (Les) get a ring round the point instead of a dot
    line: float  # the width of rings and signs
    sign_radius: float  # the no-entry sign's outer radius
    about_inner: float  # the "about" ring, just outside the stone
    about_outer: float
    here_inner: float  # the "here" ring, inside the cell
    here_outer: float

    def dot_centre(self, centre: tuple[float, float]) -> tuple[float, float]:
        return (centre[0], centre[1] + self.dot_drop)

    def may_sample(self, centre: tuple[float, float]) -> tuple[float, float]:
        """A pixel that the "may" mark of a cell centred at ``centre`` covers."""
        if self.may_ring:
            return (centre[0], centre[1] + self.dot_radius - self.line / 2)
        return self.dot_centre(centre)


def mark_sizes(geo: BoardGeometry) -> MarkSizes:
    r = geo.stone_radius
    line = max(2.0, geo.radius * 0.13)
    return MarkSizes(
        # a dot sits below the cell's name, so the name stays readable (players type it);
        # on Les's points a dot there would sit on a line, so a ring goes round the name
        dot_radius=geo.radius * 0.62 if geo.points else max(2.5, geo.radius * 0.2),
        dot_drop=0.0 if geo.points else geo.radius * 0.5,
        may_ring=geo.points,
        line=line,
        sign_radius=geo.radius * 0.68,
        about_inner=r + 1.5,
        about_outer=r + 1.5 + 1.7 * line,
        here_inner=r * 0.78,
        here_outer=r * 0.78 + line,
    )


def _draw_marks(
    image: Image.Image, state: BoardView, geo: BoardGeometry, theme: Theme, marks: Annotations
) -> None:
    sizes = mark_sizes(geo)
    halo_colour = _colour(theme, "halo", theme.background)
    dot_halo, dot = may_sprites(sizes, theme)
    dots: list[tuple[sprites.Sprite, tuple[float, float]]] = []
    for name in marks.may:
        index = _index(state, name)
        if index is not None and not state.cells[index]:
            where = sizes.dot_centre(geo.centres[index])
            dots += ((dot_halo, where), (dot, where))
    sprites.paste_all(image, dots)
    no_entry = _no_entry(
        sizes.sign_radius, sizes.line * 1.15, _colour(theme, "may_not", theme.captured)
    )
    for name in marks.may_not:
        index = _index(state, name)
        if index is not None:
            no_entry.paste_on(image, geo.centres[index])
    ring_halo = sprites.ring(sizes.about_inner - 1.0, sizes.about_outer + 1.0, halo_colour)
    ring = sprites.ring(sizes.about_inner, sizes.about_outer, _colour(theme, "about", theme.placed))
    for name in marks.about:
        index = _index(state, name)
        if index is not None:
            ring_halo.paste_on(image, geo.centres[index])
            ring.paste_on(image, geo.centres[index])
    here = sprites.ring(sizes.here_inner, sizes.here_outer, theme.placed)
    for name in marks.here:
        index = _index(state, name)
        if index is not None:
            here.paste_on(image, geo.centres[index])


def may_sprites(sizes: MarkSizes, theme: Theme) -> tuple[sprites.Sprite, sprites.Sprite]:
    """The "may" mark: its halo and itself (a dot, or a ring round a Les point)."""
    halo_colour = _colour(theme, "halo", theme.background)
    may = _colour(theme, "may", theme.placed)
    if sizes.may_ring:
        dot = sprites.ring(sizes.dot_radius - sizes.line, sizes.dot_radius, may)
        dot_halo = sprites.ring(
            sizes.dot_radius - sizes.line - 1, sizes.dot_radius + 1, halo_colour
        )
    else:
        dot = sprites.stone(sizes.dot_radius, may, may, 0.0)
        dot_halo = sprites.stone(sizes.dot_radius + 1.2, halo_colour, halo_colour, 0.0)
    return dot_halo, dot


@lru_cache(maxsize=32)
def _no_entry(radius: float, width: float, colour: RGB) -> sprites.Sprite:
    """A circle with a slash from top left to bottom right (antialiased like the sprites)."""
    k = sprites.SUPERSAMPLE
    half = math.ceil(radius + width) + 1
    side = (2 * half + 1) * k
    middle = (half + 0.5) * k
    mask = Image.new("L", (side, side), 0)
    draw = ImageDraw.Draw(mask)
    outer, inner = radius * k, (radius - width) * k
    draw.ellipse((middle - outer, middle - outer, middle + outer, middle + outer), fill=255)
    draw.ellipse((middle - inner, middle - inner, middle + inner, middle + inner), fill=0)
    reach = (radius - width / 2) * k * math.sqrt(0.5)
    draw.line(
        [(middle - reach, middle - reach), (middle + reach, middle + reach)],
        fill=255,
        width=max(1, round(width * k)),
    )
    small = 2 * half + 1
    return sprites.Sprite(
        colour=Image.new("RGB", (small, small), colour),
        mask=mask.resize((small, small), Image.Resampling.BOX),
        half=half,
    )


def draw_annotations(
    image: Image.Image, state: BoardView, marks: Annotations, *, theme: str = "classic"
) -> None:
    """Draw ``marks`` onto ``image``, a picture of ``state`` from :func:`render_board` (any
    width; the geometry is read from the picture's width)."""
    if not marks:
        return
    # the marks' colours are not in the board's own palette: the encoder builds one; and
    # the picture is packed at the default level (the plain board's level 5 is for files
    # of the board's own colours, which a marked picture exceeds)
    image.info.pop(PALETTE_INFO, None)
    image.info.pop(LEVEL_INFO, None)
    chosen = get_theme(theme)
    geo = board_geometry(state.size, image.width, is_point_game(state))
    if marks.shade:
        _draw_shade(image, state, geo, chosen, marks.shade)
    owned = marks.owned
    if owned and state.game.spec.drawing.owned_holes:
        # the board picture shades owned holes already
        shaded = {(owner, frozenset(cells)) for owner, cells in state.holes()}
        owned = tuple(o for o in owned if (o[0], frozenset(o[1])) not in shaded)
    if owned:
        _draw_owned(image, state, geo, chosen, owned)
    loops = marks.loops
    if loops and state.game.spec.drawing.owned_loops:
        # the board picture shades owned loops already: band only the others
        shaded_loops = {frozenset(cells) for _, cells in owned_loops(state)}
        loops = tuple(loop for loop in loops if frozenset(loop) not in shaded_loops)
    if loops:
        _draw_loop_bands(image, state, geo, chosen, loops)
    _draw_marks(image, state, geo, chosen, marks)


def render_annotated(
    state: BoardView,
    marks: Annotations,
    *,
    names: tuple[str, str] = ("", ""),
    theme: str = "classic",
    width: int = 480,
    show_labels: bool = True,
    language: str = DEFAULT_LANGUAGE,
) -> Image.Image:
    """:func:`render_board` with ``marks`` on top (the same picture when there are none)."""
    image = render_board(
        state, names=names, theme=theme, width=width, show_labels=show_labels, language=language
    )
    draw_annotations(image, state, marks, theme=theme)
    return image


def render_hints(
    state: BoardView,
    legal_moves: Iterable[str],
    *,
    names: tuple[str, str] = ("", ""),
    theme: str = "classic",
    width: int = 480,
    show_labels: bool = True,
    language: str = DEFAULT_LANGUAGE,
) -> Image.Image:
    """The board with a dot on every cell where the player to move may put a stone
    (``legal_moves`` are the state's, passed in so that this stays a function of the view)."""
    return render_hint_cells(
        state,
        hint_cells(state, legal_moves),
        names=names,
        theme=theme,
        width=width,
        show_labels=show_labels,
        language=language,
    )


def render_hint_cells(
    state: BoardView,
    cells: Sequence[str],
    *,
    names: tuple[str, str] = ("", ""),
    theme: str = "classic",
    width: int = 480,
    show_labels: bool = True,
    language: str = DEFAULT_LANGUAGE,
) -> Image.Image:
    """:func:`render_hints` from the hint cells (:func:`hint_cells`) worked out already."""
    marks = Annotations(may=tuple(cells))
    image = render_annotated(
        state,
        marks,
        names=names,
        theme=theme,
        width=width,
        show_labels=show_labels,
        language=language,
    )
    if marks:
        # the dots' colours are in the hint palette: no palette built for each picture; and
        # the dots leave the file as small as a plain board's, packed at the board's level
        image.info[PALETTE_INFO] = hint_palette(
            state.size, width, is_point_game(state), get_theme(theme).name, bool(show_labels)
        )
        image.info[LEVEL_INFO] = BOARD_LEVEL
    return image


@lru_cache(maxsize=16)
def hint_palette(size: int, width: int, points: bool, theme_name: str, labels: bool) -> Image.Image:
    """The palette of a board picture with move hints: the board's own sample
    (:func:`render.board.board_palette_panels`) and one more copy of the board with a hint
    on every cell, over the empty board (the cell names under the dots) and over stones
    (their edges beside a dot's halo). Every hint picture of a board shares it, as every
    plain picture shares the board's palette; mapping to it costs a fifth of building a
    palette for each picture."""
    theme = get_theme(theme_name)
    geo = board_geometry(size, width, points)
    panels = board_palette_panels(size, width, points, theme_name, labels)
    dotted = board_background(size, width, points, theme_name, labels).copy()
    stones = [(index, 1 + index % 2) for index in range(len(geo.centres)) if index % 3 == 1]
    for index, code in stones:
        colours = theme.stone(code)
        sprites.stone(
            geo.stone_radius, colours.fill, colours.edge, max(1.0, geo.stone_radius * 0.1)
        ).paste_on(dotted, geo.centres[index])
    sizes = mark_sizes(geo)
    halo, dot = may_sprites(sizes, theme)
    taken = {index for index, _ in stones}
    for index, centre in enumerate(geo.centres):
        if index not in taken:  # as on a picture: hints on empty cells only
            where = sizes.dot_centre(centre)
            halo.paste_on(dotted, where)
            dot.paste_on(dotted, where)
    return palette_of(palette_sample([*panels, dotted]))


# ---- panels and figures ---------------------------------------------------------------------


@dataclass(frozen=True)
class Panel:
    """A board picture cut to its board (or part of it), a caption band on top."""

    image: Image.Image
    geometry: BoardGeometry  # of the full picture the panel was cut from
    offset: tuple[float, float]  # subtract from a full-picture pixel to get a panel pixel
    caption_height: int

    def centre(self, cell: str) -> tuple[float, float]:
        x, y = self.geometry.centre(cell)
        return (x - self.offset[0], y - self.offset[1])


def _radius_for(width: int, size: int) -> float:
    """The hexagon radius :func:`board_geometry` gives a board of ``size`` at ``width``."""
    return board_geometry(size, width).radius


def _width_for_radius(radius: float, size: int) -> int:
    """The narrowest picture width whose board has hexagons of at least ``radius`` pixels
    (the radius grows with the width; the rim's labels take a little of it)."""
    low, high = MIN_WIDTH, MAX_WIDTH
    if board_geometry(size, high).radius < radius:
        return high
    while low < high:
        middle = (low + high) // 2
        if board_geometry(size, middle).radius >= radius:
            high = middle
        else:
            low = middle + 1
    return low


def caption_band(text: str, width: int, theme: Theme, text_size: int = 15) -> Image.Image:
    """The caption above a panel: up to two lines, in the colours of a picture's header."""
    used = font(text_size, "bold")
    pad = round(text_size * 0.55)
    lines = wrap_text(text, used, width - 2 * pad, max_lines=2) if text else []
    line_height = round(text_size * 1.25)
    height = 2 * pad + line_height * len(lines) if lines else 0
    band = Image.new("RGB", (width, height), theme.header_background)
    draw = ImageDraw.Draw(band)
    for number, line in enumerate(lines):
        baseline = pad + line_height * number + text_size
        draw_text(draw, (pad, baseline), line, used, theme.header_text, "ls")
    return band


def board_panel(
    state: BoardView,
    marks: Annotations = Annotations(),
    *,
    caption: str = "",
    focus: Sequence[str] = (),
    width: int = 480,
    theme: str = "classic",
    language: str = DEFAULT_LANGUAGE,
    show_labels: bool = True,
    text_size: int = 15,
) -> Panel:
    """The board of ``state`` with ``marks``, without the picture's header, ``width`` pixels
    wide, with ``caption`` above it. With ``focus`` cells, the board is drawn larger and cut
    to those cells and a cell's width around them (a close-up that stays legible when two
    panels share a phone's width); without, the whole board is shown. The caption is
    ``text_size`` pixels high (15 reads well in a 480-pixel picture on a phone)."""
    chosen = get_theme(theme)
    points = is_point_game(state)
    grid = state.grid
    if focus:
        indices = [i for i in (grid.index(c) for c in focus) if i is not None]
        coords = [grid.coords[i] for i in indices]
        xs = [1.5 * q for q, _ in coords]
        ys = [SQRT3 * (r + q / 2) for q, r in coords]
        # in hexagon radii: the focus cells' centres and about one cell round them
        span_x = max(xs) - min(xs) + 2 * 1.75
        span_y = max(ys) - min(ys) + 2 * 2.0
        # never more than half as big again as the whole board at 480 pixels
        radius = min(width / span_x, 1.5 * _radius_for(480, state.size))
        full_width = _width_for_radius(radius, state.size)
    else:
        full_width = width
    image = render_board(
        state, theme=theme, width=full_width, show_labels=show_labels, language=language
    )
    draw_annotations(image, state, marks, theme=theme)
    geo = board_geometry(state.size, full_width, points)
    if focus:
        centres = [geo.centres[i] for i in indices]
        middle_x = (min(x for x, _ in centres) + max(x for x, _ in centres)) / 2
        middle_y = (min(y for _, y in centres) + max(y for _, y in centres)) / 2
        height = min(round(span_y * geo.radius), geo.height - geo.header_height)
        # centred on the focus, but kept on the picture (below its header)
        left = max(0, min(round(middle_x - width / 2), full_width - width))
        top = max(geo.header_height, min(round(middle_y - height / 2), geo.height - height))
        box = (left, top, left + width, top + height)
    else:
        box = (0, geo.header_height, full_width, geo.height)
    board = Image.new("RGB", (box[2] - box[0], box[3] - box[1]), chosen.background)
    board.paste(image.crop(box), (0, 0))
    band = caption_band(caption, board.width, chosen, text_size)
    panel = Image.new("RGB", (board.width, board.height + band.height), chosen.background)
    panel.paste(band, (0, 0))
    panel.paste(board, (0, band.height))
    return Panel(panel, geo, (box[0], box[1] - band.height), band.height)


@dataclass(frozen=True)
class Figure:
    """Panels set together: the picture, and where each panel went."""

    image: Image.Image
    panels: tuple[Panel, ...]
    origins: tuple[tuple[int, int], ...]

    def centre(self, panel: int, cell: str) -> tuple[float, float]:
        """Where ``cell`` of panel number ``panel`` is in the figure."""
        x, y = self.panels[panel].centre(cell)
        ox, oy = self.origins[panel]
        return (x + ox, y + oy)


def figure(panels: Sequence[Panel], *, side_by_side: bool, theme: str = "classic") -> Figure:
    """Panels in a row (``side_by_side``) or a column, with a thin gap between them."""
    chosen = get_theme(theme)
    gap = 6
    if side_by_side:
        width = sum(p.image.width for p in panels) + gap * (len(panels) - 1)
        height = max(p.image.height for p in panels)
    else:
        width = max(p.image.width for p in panels)
        height = sum(p.image.height for p in panels) + gap * (len(panels) - 1)
    image = Image.new("RGB", (width, height), chosen.header_background)
    origins = []
    x = y = 0
    for panel in panels:
        image.paste(panel.image, (x, y))
        origins.append((x, y))
        if side_by_side:
            x += panel.image.width + gap
        else:
            y += panel.image.height + gap
    return Figure(image, tuple(panels), tuple(origins))


def panel_width(total: int, count: int) -> int:
    """The width of each of ``count`` panels side by side in ``total`` pixels."""
    return math.floor((total - 6 * (count - 1)) / count)
