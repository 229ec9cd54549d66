"""A reply's board picture drawn straight to palette indices: the PNG without the RGB picture.

``png_bytes(render_board(...))`` draws every pixel in RGB and then maps each of the
picture's 340,000 pixels to the board's palette, which costs about as much as drawing.
Yet most of a board picture is its cached background and its stones, and a stone on a
given cell always looks the same. So :func:`board_png` starts from the background's indices
(mapped once per board), puts each stone in as indices (mapped once per stone colour and
cell: the stone pasted on the background there), and draws in RGB only what varies in
more ways: the header, the last turn's marks and the shaded loops and holes, each in a box
of its own, drawn as :func:`render.board.render_board` draws it and then mapped.

Mapping a pixel to the palette depends on that pixel alone, so this is exact when every
pixel outside those boxes is the background or one stone on it; that holds when no two
stones (or hint dots) can touch, which is checked once per board and kind of stone (pixel
by pixel where the squares round two of them meet). If they could, the picture is drawn
whole instead. Tests compare the files with
``png_bytes(render_board(...))`` byte for byte on random positions of every game.

Why it stays apart from :mod:`render.board` rather than being its way of drawing: it
draws nothing of its own (the header, the marks and the shaded areas are
:mod:`render.board`'s functions, the stones its sprites), it only decides which pixels
need drawing, and that pays only for a picture whose file is all that is wanted: the
reply, about a quarter of a picture's instructions saved (25 M against 33 M at n=9,
docs/benchmarks/render.md). The pictures whose RGB image is drawn on (tutorials,
refusals, replays) and the tests need :func:`render.board.render_board`'s image.
"""

from __future__ import annotations

import math
import threading
from collections import OrderedDict
from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any

from PIL import Image, ImageChops

from engine.board import EMPTY
from engine.spec import BoardView
from i18n import DEFAULT_LANGUAGE
from render import sprites
from render.annotations import hint_palette, mark_sizes, may_sprites, render_hint_cells
from render.board import (
    BOARD_LEVEL,
    Mark,
    _draw_areas,
    _draw_header,
    _stone_sprite,
    board_background,
    board_marks,
    board_palette,
    is_point_game,
    owned_areas,
    render_board,
)
from render.boxes import Box, clipped, mark_box, merged, overlap, union
from render.encode import indexed_png_bytes, png_bytes
from render.geometry import board_geometry
from render.themes import get_theme

SHADED_KEPT = 8  # shaded boards kept in all (1.4 MB each at 480 px)
REMEMBERED_SPRITES = 1024  # sprites' coverages and kinds remembered before starting afresh
Group = tuple[sprites.Sprite, ...]  # sprites pasted in turn at one centre (a dot and its halo)


@dataclass(frozen=True)
class _Kind:
    """Where a group of sprites can paint, seen from the cell it belongs to: its offset
    from the cell's centre, the box of its nonzero coverage round the pixel it is pasted
    at, and that coverage (255 where it paints, ``2·half+1`` pixels square, the pasting
    pixel in the middle)."""

    offset: tuple[float, float]
    reach: Box
    coverage: Image.Image = field(compare=False, hash=False)
    half: int = 0
    pixels: bytes = b""  # the coverage's: kinds that paint alike are one kind


