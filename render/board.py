"""Board pictures of every board game: hexagon cells (Lefe, Dalen, Lublache) or the points
and lines of a triangular grid (Les), as the game's spec says (``spec.drawing``).

:func:`render_board` is a pure function of a board view (:class:`engine.spec.BoardView`):
it reads only the public position (cells, seats, last turn, outcome, score, the opening
step, and the loops when the spec asks for them) and never imports rules code or compares a
game's name. The static part of a picture — background, cells or lines, cell labels and
column letters — depends only on (board shape, size, width, theme, labels) and is drawn once
and cached; each call copies it and pastes the stones, markers and header on top.

This is the one board renderer: every piece of a board is drawn here (the tutorials' and
refusals' marks and the move hints are drawn on its picture, the replay's frames with its
functions). :mod:`render.indexed` is not a second renderer but a
faster road to one of its files, the bot's reply: it calls this module's drawing functions
for the parts that vary, maps only those, and must give ``png_bytes(render_board(...))``
byte for byte (``tests/render/test_indexed.py``); where it cannot, it draws here whole.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import lru_cache

from PIL import Image, ImageChops, ImageDraw

from engine.board import EMPTY
from engine.hexgrid import hex_grid
from engine.phrases import Phrase
from engine.spec import BoardShape, BoardView
from i18n import DEFAULT_LANGUAGE, N_, colour_name, outcome_reason, phrase, translate
from render import sprites
from render.encode import LEVEL_INFO, PALETTE_INFO, palette_of
from render.geometry import SQRT3, BoardGeometry, board_geometry, scale_of
from render.lines import core_draw, curved_line
from render.text import Font, draw_text, fit_text, font, text_width, wrap_text
from render.themes import RGB, Theme, get_theme

SUPERSAMPLE_BACKGROUND = 3
# The PNG compression level of a board picture, with or without move hints: level 5 packs
# one in about three quarters of level 6's time (libdeflate) for a file a tenth larger,
# 17–22 KB at 480 px, hints included. Pictures with other marks drawn over them
# (tutorials, refusals) are packed at the default level 6: they are few, and their extra
# colours take more room.
BOARD_LEVEL = 5


def is_point_game(state: BoardView) -> bool:
    """Whether the game's board is drawn as points and lines (Les) rather than cells."""
    return state.game.spec.drawing.board is BoardShape.POINTS


# ---- the static background ------------------------------------------------------------


@lru_cache(maxsize=32)  # about 1 MB each
def board_background(
    size: int, width: int, points: bool, theme_name: str, labels: bool
) -> Image.Image:
    """The picture without stones, markers or header text (cached; callers copy it)."""
    theme = get_theme(theme_name)
    geo = board_geometry(size, width, points)
    k = SUPERSAMPLE_BACKGROUND
    big = Image.new("RGB", (width * k, geo.height * k), theme.background)
    draw = ImageDraw.Draw(big)
    draw.rectangle((0, 0, width * k, geo.header_height * k), fill=theme.header_background)

    def scaled(points_list: Sequence[tuple[float, float]]) -> list[tuple[float, float]]:
        return [(x * k, y * k) for x, y in points_list]

    grid = hex_grid(size)
    if points:
        _draw_point_board(draw, geo, theme, k, scaled)
    else:
        # the union of the full hexagons forms the board in the edge colour; each cell is
        # then filled slightly smaller, which leaves an even groove between cells
        for index in range(grid.cell_count):
            draw.polygon(scaled(geo.hexagon(index, 1.0)), fill=theme.cell_edge)
        for index in range(grid.cell_count):
            draw.polygon(scaled(geo.hexagon(index, 0.9)), fill=theme.cell)
    # a box filter averages each 3×3 block: every edge pixel is its exact coverage, as the
    # sprites' are. A wider filter (Lanczos) rings: a faint extra shade beside every groove,
    # which the eye does not see and the PNG pays for (a twelfth of a board picture's bytes).
    image = big.resize((width, geo.height), Image.Resampling.BOX)

    draw = ImageDraw.Draw(image)
    if labels and geo.cell_labels:
        label_font = font(geo.label_size)
        for index, name in enumerate(grid.names):
            x, y = geo.centres[index]
            if points:
                # a small patch of board colour keeps the lines from crossing the text
                left, top, right, bottom = draw.textbbox((x, y), name, font=label_font, anchor="mm")
                draw.rounded_rectangle(
                    (left - 2, top - 2, right + 2, bottom + 2), radius=3, fill=theme.cell
                )
            draw.text((x, y), name, font=label_font, fill=theme.label, anchor="mm")
    rim_font = font(geo.rim_size, "bold")
    for label in geo.rim:
        draw.text(
            (label.x, label.y), label.text, font=rim_font, fill=theme.border_label, anchor="mm"
        )
    return image


