"""Image → bytes, deterministically: the same picture always gives the same bytes.

Pillow writes no timestamp into a PNG unless asked; we also pass no ``pnginfo`` and a fixed
compression level, so equal pixels mean equal files (tests compare bytes).
"""

from __future__ import annotations

import io

from PIL import Image

PNG_COMPRESS_LEVEL = 6  # zlib's default: a good size for the time on these flat pictures


def png_bytes(image: Image.Image) -> bytes:
    """The PNG file of ``image``, with no metadata that could vary between calls."""
    buffer = io.BytesIO()
    image.save(buffer, format="PNG", compress_level=PNG_COMPRESS_LEVEL, optimize=False)
    return buffer.getvalue()
