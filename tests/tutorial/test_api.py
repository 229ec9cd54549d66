"""The calls the Discord layer makes: pages, move hints, pictures of why a move was refused."""

from __future__ import annotations

import pytest

from engine import get_game
from render.annotations import Annotations, hint_cells
from tests.render.helpers import decode, played_game
from tests.render.test_annotations import _whole
from tests.tutorial.pictures import mark_problems
from tutorial import (
    hint_picture,
    illegal_move_picture,
    tutorial_games,
    tutorial_page,
    tutorial_pages,
)


def test_the_tutorials_are_listed_and_unknown_games_refused() -> None:
    assert "lefe" in tutorial_games()
    with pytest.raises(ValueError, match="no tutorial"):
        tutorial_pages("chess")
    with pytest.raises(ValueError, match="pages 1 to"):
        tutorial_page("lefe", 0)


def test_a_page_carries_its_words_counter_and_picture() -> None:
    page = tutorial_page("lefe", 2, "de")
    assert (page.game, page.number, page.key) == ("lefe", 2, "trees")
    assert page.counter == f"Seite 2 von {page.count}"
    assert page.title == "Bäume und Blätter"
    assert page.filename == "lefe-02-trees.png"
    assert decode(page.picture()).width == 480
    assert page.picture() is page.picture()  # drawn once, then remembered


@pytest.mark.parametrize("game", ["lefe", "dalen", "lublache", "les"])
def test_the_hint_picture_dots_the_legal_cells(game: str) -> None:
    state = played_game(game, 5, seed=4, moves=7)
    image = decode(hint_picture(state, names=("Ann", "Bob")))
    marks = Annotations(may=hint_cells(state, state.legal_moves()))
    assert marks.may
    assert mark_problems(image, _whole(image, state), 0, state, marks) == []


def test_a_refused_move_gets_a_picture_of_why() -> None:
    state = get_game("dalen").position(5, {"c3": "dark", "c4": "dark", "d5": "dark"}, "dark")
    # d4 touches the leaves c3 and d5 (c4, between them, is no leaf)
    data = illegal_move_picture(state, "d4", language="de")
    assert data is not None
    image = decode(data)
    marks = Annotations(may_not=("d4",), about=("c3", "d5"))
    assert mark_problems(image, _whole(image, state), 0, state, marks) == []


def test_no_picture_when_it_would_add_nothing() -> None:
    state = get_game("lefe").position(5, {"c3": "dark"}, "dark")
    assert illegal_move_picture(state, "c3") is None  # taken: the sentence says it all
    assert illegal_move_picture(state, "e5") is None  # legal
    assert illegal_move_picture(state, "zz") is None  # not a cell
