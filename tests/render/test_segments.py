"""A picture's data compressed strip by strip is one valid zlib stream of its rows."""

from __future__ import annotations

import io
import itertools
import random
import zlib

import pytest
from PIL import Image

from render.encode import (
    _zlib_header,
    adler32_combined,
    compressed_rows,
    segmented_png_bytes,
)


def test_adler32_of_two_strings_from_each_ones() -> None:
    rng = random.Random(7)
    for _ in range(300):
        first = rng.randbytes(rng.choice((0, 1, 5, 65520, 65521, rng.randint(0, 200_000))))
        second = rng.randbytes(rng.choice((0, 1, 65521, rng.randint(0, 200_000))))
        combined = adler32_combined(zlib.adler32(first), zlib.adler32(second), len(second))
        assert combined == zlib.adler32(first + second)


@pytest.mark.parametrize("level", range(10))
def test_the_stream_header_is_zlibs_own(level: int) -> None:
    assert _zlib_header(level) == zlib.compress(b"leafbot", level)[:2]


@pytest.mark.parametrize("level", [1, 3, 6])
def test_strips_anywhere_join_into_the_pictures_file(level: int) -> None:
    rng = random.Random(level)
    picture = Image.new("P", (97, 120))
    picture.putdata([rng.choice((0, 0, 0, 1, 2, rng.randrange(128))) for _ in range(97 * 120)])
    picture.putpalette(bytes(rng.randrange(256) for _ in range(3 * 128)))
    for _ in range(20):
        cuts = sorted({0, 120, *(rng.randrange(1, 120) for _ in range(rng.randrange(6)))})
        pieces = [
            compressed_rows(picture.crop((0, top, 97, bottom)), level)
            for top, bottom in itertools.pairwise(cuts)
        ]
        data = segmented_png_bytes(picture.size, bytes(picture.getpalette() or []), pieces, level)
        decoded = Image.open(io.BytesIO(data))
        decoded.load()
        assert decoded.mode == "P" and decoded.size == picture.size
        assert decoded.tobytes() == picture.tobytes()
        assert decoded.getpalette() == picture.getpalette()
    # a strip's piece depends on its pixels alone: the same strip lower in another picture
    strip = picture.crop((0, 0, 97, 40))
    other = Image.new("P", (97, 200), 5)
    other.paste(strip, (0, 130))
    moved = compressed_rows(other.crop((0, 130, 97, 170)), level)
    assert moved == compressed_rows(strip, level)
    assert moved != compressed_rows(picture.crop((0, 40, 97, 80)), level)
