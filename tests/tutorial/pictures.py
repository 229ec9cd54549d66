"""Reading a tutorial or hint picture back: is every mark where the page says it is?

Decoded pixels are sampled where :mod:`render.annotations` draws each mark (its
:func:`~render.annotations.mark_sizes`), in the panels of the page's figure. Used by the
tutorial tests here and by the Discord tests that receive the pictures as attachments.
"""

from __future__ import annotations

from PIL import Image

from engine.board import BoardState
from render.annotations import Annotations, Figure, mark_sizes
from render.themes import get_theme
from tests.render.helpers import close

TOLERANCE = 24  # palette PNGs and antialiased edges


def _visible(figure: Figure, panel: int, point: tuple[float, float], margin: float) -> bool:
    """Whether ``point`` lies inside the board part of panel ``panel`` (not its caption)."""
    x0, y0 = figure.origins[panel]
    inner = figure.panels[panel]
    width, height = inner.image.size
    x, y = point
    return (
        x0 + margin <= x < x0 + width - margin
        and y0 + inner.caption_height + margin <= y < y0 + height - margin
    )


def mark_problems(
    image: Image.Image,
    figure: Figure,
    panel: int,
    state: BoardState,
    marks: Annotations,
    theme: str = "classic",
) -> list[str]:
    """Where the picture does not show ``marks`` on ``state`` in panel ``panel``: a dot on
    every ``may`` cell and on no other empty cell, a no-entry sign on every ``may_not``
    cell, a ring round every ``about`` stone and every ``here`` cell."""
    colours = get_theme(theme)
    may = colours.annotations["may"]
    sizes = mark_sizes(figure.panels[panel].geometry)
    rgb = image.convert("RGB")
    found: list[str] = []

    def pixel(point: tuple[float, float]) -> tuple[int, int, int]:
        value = rgb.getpixel((int(point[0]), int(point[1])))
        assert isinstance(value, tuple)
        return (value[0], value[1], value[2])

    stones = state.stones
    for name in state.grid.names:
        centre = figure.centre(panel, name)
        if not _visible(figure, panel, centre, sizes.about_outer + 2):
            continue
        dot = pixel(sizes.may_sample(centre))
        if name in marks.may:
            if not close(dot, may, TOLERANCE):
                found.append(f"no dot on {name}")
        elif name not in stones and name not in marks.cells() and close(dot, may, TOLERANCE):
            found.append(f"a dot on {name}, where no stone may go")
        if name in marks.may_not and not close(
            pixel(centre), colours.annotations["may_not"], TOLERANCE
        ):
            found.append(f"no no-entry sign on {name}")
        if name in marks.about:
            ring = (centre[0] - (sizes.about_inner + sizes.about_outer) / 2, centre[1])
            if not close(pixel(ring), colours.annotations["about"], TOLERANCE):
                found.append(f"no ring round {name}")
        if name in marks.here:
            ring = (centre[0] + (sizes.here_inner + sizes.here_outer) / 2, centre[1])
            if not close(pixel(ring), colours.placed, TOLERANCE):
                found.append(f"no ring on {name}, where the move goes")
    return found
