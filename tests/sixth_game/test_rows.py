"""The toy sixth game, Rows, played by the house with no change outside its own file.

Registered for each test, it is found by name, driven through the engine's public surface
(the very tests of ``tests/test_engine_api.py``), drawn on points and lines as its spec
asks, animated as a replay, and played by the AI at every level with its spec's evaluator
and level tuning.
"""

from __future__ import annotations

import io
import json
import multiprocessing
import random
from collections.abc import Iterator

import pytest
from hypothesis import given, settings
from PIL import Image

import engine
import tests.sixth_game.tutorial
from engine import IllegalMove, get_game, registered
from engine.ai.levels import LEVEL_NAMES, choose_move, choose_move_from_json, level_settings
from engine.board import BoardState
from engine.registry import unregister
from render import png_bytes, render_board, replay_gif
from render.board import is_point_game
from render.geometry import board_geometry
from render.themes import get_theme
from tests import test_engine_api
from tests.engine import test_every_game
from tests.render.helpers import close, decode
from tests.sixth_game.rows import EVALUATED, Rows, rows_of


@pytest.fixture(autouse=True)
def rows() -> Iterator[Rows]:
    with registered(Rows()) as game:
        assert isinstance(game, Rows)
        yield game


def _played(seed: int, moves: int, size: int = 4, **options: object) -> BoardState:
    rng = random.Random(seed)
    state = get_game("rows").new(size=size, **options)
    for _ in range(moves):
        if state.outcome is not None:
            break
        state = state.play(rng.choice(state.legal_moves()))
    return state


# ---- the registry and the engine's public surface -----------------------------------------


def test_the_registry_lists_it_among_the_board_games() -> None:
    assert engine.board_game_names()[-1] == "rows"
    assert engine.get_spec("rows").title.english == "Rows"
    assert get_game(" Rows ").name == "rows"


def test_the_engine_api_tests_drive_it() -> None:
    test_engine_api.test_random_games_through_the_public_surface("rows")
    test_engine_api.test_nonsense_moves_raise_illegal_move_with_a_reason("rows")


def test_the_every_game_property_tests_play_it() -> None:
    # what tests/engine/test_every_game.py does for every game registered in the engine
    test_every_game.test_every_players_count_and_size_starts_with_the_default_options("rows")
    check = settings(max_examples=12, deadline=None)(
        given(setup=test_every_game.setups(engine.get_spec("rows")))(
            lambda setup: test_every_game.check_random_playout("rows", setup)
        )
    )
    check()


def test_its_options_come_from_its_spec() -> None:
    game = get_game("rows")
    assert game.new().options == {"line": 4, "misere": False}
    assert game.new(line=3, misere=True).options == {"line": 3, "misere": True}
    with pytest.raises(ValueError, match="one of 3, 4"):
        game.new(line=5)
    with pytest.raises(ValueError, match="no option"):
        game.new(variant=True)


def test_a_row_wins_and_in_misere_loses() -> None:
    game = get_game("rows")
    row = rows_of(4, 3)[0]
    names = game.new().grid.names
    stones = {names[row[0]]: "red", names[row[1]]: "red"}
    normal = game.position(size=4, stones=stones, to_move="red", line=3)
    misere = game.position(size=4, stones=stones, to_move="red", line=3, misere=True)
    assert normal.play(names[row[2]]).outcome.winner == "red"
    assert misere.play(names[row[2]]).outcome.winner == "blue"


def test_swap_and_seats_follow_the_mould() -> None:
    state = get_game("rows").new().play("c3")
    assert "swap" in state.legal_moves()
    swapped = state.play(1, "swap")
    assert swapped.seat_colour(1) == "red"
    with pytest.raises(IllegalMove, match="blue's turn"):
        swapped.play(1, "a1")


def test_its_json_round_trips_and_replays() -> None:
    state = _played(seed=3, moves=14, line=3)
    again = get_game("rows").from_json(state.to_json())
    assert again.to_json() == state.to_json()
    assert json.loads(state.to_json())["game"] == "rows"
    history = list(again.history())
    assert len(history) == len(state.moves) + 1
    assert history[-1].to_json() == state.to_json()


# ---- pictures -----------------------------------------------------------------------------


def test_it_is_drawn_on_points_and_lines_as_its_spec_says() -> None:
    state = _played(seed=5, moves=9)
    assert is_point_game(state)
    picture = render_board(state, names=("Ann", "Bob"), width=360, show_labels=False)
    image = decode(png_bytes(picture))
    geo = board_geometry(state.size, 360, True)
    theme = get_theme("classic")
    assert image.size == (360, geo.height)
    for index, code in enumerate(state.cells):
        pixel = image.getpixel(geo.pixel(index))
        if code:
            assert close(pixel, theme.stone(code).fill, 12)
            continue
        assert close(pixel, theme.point, 12)  # the dot on an empty point
        for other in state.grid.neighbours[index]:
            if not state.cells[other]:  # a line, not a hexagon's groove, joins neighbours
                (x1, y1), (x2, y2) = geo.centre(index), geo.centre(other)
                middle = image.getpixel((int((x1 + x2) / 2), int((y1 + y2) / 2)))
                assert close(middle, theme.line, 40)


