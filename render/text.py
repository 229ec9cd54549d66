"""Fonts and text that always fits: display names of any script, truncated with an ellipsis.

The pictures never depend on system fonts: they use DejaVu Sans Condensed shipped in
``data/fonts`` (licence beside it), or Pillow's bundled scalable font if those files are
missing. A character the font has no glyph for is drawn as the font's "missing glyph" box;
it never raises. Names are cleaned of control and formatting characters (newlines, bidi
overrides) first, so no name can break the layout.

Laying text out is most of the cost of a board picture, and the same pieces (names,
colours, "side 9") come back in every picture of a match, so measuring, fitting and the
glyph bitmaps of drawn text are remembered (per font object, so per thread). Replaying a
remembered bitmap is the very call Pillow makes after laying the text out, so the pixels
are the same as drawing afresh.
"""

from __future__ import annotations

import io
import threading
import unicodedata
from collections import OrderedDict
from functools import cache, lru_cache
from pathlib import Path
from typing import Any

from PIL import Image, ImageDraw, ImageFont

FONT_DIR = Path(__file__).resolve().parent.parent / "data" / "fonts"
_FONT_FILES = {"regular": "DejaVuSansCondensed.ttf", "bold": "DejaVuSansCondensed-Bold.ttf"}
ELLIPSIS = "…"

Font = ImageFont.FreeTypeFont | ImageFont.ImageFont


# FreeType faces are not safe to share between threads, and render_async draws on worker
# threads, so every thread keeps its own fonts (built from the font file bytes read once).
_thread_fonts = threading.local()


@cache
def _font_file(weight: str) -> bytes | None:
    path = FONT_DIR / _FONT_FILES[weight]
    return path.read_bytes() if path.is_file() else None


def font(size: int, weight: str = "regular") -> Font:
    """A font of ``size`` pixels, cached per thread; ``weight`` is ``"regular"`` or ``"bold"``."""
    size = max(6, int(size))
    fonts: dict[tuple[int, str], Font] | None = getattr(_thread_fonts, "fonts", None)
    if fonts is None:
        fonts = _thread_fonts.fonts = {}
    key = (size, weight)
    cached = fonts.get(key)
    if cached is None:
        data = _font_file(weight)
        if data is not None:
            cached = ImageFont.truetype(io.BytesIO(data), size)
        else:
            cached = ImageFont.load_default(size=size)
        fonts[key] = cached
    return cached


def clean_text(text: object) -> str:
    """Printable one-line text: control/format characters become spaces, runs of spaces one."""
    raw = "" if text is None else str(text)
    kept = [" " if unicodedata.category(ch) in ("Cc", "Cf", "Zl", "Zp") else ch for ch in raw]
    return " ".join("".join(kept).split())


def text_width(text: str, used_font: Font) -> float:
    return _width(text, used_font) if text else 0.0


@lru_cache(maxsize=8192)
def _width(text: str, used_font: Font) -> float:
    return used_font.getlength(text)


def fit_text(text: object, used_font: Font, max_width: float) -> str:
    """``text`` cleaned, cut and ended with an ellipsis if it is wider than ``max_width``."""
    return _fitted(clean_text(text), used_font, max_width)


@lru_cache(maxsize=2048)
def _fitted(line: str, used_font: Font, max_width: float) -> str:
    if text_width(line, used_font) <= max_width:
        return line
    if text_width(ELLIPSIS, used_font) > max_width:
        return ""
    # the longest prefix that fits together with the ellipsis (binary search on length)
    low, high = 0, len(line)
    while low < high:
        middle = (low + high + 1) // 2
        if text_width(line[:middle].rstrip() + ELLIPSIS, used_font) <= max_width:
            low = middle
        else:
            high = middle - 1
    return line[:low].rstrip() + ELLIPSIS


def wrap_text(text: object, used_font: Font, max_width: float, max_lines: int) -> list[str]:
    """Greedy word wrap into at most ``max_lines`` lines; the last one ends with an ellipsis
    if text is left over. Words longer than a line are cut."""
    return list(_wrapped(clean_text(text), used_font, max_width, max_lines))


