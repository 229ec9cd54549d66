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

A picture made of horizontal strips (a Leiff table or hand, see :mod:`render.bands`) may say
where its strips meet (``image.info[SEGMENTS_INFO]``). Its data is then compressed strip by
strip, each strip on its own (zlib, flushed at the strip's end, so that the pieces join into
one stream), and a strip's compressed piece is a function of its pixels alone: a process
that has compressed a strip for one picture reuses the piece in the next, where an action
changes two or three of a table's nine strips. zlib is a little slower than libdeflate on
the same bytes, which the strips that need no compressing repay several times over.

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

import itertools
import struct
import zlib
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from PIL import Image

PNG_COMPRESS_LEVEL = 6  # a good size for the time on these flat pictures
PALETTE_COLOURS = 256
PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"
PALETTE_INFO = "leafbot.palette"  # the key of a picture's own palette in its ``info``
# The key of a picture's own compression level in its ``info``: Leiff's table and hand are
# far under the 30 KB a picture may take, and level 3 packs them in two thirds of level 6's
# time for a sixth more bytes (about 22 and 11 KB).
LEVEL_INFO = "leafbot.level"
# The key of the rows where a picture's strips meet, in its ``info``: ``(size, rows)``, the
# picture's size and the first row of every strip but the first (ignored on a picture of
# another size: a crop or resize keeps the info of the picture it came from)
SEGMENTS_INFO = "leafbot.segments"
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
    the compression level the picture asks for (``image.info[LEVEL_INFO]``) or level 6,
    strip by strip where it says where its strips meet (``image.info[SEGMENTS_INFO]``)."""
    level = image.info.get(LEVEL_INFO, PNG_COMPRESS_LEVEL)
    segments = image.info.get(SEGMENTS_INFO)
    indexed = quantized(image)
    if indexed.mode == "P" and segments is not None and segments[0] == indexed.size:
        cuts = [0, *segments[1], indexed.height]
        pieces = [
            compressed_rows(indexed.crop((0, top, indexed.width, bottom)), level)
            for top, bottom in itertools.pairwise(cuts)
            if bottom > top
        ]
        return segmented_png_bytes(indexed.size, _palette_bytes(indexed), pieces, level)
    if indexed.mode != "P":
        # greyscale and other modes are rare here (tests, tools): Pillow writes those
        import io

        buffer = io.BytesIO()
        indexed.save(buffer, format="PNG", compress_level=level)
        return buffer.getvalue()
    return indexed_png_bytes(indexed, level)


def _framed_rows(indexed: Image.Image) -> bytes:
    """A palette image's rows as the PNG's data has them, each after its filter type."""
    width, height = indexed.size
    # every row starts with its filter type; 0 ("none") suits palette pictures best: the
    # picture pasted one pixel right into a column of zeros gives those rows in one C call
    # (slicing and joining 700 rows in Python cost a quarter of a millisecond more)
    framed = Image.new("L", (width + 1, height), 0)
    framed.im.paste(indexed.im, (1, 0, width + 1, height))
    return framed.tobytes()


def _palette_bytes(indexed: Image.Image) -> bytes:
    return bytes(indexed.getpalette() or [])[: 3 * PALETTE_COLOURS]


def _png(size: tuple[int, int], palette: bytes, data: bytes) -> bytes:
    header = struct.pack(">IIBBBBB", size[0], size[1], 8, 3, 0, 0, 0)
    return b"".join(
        (
            PNG_SIGNATURE,
            _chunk(b"IHDR", header),
            _chunk(b"PLTE", palette),
            _chunk(b"IDAT", data),
            _chunk(b"IEND", b""),
        )
    )


def indexed_png_bytes(indexed: Image.Image, level: int = PNG_COMPRESS_LEVEL) -> bytes:
    """The PNG file of a palette image, its indices and palette as they are."""
    data = bytes(_compress(_framed_rows(indexed), level))
    return _png(indexed.size, _palette_bytes(indexed), data)


@dataclass(frozen=True)
class Piece:
    """Some rows of a picture's data compressed on their own (raw deflate, ending on a byte
    boundary with no final block), with the Adler-32 and the length of those rows."""

    data: bytes
    adler: int
    length: int


def compressed_rows(indexed: Image.Image, level: int) -> Piece:
    """A strip of a palette picture (all its rows), compressed on its own for
    :func:`segmented_png_bytes`: the same piece wherever in a picture the strip goes."""
    rows = _framed_rows(indexed)
    packer = zlib.compressobj(level, zlib.DEFLATED, -15)
    data = packer.compress(rows) + packer.flush(zlib.Z_FULL_FLUSH)
    return Piece(data, zlib.adler32(rows), len(rows))


_ADLER_BASE = 65521


def adler32_combined(first: int, second: int, second_length: int) -> int:
    """The Adler-32 of two byte strings one after the other, from each one's (zlib's
    ``adler32_combine``, which Python does not offer)."""
    remainder = second_length % _ADLER_BASE
    low = (first & 0xFFFF) + (second & 0xFFFF) - 1
    high = (first >> 16) + (second >> 16) + remainder * (first & 0xFFFF) - remainder
    return (high % _ADLER_BASE) << 16 | (low % _ADLER_BASE)


# after the pieces: an empty final block with fixed codes (BFINAL 1, BTYPE 01, end of block)
_LAST_BLOCK = b"\x03\x00"


def _zlib_header(level: int) -> bytes:
    """zlib's two header bytes: deflate with a 32 KB window, the level's class, and the
    check that makes the pair a multiple of 31."""
    compression_class = 0 if level < 2 else 1 if level < 6 else 2 if level == 6 else 3
    first, second = 0x78, compression_class << 6
    second += (31 - (first * 256 + second) % 31) % 31
    return bytes((first, second))


def segmented_png_bytes(
    size: tuple[int, int], palette: bytes, pieces: Sequence[Piece], level: int
) -> bytes:
    """The PNG file of a picture whose rows, top to bottom, are ``pieces``
    (:func:`compressed_rows`): one zlib stream made of them, with ``palette``."""
    adler = 1
    for piece in pieces:
        adler = adler32_combined(adler, piece.adler, piece.length)
    data = b"".join(
        (
            _zlib_header(level),
            *(piece.data for piece in pieces),
            _LAST_BLOCK,
            struct.pack(">I", adler),
        )
    )
    return _png(size, palette, data)
