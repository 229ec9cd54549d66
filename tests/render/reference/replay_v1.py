"""FROZEN copy of render/replay.py before issue 31's third round (palette indices painted
directly): the oracle of tests/render/test_replay_bytes.py. Do not change it.

Original docstring follows.

A whole board game as an animated GIF: one frame per position, the last one held longer.

Frames are drawn incrementally. The previous frame is kept, and only what changed is
painted again: the header strip, and the cells whose stone or marker came, went or changed
(each repainted from the empty board, with every stone and marker that touches it pasted
again in the order a full picture pastes them, so the pixels are those of a full redraw).
When a Lublache loop appears or disappears (the shading under the stones changes), the
frame is drawn whole.

All frames share one palette, taken from the final position (it holds the most stones and
markers), so colours never flicker between frames and no frame needs its own quantising
pass. Each frame after the first stores only the rectangle that changed, with the pixels
that did not change inside it left transparent (which LZW compresses to almost nothing).
The file is written here (GIF89a is a short format) and the LZW coding is Pillow's.
"""

from __future__ import annotations

import math
import struct
from collections.abc import Iterable, Sequence

from PIL import Image, ImageChops

from engine.spec import BoardView
from i18n import DEFAULT_LANGUAGE
from render.board import (
    Area,
    HeaderLayout,
    Mark,
    _draw_areas,
    _draw_header,
    board_background,
    board_marks,
    header_layout,
    is_point_game,
    owned_areas,
    render_board,
)
from render.boxes import Box, mark_box, merged, overlap, union
from render.geometry import MIN_WIDTH, board_geometry
from render.themes import get_theme

FRAME_MS = 800
LAST_FRAME_MS = 4000
MAX_GIF_BYTES = 8 * 1024 * 1024
TRANSPARENT = 255  # palette index of 'unchanged' pixels; the frames use the 255 others


class _Painter:
    """The current frame of a replay, and how to move it on to the next position."""

    def __init__(
        self, first: BoardView, names: tuple[str, str], theme: str, width: int, language: str
    ) -> None:
        self.names, self.width, self.language = names, width, language
        self.theme = get_theme(theme)
        points = is_point_game(first)
        self.geo = board_geometry(first.size, width, points)
        self.size = (width, self.geo.height)
        self.background = board_background(first.size, width, points, self.theme.name, True)
        self.header: Box = (0, 0, width, self.geo.header_height)
        self.areas: tuple[Area, ...] = ()
        self.base = self.background
        self._new_base(first)
        self.frame = render_board(
            first,
            names=names,
            theme=self.theme.name,
            width=width,
            language=language,
            replay=True,
        )
        self._header_key = self._header_key_of(first)
        self.layout = header_layout(first, names, self.theme, width, language, replay=True)
        self.boxed = self._boxed(first)
        self.keys = {(id(sprite), box) for (sprite, _), box in self.boxed}

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

    def _boxed(self, state: BoardView) -> list[tuple[Mark, Box]]:
        """The stones and markers of ``state`` in pasting order, each with its box."""
        return [
            (mark, mark_box(*mark))
            for mark in board_marks(self.geo, self.theme, state, replay=True)
        ]

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
        fresh = self.background.copy()
        _draw_areas(fresh, self.geo, self.theme, state, touching)
        if self.base is self.background:
            self.base = self.background.copy()
        for changed in boxes:
            area = self._clip(changed)
            self.base.paste(fresh.crop(area), area)
        return boxes

    def _loop_box(self, cells: tuple[str, ...]) -> Box:
        """The pixels a loop's shading and outline can touch (its band is far narrower
        than a cell's radius)."""
        centres = [self.geo.centre(name) for name in cells]
        reach = self.geo.radius + 4
        return (
            math.floor(min(x for x, _ in centres) - reach),
            math.floor(min(y for _, y in centres) - reach),
            math.ceil(max(x for x, _ in centres) + reach) + 1,
            math.ceil(max(y for _, y in centres) + reach) + 1,
        )

    def advance(self, state: BoardView) -> list[Box]:
        """Make the frame show ``state``; the boxes that were painted again."""
        boxed = self._boxed(state)
        keys = {(id(sprite), box) for (sprite, _), box in boxed}
        layout = self._header_layout(state)
        before, layout_before = self.keys, self.layout
        self.boxed, self.keys, self.layout = boxed, keys, layout
        dirty = {box for _, box in before ^ keys}
        dirty.update(self._new_base(state))
        painted = [self._clip(box) for box in merged(dirty)]
        for box in painted:
            self._repaint(box, boxed, None)
        header = self.header
        if layout != layout_before or any(overlap(box, header) for box in painted):
            # the header goes on top of everything, so it is painted last
            self._repaint(header, boxed, state)
            painted.append(header)
        return painted

    def _clip(self, box: Box) -> Box:
        width, height = self.size
        return (max(0, box[0]), max(0, box[1]), min(width, box[2]), min(height, box[3]))

    def _repaint(
        self, box: Box, boxed: list[tuple[Mark, Box]], header_of: BoardView | None
    ) -> None:
        """Paint ``box`` afresh: the board, the marks touching it, and the header if asked."""
        left, top, right, bottom = box
        piece = self.base.crop(box)
        for (sprite, (x, y)), (mark_left, mark_top, mark_right, mark_bottom) in boxed:
            if mark_left < right and left < mark_right and mark_top < bottom and top < mark_bottom:
                # shifting by whole pixels moves the sprite exactly (its corner is floored)
                sprite.paste_on(piece, (x - left, y - top))
        if header_of is not None:
            # the header strip starts at the top left corner: its coordinates are the same
            _draw_header(
                piece, header_of, self.names, self.theme, self.width, self.language, replay=True
            )
        self.frame.paste(piece, (left, top))