class _Board:
    """A board's background in RGB and in indices, and its stones as indices, per place."""

    def __init__(self, background: Image.Image, palette: Image.Image, centres: Sequence[Any]):
        self.background = background
        self.palette = palette
        self.indices = _mapped(background, palette)
        self.size = background.size
        self.centres = list(centres)
        self._stamps: dict[tuple[float, ...], tuple[Group, Any, Any, Box]] = {}
        self._apart: dict[tuple[_Kind, _Kind], bool] = {}
        self.drawable = True  # no two stones or dots can touch (see _board)

    def stamp(self, group: Group, centre: tuple[float, float]) -> tuple[Any, Any, Box]:
        """``group`` pasted on the background at ``centre``, as indices, with the mask of
        the pixels it paints and its box (made once per place)."""
        key = (*map(id, group), *centre)  # the same centre floors to the same pixel
        found = self._stamps.get(key)
        if found is None:
            box = clipped(union(mark_box(sprite, centre) for sprite in group), self.size)
            piece = self.background.crop(box)
            painted = Image.new("L", piece.size, 0)
            for sprite in group:
                sprite.paste_on(piece, (centre[0] - box[0], centre[1] - box[1]))
                coverage = _coverage(sprite)
                left, top, _, _ = mark_box(sprite, (centre[0] - box[0], centre[1] - box[1]))
                side = 2 * sprite.half + 1
                painted.im.paste(coverage.im, (left, top, left + side, top + side), coverage.im)
            # the group is kept with its stamp, so the ids in the key stay its own
            found = (group, _mapped(piece, self.palette).im, painted.im, box)
            self._stamps[key] = found
        return found[1], found[2], found[3]

    def apart(self, first: _Kind, second: _Kind) -> bool:
        """Whether a group of kind ``first`` on one cell and one of kind ``second`` on
        another can never paint the same pixel, on any two cells of this board."""
        key = (first, second)
        known = self._apart.get(key)
        if known is None:
            known = self._apart[key] = _never_touch(self.centres, first, second)
        return known


def _never_touch(centres: Sequence[tuple[float, float]], first: _Kind, second: _Kind) -> bool:
    def placed(kind: _Kind) -> list[tuple[int, int]]:
        dx, dy = kind.offset
        return [(math.floor(x + dx), math.floor(y + dy)) for x, y in centres]

    ones, others = placed(first), placed(second)
    (l1, t1, r1, b1), (l2, t2, r2, b2) = first.reach, second.reach
    checked: dict[tuple[int, int], bool] = {}
    for i, (x1, y1) in enumerate(ones):
        for j, (x2, y2) in enumerate(others):
            if i == j or not overlap(
                (x1 + l1, y1 + t1, x1 + r1, y1 + b1), (x2 + l2, y2 + t2, x2 + r2, y2 + b2)
            ):
                continue
            # the boxes meet (round sprites' corners do on close boards): do the pixels?
            shift = (x2 - x1, y2 - y1)
            touch = checked.get(shift)
            if touch is None:
                touch = checked[shift] = _coverages_meet(first, second, shift)
            if touch:
                return False
    return True


def _coverages_meet(first: _Kind, second: _Kind, shift: tuple[int, int]) -> bool:
    """Whether ``first`` pasted at a pixel and ``second`` pasted ``shift`` from it paint
    some pixel in common."""
    dx, dy = shift
    a, b = first.half, second.half
    left, right = max(-a, dx - b), min(a, dx + b) + 1
    top, bottom = max(-a, dy - b), min(a, dy + b) + 1
    if left >= right or top >= bottom:
        return False
    mine = first.coverage.crop((left + a, top + a, right + a, bottom + a))
    theirs = second.coverage.crop((left - dx + b, top - dy + b, right - dx + b, bottom - dy + b))
    return ImageChops.multiply(mine, theirs).getbbox() is not None


_coverages: dict[int, tuple[sprites.Sprite, Image.Image]] = {}


def _coverage(sprite: sprites.Sprite) -> Image.Image:
    """The pixels a sprite paints at all (255) or leaves alone (0); kept with the sprite,
    whose id is the key while it lives."""
    found = _coverages.get(id(sprite))
    if found is None:
        if len(_coverages) > REMEMBERED_SPRITES:  # sprites made anew after their cache
            _coverages.clear()  # let go of them (render.sprites keeps 256 of a kind)
        found = _coverages[id(sprite)] = (sprite, sprite.mask.point([0] + [255] * 255))
    return found[1]


