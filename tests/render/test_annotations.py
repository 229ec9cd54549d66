"""Marks over board pictures (move hints, tutorial marks, why a move was refused): drawn
exactly where they are asked for, and nothing at all when none are asked for."""

from __future__ import annotations

import random

import pytest
from PIL import ImageChops

from engine import BOARD_GAMES, IllegalMove, get_game
from engine.board import BoardState
from render import list_themes, render_board
from render.annotations import (
    Annotations,
    Figure,
    Panel,
    board_panel,
    figure,
    hint_cells,
    refusal_annotations,
    render_annotated,
    render_hints,
)
from render.geometry import board_geometry
from render.themes import get_theme
from tests.render.helpers import close, played_game
from tests.tutorial.pictures import mark_problems


def _whole(image, state: BoardState) -> Figure:  # type: ignore[no-untyped-def]
    """A full board picture seen as a figure of one panel (for the mark reader)."""
    geo = board_geometry(state.size, image.width, state.game.spec.drawing.board == "points")
    return Figure(image, (Panel(image, geo, (0.0, 0.0), 0),), ((0, 0),))


@pytest.mark.parametrize("game", BOARD_GAMES)
def test_without_marks_the_picture_is_the_board_picture(game: str) -> None:
    for state in (played_game(game, 5, seed=3, moves=9), get_game(game).new(5)):
        plain = render_board(state, names=("Ann", "Bob"))
        marked = render_annotated(state, Annotations(), names=("Ann", "Bob"))
        assert ImageChops.difference(plain, marked).getbbox() is None


@pytest.mark.parametrize("game", BOARD_GAMES)
def test_hint_cells_are_the_cells_of_the_legal_moves(game: str) -> None:
    rng = random.Random(game)
    state = get_game(game).new(5)
    for _ in range(14):
        if state.outcome is not None:
            break
        moves = state.legal_moves()
        cells = hint_cells(state, moves)
        placing = [m for m in moves if m[0].isalpha() and any(ch.isdigit() for ch in m)]
        assert set(cells) == {m.split("x")[0].split("+")[0] for m in placing}
        assert list(cells) == sorted(cells, key=state.grid.index)  # notation order
        state = state.play(rng.choice(moves))


def test_words_place_no_hint() -> None:
    assert hint_cells(get_game("lefe").new(5), ["swap", "pass", "black"]) == ()


@pytest.mark.parametrize("theme", list_themes())
@pytest.mark.parametrize("game", BOARD_GAMES)
def test_hints_dot_every_legal_cell_and_no_other(game: str, theme: str) -> None:
    state = played_game(game, 5, seed=11, moves=10)
    image = render_hints(state, state.legal_moves(), theme=theme)
    marks = Annotations(may=hint_cells(state, state.legal_moves()))
    assert marks.may  # the position has legal cells to show
    assert mark_problems(image, _whole(image, state), 0, state, marks, theme) == []


@pytest.mark.parametrize("theme", list_themes())
def test_every_theme_has_the_mark_colours(theme: str) -> None:
    colours = get_theme(theme)
    assert {"may", "may_not", "about", "halo"} <= set(colours.annotations)
    # the dot must not vanish into an empty cell
    assert not close(colours.annotations["may"], colours.cell, 60)


def _refusal(game: str, stones: dict[str, str], to_move: str, move: str) -> tuple:  # type: ignore[type-arg]
    state = get_game(game).position(5, stones, to_move)
    with pytest.raises(IllegalMove) as caught:
        state.play(move)
    return state, caught.value


def test_a_refusal_marks_the_cell_and_the_stones_it_is_about() -> None:
    state, error = _refusal("lefe", {"c3": "dark", "c4": "dark"}, "dark", "d4")
    marks = refusal_annotations(error.code, error.params)
    assert marks == Annotations(may_not=("d4",), about=("c3", "c4"))
    image = render_annotated(state, marks)
    assert mark_problems(image, _whole(image, state), 0, state, marks) == []


def test_a_lublache_refusal_draws_the_loop_it_is_about() -> None:
    ring = ("c3", "c4", "d5", "e5", "e4", "d3")
    # white holds five of the ring: black's d3 would end on a loop white controls
    state, error = _refusal("lublache", dict.fromkeys(ring[:5], "white"), "black", "d3")
    marks = refusal_annotations(error.code, error.params)
    assert marks is not None and set(marks.loops[0]) == set(ring) and marks.may_not == ("d3",)
    plain = render_board(state)
    image = render_annotated(state, marks)
    # the band shows between two loop stones (c3 and c4), not on the stones themselves
    geo = board_geometry(5, 480)
    (x1, y1), (x2, y2) = geo.centre("c3"), geo.centre("c4")
    between = (int((x1 + x2) / 2), int((y1 + y2) / 2))
    assert close(image.getpixel(between), get_theme("classic").annotations["about"], 24)
    assert image.getpixel(geo.pixel("d5")) == plain.getpixel(geo.pixel("d5"))


def test_an_owned_loop_is_not_banded_twice() -> None:
    """The board picture shades owned loops itself: a refusal about one adds its rings and
    sign, but no second band."""
    ring = ("c3", "c4", "d5", "e5", "e4", "d3")
    state, error = _refusal("lublache", dict.fromkeys(ring, "black"), "black", "f4")
    marks = refusal_annotations(error.code, error.params)
    assert marks is not None and marks.loops == (ring,) and marks.about == ("e4", "e5")
    plain = render_board(state)
    image = render_annotated(state, marks)
    geo = board_geometry(5, 480)
    (x1, y1), (x2, y2) = geo.centre("c3"), geo.centre("c4")
    between = (int((x1 + x2) / 2), int((y1 + y2) / 2))
    assert image.getpixel(between) == plain.getpixel(between)
    assert mark_problems(image, _whole(image, state), 0, state, marks) == []


def test_a_refusal_that_names_no_stones_gets_no_picture() -> None:
    assert refusal_annotations("cell_taken", {"cell": "f6"}) is None
    assert refusal_annotations("les_not_between_colours", {"cell": "e5"}) is None


def test_a_close_up_panel_knows_where_each_cell_went() -> None:
    state = get_game("lefe").position(5, {"c3": "dark", "g4": "light"}, "dark")
    panel = board_panel(state, caption="Close up", focus=("c3", "d4", "e4"), width=237)
    assert panel.image.width == 237 and panel.caption_height > 0
    dark, light = get_theme("classic").stone(1).fill, get_theme("classic").stone(2).fill
    x, y = panel.centre("c3")
    assert close(panel.image.getpixel((int(x), int(y))), dark)
    x, y = panel.centre("g4")
    assert not 0 <= x < panel.image.width  # outside the close-up
    both = figure([panel, panel], side_by_side=True)
    x, y = both.centre(1, "c3")
    assert both.image.width == 2 * 237 + 6
    assert close(both.image.getpixel((int(x), int(y))), dark)
    whole = board_panel(get_game("lefe").position(5, {"g4": "light"}, "dark"), width=480)
    x, y = whole.centre("g4")
    assert close(whole.image.getpixel((int(x), int(y))), light)