def test_its_header_names_it_and_its_score() -> None:
    from render.board import header_layout

    state = _played(seed=5, moves=9)
    texts = [
        item.text for item in header_layout(state, ("Ann", "Bob"), get_theme("classic"), 480).texts
    ]
    assert any(text.startswith("Rows · size 4 · move 10") for text in texts)
    assert "Red leads 5–4" in texts  # the score in words (no parts: a plain score)


def test_its_replay_animates_every_position() -> None:
    state = _played(seed=8, moves=30, line=3)
    positions = list(state.history())
    gif = Image.open(io.BytesIO(replay_gif(positions, names=("Ann", "Bob"))))
    assert gif.n_frames == len(positions) > 2
    first = gif.convert("RGB")
    gif.seek(gif.n_frames - 1)
    assert first.tobytes() != gif.convert("RGB").tobytes()


# ---- its tutorial ---------------------------------------------------------------------------


def test_its_tutorial_is_found_through_its_spec_and_agrees_with_the_engine() -> None:
    from tutorial import check_tutorial, game_pages, help_text, tutorial_games, tutorial_pages
    from tutorial.docs import RULES, expected_files, rules_page

    assert tutorial_games()[-1] == "rows"
    assert game_pages("rows") is tests.sixth_game.tutorial.PAGES
    assert check_tutorial("rows") == []
    for language in ("en", "de"):
        pages = tutorial_pages("rows", language)
        assert [page.key for page in pages] == ["placing", "row", "pie", "practice"]
        assert pages[0].body.startswith("In Rows, red and blue")  # its own English
        assert decode(pages[1].picture()).size[0] == 480
        assert pages[-1].practice
        line = dict((game, line) for game, _, line in help_text(language).games)["rows"]
        assert line == "a straight row of your stones wins (2 players)"
    assert rules_page("rows").startswith("# Rows\n")
    assert RULES / "rows.md" in expected_files()  # its rules page, with the others


# ---- the AI -----------------------------------------------------------------------------


@pytest.mark.parametrize("level", LEVEL_NAMES)
def test_the_ai_plays_it_at_every_level(level: str) -> None:
    EVALUATED.clear()
    state = _played(seed=2, moves=4)
    move = choose_move(state, level, seed=1, scale=0.3)
    assert move in state.legal_moves()
    assert choose_move_from_json(state.to_json(), "rows", level, seed=1) in state.legal_moves()
    assert EVALUATED, "the AI asks the evaluator the spec names"


def test_the_ai_reads_the_level_tuning_of_its_spec() -> None:
    spec = engine.get_spec("rows")
    assert level_settings("hard", game=spec).max_nodes == 3000
    assert level_settings("hard", game="rows").max_nodes == 3000
    assert level_settings("hard").max_nodes != 3000


@pytest.mark.parametrize("level", ["normal", "hard"])
def test_the_ai_takes_a_winning_row(level: str) -> None:
    game = get_game("rows")
    row = rows_of(4, 3)[5]
    names = game.new().grid.names
    far = next(i for i in range(len(names)) if all(abs(i - j) > 8 for j in row))
    position = game.position(
        size=4,
        stones={names[row[0]]: "red", names[row[1]]: "red", names[far]: "blue"},
        to_move="red",
        line=3,
    )
    assert position.play(names[row[2]]).outcome.winner == "red"  # a win is there
    move = choose_move(position, level, seed=3)
    assert position.play(move).outcome.winner == "red"


def test_a_fresh_worker_process_plays_it_once_given_the_registrys_origins() -> None:
    # what the AI and picture worker pools do: a spawned process knows only the built-in
    # games until it registers the parent's origins
    state = _played(seed=2, moves=3)
    context = multiprocessing.get_context("spawn")
    with context.Pool(1, initializer=engine.register_all, initargs=(engine.origins(),)) as pool:
        move = pool.apply(choose_move_from_json, (state.to_json(), "rows", "easy", 1))
    assert move in state.legal_moves()


def test_register_from_finds_the_game_by_its_origin() -> None:
    assert engine.origins()[-1] == "tests.sixth_game.rows:Rows"
    assert engine.register_from("tests.sixth_game.rows:Rows") is get_game("rows")
    unregister("rows")
    again = engine.register_from("tests.sixth_game.rows:Rows")
    assert get_game("rows") is again  # the fixture unregisters it at the end
