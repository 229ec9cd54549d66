"""The engine's public surface, exactly as the shared ENGINE_API document names it.

Checks outside the repository drive the engine through these names only, so this file
uses nothing else: if it breaks, those checks break too.
"""

from __future__ import annotations

import json
import random

import pytest

from engine import IllegalMove, get_game

BOARD_GAMES = {
    "lefe": (("dark", "light"), (5, 6, 7), 6),
    "dalen": (("dark", "light"), (5, 6, 7, 8, 9), 7),
    "lublache": (("black", "white"), (5, 7, 9), 7),
    "les": (("black", "white"), (5, 6, 7, 8, 9), 9),
}


def test_unknown_game_raises_a_key_error():
    with pytest.raises(KeyError):
        get_game("chess")


def test_illegal_move_is_a_value_error():
    assert issubclass(IllegalMove, ValueError)


@pytest.mark.parametrize("name", sorted(BOARD_GAMES))
def test_board_game_metadata(name):
    colours, sizes, default = BOARD_GAMES[name]
    game = get_game(name)
    assert game.name == name
    assert tuple(game.colors) == colours
    assert tuple(game.sizes) == sizes
    assert game.default_size == default


@pytest.mark.parametrize("name", sorted(BOARD_GAMES))
def test_random_games_through_the_public_surface(name):
    game = get_game(name)
    rng = random.Random(name)
    for size in game.sizes[:2]:
        state = game.new(size=size)
        assert state.size == size
        assert state.to_move == game.colors[0]
        assert state.stones == {}
        plies = 0
        while state.outcome is None:
            moves = state.legal_moves()
            assert moves, "a running game always has a legal move"
            assert len(moves) == len(set(moves))
            move = rng.choice(moves)
            before = state.stones
            new_state = state.play(f"  {move.upper()} ")
            assert state.stones == before, "play() must not change the old state"
            state = new_state
            plies += 1
            assert plies < 2000
        assert state.to_move is None
        assert state.legal_moves() == []
        assert state.outcome.winner in (None, *game.colors)
        assert isinstance(state.outcome.reason, str) and state.outcome.reason
        with pytest.raises(IllegalMove):
            state.play(moves[0])


@pytest.mark.parametrize("name", sorted(BOARD_GAMES))
def test_nonsense_moves_raise_illegal_move_with_a_reason(name):
    state = get_game(name).new()
    for junk in ("zz9", "", "e5xx", "a0", "swap"):
        with pytest.raises(IllegalMove) as caught:
            state.play(junk)
        assert str(caught.value)


def test_position_is_returned_as_given():
    game = get_game("lefe")
    state = game.position(size=6, stones={"f6": "dark", "g6": "light"}, to_move="dark")
    assert state.stones == {"f6": "dark", "g6": "light"}
    assert state.to_move == "dark"
    stones = state.stones
    stones["a1"] = "dark"
    assert "a1" not in state.stones, "stones is a fresh dict each call"
    assert "swap" not in state.legal_moves(), "position() is past the opening"


def test_swap_is_legal_only_as_the_second_move():
    game = get_game("lefe")
    state = game.new(size=6)
    assert "swap" not in state.legal_moves()
    state = state.play("f6")
    assert "swap" in state.legal_moves()
    swapped = state.play("swap")
    assert swapped.to_move == "light"
    assert "swap" not in swapped.legal_moves()


def test_dalen_pass_is_the_only_move_without_placements():
    game = get_game("dalen")
    seen_pass = 0
    for seed in range(40):
        rng = random.Random(seed)
        state = game.new(size=5)
        while state.outcome is None:
            moves = state.legal_moves()
            if "pass" in moves:
                assert moves == ["pass"]
                seen_pass += 1
            state = state.play(rng.choice(moves))
    assert seen_pass > 0, "random 5-board games reach positions without placements"


LEIFF_OPTION_SETS = [
    {"target": 50, "specials": False, "drinking": False, "water": False, "teams": False},
    {"target": 50, "specials": True, "drinking": True, "water": False, "teams": False},
    {"target": 100, "specials": True, "drinking": True, "water": True, "teams": False},
    {"target": 50, "specials": True, "drinking": False, "water": False, "teams": True},
]


@pytest.mark.parametrize("options", LEIFF_OPTION_SETS)
def test_leiff_random_actions_through_the_public_surface(options):
    game = get_game("leiff")
    players = 4 if options["teams"] else 3
    state = game.new(players=players, seed=7, options=options)
    assert state.players == players
    rng = random.Random(11)
    for _ in range(600):
        if state.outcome is not None:
            break
        actors = state.actors()
        assert actors, "a running game always has someone who may act"
        seat = rng.choice(actors)
        actions = state.legal_actions(seat)
        assert actions, f"seat {seat} is an actor but has no legal action"
        before = json.dumps(state.view(None), sort_keys=True)
        new_state = state.play(seat, rng.choice(actions))
        assert json.dumps(state.view(None), sort_keys=True) == before
        state = new_state
        for viewer in [None, *range(players)]:
            view = state.view(viewer)
            json.dumps(view)
            assert len(view["hands"]) == players
            assert {"draw_count", "discard_count", "discard_top", "round_over"} <= set(view)
        for viewer in [None, *range(players)]:
            # whatever a viewer knows must be the truth (cards shown to all, e.g. by a
            # failed match, are legitimately known to the spectator too)
            for seat_index, hand in enumerate(state.hands):
                known = state.view(viewer)["hands"][seat_index]
                assert len(known) == len(hand)
                assert all(k is None or k == truth for k, truth in zip(known, hand, strict=True))
    if state.outcome is not None:
        assert state.actors() == []
        assert all(isinstance(seat, int) for seat in state.outcome.winner)


def test_leiff_teams_need_four_or_six_players():
    game = get_game("leiff")
    with pytest.raises(ValueError):
        game.new(players=3, seed=1, options={"teams": True})


def test_leiff_illegal_action_raises_illegal_move():
    game = get_game("leiff")
    state = game.new(players=2, seed=1, options={})
    with pytest.raises(IllegalMove):
        state.play(0, "fly to the moon")
