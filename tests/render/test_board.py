"""Board pictures: decoded and sampled pixel by pixel against the state they show."""

from __future__ import annotations

import dataclasses
import math
import random

import pytest
from PIL import Image, ImageChops, ImageDraw

from engine import BOARD_GAMES, get_game
from engine.board import EMPTY, LastTurn
from engine.phrases import Phrase
from render import THEMES, list_themes, png_bytes, render_board
from render.board import board_background, owned_loops, score_line, score_words
from render.geometry import board_geometry
from render.themes import get_theme
from tests.render.helpers import close, decode, pixels, played_game, random_position
from tests.sixth_game.rows import Rows, RowsState

ALL_SIZES = [(name, size) for name in BOARD_GAMES for size in get_game(name).sizes]
MAX_PNG_BYTES = 400_000
MAX_HEIGHT = 900


def test_there_are_two_or_three_themes_kept_as_data() -> None:
    assert 2 <= len(THEMES) <= 3
    assert list_themes()[0] == "classic"
    with pytest.raises(ValueError, match="classic"):
        get_theme("no-such-theme")


@pytest.mark.parametrize("theme", list_themes())
def test_stones_differ_in_lightness_not_only_hue(theme: str) -> None:
    colours = get_theme(theme)

    def lightness(rgb: tuple[int, int, int]) -> float:
        return 0.2126 * rgb[0] + 0.7152 * rgb[1] + 0.0722 * rgb[2]

    first, second = colours.stone(1).fill, colours.stone(2).fill
    assert abs(lightness(first) - lightness(second)) > 150
    # empty cells are neither stone colour, so a sampled centre is never ambiguous
    assert colours.cell not in (first, second)


@pytest.mark.parametrize(("game_name", "size"), ALL_SIZES)
@pytest.mark.parametrize("theme", list_themes())
def test_every_game_theme_and_size_renders_within_limits(
    game_name: str, size: int, theme: str
) -> None:
    state = played_game(game_name, size, seed=size, moves=12)
    image = render_board(state, names=("Ann", "Bob"), theme=theme)
    geo = board_geometry(size, 480, game_name == "les")
    assert image.mode == "RGB"
    assert image.size == (480, geo.height)
    assert image.height <= MAX_HEIGHT
    data = png_bytes(image)
    assert len(data) < MAX_PNG_BYTES
    assert decode(data).size == image.size


@pytest.mark.parametrize(("game_name", "size"), ALL_SIZES)
def test_stone_colour_at_every_cell_centre_matches_random_positions(
    game_name: str, size: int
) -> None:
    theme = get_theme("classic")
    rng = random.Random(f"{game_name}-{size}")
    geo = board_geometry(size, 480, game_name == "les")
    for _ in range(3):
        state = random_position(game_name, size, rng)
        image = decode(png_bytes(render_board(state, theme="classic")))
        for index, code in enumerate(state.cells):
            pixel = image.getpixel(geo.pixel(index))
            if code == EMPTY:
                assert not close(pixel, theme.stone(1).fill, 20), state.grid.names[index]
                assert not close(pixel, theme.stone(2).fill, 20), state.grid.names[index]
            else:
                assert close(pixel, theme.stone(code).fill), (state.grid.names[index], pixel)


@pytest.mark.parametrize("width", [320, 480, 720])
def test_stone_centres_hold_at_other_widths_and_themes(width: int) -> None:
    rng = random.Random(width)
    for theme_name in list_themes():
        theme = get_theme(theme_name)
        for game_name in ("dalen", "les"):
            state = random_position(game_name, 7, rng)
            image = render_board(state, theme=theme_name, width=width)
            geo = board_geometry(7, width, game_name == "les")
            for index, code in enumerate(state.cells):
                if code:
                    assert close(image.getpixel(geo.pixel(index)), theme.stone(code).fill)


def _find(game_name: str, size: int, wanted: str, seeds: int = 300):
    """A real position whose last turn did ``wanted`` (placed/captured/flipped/removed)."""
    for seed in range(seeds):
        rng = random.Random(seed)
        state = get_game(game_name).new(size=size)
        while not state.is_over:
            state = state.play(rng.choice(state.legal_moves()))
            if getattr(state.last_turn, wanted):
                return state
    raise AssertionError(f"no {game_name} game with a {wanted} turn in {seeds} seeds")


