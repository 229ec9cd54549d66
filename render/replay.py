"""A whole board game as an animated GIF: one frame per position, the last one held longer.

Frames are drawn incrementally. The previous frame is kept, and only what changed is
painted again: the header strip, and the cells whose stone or marker came, went or changed
(each repainted from the empty board, with every stone and marker that touches it pasted
again in the order a full picture pastes them, so the pixels are those of a full redraw).
When a Lublache loop appears or disappears (the shading under the stones changes), the
frame is drawn whole.

All frames share one palette, taken from the final position (it holds the most stones and
markers), so colours never flicker between frames and no frame needs its own quantising
pass. The frame is kept as palette indices: each box painted again is drawn in RGB and
mapped at once (see :class:`_Painter`). Each frame after the first stores only the rectangle that changed, with the pixels
that did not change inside it left transparent (which LZW compresses to almost nothing).
The file is written here (GIF89a is a short format) and the LZW coding is Pillow's.
"""

from __future__ import annotations

import math
import struct
from collections.abc import Iterable, Sequence
from typing import Any

from PIL import Image, ImageFile

from engine.spec import BoardView
from i18n import DEFAULT_LANGUAGE
from render.board import (
    Area,
    HeaderLayout,
    Layer,
    _draw_header,
    _last_turn_marks,
    _stone_sprite,
    area_layers,
    board_background,
    header_layout,
    is_point_game,
    owned_areas,
    render_board,
)
from render.boxes import Box, mark_box, merged, overlap, union
from render.geometry import MIN_WIDTH, board_geometry
from render.sprites import Sprite
from render.themes import get_theme

FRAME_MS = 800
LAST_FRAME_MS = 4000
MAX_GIF_BYTES = 8 * 1024 * 1024
TRANSPARENT = 255  # palette index of 'unchanged' pixels; the frames use the 255 others