def _draw_point_board(
    draw: ImageDraw.ImageDraw,
    geo: BoardGeometry,
    theme: Theme,
    k: int,
    scaled: Callable[[Sequence[tuple[float, float]]], list[tuple[float, float]]],
) -> None:
    """Les: a hexagonal plate, the lines of the triangular grid and a dot on every point."""
    grid = hex_grid(geo.size)
    draw.polygon(
        scaled(plate_corners(geo)),
        fill=theme.cell,
        outline=theme.cell_edge,
        width=max(1, round(geo.radius * 0.12 * k)),
    )
    line_width = max(1, round(geo.radius * 0.1 * k))
    for index, neighbours in enumerate(grid.neighbours):
        for other in neighbours:
            if other > index:
                draw.line(
                    scaled([geo.centres[index], geo.centres[other]]),
                    fill=theme.line,
                    width=line_width,
                )
    dot = geo.radius * 0.16 * k
    for x, y in scaled(geo.centres):
        draw.ellipse((x - dot, y - dot, x + dot, y + dot), fill=theme.point)


# ---- stones, markers, loops ---------------------------------------------------------------


def _stone_sprite(geo: BoardGeometry, theme: Theme, code: int) -> sprites.Sprite:
    colours = theme.stone(code)
    return sprites.stone(
        geo.stone_radius, colours.fill, colours.edge, max(1.0, geo.stone_radius * 0.1)
    )


Mark = tuple[sprites.Sprite, tuple[float, float]]  # a sprite and the centre it is pasted at


def _stone_marks(geo: BoardGeometry, theme: Theme, cells: bytes) -> list[Mark]:
    first, second = _stone_sprite(geo, theme, 1), _stone_sprite(geo, theme, 2)
    centres = geo.centres
    return [
        (first if code == 1 else second, centres[index])
        for index, code in enumerate(cells)
        if code != EMPTY
    ]


def _marker_width(geo: BoardGeometry) -> float:
    return max(2.5, geo.radius * 0.17)


def last_move_ring(geo: BoardGeometry) -> tuple[float, float, float]:
    """The last move's ring: its inner and outer radius and the outer radius of the halo
    round it. The ring is bold (a third of a cell's radius) and straddles the stone's edge, so it
    shows on the stone and on the board round it alike; the thin halo in the loops' halo
    colour parts it from the neighbouring stones."""
    r = geo.stone_radius
    inner = r - 0.17 * geo.radius
    outer = r + 0.15 * geo.radius
    return inner, outer, outer + max(1.5, 0.08 * geo.radius)


def _last_turn_marks(
    geo: BoardGeometry, theme: Theme, state: BoardView, *, halo: bool = True
) -> list[Mark]:
    """Placed stones ringed; captured cells crossed; removed cells boxed; flipped stones
    carry a diamond in the colour they had before (shape tells the kinds apart)."""
    last = state.last_turn
    grid = state.grid
    width = _marker_width(geo)
    r = geo.stone_radius
    inner, outer, halo_outer = last_move_ring(geo)
    ring_halo = sprites.ring(inner - 1.0, halo_outer, theme.loop_halo)
    ring = sprites.ring(inner, outer, theme.placed)
    cross = sprites.broken_cross(geo.radius * 0.72, geo.radius * 0.38, width, theme.captured)
    box = sprites.hollow_polygon(4, geo.radius * 0.62, width, 45.0, theme.removed)
    marks: list[Mark] = []
    for name in last.placed:
        index = grid.index(name)
        if index is not None:
            if halo:
                marks.append((ring_halo, geo.centres[index]))
            marks.append((ring, geo.centres[index]))
    for name in last.captured:
        index = grid.index(name)
        if index is not None:
            marks.append((cross, geo.centres[index]))
    for name in last.removed:
        index = grid.index(name)
        if index is not None:
            marks.append((box, geo.centres[index]))
    for name in last.flipped:
        index = grid.index(name)
        if index is None or state.cells[index] == EMPTY:
            continue
        before = theme.stone(3 - state.cells[index]).fill
        diamond = sprites.hollow_polygon(4, r * 0.58, max(1.5, width * 0.8), 0.0, before)
        marks.append((diamond, geo.centres[index]))
    return marks


