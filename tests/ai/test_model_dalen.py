"""Dalen's search-side model (engine/ai/models/dalen.py) against the engine's own states.

Random playouts on every size, with and without the variant, swap and passes included:
after every move the model and the engine agree on the legal moves (in the same order),
the outcome, the mover, the ply, the score, the stones and the passes in a row. The
evaluator reads the same value from both, and a seeded search (budget-bound, each level)
returns the same move after the same iterations whether it reads the engine's states or
the model's.
"""

from __future__ import annotations

import dataclasses
import random
import time
from collections import Counter
from collections.abc import Iterator
from types import SimpleNamespace

import pytest

from engine import get_game
from engine.ai import alphabeta, endsolver, levels, mcts, tactics
from engine.ai.heuristics import dalen_evaluator, dalen_pressure
from engine.ai.levels import search_move
from engine.ai.models.dalen import DalenPosition
from engine.board import PASS, SWAP, BoardState
from engine.errors import IllegalMove
from tests.ai.test_endsolver import lost_dalen_end


def _agree(state: BoardState, model: DalenPosition) -> None:
    assert model.legal_moves() == state.legal_moves()
    assert model.outcome == state.outcome
    assert (model.to_move, model.mover, model.ply) == (state.to_move, state.mover, state.ply)
    assert model.score == state.score
    assert model.stones == state.stones
    assert model.extra["passes"] == state.extra.get("passes", 0)


def _playout(
    state: BoardState, rng: random.Random, events: Counter[str]
) -> Iterator[tuple[BoardState, DalenPosition]]:
    """The positions of one random game from ``state``, engine and model side by side (the
    model sometimes rebuilt from the engine's state, as a search's root is)."""
    model = DalenPosition.from_state(state)
    while True:
        _agree(state, model)
        yield state, model
        if state.outcome is not None:
            events[state.outcome.code or ""] += 1
            return
        moves = state.legal_moves()
        move = SWAP if SWAP in moves and rng.random() < 0.5 else rng.choice(moves)
        before = state.score
        state, model = state.play(move), model.play(move)
        events[move if move in (PASS, SWAP) else "placement"] += 1
        if state.last_turn.flipped:
            events["flip"] += 1
            assert sum(state.score.values()) == sum(before.values()) + 1
        if rng.random() < 0.1:
            model = DalenPosition.from_state(state)


def _play_through(state: BoardState, rng: random.Random, events: Counter[str]) -> int:
    """One random game from ``state`` with the model compared at every position (the
    comparison is :func:`_playout`'s); how many positions were compared."""
    return sum(1 for _ in _playout(state, rng, events))


@pytest.mark.parametrize("variant", [False, True])
def test_random_playouts_agree_with_the_engine_on_every_size(variant: bool) -> None:
    game = get_game("dalen")
    events: Counter[str] = Counter()
    rng = random.Random(36)
    for size in game.sizes:
        for _ in range(6 if size < 8 else 3):
            assert _play_through(game.new(size, variant=variant), rng, events) > size
    # the playouts met every rule the model copies (random games of the variant end with a
    # colour wiped out before the board fills: no passes there)
    needed = ["placement", "flip", SWAP, "dalen_wiped_out"]
    needed += [] if variant else [PASS, "dalen_win_passed"]
    for event in needed:
        assert events[event] > 0, (event, events)


def test_a_given_position_agrees_too() -> None:
    # a position() start: no pie rule, no record of the colours seen, as the engine has it
    state = lost_dalen_end()
    events: Counter[str] = Counter()
    rng = random.Random(5)
    for _ in range(5):
        assert _play_through(state, rng, events) > 1
    assert SWAP not in DalenPosition.from_state(get_game("dalen").position(7)).legal_moves()


def test_the_evaluator_reads_the_same_value_from_the_model() -> None:
    game = get_game("dalen")
    events: Counter[str] = Counter()
    rng = random.Random(7)
    compared = threatened = exposed = 0
    for size in (5, 7, 9):
        for _ in range(3):
            for state, model in _playout(game.new(size), rng, events):
                if state.outcome is not None:
                    continue
                assert dalen_pressure(model) == dalen_pressure(state)
                for colour in game.colors:
                    assert dalen_evaluator(model, colour) == dalen_evaluator(state, colour)
                threats, exposure = dalen_pressure(state)
                threatened += any(threats.values())
                exposed += any(exposure.values())
                compared += 1
    assert compared > 300 and threatened > 5 and exposed > 100


def test_illegal_moves_are_refused_as_the_engine_refuses_them() -> None:
    state = lost_dalen_end()
    model = DalenPosition.from_state(state)
    taken = next(iter(state.stones))
    for move in (taken, PASS, SWAP, "z99"):
        with pytest.raises(IllegalMove):
            state.play(move)
        with pytest.raises(IllegalMove):
            model.play(move)
    stuck = [c for c in state.grid.names if c not in state.stones and c not in model.legal_moves()]
    for move in stuck:  # next to two of the mover's leaves
        with pytest.raises(IllegalMove):
            model.play(move)


def _positions() -> list[BoardState]:
    """Positions of random games, early to late, on the smaller boards (where the engine's
    own search is quick enough for a test), and the narrow end of a lost game."""
    game = get_game("dalen")
    rng = random.Random(11)
    found = []
    for size, plies in ((5, 1), (5, 20), (6, 35), (6, 60), (5, 45)):
        state = game.new(size)
        while state.outcome is None and state.ply < plies:
            state = state.play(rng.choice(state.legal_moves()))
        assert state.outcome is None
        found.append(state)
    return [*found, lost_dalen_end()]


# (level, scale): budgets small enough that the engine's search is quick, and a time
# limit far above what they need, so that the budget ends every search (and the end reading)
_LEVELS = (("easy", 1.0), ("normal", 0.2), ("hard", 0.03), ("master", 0.02))
_SEARCH_MODULES = (mcts, alphabeta, endsolver, tactics, levels)


@pytest.mark.parametrize(("level", "scale"), _LEVELS)
def test_a_seeded_search_reads_the_model_as_it_reads_the_engine(
    level: str, scale: float, monkeypatch: pytest.MonkeyPatch
) -> None:
    # the searches' clocks count this process's CPU seconds: a machine busy with other
    # work must not cut the engine's (slower) search short
    cpu_clock = SimpleNamespace(perf_counter=time.process_time)
    for module in _SEARCH_MODULES:
        monkeypatch.setattr(module, "time", cpu_clock)
    game_class = type(get_game("dalen"))
    with_model = game_class.spec
    without = dataclasses.replace(with_model, ai=dataclasses.replace(with_model.ai, model=None))
    for state in _positions():
        results = []
        for spec in (without, with_model):
            monkeypatch.setattr(game_class, "spec", spec)
            result = search_move(state, level, seed=3, scale=scale, time_limit=5.0)
            results.append((result.move, result.iterations, result.visits, result.ranking))
        assert results[0] == results[1], (state.ply, level)
        assert results[0][0] in state.legal_moves()
