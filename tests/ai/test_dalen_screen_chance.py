"""A position the screen proves lost, played for the best chance against a careless
opponent (Dalen normal: ``engine.ai.levels._screened_for_chance``; docs/ai.md, Dalen,
thirteenth round).

Ply 112 of game 88 of normal against random on the ladder's seeds (13 placements, one
above normal's end reading): every move of normal (dark) is lost against best play, and
the screen proves each of them lost in a few thousand positions. Read exactly against the
random player, ten moves win 55 % of the games; after d7, d8 or m2 every reply of light
wins at once. Before, the search's choice stood wherever the screen proved every move
lost.
"""

from __future__ import annotations

import dataclasses
from pathlib import Path

from engine import get_game
from engine.ai import endsolver, levels
from engine.ai.levels import search_move
from engine.ai.mcts import SearchResult
from engine.ai.model import search_root
from engine.board import BoardState

_DATA = Path(__file__).parent / "data"
_NAME = "dalen-screen-lost.json"
_HOPELESS = {"d7", "d8", "m2"}  # every reply of the opponent wins at once


def _game_position() -> BoardState:
    return get_game("dalen").from_json((_DATA / _NAME).read_text(encoding="utf-8"))


def _position() -> BoardState:
    """The position on the search's model (engine/ai/models/dalen.py), as the levels read it."""
    return search_root(_game_position())


def _can_win(state: BoardState, mover: str | None) -> bool:
    """Whether any line at all, both sides' moves alike, ends in a win for ``mover``."""
    table: dict[object, bool] = {}

    def reach(position: BoardState) -> bool:
        if position.outcome is not None:
            return position.outcome.winner == mover
        key = endsolver.position_key(position)
        if key not in table:
            table[key] = any(reach(position.play(move)) for move in position.legal_moves())
        return table[key]

    return reach(state)


def _searched(state: BoardState) -> SearchResult:
    """A search that ranked the hopeless moves first."""
    rest = [move for move in state.legal_moves() if move not in _HOPELESS]
    ranking = ["m2", "d7", "d8", *rest]
    return SearchResult("m2", 600, 0.1, 0.9, ranking=ranking)


def _normal() -> levels.LevelTuning:
    return get_game("dalen").spec.ai.levels["normal"]


def test_the_hopeless_moves_leave_no_line_to_a_win_and_the_others_do() -> None:
    state = _position()
    mover = state.to_move
    assert len(state.legal_moves()) == 13
    for move in state.legal_moves():
        assert _can_win(state.play(move), mover) == (move not in _HOPELESS)


def test_the_screen_reports_every_move_it_proves_lost() -> None:
    state = _position()
    assert len(state.legal_moves()) > _normal().narrow_below  # above the end reading
    lost: set[str] = set()
    screened = levels._screened(
        state, _searched(state), _normal(), 1.0, deadline=float("inf"), lost=lost
    )
    assert lost == set(state.legal_moves())
    # every move ranked is lost: the screen alone lets the search's choice stand
    assert screened.move == "m2"


def test_where_the_screen_proves_every_move_lost_a_move_with_a_chance_is_played() -> None:
    state = _position()
    searched = _searched(state)
    chosen = [
        levels._screened_for_chance(
            state, searched, _normal(), 1.0, seed, deadline=float("inf"), until=float("inf")
        ).move
        for seed in range(2)
    ]
    assert all(move not in _HOPELESS for move in chosen)
    # the same seed, the same move
    again = levels._screened_for_chance(
        state, searched, _normal(), 1.0, 0, deadline=float("inf"), until=float("inf")
    )
    assert again.move == chosen[0]


def test_a_level_without_the_chance_keeps_the_screens_choice() -> None:
    state = _position()
    searched = _searched(state)
    # hard's screen with the chance taken out (hard reads the chance since the fifteenth
    # round; master does not, but screens with other budgets)
    hard = get_game("dalen").spec.ai.levels["hard"]
    plain = dataclasses.replace(hard, chance_nodes=0, chance_playouts=0)
    chosen = levels._screened_for_chance(
        state, searched, plain, 1.0, 0, deadline=float("inf"), until=float("inf")
    )
    assert chosen.move == "m2"


def test_normal_plays_a_move_with_a_chance() -> None:
    # within normal's clock fewer moves' playouts finish, and how many follows the clock
    for seed in range(2):
        assert search_move(_game_position(), "normal", seed=seed).move not in _HOPELESS