class _Painter:
    """The current frame of a replay as palette indices, and how to move it on to the next
    position.

    Only the pictures a frame starts from are RGB: the board under the stones (with the
    loops' shading) and the sprites. A box that changed is cut from the board, its marks
    and header are pasted and drawn on it, and it is mapped to the palette and put into the
    frame's indices at once (mapping a pixel depends on that pixel alone, so this is the
    mapping of the whole RGB frame). The frame's pictures are Pillow's cores, not images:
    a frame pastes a few sprites, and an image's checks cost more than the pasting.
    """

    def __init__(
        self,
        first: BoardView,
        names: tuple[str, str],
        theme: str,
        width: int,
        language: str,
        palette: Image.Image,
    ) -> None:
        self.names, self.width, self.language = names, width, language
        self.theme = get_theme(theme)
        points = is_point_game(first)
        self.geo = board_geometry(first.size, width, points)
        self.size = (width, self.geo.height)
        self.background = board_background(first.size, width, points, self.theme.name, True)
        self.header: Box = (0, 0, width, self.geo.header_height)
        self.areas: tuple[Area, ...] = ()
        self.first_colour = first.game.colors[0]
        self._area_layers: dict[Area, list[Layer]] = {}
        self._loop_boxes: dict[tuple[str, ...], Box] = {}  # a loop stays for many frames
        self.base = self.background
        self._new_base(first)
        self.palette = palette.im
        frame = render_board(
            first,
            names=names,
            theme=self.theme.name,
            width=width,
            language=language,
            replay=True,
        )
        self.indices = _indices(frame, palette)  # the frame shown after this position
        self._header_key = self._header_key_of(first)
        self.layout = header_layout(first, names, self.theme, width, language, replay=True)
        # each cell's stone, as pasted: the sprite's cores and corner, and its box
        sprites = (_stone_sprite(self.geo, self.theme, 1), _stone_sprite(self.geo, self.theme, 2))
        self._stone_of = [
            {code: _placed(sprites[0] if code == 1 else sprites[1], centre) for code in (1, 2)}
            for centre in self.geo.centres
        ]
        self._near = _Near(self._stone_of, self.size)
        self.cells = bytes(len(first.cells))
        self.stones: list[_Placed | None] = [None] * len(first.cells)
        self.on_board = 0  # the cells holding a stone, a bit per cell index
        self.turn: list[_Placed] = []
        self._move_marks(first)

    @staticmethod
    def _header_key_of(state: BoardView) -> tuple[object, ...]:
        # A replay's header changes only with the result, a swap or the end of an opening
        # that assigns the colours (see render_board): laying it out again only then saves
        # most of its cost.
        return (state.outcome, state.swapped, state.colours_assigned)

    def _header_layout(self, state: BoardView) -> HeaderLayout:
        key = self._header_key_of(state)
        if key == self._header_key:
            return self.layout
        self._header_key = key
        return header_layout(state, self.names, self.theme, self.width, self.language, replay=True)

    def _move_marks(self, state: BoardView) -> list[Box]:
        """Make the stones and the last turn's markers those of ``state``; the boxes of the
        marks that came, went or changed (and of every marker, old and new)."""
        cells = state.cells
        dirty: list[Box] = []
        if cells != self.cells:
            stones, stone_of = self.stones, self._stone_of
            # the cells that changed, from the bytes' difference read as one number (a
            # turn changes a few of the board's cells)
            changed = int.from_bytes(self.cells, "little") ^ int.from_bytes(cells, "little")
            on_board = self.on_board
            while changed:
                index = ((changed & -changed).bit_length() - 1) >> 3
                changed &= ~(0xFF << (index << 3))
                gone = stones[index]
                if gone is not None:
                    dirty.append(gone[2])
                now = cells[index]
                if now:
                    placed = stones[index] = stone_of[index][now]
                    dirty.append(placed[2])
                    on_board |= 1 << index
                else:
                    stones[index] = None
                    on_board &= ~(1 << index)
            self.cells, self.on_board = cells, on_board
        dirty += [placed[2] for placed in self.turn]
        self.turn = [
            _placed(sprite, centre)
            for sprite, centre in _last_turn_marks(self.geo, self.theme, state, halo=False)
        ]
        dirty += [placed[2] for placed in self.turn]
        return dirty

    def _new_base(self, state: BoardView) -> list[Box]:
        """Make the board under the stones (with the loops' shading) current; the boxes
        where it changed.

        Outside the loops that came or went, the same loops are drawn in the same order
        (they are sorted), so only the areas of those loops can differ; inside them, only
        the loops that reach there count. So those areas are drawn again with just those
        loops, in order, and copied into the board.
        """
        areas = tuple(owned_areas(state))
        if areas == self.areas:
            return []
        boxes = [self._loop_box(cells) for _, _, cells in set(areas) ^ set(self.areas)]
        self.areas = areas
        touching = [
            area for area in areas if any(overlap(self._loop_box(area[2]), b) for b in boxes)
        ]
        layers = [layer for area in touching for layer in self._layers(area)]
        if self.base is self.background:
            self.base = self.background.copy()
        for changed in boxes:
            left, top, right, bottom = area = self._clip(changed)
            # the board there, with the shading of the loops that reach there, in order
            piece = self.background.im.crop(area)
            for colour, (x0, y0, x1, y1), mask in layers:
                if x0 < right and left < x1 and y0 < bottom and top < y1:
                    # a core paste clips what falls outside the piece
                    piece.paste(colour, (x0 - left, y0 - top, x1 - left, y1 - top), mask.im)
            self.base.im.paste(piece, area)
        return boxes

    def _layers(self, area: Area) -> list[Layer]:
        """What an area paints (see :func:`render.board.area_layers`), worked out once: a
        loop stays on the board for many frames, and is painted again whenever a loop near
        it comes or goes."""
        layers = self._area_layers.get(area)
        if layers is None:
            layers = self._area_layers[area] = area_layers(
                self.geo, self.theme, self.first_colour, area
            )
        return layers

    def _loop_box(self, cells: tuple[str, ...]) -> Box:
        """The pixels a loop's shading and outline can touch (its band is far narrower
        than a cell's radius)."""
        box = self._loop_boxes.get(cells)
        if box is None:
            box = self._loop_boxes[cells] = self._loop_box_of(cells)
        return box

    def _loop_box_of(self, cells: tuple[str, ...]) -> Box:
        centres = [self.geo.centre(name) for name in cells]
        reach = self.geo.radius + 4
        return (
            math.floor(min(x for x, _ in centres) - reach),
            math.floor(min(y for _, y in centres) - reach),
            math.ceil(max(x for x, _ in centres) + reach) + 1,
            math.ceil(max(y for _, y in centres) + reach) + 1,
        )

    def advance(self, state: BoardView) -> list[Box]:
        """Make the frame show ``state``; the boxes that were painted again.

        A box painted again needlessly shows what it showed (it is painted as a full
        picture paints it): the frame stored in the file is what changed, whatever was
        painted.
        """
        dirty = self._move_marks(state)
        layout = self._header_layout(state)
        layout_before, self.layout = self.layout, layout
        dirty += self._new_base(state)
        painted = [self._clip(box) for box in merged(dirty)]
        for box in painted:
            self._repaint(box, None)
        header = self.header
        if layout != layout_before or any(overlap(box, header) for box in painted):
            # the header goes on top of everything, so it is painted last
            self._repaint(header, state)
            painted.append(header)
        return painted

    def _clip(self, box: Box) -> Box:
        width, height = self.size
        return (max(0, box[0]), max(0, box[1]), min(width, box[2]), min(height, box[3]))

    def _repaint(self, box: Box, header_of: BoardView | None) -> None:
        """Paint ``box`` afresh: the board, the marks touching it, and the header if asked;
        then its indices into the frame."""
        left, top, right, bottom = box
        if header_of is None:
            piece = self.base.im.crop(box)
        else:
            image = self.base.crop(box)
            piece = image.im
        # the stones touching the box, in the order of their cells (a full picture's
        # order), then the markers
        stones = self.stones
        touching = self._near.touching(box) & self.on_board
        while touching:
            lowest = touching & -touching
            touching ^= lowest
            placed = stones[lowest.bit_length() - 1]
            assert placed is not None  # a cell of on_board holds a stone
            colour, mask, (mark_left, mark_top, mark_right, mark_bottom) = placed
            # shifting by whole pixels moves the sprite exactly (its corner is floored)
            piece.paste(
                colour,
                (mark_left - left, mark_top - top, mark_right - left, mark_bottom - top),
                mask,
            )
        for colour, mask, (mark_left, mark_top, mark_right, mark_bottom) in self.turn:
            if mark_left < right and left < mark_right and mark_top < bottom and top < mark_bottom:
                piece.paste(
                    colour,
                    (mark_left - left, mark_top - top, mark_right - left, mark_bottom - top),
                    mask,
                )
        if header_of is not None:
            # the header strip starts at the top left corner: its coordinates are the same
            _draw_header(
                image, header_of, self.names, self.theme, self.width, self.language, replay=True
            )
        self.indices.im.paste(piece.convert("P", 0, self.palette), box)