_kinds: dict[tuple[object, ...], tuple[Group, _Kind]] = {}


def _kind(group: Group, offset: tuple[float, float]) -> _Kind:
    """A group's kind: where its coverage is not zero round its pasting pixel (worked out
    once per group, which is kept with it while its ids are the key)."""
    key = (*map(id, group), *offset)
    found = _kinds.get(key)
    if found is None:
        if len(_kinds) > REMEMBERED_SPRITES:
            _kinds.clear()
        half = max(sprite.half for sprite in group)
        coverage = Image.new("L", (2 * half + 1, 2 * half + 1), 0)
        for sprite in group:
            painted = _coverage(sprite)
            corner = half - sprite.half
            coverage.paste(painted, (corner, corner), painted)
        bbox = coverage.getbbox()
        reach = (
            (bbox[0] - half, bbox[1] - half, bbox[2] - half, bbox[3] - half)
            if bbox is not None
            else (0, 0, 0, 0)
        )
        kind = _Kind(offset, reach, coverage, half, coverage.tobytes())
        found = _kinds[key] = (group, kind)
    return found[1]


def _mapped(image: Image.Image, palette: Image.Image) -> Image.Image:
    return image.quantize(palette=palette, dither=Image.Dither.NONE)


# the boards of some matches with their loops and holes shaded (see board_png), by the
# board's arguments, the first colour and the areas; render_async draws on several threads
_shaded: OrderedDict[tuple[object, ...], Image.Image] = OrderedDict()
_shaded_lock = threading.Lock()


@lru_cache(maxsize=16)  # a board's indices and stamps: about 2 MB at 480 px
def _board(
    size: int, width: int, points: bool, theme_name: str, labels: bool, hints: bool
) -> _Board:
    make_palette = hint_palette if hints else board_palette
    geo = board_geometry(size, width, points)
    board = _Board(
        board_background(size, width, points, theme_name, labels),
        make_palette(size, width, points, theme_name, labels),
        geo.centres,
    )
    # whether stones (and dots) on different cells can touch, worked out here, when a
    # worker warms up, rather than in a reply: it compares every pair of cells
    theme = get_theme(theme_name)
    kinds = [_kind((_stone_sprite(geo, theme, code),), (0.0, 0.0)) for code in (1, 2)]
    if hints:
        sizes = mark_sizes(geo)
        kinds.append(_kind(may_sprites(sizes, theme), (0.0, sizes.dot_drop)))
    board.drawable = all(board.apart(one, other) for one in kinds for other in kinds)
    return board


