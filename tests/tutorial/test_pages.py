"""Every tutorial page agrees with the engine, draws what it checked, and reads in both
languages; a page whose example stops matching the rules fails."""

from __future__ import annotations

import dataclasses
import re

import pytest

import engine.lefe
from i18n import LANGUAGES, translate
from render.card_marks import slot_ring
from render.leiff import hand_layout
from render.themes import get_theme
from tests.render.helpers import close, decode
from tests.tutorial.pictures import mark_problems, page_problems
from tutorial import check_tutorial, game_pages, tutorial_games, tutorial_page, tutorial_pages
from tutorial.boards import (
    BoardExample,
    Ends,
    Holes,
    Loops,
    Neighbours,
    Offers,
    Placements,
    Plays,
    Position,
    Refused,
    Scores,
    Trees,
)
from tutorial.cards import After, CardExample, Hand, Sees, Shows, Values
from tutorial.cards import Offers as CardOffers

PAGES = [
    (game, number) for game in tutorial_games() for number in range(1, len(game_pages(game)) + 1)
]
BOARD_PAGES = [p for p in PAGES if isinstance(game_pages(p[0])[p[1] - 1].example, BoardExample)]
CARD_PAGES = [p for p in PAGES if isinstance(game_pages(p[0])[p[1] - 1].example, CardExample)]
CELL = re.compile(r"\b[a-i][1-9]\b")  # a cell name of the 5-board in a text


def _example(game: str, number: int) -> BoardExample:  # a board game's page
    example = game_pages(game)[number - 1].example
    assert isinstance(example, BoardExample)
    return example


@pytest.mark.parametrize(("game", "number"), PAGES)
def test_every_page_agrees_with_the_engine(game: str, number: int) -> None:
    assert game_pages(game)[number - 1].example.problems() == []


def test_every_page_is_a_board_or_a_card_example() -> None:
    assert len(BOARD_PAGES) + len(CARD_PAGES) == len(PAGES)
    assert {game for game, _ in CARD_PAGES} == {"leiff"}


@pytest.mark.parametrize(("game", "number"), BOARD_PAGES)
def test_every_picture_shows_the_marks_that_were_checked(game: str, number: int) -> None:
    example = _example(game, number)
    page = tutorial_page(game, number)
    image = decode(page.picture())
    figure = example.layout("en", "classic")
    assert image.size == figure.image.size
    before, after = example.marks()
    state = example.state()
    assert mark_problems(image, figure, 0, state, before) == []
    if after is not None:
        moved = next(c for c in example.claims if isinstance(c, Plays)).after(state)
        assert mark_problems(image, figure, 1, moved, after) == []


def test_pictures_are_small_enough_for_the_docs() -> None:
    for game, number in PAGES:
        assert len(tutorial_page(game, number).picture()) < 60_000, (game, number)


@pytest.mark.parametrize(("game", "number"), CARD_PAGES)
def test_every_leiff_picture_rings_the_cards_it_is_about(game: str, number: int) -> None:
    example = game_pages(game)[number - 1].example
    assert isinstance(example, CardExample)
    image = example.picture("en", "classic")
    assert decode(tutorial_page(game, number).picture()).size == image.size
    if not isinstance(example.picture_of, Hand):
        return
    state = example.state()
    assert state is not None
    seat = example.picture_of.seat
    view = state.view(seat)
    top = image.height - hand_layout(view, seat, 480).height  # the caption band above
    about = get_theme("classic").annotations["about"]
    for slot, box in enumerate(hand_layout(view, seat, 480).slots, start=1):
        (x0, y0, _, y1), line = slot_ring(box, 480)
        pixel = image.getpixel((int(x0 + line / 2), int(top + (y0 + y1) / 2)))
        assert close(pixel, about, 24) == (slot in example.picture_of.rings), slot


@pytest.mark.parametrize("language", LANGUAGES)
@pytest.mark.parametrize(("game", "number"), PAGES)
def test_a_page_names_only_cells_its_example_shows(game: str, number: int, language: str) -> None:
    """The words and the picture come from one example: a cell in the text is in it."""
    page = tutorial_page(game, number, language)
    named = game_pages(game)[number - 1].example.named_cells()
    mentioned = set(CELL.findall(page.title + " " + page.body))
    assert mentioned <= named, sorted(mentioned - named)


@pytest.mark.parametrize("language", LANGUAGES)
@pytest.mark.parametrize("game", tutorial_games())
def test_every_page_reads_in_the_language_within_discord_s_limits(game: str, language: str) -> None:
    for page in tutorial_pages(game, language):
        assert page.title.strip() and page.body.strip()
        assert len(page.title) <= 256 and len(page.body) <= 4096  # an embed's limits
        assert "{" not in page.body and "tutorial." not in page.body
        assert page.counter == translate(
            language, "tutorial.counter", number=page.number, count=page.count
        )


@pytest.mark.parametrize("game", tutorial_games())
def test_german_pages_are_german(game: str) -> None:
    for english, german in zip(tutorial_pages(game, "en"), tutorial_pages(game, "de"), strict=True):
        assert english.body != german.body
        assert (english.key, english.number) == (german.key, german.number)


@pytest.mark.parametrize("game", tutorial_games())
def test_only_the_last_page_offers_a_practice_game_at_easy_level(game: str) -> None:
    pages = tutorial_pages(game)
    assert [page.practice for page in pages] == [False] * (len(pages) - 1) + [True]
    assert pages[-1].practice_level == "easy"
    assert pages[-1].practice_button and pages[0].practice_button is None


