"""Reading a tutorial or hint picture back: is every mark where the page says it is?

Decoded pixels are sampled where :mod:`render.annotations` draws each mark (its
:func:`~render.annotations.mark_sizes`), in the panels of the page's figure. Used by the
tutorial tests here and by the Discord tests that receive the pictures as attachments.
"""

from __future__ import annotations

from PIL import Image

from engine.board import BoardState
from render.annotations import Annotations, Figure, mark_sizes
from render.card_marks import slot_ring
from render.leiff import hand_layout
from render.themes import get_theme
from tests.render.helpers import close
from tutorial import game_pages
from tutorial.boards import BoardExample, Plays
from tutorial.cards import CardExample, Hand

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


def page_problems(
    game: str, number: int, image: Image.Image, language: str = "en", theme: str = "classic"
) -> list[str]:
    """Where page ``number`` of ``game``'s tutorial, as the decoded ``image`` shows it,
    disagrees with the engine: the page's claims checked by the engine, then the picture
    read back (board pages: a dot on exactly the legal cells, signs and rings where the
    claims put them, in each panel; Leiff hands: a ring round exactly the cards the page
    is about)."""
    example = game_pages(game)[number - 1].example
    found = [f"claim: {problem}" for problem in example.problems()]
    if isinstance(example, BoardExample):
        figure = example.layout(language, theme)
        if image.size != figure.image.size:
            return [*found, f"picture of size {image.size}, not {figure.image.size}"]
        before, after = example.marks()
        state = example.state()
        found += mark_problems(image, figure, 0, state, before, theme)
        if after is not None:
            moved = next(c for c in example.claims if isinstance(c, Plays)).after(state)
            found += mark_problems(image, figure, 1, moved, after, theme)
        return found
    assert isinstance(example, CardExample)
    expected = example.picture(language, theme)
    if image.size != expected.size:
        return [*found, f"picture of size {image.size}, not {expected.size}"]
    if isinstance(example.picture_of, Hand):
        cards = example.state()
        assert cards is not None
        seat = example.picture_of.seat
        view = cards.view(seat)
        layout = hand_layout(view, seat, expected.width)
        top = image.height - layout.height  # the caption band above the hand
        about = get_theme(theme).annotations["about"]
        rgb = image.convert("RGB")
        for slot, box in enumerate(layout.slots, start=1):
            (x0, y0, _, y1), line = slot_ring(box, expected.width)
            pixel = rgb.getpixel((int(x0 + line / 2), int(top + (y0 + y1) / 2)))
            assert isinstance(pixel, tuple)
            ringed = close(pixel, about, TOLERANCE)
            if ringed != (slot in example.picture_of.rings):
                found.append(f"slot {slot} {'ringed' if ringed else 'not ringed'}")
    return found
