"""The rating graph picture: decoded and sampled (the line rises where the rating rose, the
last point is ringed, a graph of one point says its note), deterministic, readable."""

from __future__ import annotations

import io
import itertools

from PIL import Image

from render.rating_graph import (
    HEADER,
    MAX_PANELS,
    PANEL,
    WIDTH,
    GraphPanel,
    GraphView,
    plot_box,
    point_xy,
    render_rating_graph,
)
from render.themes import get_theme

DAY = 86400.0
RISING = tuple((1.7e9 + i * DAY, 1500 + 20 * i) for i in range(8))


def decode(data: bytes) -> Image.Image:
    image = Image.open(io.BytesIO(data))
    image.load()
    return image.convert("RGB")


def near(colour: tuple[int, ...], expected: tuple[int, int, int], tolerance: int = 40) -> bool:
    return all(abs(a - b) <= tolerance for a, b in zip(colour, expected, strict=False))


def view(*panels: GraphPanel) -> GraphView:
    return GraphView("Ann", panels)


def test_the_line_goes_through_every_point_and_rises_with_the_rating() -> None:
    theme = get_theme("classic")
    panel = GraphPanel("Lefe · daily", "1640", RISING, "14 Nov", "21 Nov")
    image = decode(render_rating_graph(view(panel), theme))
    assert image.size == (WIDTH, HEADER + PANEL + 8)
    xy = [point_xy(panel, 0, n) for n in range(len(RISING))]
    for x, y in xy:
        assert near(image.getpixel((round(x), round(y))), theme.placed)
    # a higher rating is drawn higher, a later one further right
    assert all(b[1] < a[1] and b[0] > a[0] for a, b in itertools.pairwise(xy))
    # between two points the line is drawn; well above it the plot is empty
    (x0, y0), (x1, y1) = xy[2], xy[3]
    assert near(image.getpixel((round((x0 + x1) / 2), round((y0 + y1) / 2))), theme.placed)
    assert not near(image.getpixel((round(x0), round(y0) - 30)), theme.placed, 20)


def test_the_last_point_is_ringed() -> None:
    theme = get_theme("night")
    panel = GraphPanel("Lefe · live", "1640", RISING, "a", "b")
    image = decode(render_rating_graph(view(panel), theme))
    x, y = point_xy(panel, 0, len(RISING) - 1)
    # the ring's edge, away from the line (which comes from the left and below)
    assert near(image.getpixel((round(x + 7), round(y))), theme.placed)
    assert near(image.getpixel((round(x), round(y - 7))), theme.placed)


def test_a_graph_of_one_point_shows_the_point_and_its_note() -> None:
    theme = get_theme("classic")
    alone = GraphPanel("Dalen · live", "1512?", ((1.7e9, 1512),), "", "", note="begins soon")
    empty = GraphPanel("Dalen · live", "1512?", ((1.7e9, 1512),), "", "", note="")
    with_note = decode(render_rating_graph(view(alone), theme))
    without = decode(render_rating_graph(view(empty), theme))
    left, top, right, bottom = plot_box(0)
    assert near(with_note.getpixel(((left + right) // 2, (top + bottom) // 2 - 14)), theme.placed)
    box = (left + 10, (top + bottom) // 2 + 8, right - 10, (top + bottom) // 2 + 36)
    assert with_note.crop(box).tobytes() != without.crop(box).tobytes()


def test_panels_stack_and_stop_at_the_most() -> None:
    panel = GraphPanel("Lefe", "1600", RISING, "a", "b")
    image = decode(render_rating_graph(view(*[panel] * (MAX_PANELS + 3)), get_theme("paper")))
    assert image.size == (WIDTH, HEADER + PANEL * MAX_PANELS + 8)


def test_the_picture_is_deterministic() -> None:
    panel = GraphPanel("Lefe · daily", "1640", RISING, "14 Nov", "21 Nov")
    theme = get_theme("classic")
    assert render_rating_graph(view(panel), theme) == render_rating_graph(view(panel), theme)