class _Near:
    """Which cells' stones touch a box, as a bit per cell index: four look-ups and three
    ands instead of every stone's box compared (a frame paints a few boxes, the board holds
    up to a few hundred stones).

    For each pixel column ``x``, the cells whose stone starts left of ``x``, and those
    whose stone ends right of it; the same for rows. A box meets the stones that start
    before its right edge and end after its left edge, and so on (either colour's stone:
    their boxes are the same when their sprites are, and are joined otherwise).
    """

    def __init__(self, stone_of: list[dict[int, _Placed]], size: tuple[int, int]) -> None:
        boxes = [union(placed[2] for placed in both.values()) for both in stone_of]
        width, height = size
        self._starts_before_x = _cumulative([box[0] for box in boxes], width, before=True)
        self._ends_after_x = _cumulative([box[2] for box in boxes], width, before=False)
        self._starts_before_y = _cumulative([box[1] for box in boxes], height, before=True)
        self._ends_after_y = _cumulative([box[3] for box in boxes], height, before=False)

    def touching(self, box: Box) -> int:
        left, top, right, bottom = box
        return (
            self._starts_before_x[right]
            & self._ends_after_x[left]
            & self._starts_before_y[bottom]
            & self._ends_after_y[top]
        )


def _cumulative(edges: list[int], length: int, *, before: bool) -> list[int]:
    """Per coordinate ``p`` from 0 to ``length``: the cells whose edge is below ``p``
    (``before``), or above it."""
    joining = [0] * (length + 1)  # the cells that join at p, going up (or down)
    for cell, edge in enumerate(edges):
        # from p = edge + 1 up, or from p = edge - 1 down
        at = edge + 1 if before else edge - 1
        if (at <= length) if before else (at >= 0):
            joining[min(length, max(0, at))] |= 1 << cell
    found = [0] * (length + 1)
    running = 0
    for p in range(length + 1) if before else range(length, -1, -1):
        running |= joining[p]
        found[p] = running
    return found