MARKED = [
    ("lefe", "captured", "captured"),
    ("dalen", "flipped", None),
    ("lublache", "removed", "removed"),
    ("les", "placed", "placed"),
    ("lefe", "placed", "placed"),
]


@pytest.mark.parametrize(("game_name", "kind", "colour_key"), MARKED)
def test_markers_appear_exactly_where_the_last_turn_acted(
    game_name: str, kind: str, colour_key: str | None
) -> None:
    state = _find(game_name, 5, kind)
    theme = get_theme("classic")
    geo = board_geometry(5, 480, game_name == "les")
    plain = dataclasses.replace(state, last_turn=LastTurn())
    marked_image = render_board(state)
    plain_image = render_board(plain)
    difference = ImageChops.difference(marked_image, plain_image).convert("L")
    # the header says what the last move was; below it only marked cells may differ
    difference.paste(0, (0, 0, geo.width, geo.header_height))
    last = state.last_turn
    cells = {*last.placed, *last.captured, *last.flipped, *last.removed}
    centres = [geo.centre(name) for name in cells]
    allowed = Image.new("L", difference.size, 0)
    draw = ImageDraw.Draw(allowed)
    for x, y in centres:
        r = geo.radius * 1.05
        draw.ellipse((x - r, y - r, x + r, y + r), fill=255)
    outside = ImageChops.subtract(difference.point(lambda v: 255 if v > 8 else 0), allowed)
    assert outside.getbbox() is None, "marker pixels outside the acting cells"
    for name in getattr(last, kind):
        x, y = geo.centre(name)
        r = math.ceil(geo.radius)
        region = difference.crop((int(x) - r, int(y) - r, int(x) + r, int(y) + r))
        assert region.getbbox() is not None, f"no marker at {name}"
        if colour_key is not None:
            crop = marked_image.crop((int(x) - r, int(y) - r, int(x) + r, int(y) + r))
            target = getattr(theme, colour_key)
            assert any(close(p, target, 30) for p in pixels(crop)), (
                f"{kind} colour missing at {name}"
            )


def test_flipped_stones_carry_a_diamond_of_their_former_colour() -> None:
    state = _find("dalen", 5, "flipped")
    theme = get_theme("classic")
    geo = board_geometry(5, 480)
    image = render_board(state)
    for name in state.last_turn.flipped:
        code = state.cells[state.grid.index(name)]
        x, y = geo.pixel(name)
        # centre keeps the stone's colour; the diamond ring around it has the other colour
        assert close(image.getpixel((x, y)), theme.stone(code).fill)
        r = math.ceil(geo.stone_radius)
        crop = image.crop((x - r, y - r, x + r, y + r))
        assert any(close(p, theme.stone(3 - code).fill, 40) for p in pixels(crop))


def test_lublache_owned_loops_are_outlined_in_the_owners_style() -> None:
    game = get_game("lublache")
    grid = game.new(size=5).grid
    # a ring of six black stones around c4 and one of six white stones around g4
    rings = {
        colour: [grid.names[j] for j in grid.neighbours[grid.index(centre)]]
        for colour, centre in (("black", "c4"), ("white", "g4"))
    }
    stones = {name: colour for colour, ring in rings.items() for name in ring}
    state = game.position(size=5, stones=stones, to_move="black")
    assert {owner for owner, _ in owned_loops(state)} == {"black", "white"}
    theme = get_theme("classic")
    geo = board_geometry(5, 480)
    image = render_board(state, show_labels=False)
    for owner, cells in owned_loops(state):
        colour = theme.loop_first if owner == "black" else theme.loop_second
        # the band between two neighbouring loop stones shows the owner's colour
        (x0, y0), (x1, y1) = geo.centre(cells[0]), geo.centre(cells[1])
        assert close(image.getpixel((int((x0 + x1) / 2), int((y0 + y1) / 2))), colour, 10), owner
        # every loop stone keeps its own colour at its centre
        for name in cells:
            assert close(
                image.getpixel(geo.pixel(name)), theme.stone(1 if owner == "black" else 2).fill
            )
    # inside: a flat tint for black's loop, stripes (two different shades) for white's
    black_inside = image.crop(_box_around(geo.centre("c4"), geo.radius * 0.5))
    white_inside = image.crop(_box_around(geo.centre("g4"), geo.radius * 0.5))
    assert len(set(pixels(black_inside))) <= 3
    assert len({p for p in pixels(white_inside) if close(p, theme.cell, 40) is False}) >= 1
    assert any(close(p, theme.cell, 12) for p in pixels(white_inside))