def _indices(image: Image.Image, palette: Image.Image) -> Image.Image:
    """The palette indices of an RGB image's pixels, as a greyscale image."""
    mapped = image.quantize(palette=palette, dither=Image.Dither.NONE)
    return Image.frombytes("L", mapped.size, mapped.tobytes())


def _lzw(indices: Image.Image) -> bytes:
    """An image's indices as GIF image data (LZW, in sub-blocks, terminated)."""
    # the GIF coder reads a greyscale picture's bytes as it reads a palette picture's
    return bytes([8]) + indices.tobytes("gif", "L") + b"\x00"


def _frame_block(box: Box, indices: Image.Image, duration_ms: int) -> bytes:
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
    descriptor = struct.pack("<BHHHHB", 0x2C, left, top, right - left, bottom - top, 0)
    return control + descriptor + _lzw(indices)


def _gif(
    positions: list[BoardView], names: tuple[str, str], theme: str, width: int, language: str
) -> bytes:
    painter = _Painter(positions[0], names, theme, width, language)
    last = render_board(
        positions[-1], names=names, theme=theme, width=width, language=language, replay=True
    )
    # index TRANSPARENT stays free in the palette: it marks "unchanged since the last frame"
    palette = last.quantize(colors=TRANSPARENT, method=Image.Quantize.FASTOCTREE)
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
    shown = _indices(painter.frame, palette)  # what the viewer shows after each frame
    durations = [FRAME_MS] * (len(positions) - 1) + [LAST_FRAME_MS]
    blocks.append(_frame_block((0, 0, image_width, image_height), shown, durations[0]))
    current = shown.copy()
    for state, duration in zip(positions[1:], durations[1:], strict=True):
        painted = painter.advance(state)
        for box in painted:
            current.paste(_indices(painter.frame.crop(box), palette), box)
        area = union(painted)
        difference = ImageChops.difference(current.crop(area), shown.crop(area))
        changed = difference.getbbox()
        if changed is None:
            # nothing to show (a pass): one transparent pixel keeps the frame and its duration
            blocks.append(_frame_block((0, 0, 1, 1), Image.new("L", (1, 1), TRANSPARENT), duration))
            continue
        box = (
            area[0] + changed[0],
            area[1] + changed[1],
            area[0] + changed[2],
            area[1] + changed[3],
        )
        after = current.crop(box)
        unchanged = difference.crop(changed).point([255, *([0] * 255)], "1")
        delta = after.copy()
        delta.paste(TRANSPARENT, mask=unchanged)
        blocks.append(_frame_block(box, delta, duration))
        shown.paste(after, box)
    blocks.append(b"\x3b")
    return b"".join(blocks)


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