@lru_cache(maxsize=1024)
def _wrapped(text: str, used_font: Font, max_width: float, max_lines: int) -> tuple[str, ...]:
    # Greedy word wrap: each line takes as many of the words left as fit. Measuring is
    # most of the cost of a fresh line (a picture's status and score change every move), so
    # a text that fits is measured once, and a line's word count is found by halving (a
    # line's width grows with every word it takes) rather than word by word.
    if not text or text_width(text, used_font) <= max_width:
        return (text,) if text else ()
    words = text.split(" ")
    lines: list[str] = []
    index = 0
    while index < len(words) and len(lines) < max_lines:
        taken = _words_that_fit(words, index, used_font, max_width)
        if taken == 0:  # a single word wider than the line: cut it
            lines.append(fit_text(words[index], used_font, max_width))
            index += 1
            continue
        lines.append(" ".join(words[index : index + taken]))
        index += taken
    if lines and index < len(words):
        # text is left over: run it into the last line, which fit_text then cuts with "…"
        leftover = " ".join(word for word in words[index:] if word)
        lines[-1] = fit_text(f"{lines[-1]} {leftover}", used_font, max_width)
    return tuple(line for line in lines if line)


def _words_that_fit(words: list[str], start: int, used_font: Font, max_width: float) -> int:
    """How many of ``words`` from ``start`` on fit on one line (0 if not even the first)."""
    low, high = 0, len(words) - start
    while low < high:
        middle = (low + high + 1) // 2
        if text_width(" ".join(words[start : start + middle]), used_font) <= max_width:
            low = middle
        else:
            high = middle - 1
    return low


def draw_text(
    draw: ImageDraw.ImageDraw,
    xy: tuple[float, float],
    text: str,
    used_font: Font,
    fill: tuple[int, int, int],
    anchor: str = "la",
) -> None:
    """Draw ``text`` as ``draw.text`` would, replaying the glyph bitmaps of an earlier
    call with the same arguments (a picture's names and labels are drawn again and again)."""
    if not text:
        return
    key = (xy, text, used_font, fill, anchor, draw.mode)
    with _laid_out_lock:
        laid_out = _laid_out.get(key)
        if laid_out is not None:
            _laid_out.move_to_end(key)
    if laid_out is None:
        laid_out = _lay_out(xy, text, used_font, fill, anchor, draw.mode)
        with _laid_out_lock:
            _laid_out[key] = laid_out
            if len(_laid_out) > _LAID_OUT_LIMIT:
                _laid_out.popitem(last=False)
    for position, mask, ink in laid_out:
        draw.draw.draw_bitmap(position, mask, ink)


class _BitmapRecorder:
    """Stands in for an ImageDraw's core drawing object and keeps what text() draws
    (everything else, such as working out the ink, goes to the real one)."""

    def __init__(self, real: Any) -> None:
        self.real = real
        self.calls: list[tuple[tuple[int, int], Any, int]] = []

    def __getattr__(self, name: str) -> Any:
        return getattr(self.real, name)

    def draw_bitmap(self, position: tuple[int, int], mask: Any, ink: int) -> None:
        self.calls.append((position, mask, ink))


_LAID_OUT_LIMIT = 4096  # a glyph bitmap is a few KB at most
_laid_out_lock = threading.Lock()
_laid_out: OrderedDict[tuple[Any, ...], list[tuple[Any, Any, int]]] = OrderedDict()


def _lay_out(
    xy: tuple[float, float],
    text: str,
    used_font: Font,
    fill: tuple[int, int, int],
    anchor: str,
    mode: str,
) -> list[tuple[Any, Any, int]]:
    """What ``draw.text`` would paint: glyph bitmaps, where, in which ink."""
    draw = ImageDraw.Draw(Image.new(mode, (1, 1)))
    recorder = _BitmapRecorder(draw.draw)
    draw.draw = recorder
    draw.text(xy, text, font=used_font, fill=fill, anchor=anchor)
    return recorder.calls
