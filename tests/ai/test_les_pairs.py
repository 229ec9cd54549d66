"""Les master's ordering of two-stone turns (``engine.ai.heuristics.LesPairs``).

Early in a Les game a turn is two stones and a position offers hundreds of pairs. Master
values each stone alone, once, and reads only the best first stones, each with its best
isolated points. These tests hold the lone stone's counts equal to the model's own move,
the pairs kept legal and ranked by the sum of their stones' gains, the one-stone turns
untouched, and the same seed giving the same order.
"""

from __future__ import annotations

import dataclasses
import math
import random

from engine.ai.alphabeta import AlphaBetaSearcher
from engine.ai.heuristics import LesPairs, _les_x, les_evaluator, shuffled
from engine.ai.models.les import LesPosition
from engine.ai.settings import DRAW_VALUE, AlphaBetaSettings
from engine.board import BoardState
from engine.registry import get_board_game

GAME = get_board_game("les")


def _position(seed: int, ply: int, size: int = 9) -> BoardState:
    """The position at ``ply`` of the random game seeded ``seed``."""
    rng = random.Random(seed)
    state = GAME.new(size)
    while state.ply < ply and state.outcome is None:
        state = state.play(rng.choice(state.legal_moves()))
    return state


def _two_stone_models() -> list[LesPosition]:
    models = []
    for seed in range(3):
        for ply in (8, 16, 26, 36):
            model = LesPosition.of(_position(seed, ply))
            if any("+" in move for move in model.legal_moves()):
                models.append(model)
    return models


def test_a_lone_stone_is_counted_as_the_model_plays_it() -> None:
    for model in _two_stone_models()[::2]:
        mover = model.mover
        assert mover is not None
        colour = model.to_move
        assert colour is not None
        firsts, isolated = model.lone_stone_points()
        assert firsts and isolated
        for point in firsts + isolated:
            played = model.play(model.names()[point])
            assert model.after_lone_stone(point) == played.holes_and_claims()
            # the gains are read in the evaluator's own terms
            x = _les_x(*played.holes_and_claims(), mover)
            assert abs(1 / (1 + math.exp(-x)) - les_evaluator(played, colour)) < 1e-9


def test_the_pairs_kept_are_legal_and_the_best_pair_comes_first() -> None:
    order = LesPairs(firsts=5, seconds=3)
    for model in _two_stone_models():
        legal = model.legal_moves()
        kept = order(model, legal, random.Random(4))
        assert kept and set(kept) <= set(legal) and len(kept) == len(set(kept))
        firsts = {move.partition("+")[0] for move in kept}
        assert len(firsts) <= 5
        assert all(sum(m.startswith(f + "+") for m in kept) <= 3 for f in firsts)
        values = [_pair_value(model, move) for move in kept]
        assert values == sorted(values, reverse=True)
        assert abs(values[0] - max(_pair_value(model, move) for move in legal)) < 1e-9


def _pair_value(model: LesPosition, move: str) -> float:
    """What the ordering values a pair at: the sum of its stones' gains, each alone."""
    mover = model.mover
    assert mover is not None
    base = _les_x(*model.holes_and_claims(), mover)
    index = {name: point for point, name in enumerate(model.names())}
    return sum(
        _les_x(*model.after_lone_stone(index[stone]), mover) - base for stone in move.split("+")
    )


def test_one_stone_turns_are_left_whole_and_the_same_seed_gives_the_same_order() -> None:
    order = LesPairs()
    late = LesPosition.of(_position(1, 90))
    moves = late.legal_moves()
    assert moves and not any("+" in move for move in moves)
    assert order(late, moves, random.Random(8)) == shuffled(late, moves, random.Random(8))
    early = LesPosition.of(_position(2, 20))
    moves = early.legal_moves()
    assert order(early, moves, random.Random(3)) == order(early, list(moves), random.Random(3))
    # an engine state is looked at on its model: the same order
    assert order(_position(2, 20), moves, random.Random(3)) == order(early, moves, random.Random(3))


def test_the_opening_reads_three_plies_within_a_few_thousand_positions() -> None:
    model = LesPosition.of(_position(3, 20))
    assert len(model.legal_moves()) > 300
    settings = AlphaBetaSettings(
        max_depth=3, max_nodes=4_000, time_limit=600.0, root_width=24, draw_value=DRAW_VALUE
    )
    every_pair = AlphaBetaSearcher(settings).search(model, random.Random(1))
    assert every_pair.depth < 3  # every pair of every reply: not even through the second ply
    paired = AlphaBetaSearcher(dataclasses.replace(settings, orderer=LesPairs()))
    result = paired.search(model, random.Random(1))
    assert result.depth == 3 and result.move in model.legal_moves()