def test_page_keys_are_unique_within_a_game() -> None:
    for game in tutorial_games():
        keys = [page.key for page in game_pages(game)]
        assert len(keys) == len(set(keys)), game


# ---- a page that stops matching the engine fails ----------------------------------------


def _broken(game: str, key: str, *claims: object) -> BoardExample:
    """A real page of ``game`` with its claims replaced."""
    page = next(page for page in game_pages(game) if page.key == key)
    assert isinstance(page.example, BoardExample)
    return dataclasses.replace(page.example, claims=claims)  # type: ignore[arg-type]


def test_a_page_broken_on_purpose_fails_its_check() -> None:
    wrong = [
        _broken("lefe", "placement", Placements(illegal="b3")),  # d4 is refused too
        _broken("lefe", "placement", Refused("f4", "lefe_touching_pair")),  # f4 is legal
        _broken("lefe", "placement", Refused("d4", "lefe_touching_pair", stones="c3")),
        _broken("lefe", "capture", Plays("d5xc6", captured="c6")),  # it takes d6 too
        _broken("lefe", "capture", Plays("d5")),  # a capture is due
        _broken("lefe", "capture", Offers("d5xe3")),  # three leaves are not fewer
        _broken("lefe", "trees", Trees("c3 d5", counts={"dark": (3, 1)})),
        _broken("lefe", "score", Scores({"dark": 3, "light": 2})),
        _broken("lefe", "end", Ends("light", "lefe_win_stuck")),
        _broken("lefe", "board", Neighbours("e5", of="d4 d5 e4 e6 f4")),
        _broken("lefe", "board", Loops(((("c3 c4 d5 e5 e4 d3"), "dark"),))),
        _broken("lefe", "board", Holes((("black", "e5"),))),
    ]
    for example in wrong:
        assert example.problems(), example.claims


def test_a_position_the_engine_cannot_build_fails_its_check() -> None:
    example = BoardExample(Position("lefe", "dark: z9", "dark"), ())
    assert example.problems()


def test_the_tutorial_fails_when_the_engine_s_rules_change(monkeypatch: pytest.MonkeyPatch) -> None:
    """Were Lefe's placement rule to change (here: no pair of neighbours blocks a cell any
    more), the pages that show it would stop matching, and the check says which."""
    assert check_tutorial("lefe") == []
    size = 5
    no_pairs = tuple(() for _ in engine.lefe.touching_neighbour_pairs(size))
    monkeypatch.setattr(engine.lefe, "touching_neighbour_pairs", lambda n: no_pairs)
    problems = check_tutorial("lefe")
    assert any("(placement)" in problem for problem in problems), problems


def test_the_picture_reader_notices_marks_that_are_not_there() -> None:
    example = _example("lefe", 3)  # the placement page: dots everywhere but b3 and d4
    figure = example.layout("en", "classic")
    state = example.state()
    before, _ = example.marks()
    assert mark_problems(figure.image, figure, 0, state, before) == []
    missing = dataclasses.replace(before, may=(*before.may, "b3"), about=("e4",), here=("a1",))
    assert sorted(mark_problems(figure.image, figure, 0, state, missing)) == [
        "no dot on b3",
        "no ring on a1, where the move goes",
        "no ring round e4",
    ]
    fewer = dataclasses.replace(before, may=before.may[1:], may_not=("f4",))
    assert sorted(mark_problems(figure.image, figure, 0, state, fewer)) == [
        f"a dot on {before.may[0]}, where no stone may go",
        "no no-entry sign on f4",
    ]


def _broken_cards(key: str, *claims: object) -> CardExample:
    page = next(page for page in game_pages("leiff") if page.key == key)
    assert isinstance(page.example, CardExample)
    return dataclasses.replace(page.example, claims=claims)  # type: ignore[arg-type]


def test_a_leiff_page_broken_on_purpose_fails_its_check() -> None:
    wrong = [
        _broken_cards("call", Shows("round_scores", [-5, 17, 28])),  # 5 - 5 is 0
        _broken_cards("deal", Sees(0, {0: ("3", "5", "12", None)})),  # slot 3 is unseen
        _broken_cards("deal", Sees(1, {0: ("3", None, None, None)})),  # Ben sees none of Anna's
        _broken_cards("turn", CardOffers(0, ("leiff",))),  # holding a card: no call any more
        _broken_cards("slot", After(((0, "draw"), (0, "discard")), (CardOffers(0, ("take",)),))),
        _broken_cards("match", After(((0, "match 1"),), (Shows("hand_sizes", [3, 4, 4]),))),
        _broken_cards("teams", CardOffers(1, ("penalty 3",))),  # Dana is Ben's team-mate
        _broken_cards("seven", After(((0, "take"), (0, "discard")), ())),  # a taken card stays
        _broken_cards("cards", Values({"13": 12})),
    ]
    for example in wrong:
        assert example.problems(), example.claims


def test_the_page_reader_notices_the_picture_of_another_page() -> None:
    """What the Discord tests use on every page they receive: it fails for a wrong picture."""
    for game, number in (("lefe", 3), ("dalen", 3), ("leiff", 2)):
        own = decode(tutorial_page(game, number).picture())
        assert page_problems(game, number, own) == []
        other = decode(tutorial_page(game, number + 1).picture())
        assert page_problems(game, number, other), (game, number)