# a stone or marker as pasted: its sprite's colour and mask cores, and the box it covers
_Placed = tuple[Any, Any, Box]


def _placed(sprite: Sprite, centre: tuple[float, float]) -> _Placed:
    colour, mask, _ = sprite._cores
    return (colour, mask, mark_box(sprite, centre))


def _indices(image: Image.Image, palette: Image.Image) -> Image.Image:
    """The palette indices of an RGB image's pixels, as a greyscale image."""
    mapped = image.quantize(palette=palette, dither=Image.Dither.NONE)
    return Image.frombytes("L", mapped.size, mapped.tobytes())


# 255 where a frame's pixel did not change (its difference is 0), 0 where it did
_UNCHANGED = [255] + [0] * 255


def _lzw(indices: Any, size: tuple[int, int]) -> bytes:
    """The indices of a core picture of ``size`` as GIF image data (LZW, in sub-blocks,
    terminated): what ``Image.tobytes("gif", "L")`` gives, without an image round it."""
    # the GIF coder reads a greyscale picture's bytes as it reads a palette picture's
    encoder = Image.core.gif_encoder("L", "L")  # type: ignore[attr-defined]  # Pillow's C core, not re-exported
    encoder.setimage(indices, (0, 0, *size))
    bufsize = max(ImageFile.MAXBLOCK, size[0] * 4)
    output = [bytes([8])]
    try:
        while True:
            _, errcode, data = encoder.encode(bufsize)
            output.append(data)
            if errcode:
                break
    finally:
        encoder.cleanup()
    if errcode < 0:
        raise RuntimeError(f"GIF encoder error {errcode}")
    output.append(b"\x00")
    return b"".join(output)


def _frame_block(box: Box, indices: Any, duration_ms: int) -> bytes:
    """One frame: the graphic control extension, the image descriptor and the data."""
    control = struct.pack(
        "<BBBBHBB",
        0x21,
        0xF9,
        4,
        # disposal 1: the frame stays under the next one, which paints only what changed
        (1 << 2) | 1,
        round(duration_ms / 10),
        TRANSPARENT,
        0,
    )
    left, top, right, bottom = box
    size = (right - left, bottom - top)
    descriptor = struct.pack("<BHHHHB", 0x2C, left, top, *size, 0)
    return control + descriptor + _lzw(indices, size)