def board_marks(
    geo: BoardGeometry, theme: Theme, state: BoardView, *, replay: bool = False
) -> list[Mark]:
    """The stones and the last turn's markers, in the order they are pasted (a replay
    repaints a part of the board by pasting the ones that touch it again). A replay frame's
    ring has no halo: the mark moves every frame, so the eye finds it anyway, and the halo
    was a sixth of a replay's bytes."""
    return _stone_marks(geo, theme, state.cells) + _last_turn_marks(
        geo, theme, state, halo=not replay
    )


def owned_loops(state: BoardView) -> list[tuple[str, tuple[str, ...]]]:
    """Lublache: (owner colour, cells in walking order) of every single-coloured loop."""
    return [(loop.owner, tuple(loop.cells)) for loop in state.loops() if loop.owner]


@lru_cache(maxsize=8)
def _stripes(width: int, height: int, period: int) -> Image.Image:
    """A coverage mask of diagonal stripes (cached per picture size)."""
    mask = Image.new("L", (width, height), 0)
    draw = ImageDraw.Draw(mask)
    for offset in range(-height, width, period):
        draw.line([(offset, height), (offset + height, 0)], fill=255, width=max(2, period * 2 // 5))
    return mask


Area = tuple[str, str, tuple[str, ...]]  # ("loop" or "hole", owner colour, cells)


def owned_areas(state: BoardView) -> list[Area]:
    """What the board shades under the stones, in drawing order: Lublache's owned loops
    and Les's owned holes (as the game's spec asks)."""
    drawing = state.game.spec.drawing
    areas: list[Area] = []
    if drawing.owned_loops:
        areas += [("loop", owner, cells) for owner, cells in owned_loops(state)]
    if drawing.owned_holes:
        areas += [("hole", owner, tuple(cells)) for owner, cells in state.holes()]
    return areas


def plate_corners(geo: BoardGeometry) -> list[tuple[float, float]]:
    """The corners of Les's hexagonal plate: the grid's six corner points, each pushed 0.8·R
    further out from the centre."""
    ox, oy = geo.origin
    m = geo.size - 1
    corners = [geo.at(q, r) for q, r in ((m, 0), (0, m), (-m, m), (-m, 0), (0, -m), (m, -m))]
    # a regular grid's corners are m·√3·R out; the lattice's differ by its squash, a few
    # hundredths, and so does the 0.8·R they are pushed by
    out = 1 + 0.8 * geo.radius / (SQRT3 * geo.radius * m)
    return [(ox + (x - ox) * out, oy + (y - oy) * out) for x, y in corners]


@lru_cache(maxsize=8)
def _plate_mask(size: int, width: int) -> Image.Image:
    geo = board_geometry(size, width, True)
    mask = Image.new("L", (geo.width, geo.height), 0)
    ImageDraw.Draw(mask).polygon(plate_corners(geo), fill=255)
    return mask


def _draw_areas(
    image: Image.Image,
    geo: BoardGeometry,
    theme: Theme,
    state: BoardView,
    areas: Sequence[Area] | None = None,
) -> None:
    """Shade each owned loop and hole (or only ``areas``, some of them in the same order:
    a replay repaints a part of the board), under the stones so every stone stays visible.

    The first colour's areas are filled with a flat blue tint, the second colour's with
    orange stripes: hue, lightness and texture all differ, so the owner reads at a glance
    even without colour vision. A loop's outline runs through its stones and shows as a
    thick band between them; a hole is the points' own hexagons (the points nearest them),
    so the grid's lines stay visible through the tint.
    """
    first_colour = state.game.colors[0]
    draw = ImageDraw.Draw(image)
    for area in owned_areas(state) if areas is None else areas:
        tint = _area_tint(geo, theme, first_colour, area)
        if tint is None:
            continue
        image.paste(*tint)
        for fill, line_width, outline in _loop_outline(geo, theme, first_colour, area):
            # ImageDraw's line with joint="curve", without its Python round each joint
            curved_line(draw.draw, outline, draw.draw.draw_ink(fill), line_width)


# a colour pasted through a mask (of the box's size) at a box
Layer = tuple[RGB, tuple[int, int, int, int], Image.Image]


def _area_tint(geo: BoardGeometry, theme: Theme, first_colour: str, area: Area) -> Layer | None:
    """The tint of an area: its colour, its bounding box, and its mask there."""
    kind, owner, cells = area
    grid = hex_grid(geo.size)
    indices = [i for i in (grid.index(c) for c in cells) if i is not None]
    path = [geo.centres[i] for i in indices]
    if kind == "loop" and len(path) < 3:
        return None
    colour = theme.loop_first if owner == first_colour else theme.loop_second
    reach = geo.radius * 1.05 if kind == "hole" else 0.0
    # the shading only needs the area's bounding box, not a mask of the whole picture
    left = max(0, math.floor(min(x for x, _ in path) - reach))
    top = max(0, math.floor(min(y for _, y in path) - reach))
    right = min(geo.width, math.ceil(max(x for x, _ in path) + reach) + 1)
    bottom = min(geo.height, math.ceil(max(y for _, y in path) + reach) + 1)
    box = (left, top, right, bottom)
    mask = Image.new("L", (right - left, bottom - top), 0)
    level = 110 if owner == first_colour else 200
    mask_draw = ImageDraw.Draw(mask)
    if kind == "hole":
        for index in indices:
            hexagon = geo.hexagon(index, 1.02)
            mask_draw.polygon([(x - left, y - top) for x, y in hexagon], fill=level)
        if geo.points:
            mask = ImageChops.multiply(mask, _plate_mask(geo.size, geo.width).crop(box))
    else:
        mask_draw.polygon([(x - left, y - top) for x, y in path], fill=level)
    if owner != first_colour:
        stripes = _stripes(geo.width, geo.height, max(6, round(geo.radius * 0.5)))
        mask = ImageChops.multiply(mask, stripes.crop(box))
    return colour, box, mask


def _loop_outline(
    geo: BoardGeometry, theme: Theme, first_colour: str, area: Area
) -> list[tuple[RGB, int, list[tuple[float, float]]]]:
    """The lines drawn over a loop's tint, in order (colour, width, closed path): a halo,
    then the band in the owner's colour. None for a hole."""
    kind, owner, cells = area
    if kind != "loop":
        return []
    grid = hex_grid(geo.size)
    path = [geo.centres[i] for i in (grid.index(c) for c in cells) if i is not None]
    colour = theme.loop_first if owner == first_colour else theme.loop_second
    band = max(3, round(geo.radius * 0.42))
    outline = [*path, path[0]]
    return [(theme.loop_halo, band + 4, outline), (colour, band, outline)]


def area_layers(geo: BoardGeometry, theme: Theme, first_colour: str, area: Area) -> list[Layer]:
    """What :func:`_draw_areas` paints for one area, as layers to paste in order: the tint,
    then for a loop its lines, drawn (not antialiased) into 0/255 masks of their bounding
    boxes, so that pasting their colour through them sets exactly the pixels the line
    would. A picture that paints the same area again and again (a replay's frames) keeps
    them."""
    tint = _area_tint(geo, theme, first_colour, area)
    if tint is None:
        return []
    layers = [tint]
    for fill, line_width, outline in _loop_outline(geo, theme, first_colour, area):
        reach = line_width / 2 + 2
        left = max(0, math.floor(min(x for x, _ in outline) - reach))
        top = max(0, math.floor(min(y for _, y in outline) - reach))
        right = min(geo.width, math.ceil(max(x for x, _ in outline) + reach) + 1)
        bottom = min(geo.height, math.ceil(max(y for _, y in outline) + reach) + 1)
        mask = Image.new("L", (right - left, bottom - top), 0)
        # moved by whole pixels, as the tint's polygon is
        shifted = [(x - left, y - top) for x, y in outline]
        curved_line(core_draw(mask), shifted, 255, line_width)  # joint="curve"
        layers.append((fill, (left, top, right, bottom), mask))
    return layers


# ---- the header ---------------------------------------------------------------------------


@dataclass(frozen=True)
class HeaderText:
    """One piece of header text, placed: tests check that every box lies inside the image."""

    xy: tuple[float, float]
    text: str
    font: Font
    fill: RGB
    anchor: str = "ls"


@dataclass(frozen=True)
class HeaderLayout:
    texts: tuple[HeaderText, ...]
    turn_row: int | None  # 0 or 1: the seat row to highlight
    row_boxes: tuple[tuple[float, float, float, float], ...]
    icons: tuple[tuple[tuple[float, float], int | None], ...]  # (centre, colour code or None)
    icon_radius: float


def _display_names(names: Sequence[str], language: str = DEFAULT_LANGUAGE) -> tuple[str, str]:
    given = [str(n) if n is not None else "" for n in (*names, "", "")[:2]]
    return (
        given[0].strip() or translate(language, "picture.board.seat_a"),
        given[1].strip() or translate(language, "picture.board.seat_b"),
    )


def _words(said: Phrase, who: tuple[str, str], language: str) -> str:
    """A phrase of the engine in the reader's language, the seat it is about named."""
    if said.seat is None:
        return phrase(language, said)
    return phrase(language, said, player=who[said.seat])


def status_line(
    state: BoardView,
    names: Sequence[str],
    language: str = DEFAULT_LANGUAGE,
    *,
    replay: bool = False,
) -> str:
    """The header's last line: the last move, then whose turn it is or the result. In a
    replay frame only the result, once there is one (the ring on the board shows the last
    move)."""
    who = _display_names(names, language)
    parts: list[str] = []
    if replay and state.outcome is None:
        return ""
    if state.last_turn.move and not replay:
        parts.append(translate(language, "picture.board.last_move", move=state.last_turn.move))
    prompt = state.opening_prompt()
    if state.outcome is not None:
        winner = state.outcome.winner
        reason = outcome_reason(language, state.outcome).strip()
        if winner is None:
            # a draw's reason says "draw" already (every coded one does); do not say it twice
            said = state.outcome.code is not None or reason.lower().startswith("draw")
            parts.append(
                reason[:1].upper() + reason[1:]
                if said
                else translate(language, "picture.board.draw", reason=reason)
            )
        else:
            parts.append(
                translate(
                    language,
                    "picture.board.wins",
                    name=who[state.seat_of(winner)],
                    colour=winner,
                    reason=reason,
                )
            )
    elif prompt is not None:
        parts.append(_words(prompt, who, language))
    else:
        seat = state.seat_to_move
        mover = who[seat] if seat is not None else "?"
        pie = state.game.uses_pie and state.start is None and state.ply == 1 and not state.swapped
        msgid = N_("picture.board.to_move_or_swap") if pie else N_("picture.board.to_move")
        parts.append(translate(language, msgid, name=mover, colour=state.to_move))
    return " ".join(parts)


def score_words(state: BoardView, language: str = DEFAULT_LANGUAGE) -> str:
    """The live score as a sentence: who leads, by how much, and what the points are made
    of ("Dark leads 3–2: distinct leaf counts 2 vs 2, most leaves: dark"); "" for a game
    without a live score."""
    summary = state.score_summary()
    if summary is None:  # a game that shows no live score
        return ""
    values = dict(summary.points)
    details = translate(language, "list.comma").join(
        phrase(language, part) for part in summary.parts
    )
    if summary.leader is None:
        (_, a), (_, b) = summary.points
        msgid = N_("picture.score.tied") if details else N_("picture.score.tied_only")
        text = translate(language, msgid, high=a, low=b, details=details)
    else:
        other = next(v for colour, v in summary.points if colour != summary.leader)
        msgid = N_("picture.score.leads") if details else N_("picture.score.leads_only")
        text = translate(
            language,
            msgid,
            colour=summary.leader,
            high=values[summary.leader],
            low=other,
            details=details,
        )
    return text[:1].upper() + text[1:]


def score_line(state: BoardView, language: str = DEFAULT_LANGUAGE) -> str:
    """The live score in the header, e.g. "dark 3 (2, 1) · light 2 (no trees)"."""
    # a game that shows no live score has no phrases: no score line
    return " · ".join(phrase(language, said) for said in state.score_phrases())


def header_layout(
    state: BoardView,
    names: Sequence[str],
    theme: Theme,
    width: int,
    language: str = DEFAULT_LANGUAGE,
    *,
    replay: bool = False,
) -> HeaderLayout:
    """Where every piece of header text and every colour icon goes, already fitted, in the
    reader's ``language``."""
    s = scale_of(width)
    pad = 8 * s
    who = _display_names(names, language)
    name_font = font(round(17 * s), "bold")
    small_font = font(round(13 * s))
    info_font = font(round(14 * s))
    status_font = font(round(14 * s), "bold" if state.outcome is not None else "regular")
    colours_known = state.colours_assigned
    # a replay marks nobody: the highlight moving between the rows would be most of what
    # changes from one frame to the next
    turn_seat = state.seat_to_move if state.outcome is None and not replay else None

    texts: list[HeaderText] = []
    rows: list[tuple[float, float, float, float]] = []
    icons: list[tuple[tuple[float, float], int | None]] = []
    row_height = 26 * s
    icon_radius = 8 * s
    for seat in (0, 1):
        top = 5 * s + seat * (row_height + 2 * s)
        rows.append((pad / 2, top, width - pad / 2, top + row_height))
        baseline = top + row_height * 0.72
        colour = state.seat_colour(seat) if colours_known else None
        code = state.game.colors.index(colour) + 1 if colour else None
        icons.append(((pad + 30 * s, top + row_height / 2), code))
        right = (
            colour_name(language, colour)
            if colour
            else translate(language, "picture.board.colour_not_chosen")
        )
        right_text = fit_text(right, small_font, width * 0.4)
        right_width = text_width(right_text, small_font)
        texts.append(
            HeaderText(
                (width - pad - 2 * s, baseline), right_text, small_font, theme.header_muted, "rs"
            )
        )
        name_x = pad + 44 * s
        room = width - pad - 2 * s - right_width - 10 * s - name_x
        texts.append(
            HeaderText(
                (name_x, baseline),
                fit_text(who[seat], name_font, room),
                name_font,
                theme.header_text,
            )
        )

    info_top = 5 * s + 2 * (row_height + 2 * s) + 2 * s
    info_baseline = info_top + 15 * s
    # a replay frame keeps the header still until the end: the board shows each move
    still = replay and state.outcome is None
    if replay:
        info_left = translate(
            language, "picture.board.info_replay", game=state.game.title, size=state.size
        )
    else:
        info_left = translate(
            language,
            "picture.board.info",
            game=state.game.title,
            size=state.size,
            number=state.move_number,
        )
    info_left = fit_text(info_left, info_font, width - 2 * pad)
    texts.append(HeaderText((pad, info_baseline), info_left, info_font, theme.header_muted))
    # the score in words, on up to two lines of its own (a line cut short meant nothing)
    score = "" if still else score_words(state, language)
    score_lines = wrap_text(score, info_font, width - 2 * pad, max_lines=2)
    for number, line in enumerate(score_lines):
        baseline = info_baseline + (17 + 16 * number) * s
        texts.append(HeaderText((pad, baseline), line, info_font, theme.header_text))

    status = status_line(state, who, language, replay=replay)
    lines = wrap_text(status, status_font, width - 2 * pad, max_lines=2)
    status_top = info_baseline + (17 + 16 * max(0, len(score_lines) - 1)) * s
    for number, line in enumerate(lines):
        baseline = status_top + (20 + 18 * number) * s
        texts.append(HeaderText((pad, baseline), line, status_font, theme.header_text))
    return HeaderLayout(
        texts=tuple(texts),
        turn_row=turn_seat,
        row_boxes=tuple(rows),
        icons=tuple(icons),
        icon_radius=icon_radius,
    )


def _draw_header(
    image: Image.Image,
    state: BoardView,
    names: Sequence[str],
    theme: Theme,
    width: int,
    language: str,
    *,
    replay: bool = False,
) -> None:
    layout = header_layout(state, names, theme, width, language, replay=replay)
    draw = ImageDraw.Draw(image)
    s = scale_of(width)
    if layout.turn_row is not None:
        box = layout.row_boxes[layout.turn_row]
        draw.rounded_rectangle(box, radius=round(6 * s), fill=theme.header_highlight)
        arrow = sprites.triangle(7 * s, theme.header_turn)
        arrow.paste_on(image, (box[0] + 12 * s, (box[1] + box[3]) / 2))
    halo = sprites.stone(
        layout.icon_radius + 2.5 * s, theme.header_icon_halo, theme.header_icon_halo, 1.0
    )
    question_font = font(round(12 * s), "bold")
    for centre, code in layout.icons:
        halo.paste_on(image, centre)
        if code is None:
            # colours not assigned yet (Les set-up): a question mark instead of a stone
            draw.text(centre, "?", font=question_font, fill=theme.header_background, anchor="mm")
        else:
            colours = theme.stone(code)
            sprites.stone(layout.icon_radius, colours.fill, colours.edge, max(1.0, s)).paste_on(
                image, centre
            )
    for item in layout.texts:
        draw_text(draw, item.xy, item.text, item.font, item.fill, item.anchor)


# ---- the palette ---------------------------------------------------------------------------


@lru_cache(maxsize=32)
def board_palette(
    size: int, width: int, points: bool, theme_name: str, labels: bool
) -> Image.Image:
    """The palette every picture of this board gets (see ``render.encode``): the octree's
    colours of a sample made of the pieces a picture is drawn from
    (:func:`board_palette_panels`). The sample depends only on the arguments, so the
    palette, and the file of every picture, is deterministic."""
    return palette_of(palette_sample(board_palette_panels(size, width, points, theme_name, labels)))


def palette_sample(panels: Sequence[Image.Image]) -> Image.Image:
    """``panels`` (pictures of one size) one above the other: what a palette is made from."""
    width, height = panels[0].size
    sample = Image.new("RGB", (width, height * len(panels)))
    for number, image in enumerate(panels):
        sample.paste(image, (0, number * height))
    return sample


def board_palette_panels(
    size: int, width: int, points: bool, theme_name: str, labels: bool
) -> list[Image.Image]:
    """Three copies of the board that hold every colour a picture of it draws: stones of
    both colours on every cell with each kind of last-turn mark; the same under the first
    colour's flat tint and loop outlines; the same under the second colour's stripes. The
    header of the first holds text in every header colour on each header background, the
    turn highlight and the colour icons."""
    theme = get_theme(theme_name)
    geo = board_geometry(size, width, points)
    background = board_background(size, width, points, theme_name, labels)
    panels = []
    inner, outer, halo_outer = last_move_ring(geo)
    width_mark = _marker_width(geo)
    ring_halo = sprites.ring(inner - 1.0, halo_outer, theme.loop_halo)
    ring = sprites.ring(inner, outer, theme.placed)
    cross = sprites.broken_cross(geo.radius * 0.72, geo.radius * 0.38, width_mark, theme.captured)
    box = sprites.hollow_polygon(4, geo.radius * 0.62, width_mark, 45.0, theme.removed)
    stripes = _stripes(geo.width, geo.height, max(6, round(geo.radius * 0.5)))
    for panel in range(3):
        image = background.copy()
        if panel:
            colour = theme.loop_first if panel == 1 else theme.loop_second
            mask = Image.new("L", image.size, 110 if panel == 1 else 200)
            if panel == 2:
                mask = ImageChops.multiply(mask, stripes)
            image.paste(colour, (0, 0), mask)
            draw = ImageDraw.Draw(image)
            band = max(3, round(geo.radius * 0.42))
            path = [geo.centres[i] for i in range(0, len(geo.centres), 3)]
            draw.line(path, fill=theme.loop_halo, width=band + 4, joint="curve")
            draw.line(path, fill=colour, width=band, joint="curve")
        for index, centre in enumerate(geo.centres):
            kind = (index + panel) % 7
            if kind == 6:
                cross.paste_on(image, centre)
                continue
            if kind == 5:
                box.paste_on(image, centre)
                continue
            code = 1 + (index + panel) % 2
            _stone_sprite(geo, theme, code).paste_on(image, centre)
            if kind == 0:
                ring_halo.paste_on(image, centre)
                ring.paste_on(image, centre)
            elif kind == 3:
                before = theme.stone(3 - code).fill
                sprites.hollow_polygon(
                    4, geo.stone_radius * 0.58, max(1.5, width_mark * 0.8), 0.0, before
                ).paste_on(image, centre)
        if panel == 0:
            _sample_header(image, theme, width)
        panels.append(image)
    return panels


def _sample_header(image: Image.Image, theme: Theme, width: int) -> None:
    """Text in every header colour on the header and on the turn highlight, the turn
    marker and both colour icons: what any header draws, in its fonts."""
    s = scale_of(width)
    draw = ImageDraw.Draw(image)
    draw.rectangle((0, 0, width, round(90 * s)), fill=theme.header_background)
    draw.rounded_rectangle(
        (4 * s, 48 * s, width - 4 * s, 88 * s), radius=round(6 * s), fill=theme.header_highlight
    )
    sprites.triangle(7 * s, theme.header_turn).paste_on(image, (14 * s, 68 * s))
    text = "Aa Bb 0123456789 wgkmW · ▶"
    fills = (theme.header_text, theme.header_muted, theme.header_turn)
    for top in (6, 52):  # on the header, then on the turn highlight
        for column, fill in enumerate(fills):
            for number, used in enumerate(
                (font(round(17 * s), "bold"), font(round(13 * s)), font(round(14 * s)))
            ):
                draw_text(
                    draw,
                    ((30 + 150 * column) * s, (top + 12 * number) * s),
                    text[: 8 + 4 * number],
                    used,
                    fill,
                    "la",
                )
    for code in (1, 2):
        colours = theme.stone(code)
        centre = ((330 + 40 * code) * s, 120 * s)
        sprites.stone(
            8 * s + 2.5 * s, theme.header_icon_halo, theme.header_icon_halo, 1.0
        ).paste_on(image, centre)
        sprites.stone(8 * s, colours.fill, colours.edge, max(1.0, s)).paste_on(image, centre)


# ---- the public function ------------------------------------------------------------------


def render_board(
    state: BoardView,
    *,
    names: tuple[str, str] = ("", ""),
    theme: str = "classic",
    width: int = 480,
    show_labels: bool = True,
    language: str = DEFAULT_LANGUAGE,
    replay: bool = False,
) -> Image.Image:
    """The picture of a board state: header, board, stones and the last turn's marks.

    ``names`` are the display names of seat 0 (who started the match) and seat 1; the
    header shows which colour each one plays after a swap, whose turn it is, the move
    number, the live score and, once the game is over, the result with its reason, in the
    reader's ``language`` ("en", "de"; see :mod:`i18n`).
    ``replay`` draws a frame of a replay GIF: the header shows the names, colours, game
    and size, and stays still until the last frame, which adds the final score and the
    result (no move number, player to move or last move: the ring on the board shows each
    move), so that a frame differs from the one before only around the cells that changed.
    """
    chosen = get_theme(theme)
    points = is_point_game(state)
    geo = board_geometry(state.size, width, points)
    image = board_background(state.size, width, points, chosen.name, bool(show_labels)).copy()
    _draw_areas(image, geo, chosen, state)
    sprites.paste_all(image, board_marks(geo, chosen, state, replay=replay))
    _draw_header(image, state, names, chosen, width, language, replay=replay)
    image.info[PALETTE_INFO] = board_palette(
        state.size, width, points, chosen.name, bool(show_labels)
    )
    image.info[LEVEL_INFO] = BOARD_LEVEL
    return image
