"""One random-playout property test for every registered game, through the protocol alone.

The games are the registry's (:func:`engine.game_names`), read when the tests are
collected: a game registered in ``engine/registry.py`` is played here with no edit to this
file, and a game registered by a test (the toy sixth game) is handed to
:func:`check_random_playout` by its own tests. Nothing here knows a game by its name: a
setup is drawn from the spec (players, board size, options, seed) and the game is played
through :class:`engine.protocols.Game` and :class:`~engine.protocols.State` only, a random
actor doing a random legal action, until nobody may act. Along the way (after OpenSpiel's
generic checks):

- the actors are seats, each with its legal actions, without duplicates; a seat that may
  not act has none, and an actor's action played by such a seat is refused;
- every action taken plays and leaves the state it was played on unchanged;
- inputs no seat may play (junk) raise ``IllegalMove`` and change nothing;
- every seat's view and the spectator's exist; a view that lists actions lists the seat's
  own; whatever a card game's spectator sees of the hands, every seat sees alike;
- JSON round-trips exactly, the same actors, actions and views after it;
- the game ends within a bound, with an outcome and its reason, no actor, no legal action
  for anyone, winners among the seats, and every action then refused.

The rulings of each game (the moves a slow reference finds, Leiff's knowledge tracker, the
Lublache finder against its reference) stay in the games' own tests.
"""

from __future__ import annotations

import json
import random
from collections.abc import Mapping
from typing import Any

import pytest
from hypothesis import HealthCheck, assume, given, note, settings
from hypothesis import strategies as st

from engine import IllegalMove, game_names, get_game
from engine.protocols import Game, State
from engine.spec import GameSpec, Setup

JUNK = ("", "   ", "zz9", "a0", "e5xx", "swapp", "no such action", "9 9 9", "\x00")
MAX_ACTIONS = 20_000  # no game here needs a tenth of it; a game that never ends trips it
CHECKED_PLIES = 8  # plies of each game whose every input is tried and round-tripped


def setups(spec: GameSpec) -> st.SearchStrategy[Setup]:
    """Setups a spec allows: its player range, its sizes, every value of its options."""
    options = {}
    for option in spec.options:
        if option.choices:
            options[option.name] = st.sampled_from(option.choices)
        elif isinstance(option.default, bool):
            options[option.name] = st.booleans()
        else:
            options[option.name] = st.just(option.default)
    low, high = spec.players
    return st.builds(
        Setup,
        players=st.integers(low, high),
        size=st.sampled_from(spec.sizes) if spec.sizes else st.none(),
        options=st.fixed_dictionaries(options),
        seed=st.integers(0, 2**31),
    )


def _view_json(view: Any) -> str:
    """A view as comparable text: a card game's view is JSON already, a board's is the state."""
    if isinstance(view, Mapping):
        return json.dumps(view, sort_keys=True)
    return str(view.to_json())


def check_views(state: State, seats: int) -> None:
    spectator = state.view(None)
    views = {seat: state.view(seat) for seat in range(seats)}
    for seat, view in [(None, spectator), *views.items()]:
        assert _view_json(view) == _view_json(state.view(seat)), "a view is a function"
        if isinstance(view, Mapping):
            json.dumps(view)  # what a front end is sent
            assert "seed" not in view, "no view exposes the shuffle's seed"
            if "legal_actions" in view:
                own = [] if seat is None else state.legal_actions(seat)
                assert list(view["legal_actions"]) == own, seat
    if isinstance(spectator, Mapping) and "hands" in spectator:
        # what the table sees is public: every seat sees it too
        for hand_number, hand in enumerate(spectator["hands"]):
            for slot, label in enumerate(hand):
                if label is not None:
                    for seat, view in views.items():
                        assert view["hands"][hand_number][slot] == label, (seat, hand_number)


def check_inputs(game: Game, state: State, seats: int, actors: list[int]) -> None:
    """Junk and out-of-turn actions are refused and change nothing; JSON round-trips."""
    before = state.to_json()
    offered = {action for seat in actors for action in state.legal_actions(seat)}
    for seat in range(seats):
        for junk in JUNK:
            if junk not in state.legal_actions(seat):
                with pytest.raises(IllegalMove) as refused:
                    state.play(seat, junk)
                assert str(refused.value), "a refusal says what was wrong"
        if seat not in actors:
            for action in sorted(offered)[:5]:
                with pytest.raises(IllegalMove):
                    state.play(seat, action)
    assert state.to_json() == before, "a refused action changed the state"
    again = game.from_json(before)
    assert again.to_json() == before
    assert again.actors() == actors
    for seat in range(seats):
        assert again.legal_actions(seat) == state.legal_actions(seat)
    for seat in [None, *range(seats)]:
        assert _view_json(again.view(seat)) == _view_json(state.view(seat))


def check_random_playout(game_name: str, setup: Setup) -> None:
    """Play ``setup`` of the registered game ``game_name`` at random to its end, checking
    every property of the module's docstring."""
    game = get_game(game_name)
    rng = random.Random(setup.seed)
    try:
        state = game.start(setup)
    except ValueError as error:  # a combination the rules refuse (Leiff's teams of three)
        assert str(error), "a refused setup says why"
        note(f"refused: {error}")
        assume(False)
        return
    seats = setup.players
    checked = {0, 1, 2, *rng.sample(range(3, 400), CHECKED_PLIES)}
    taken: list[tuple[int, str]] = []
    for ply in range(MAX_ACTIONS):
        actors = state.actors()
        if not actors:
            break
        assert state.outcome is None, "a finished game has no actor"
        assert len(set(actors)) == len(actors) and set(actors) <= set(range(seats))
        for seat in range(seats):
            actions = state.legal_actions(seat)
            assert len(actions) == len(set(actions)), "no action listed twice"
            assert bool(actions) == (seat in actors), (seat, actors, actions)
        check_views(state, seats)
        if ply in checked:
            check_inputs(game, state, seats, actors)
        seat = rng.choice(actors)
        action = rng.choice(state.legal_actions(seat))
        before = state.to_json()
        after = state.play(seat, action)
        assert state.to_json() == before, "play() changed the state it was played on"
        taken.append((seat, action))
        state = after
    else:
        raise AssertionError(f"{game_name} did not end in {MAX_ACTIONS} actions")
    outcome = state.outcome
    assert outcome is not None, "nobody may act, so the game is over"
    assert isinstance(outcome.reason, str) and outcome.reason
    winners = state.winning_seats()
    assert len(set(winners)) == len(winners) and set(winners) <= set(range(seats))
    assert all(state.legal_actions(seat) == [] for seat in range(seats))
    check_views(state, seats)
    check_inputs(game, state, seats, [])
    for seat, action in taken[-3:]:
        with pytest.raises(IllegalMove):
            state.play(seat, action)


@pytest.mark.parametrize("game_name", game_names())
@settings(max_examples=6, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_random_playouts_keep_every_property(game_name: str, data: st.DataObject) -> None:
    setup = data.draw(setups(get_game(game_name).spec), label="setup")
    check_random_playout(game_name, setup)


@pytest.mark.parametrize("game_name", game_names())
def test_every_players_count_and_size_starts_with_the_default_options(game_name: str) -> None:
    spec = get_game(game_name).spec
    low, high = spec.players
    for players in range(low, high + 1):
        for size in spec.sizes or (None,):
            state = get_game(game_name).start(Setup(players=players, size=size, seed=1))
            assert state.actors() and state.outcome is None