def _gif(
    positions: list[BoardView], names: tuple[str, str], theme: str, width: int, language: str
) -> bytes:
    last = render_board(
        positions[-1], names=names, theme=theme, width=width, language=language, replay=True
    )
    # index TRANSPARENT stays free in the palette: it marks "unchanged since the last frame"
    palette = last.quantize(colors=TRANSPARENT, method=Image.Quantize.FASTOCTREE)
    painter = _Painter(positions[0], names, theme, width, language, palette)
    colours = (palette.getpalette() or [])[: 3 * 256]
    colours += [0] * (3 * 256 - len(colours))
    image_width, image_height = painter.size
    blocks = [
        b"GIF89a",
        # global colour table of 256 entries, 8 bits of colour resolution
        struct.pack("<HHBBB", image_width, image_height, 0xF7, 0, 0),
        bytes(colours),
        # loop forever (the NETSCAPE2.0 application extension)
        b"\x21\xff\x0bNETSCAPE2.0\x03\x01\x00\x00\x00",
    ]
    durations = [FRAME_MS] * (len(positions) - 1) + [LAST_FRAME_MS]
    blocks.append(_frame_block((0, 0, image_width, image_height), painter.indices.im, durations[0]))
    shown = painter.indices.im.copy()  # what the viewer shows after each frame
    current = painter.indices.im
    for state, duration in zip(positions[1:], durations[1:], strict=True):
        # the pixels that changed lie in the boxes painted again: the frame is the bounding
        # box of those that did, found box by box (their union can be far larger than the
        # boxes, with the last move's ring on one side of the board and the new one on the
        # other), and outside the boxes every pixel of it is TRANSPARENT
        found, pieces = [], []
        for painted in painter.advance(state):
            now = current.crop(painted)
            difference = now.chop_difference(shown.crop(painted))
            changed = difference.getbbox(False)
            if changed is not None:
                left, top = painted[0], painted[1]
                found.append(
                    (left + changed[0], top + changed[1], left + changed[2], top + changed[3])
                )
                pieces.append((painted, now, difference))
        if not found:
            # nothing to show (a pass): one transparent pixel keeps the frame and its duration
            blocks.append(_frame_block((0, 0, 1, 1), _ONE_TRANSPARENT.im, duration))
            continue
        box = union(found)
        delta = Image.core.fill("L", (box[2] - box[0], box[3] - box[1]), TRANSPARENT)  # type: ignore[attr-defined]  # Pillow's C core
        for painted, now, difference in pieces:
            inside = (
                max(painted[0], box[0]),
                max(painted[1], box[1]),
                min(painted[2], box[2]),
                min(painted[3], box[3]),
            )
            mine = _moved(inside, painted)
            # the pixels that did not change are TRANSPARENT, the highest index: the others
            # keep theirs (the palette's indices are below it)
            unchanged = difference.crop(mine).point(_UNCHANGED, "L")
            now = now.crop(mine)
            delta.paste(now.chop_lighter(unchanged), _moved(inside, box))
            shown.paste(now, inside)
        blocks.append(_frame_block(box, delta, duration))
    blocks.append(b"\x3b")
    return b"".join(blocks)


_ONE_TRANSPARENT = Image.new("L", (1, 1), TRANSPARENT)


def _moved(box: Box, origin: Box) -> Box:
    """``box`` in the coordinates of a picture whose top left corner is ``origin``'s."""
    return (box[0] - origin[0], box[1] - origin[1], box[2] - origin[0], box[3] - origin[1])


def replay_gif(
    states: Iterable[BoardView],
    *,
    names: Sequence[str] = ("", ""),
    theme: str = "classic",
    width: int = 400,
    language: str = DEFAULT_LANGUAGE,
) -> bytes:
    """An animated GIF of ``states`` (e.g. ``state.history()``), one frame per state, its
    headers in the reader's ``language``.

    The result is always under 8 MB: if a very long game would exceed that, the frames are
    drawn narrower until it fits.
    """
    positions = list(states)
    if not positions:
        raise ValueError("a replay needs at least one position")
    pair = (str(names[0]) if len(names) > 0 else "", str(names[1]) if len(names) > 1 else "")
    current = width
    while True:
        data = _gif(positions, pair, theme, current, language)
        if len(data) < MAX_GIF_BYTES or current <= MIN_WIDTH:
            break
        current = max(MIN_WIDTH, int(current * 0.75))
    if len(data) >= MAX_GIF_BYTES:
        raise ValueError("this game is too long for a replay under 8 MB")
    return data