def board_png(
    state: BoardView,
    *,
    names: tuple[str, str] = ("", ""),
    theme: str = "classic",
    width: int = 480,
    show_labels: bool = True,
    language: str = DEFAULT_LANGUAGE,
    hints: Sequence[str] | None = None,
) -> bytes:
    """The PNG file of a board picture for a reply: ``png_bytes(render_board(...))``, or
    with ``hints`` (the cells to dot, :func:`render.annotations.hint_cells`) the file of
    :func:`render.annotations.render_hint_cells`, byte for byte, drawn faster."""
    chosen = get_theme(theme)
    points = is_point_game(state)
    geo = board_geometry(state.size, width, points)
    labels = bool(show_labels)
    marks = board_marks(geo, chosen, state)
    stones = sum(1 for code in state.cells if code != EMPTY)
    dots: list[Mark] = []
    dot_group: Group = ()
    if hints:
        sizes = mark_sizes(geo)
        dot_group = may_sprites(sizes, chosen)
        for name in hints:
            index = state.grid.index(name)
            if index is not None and not state.cells[index]:
                where = sizes.dot_centre(geo.centres[index])
                dots += [(dot_group[0], where), (dot_group[1], where)]
    # a picture asked for with hints has the hint palette, dots or none (as render_hint_cells)
    board = _board(state.size, width, points, chosen.name, labels, bool(hints))

    if not board.drawable:  # stones or dots on different cells could touch
        return _drawn_whole(state, names, chosen.name, width, labels, language, hints)

    # the boxes drawn in RGB: the header, the last turn's marks, the shaded areas
    areas = owned_areas(state)
    reach = geo.radius * 1.1 + 4  # a hole's hexagons, a loop's band and its halo
    boxes: list[Box] = [(0, 0, width, geo.header_height)]
    boxes += [mark_box(sprite, centre) for sprite, centre in marks[stones:]]
    for _, _, cells in areas:
        centres = [geo.centres[i] for i in (state.grid.index(c) for c in cells) if i is not None]
        if centres:
            boxes.append(
                (
                    math.floor(min(x for x, _ in centres) - reach),
                    math.floor(min(y for _, y in centres) - reach),
                    math.ceil(max(x for x, _ in centres) + reach) + 1,
                    math.ceil(max(y for _, y in centres) + reach) + 1,
                )
            )
    drawn = [clipped(box, board.size) for box in merged(boxes)]

    indices = board.indices.copy()
    core = indices.im
    for sprite, centre in marks[:stones]:
        piece, painted, box = board.stamp((sprite,), centre)
        core.paste(piece, box, painted)
    for number in range(0, len(dots), 2):
        piece, painted, box = board.stamp(dot_group, dots[number][1])
        core.paste(piece, box, painted)

    base = board.background
    if areas:
        # a match's loops and holes stay from one move to the next: the board under the
        # stones with them shaded is kept for the next picture (Pillow draws a loop's
        # rounded joints slowly)
        key = (state.size, width, points, chosen.name, labels, state.game.colors[0], *areas)
        with _shaded_lock:
            shaded = _shaded.get(key)
            if shaded is not None:
                _shaded.move_to_end(key)
        if shaded is None:
            shaded = base.copy()
            _draw_areas(shaded, geo, chosen, state)
            with _shaded_lock:
                _shaded[key] = shaded
                if len(_shaded) > SHADED_KEPT:
                    _shaded.popitem(last=False)
        base = shaded
    under = _placed(marks)
    over = _placed(dots)
    for box in drawn:
        piece = base.crop(box)
        sprites.paste_all(piece, _touching(under, box))
        if box[1] < geo.header_height:
            # merged with the header's box, which starts at the top left corner: the
            # header's coordinates are this piece's
            _draw_header(piece, state, names, chosen, width, language)
        sprites.paste_all(piece, _touching(over, box))
        core.paste(_mapped(piece, board.palette).im, box)
    return indexed_png_bytes(indices, BOARD_LEVEL)


Placed = tuple[
    sprites.Sprite, float, float, int, int, int
]  # sprite, centre, its box's corner and side


def _placed(marks: Sequence[Mark]) -> list[Placed]:
    floor = math.floor
    return [
        (sprite, x, y, floor(x) - sprite.half, floor(y) - sprite.half, 2 * sprite.half + 1)
        for sprite, (x, y) in marks
    ]


def _touching(placed: list[Placed], box: Box) -> list[Mark]:
    """The marks whose sprites reach into ``box``, in order, their centres moved into it."""
    left, top, right, bottom = box
    return [
        (sprite, (x - left, y - top))
        for sprite, x, y, x0, y0, side in placed
        if x0 < right and left < x0 + side and y0 < bottom and top < y0 + side
    ]


def _drawn_whole(
    state: BoardView,
    names: tuple[str, str],
    theme: str,
    width: int,
    labels: bool,
    language: str,
    hints: Sequence[str] | None,
) -> bytes:
    if hints:
        image = render_hint_cells(
            state,
            hints,
            names=names,
            theme=theme,
            width=width,
            show_labels=labels,
            language=language,
        )
    else:
        image = render_board(
            state, names=names, theme=theme, width=width, show_labels=labels, language=language
        )
    return png_bytes(image)
