"""A lost end played for the best chance against a careless opponent (Dalen normal:
``LevelTuning.chance_nodes``, ``chance_playouts``; docs/ai.md, Dalen, twelfth round).

Both positions come from games normal lost to the uniformly random player on the ladder's
seeds: every move of normal is lost against best play, but the random player misses the
win more often after some moves than after others. Normal's search picked among the lost
moves with no regard for that (b2 at ply 118 of game 168, c7 at ply 115 of game 51).
"""

from __future__ import annotations

import dataclasses
from pathlib import Path

import pytest

from engine import get_game
from engine.ai import endsolver, levels
from engine.ai.levels import search_move
from engine.ai.mcts import SearchResult
from engine.ai.model import search_root
from engine.board import BoardState

_DATA = Path(__file__).parent / "data"


def _game_position(name: str) -> BoardState:
    return get_game("dalen").from_json((_DATA / name).read_text(encoding="utf-8"))


def _position(name: str) -> BoardState:
    """The position on the search's model (engine/ai/models/dalen.py), as the levels read it."""
    return search_root(_game_position(name))


def _chances(state: BoardState) -> dict[str, float]:
    """Each move's chance of a win (a draw ½) for the side to move, playing its best,
    against an opponent choosing uniformly at random: every line read to its end."""
    mover = state.to_move
    table: dict[object, float] = {}

    def ended(position: BoardState) -> float:
        assert position.outcome is not None
        winner = position.outcome.winner
        return 1.0 if winner == mover else 0.5 if winner is None else 0.0

    def value(position: BoardState) -> float:
        if position.outcome is not None:
            return ended(position)
        key = endsolver.position_key(position)
        if key not in table:
            moves = position.legal_moves()
            children = [value(position.play(move)) for move in moves]
            mine = position.to_move == mover
            table[key] = max(children) if mine else sum(children) / len(moves)
        return table[key]

    return {move: value(state.play(move)) for move in state.legal_moves()}


def _proven_lost(state: BoardState) -> bool:
    solved = endsolver.solve(state, max_nodes=2_000_000, time_limit=120.0)
    assert solved is not None
    return set(solved[0].values()) == {endsolver.LOSS}


def test_the_small_end_is_lost_but_its_moves_chances_differ() -> None:
    state = _position("dalen-chance-small.json")
    assert len(state.legal_moves()) == 8
    assert _proven_lost(state)
    chances = _chances(state)
    assert chances["b2"] < max(chances.values()) - 0.05  # the move normal played


def test_the_exact_chance_is_read_and_its_best_move_played() -> None:
    state = _position("dalen-chance-small.json")
    chances = _chances(state)
    tuning = get_game("dalen").spec.ai.levels["normal"]
    assert tuning.chance_nodes > 0
    ranking = ["b2", "m2", "e6", "f11", "f8", "g12", "h2", "i10"]
    searched = SearchResult("b2", 600, 0.1, 0.0, ranking=ranking)
    # no playouts: what is chosen is the exact reading's
    exact = dataclasses.replace(tuning, chance_playouts=0)
    chosen = levels._chanced(state, searched, exact, 1.0, 7, deadline=float("inf"))
    assert chances[chosen.move] == max(chances.values())
    # among equals, the search's ranking decides
    best = [move for move in ranking if chances[move] == max(chances.values())]
    assert chosen.move == best[0]
    # the search's choice stands when it is among the best
    kept = dataclasses.replace(searched, move=best[0], ranking=[best[0], *ranking])
    assert levels._chanced(state, kept, exact, 1.0, 7, deadline=float("inf")) is kept
    # out of positions, without playouts: the search's choice stands
    poor = dataclasses.replace(exact, chance_nodes=10)
    assert levels._chanced(state, searched, poor, 1.0, 7, deadline=float("inf")) is searched


def test_the_odds_reader_equals_the_full_reading() -> None:
    state = _position("dalen-chance-small.json")
    chances = _chances(state)
    odds = levels._Odds(state.to_move, 1_000_000, float("inf"))
    for move, chance in chances.items():
        # read alone, without a best to beat, every move's chance is exact
        assert abs(odds.chance(state.play(move), -1.0) - chance) < 1e-9


def test_playouts_tell_the_moves_apart_where_the_exact_reading_is_too_big() -> None:
    # Ply 115 of game 51 (12 placements): read exactly against random, c1, e7, g4, j4 and
    # k1 win 90.6 %, the c7 normal played 69.3 % (docs/ai.md, Dalen, eleventh round); the
    # exact reading needs ~400,000 positions, beyond normal's clock.
    state = _position("dalen-chance-playouts.json")
    assert len(state.legal_moves()) == 12
    tuning = get_game("dalen").spec.ai.levels["normal"]
    assert tuning.chance_playouts > 0
    ranking = ["c7", "c1", "j4", "e7", "g4", "k1", "a4", "b4", "j6", "b2", "h1", "m4"]
    searched = SearchResult("c7", 600, 0.1, 0.0, ranking=ranking)
    playing = dataclasses.replace(tuning, chance_nodes=0)
    chosen = [
        levels._chanced(state, searched, playing, 1.0, seed, deadline=float("inf")).move
        for seed in range(3)
    ]
    assert all(move in {"c1", "e7", "g4", "j4", "k1"} for move in chosen)
    # the same seed, the same move
    again = levels._chanced(state, searched, playing, 1.0, 0, deadline=float("inf"))
    assert again.move == chosen[0]
    # out of time before any move's playouts finished: the search's choice stands
    assert levels._chanced(state, searched, playing, 1.0, 0, deadline=0.0) is searched


def test_normal_plays_the_best_chance_in_a_lost_end() -> None:
    state = _position("dalen-chance-small.json")
    chances = _chances(state)
    for seed in range(2):
        move = search_move(_game_position("dalen-chance-small.json"), "normal", seed=seed).move
        assert chances[move] == max(chances.values())


@pytest.mark.usefixtures("stopped_clock")
def test_hard_plays_a_lost_end_for_the_chance_since_the_fifteenth_round() -> None:
    # game 51's lost end at 12 placements (above): hard's Monte Carlo search alone picked
    # among the lost moves and played c7 (69.3 %) with seed 0; hard's line against random
    # lost game 71 that way (docs/ai.md, Dalen, fifteenth round). Its playouts, counted,
    # find one of the five moves that win 90.6 %
    best = {"c1", "e7", "g4", "j4", "k1"}
    for seed in range(3):
        move = search_move(_game_position("dalen-chance-playouts.json"), "hard", seed=seed).move
        assert move in best, (seed, move)


def test_only_the_normal_and_hard_levels_of_dalen_and_lublache_read_the_chance() -> None:
    readers = {("dalen", "normal"), ("dalen", "hard"), ("lublache", "normal"), ("lublache", "hard")}
    for game in ("dalen", "lefe", "les", "lublache"):
        for level, tuning in get_game(game).spec.ai.levels.items():
            # Lublache's: tests/ai/test_lublache_normal_chance.py and
            # tests/ai/test_lublache_normal.py
            if (game, level) not in readers:
                assert tuning.chance_nodes == 0 and tuning.chance_playouts == 0
