"""The registry of games and the specs it holds: one description per game, read by name."""

from __future__ import annotations

import dataclasses
import random

import pytest

import engine
from engine import IllegalMove, get_board_game, get_game, get_spec, registered
from engine.leiff.options import LeiffOptions
from engine.phrases import Text
from engine.spec import GameKind, GameSpec
from tests.ai.toy_game import ThreeInRow

BUILT_IN = ("lefe", "dalen", "lublache", "les", "leiff")


def test_the_five_games_are_registered_in_the_order_players_see_them() -> None:
    assert engine.game_names() == BUILT_IN
    assert engine.board_game_names() == BUILT_IN[:4]
    assert [spec.name for spec in engine.specs()] == list(BUILT_IN)


def test_board_games_and_game_names_are_views_of_the_registry() -> None:
    assert engine.game_names() == engine.GAME_NAMES
    assert engine.board_game_names() == engine.BOARD_GAMES


def test_a_game_is_found_by_name_in_any_case_and_carries_its_spec() -> None:
    assert get_game(" LEFE ") is get_game("lefe")
    for name in BUILT_IN:
        assert get_game(name).spec is get_spec(name)
        assert get_spec(name).name == name


def test_an_unknown_game_is_a_key_error_naming_the_games() -> None:
    with pytest.raises(KeyError) as raised:
        get_game("chess")
    assert str(raised.value) == (
        "unknown game 'chess'; the games are: lefe, dalen, lublache, les, leiff"
    )


def test_only_board_games_are_board_games() -> None:
    assert get_board_game("les").name == "les"
    with pytest.raises(ValueError, match="not a board game"):
        get_board_game("leiff")


def test_a_rules_object_mirrors_its_spec() -> None:
    for name in BUILT_IN[:4]:
        game, spec = get_board_game(name), get_spec(name)
        assert game.title == spec.title.english
        assert game.colors == spec.colours
        assert game.sizes == spec.sizes
        assert game.default_size == spec.default_size
        assert game.uses_pie == spec.uses_pie
        assert game.summary == spec.summary.english
        assert game.option_defaults == spec.option_defaults
    leiff = get_game("leiff")
    assert (leiff.min_players, leiff.max_players) == get_spec("leiff").players == (2, 6)


def test_leiffs_option_schema_is_the_one_leiff_options_validates() -> None:
    spec = get_spec("leiff")
    assert spec.kind is GameKind.CARDS
    fields = [f.name for f in dataclasses.fields(LeiffOptions) if f.name != "players"]
    assert [option.name for option in spec.options] == fields
    defaults = LeiffOptions()
    assert spec.option_defaults == {name: getattr(defaults, name) for name in fields}
    target = next(option for option in spec.options if option.name == "target")
    for value in target.choices:
        LeiffOptions(target=value)  # every listed choice is accepted ...
    with pytest.raises(ValueError):
        LeiffOptions(target=75)  # ... and a value off the list is not


def test_a_registered_game_is_there_only_while_registered() -> None:
    with registered(ThreeInRow()) as game:
        assert get_game("three") is game
        assert "three" in engine.board_game_names()
    assert "three" not in engine.game_names()
    with pytest.raises(KeyError):
        get_game("three")


def test_a_name_cannot_be_registered_twice() -> None:
    with pytest.raises(ValueError, match="registered already"):
        engine.register(get_game("lefe"))
    with registered(ThreeInRow()), pytest.raises(ValueError, match="registered already"):
        engine.register(ThreeInRow())


@pytest.mark.parametrize(
    ("changes", "problem"),
    [
        ({"name": "Three In Row"}, "one lower-case word"),
        ({"colours": ("red", "blue", "green")}, "two seats and two colours"),
        ({"players": (2, 3)}, "two seats and two colours"),
        ({"default_size": 4}, "default size"),
        ({"kind": GameKind.CARDS, "players": (3, 2)}, "empty"),
    ],
)
def test_a_spec_that_cannot_describe_a_game_is_refused(changes: dict, problem: str) -> None:
    good = {
        "name": "three",
        "title": Text("game.three.title", "Three"),
        "summary": Text("game.three.summary", "Three in a row wins."),
        "colours": ("red", "blue"),
        "sizes": (3,),
        "default_size": 3,
    }
    GameSpec(**good)
    with pytest.raises(ValueError, match=problem):
        GameSpec(**{**good, **changes})


def test_board_states_play_the_shared_protocol() -> None:
    state = get_game("lefe").new(size=5)
    assert state.actors() == [0]
    assert state.legal_actions(1) == []
    assert state.legal_actions(0) == state.legal_moves()
    assert state.view(None) is state and state.view(1) is state
    after = state.play(0, "e5")
    assert after.to_json() == state.play("e5").to_json()
    assert after.actors() == [1]
    with pytest.raises(IllegalMove, match="light's turn"):
        after.play(0, "a1")
    with pytest.raises(IllegalMove, match="seat is a whole number"):
        after.play("1", "a1")
    assert after.winning_seats() == []


def test_the_winning_seat_follows_the_colours_after_a_swap() -> None:
    rng = random.Random(4)
    results = set()
    for _ in range(12):
        state = get_game("lefe").new(size=5).play("c3").play("swap")  # seat 1 now plays dark
        while state.outcome is None:
            state = state.play(rng.choice(state.legal_moves()))
        winner = state.outcome.winner
        expected = [seat for seat in (0, 1) if state.seat_colour(seat) == winner]
        assert state.winning_seats() == expected
        results.add(tuple(expected))
    assert {(0,), (1,)} <= results  # both seats seen winning


def test_every_game_starts_from_a_setup() -> None:
    from engine.protocols import Setup

    board = get_game("dalen").start(Setup(size=5, options={"variant": True}))
    assert (board.size, board.options["variant"]) == (5, True)
    with pytest.raises(ValueError, match="two players"):
        get_game("dalen").start(Setup(players=3))
    cards = get_game("leiff").start(Setup(players=4, seed=3, options={"teams": True}))
    assert cards.players == 4 and cards.options.teams
    assert cards.to_json() == get_game("leiff").new(4, 3, {"teams": True}).to_json()
    assert cards.winning_seats() == []