def _box_around(centre: tuple[float, float], half: float) -> tuple[int, int, int, int]:
    x, y = centre
    return (int(x - half), int(y - half), int(x + half), int(y + half))


@pytest.mark.parametrize("theme", list_themes())
def test_les_shades_exactly_the_holes_its_header_counts(theme: str) -> None:
    """Every point of a hole one colour owns is tinted in that owner's colour, no other
    empty point is, and the header's count is the number of holes shaded."""
    colours = get_theme(theme)
    rng = random.Random(f"holes-{theme}")
    checked = 0
    for _ in range(6):
        state = played_game("les", rng.choice((5, 7, 9)), seed=rng.randrange(1000), moves=60)
        geo = board_geometry(state.size, 480, True)
        # (without the last move's ring, which may reach into a neighbour's hexagon)
        unmarked = dataclasses.replace(state, last_turn=LastTurn())
        image = render_board(unmarked, theme=theme, show_labels=False)
        plain = board_background(state.size, 480, True, theme, False)
        owners = {cell: owner for owner, cells in state.holes() for cell in cells}
        for index, name in enumerate(state.grid.names):
            if state.cells[index]:
                continue
            # a spot inside the point's own hexagon, off the lines and the point's dot
            x, y = geo.centre(index)
            spot = (int(x + geo.radius * 0.45), int(y + geo.radius * 0.3))
            box = (spot[0] - 3, spot[1] - 3, spot[0] + 4, spot[1] + 4)
            here = image.crop(box)
            tinted = any(
                not close(p, q, 8)
                for p, q in zip(pixels(here), pixels(plain.crop(box)), strict=True)
            )
            assert tinted == (name in owners), (name, owners.get(name))
            if name in owners:
                checked += 1
                owner = colours.loop_first if owners[name] == "black" else colours.loop_second
                # the first colour's flat tint everywhere, the second's stripes somewhere near
                assert any(
                    sum(abs(a - b) for a, b in zip(p, owner, strict=True))
                    < sum(abs(a - b) for a, b in zip(p, colours.cell, strict=True)) + 40
                    for p in pixels(here)
                )
        counts = {colour: 0 for colour in state.game.colors}
        for owner, _ in state.holes():
            counts[owner] += 1
        assert state.score == counts
        assert score_words(state).count("–") == 1
        assert f"{max(counts.values())}–{min(counts.values())}" in score_words(state)
    assert checked > 0


class _NoLiveScoreState(RowsState):
    """Rows as a game that shows no live score (its optional score hooks say none)."""

    def score_phrases(self) -> list[Phrase]:
        return []

    def score_summary(self) -> None:
        return None


class _NoLiveScore(Rows):
    state_class = _NoLiveScoreState


def test_a_game_without_a_live_score_draws_no_score_line() -> None:
    scored = Rows().new(4).play("c3")
    quiet = _NoLiveScore().new(4).play("c3")
    assert score_words(scored) and score_line(scored)
    assert score_words(quiet) == "" and score_line(quiet) == ""
    names = ("Ann", "Ben")
    with_score = decode(png_bytes(render_board(scored, names=names)))
    without = decode(png_bytes(render_board(quiet, names=names)))
    assert with_score.size == without.size
    difference = ImageChops.difference(with_score, without).getbbox()
    assert difference is not None, "the score line was not drawn for the scored game"
    # only the header's text differs: the board itself is the same
    assert difference[3] < with_score.size[1] // 2
