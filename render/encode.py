"""Image → bytes, deterministically: the same picture always gives the same bytes.

Pictures are flat colours plus antialiased edges and text, so a 256-colour palette loses
nothing visible; it makes the PNG about four times smaller (~30 KB instead of ~110 KB for
the largest board) and faster to encode than 24-bit colour. The fast octree quantiser is
deterministic and takes about 2 ms.

The PNG file is written here (signature, header, palette, one data chunk, end) rather than
by Pillow, so that its data can be compressed with libdeflate (the ``deflate`` package):
at the same level it gives the same size as zlib in well under half the time, which is
most of what a board picture costs. Without that package zlib does the same job, slower.
Nothing that varies (time, software name) is written, so equal pixels give equal files.

A picture may carry its own palette (``image.info[PALETTE_INFO]``, a palette image): the
board and Leiff pictures do, made once per kind of picture from a sample that holds every
colour they draw (see :func:`render.board.board_palette`). Mapping each pixel to the
nearest colour of a known palette costs a fifth of building one from the picture, and the
same palette for every picture of a match keeps the files alike. Drawing over a picture in
colours its palette lacks (the marks of ``render.annotations``) drops the palette, and the
octree builds one again, unless the marks bring a palette of their own (move hints:
``render.annotations.hint_palette``).
"""

from __future__ import annotations

import struct
import zlib
from collections.abc import Callable

from PIL import Image

PNG_COMPRESS_LEVEL = 6  # a good size for the time on these flat pictures
PALETTE_COLOURS = 256
PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"
PALETTE_INFO = "leafbot.palette"  # the key of a picture's own palette in its ``info``
# The key of a picture's own compression level in its ``info``: Leiff's table and hand are
# far under the 30 KB a picture may take, and level 3 packs them in two thirds of level 6's
# time for a sixth more bytes (about 22 and 11 KB).
LEVEL_INFO = "leafbot.level"
# A picture's own palette has half as many colours: the antialiased edges lose a shade or
# two (on average 1.6 of 255 per channel against 1.1 with 256 colours of its own, at most 16
# on an edge pixel), and the file is a tenth smaller, under 30 KB for the largest boards.
OWN_PALETTE_COLOURS = 128


_compress: Callable[[bytes, int], bytes | bytearray]
try:
    from deflate import zlib_compress as _compress
except ImportError:  # pragma: no cover - the package is a dependency; this is a fallback
    _compress = zlib.compress


def quantized(image: Image.Image) -> Image.Image:
    """``image`` reduced to at most 256 colours (palette images are kept as they are): to
    its own palette when it carries one, else to one the octree builds from it."""
    if image.mode in ("RGB", "RGBA"):
        rgb = image if image.mode == "RGB" else image.convert("RGB")
        palette = image.info.get(PALETTE_INFO)
        if isinstance(palette, Image.Image):
            return rgb.quantize(palette=palette, dither=Image.Dither.NONE)
        return rgb.quantize(
            colors=PALETTE_COLOURS, method=Image.Quantize.FASTOCTREE, dither=Image.Dither.NONE
        )
    return image


def palette_of(sample: Image.Image) -> Image.Image:
    """The palette (a palette image of ``OWN_PALETTE_COLOURS`` colours) the octree builds
    from ``sample``: given to pictures whose colours the sample holds."""
    return sample.convert("RGB").quantize(
        colors=OWN_PALETTE_COLOURS, method=Image.Quantize.FASTOCTREE, dither=Image.Dither.NONE
    )


def _chunk(kind: bytes, data: bytes) -> bytes:
    return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))


def png_bytes(image: Image.Image) -> bytes:
    """The PNG file of ``image`` (palette-reduced), with no metadata that could vary; at
    the compression level the picture asks for (``image.info[LEVEL_INFO]``) or level 6."""
    level = image.info.get(LEVEL_INFO, PNG_COMPRESS_LEVEL)
    indexed = quantized(image)
    if indexed.mode != "P":
        # greyscale and other modes are rare here (tests, tools): Pillow writes those
        import io

        buffer = io.BytesIO()
        indexed.save(buffer, format="PNG", compress_level=level)
        return buffer.getvalue()
    return indexed_png_bytes(indexed, level)


def indexed_png_bytes(indexed: Image.Image, level: int = PNG_COMPRESS_LEVEL) -> bytes:
    """The PNG file of a palette image, its indices and palette as they are."""
    width, height = indexed.size
    # every row starts with its filter type; 0 ("none") suits palette pictures best: the
    # picture pasted one pixel right into a column of zeros gives those rows in one C call
    # (slicing and joining 700 rows in Python cost a quarter of a millisecond more)
    framed = Image.new("L", (width + 1, height), 0)
    framed.im.paste(indexed.im, (1, 0, width + 1, height))
    rows = framed.tobytes()
    palette = bytes(indexed.getpalette() or [])[: 3 * PALETTE_COLOURS]
    header = struct.pack(">IIBBBBB", width, height, 8, 3, 0, 0, 0)
    return b"".join(
        (
            PNG_SIGNATURE,
            _chunk(b"IHDR", header),
            _chunk(b"PLTE", palette),
            _chunk(b"IDAT", bytes(_compress(rows, level))),
            _chunk(b"IEND", b""),
        )
    )
