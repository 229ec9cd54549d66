"""Les master's evaluator (``heuristics.les_master_evaluator``) reads holes as the game is decided.

RULINGS §5 compares, in order: the holes owned, the sizes of the holes from the biggest
down, the stones around them. The evaluator must rank positions in that order, call a
result certain only when the rules leave it nothing else (no isolated point, so no new
claimed point; no open claim where it matters), and otherwise read like ``les_evaluator``
with half a hole for the side the tie-breaks favour when the holes are level.

The hand-made positions are on the 7-board: every point is a stone except the points named
empty; a stone next to a black point (a hole or claim of black's) is black, next to a white
one white, and every other stone takes its row's colour (rows a, c, e, ... black; b, d, f,
... white), so that the one point left to play touches both colours.
"""

from __future__ import annotations

import math
import random

import pytest

from engine.ai import heuristics
from engine.ai.models.les import LesPosition
from engine.board import BoardState
from engine.hexgrid import hex_grid
from engine.les_holes import compare_holes
from engine.registry import get_board_game

GAME = get_board_game("les")
BLACK, WHITE = GAME.colors
SIZE = 7


def _position(
    black: set[str], white: set[str], contested: set[str], to_move: str = BLACK
) -> BoardState:
    """The 7-board filled with stones but for ``black``'s and ``white``'s empty points (each
    bordered by that colour's stones only) and the ``contested`` ones (touching both)."""
    grid = hex_grid(SIZE)
    empty = black | white | contested
    stones: dict[str, str] = {}
    for point, name in enumerate(grid.names):
        if name in empty:
            continue
        near = {grid.names[nb] for nb in grid.neighbours[point]}
        next_to_black, next_to_white = bool(near & black), bool(near & white)
        assert not (next_to_black and next_to_white), f"{name} would border both"
        if next_to_black or next_to_white:
            stones[name] = BLACK if next_to_black else WHITE
        else:
            stones[name] = BLACK if (ord(name[0]) - ord("a")) % 2 == 0 else WHITE
    state = GAME.position(SIZE, stones=stones, to_move=to_move)
    assert state.outcome is None, "a point touching both colours is left to play"
    return state


def _values(state: BoardState) -> tuple[float, float]:
    return (
        heuristics.les_master_evaluator(state, BLACK),
        heuristics.les_master_evaluator(state, WHITE),
    )


def _finish(state: BoardState, seed: int) -> BoardState:
    rng = random.Random(seed)
    while state.outcome is None:
        state = state.play(rng.choice(state.legal_moves()))
    return state


def test_with_one_hole_each_the_bigger_hole_wins_and_is_valued_won() -> None:
    # black's hole has two points, white's one; the one move left ends the game
    state = _position(black={"d5", "d6"}, white={"j5"}, contested={"g1"})
    assert _values(state) == (1.0, 0.0)
    # what the old evaluator saw: two claimed points against one, next to nothing
    assert heuristics.les_evaluator(state, BLACK) < 0.51
    end = _finish(state, seed=1)
    assert end.outcome is not None and end.outcome.winner == BLACK
    assert end.outcome.code == "les_win_bigger_holes"


def test_with_holes_alike_in_size_more_stones_around_wins() -> None:
    # one point each: black's in the middle (six stones around it), white's on the edge (four)
    state = _position(black={"d5"}, white={"a4"}, contested={"g1"}, to_move=WHITE)
    assert _values(state) == (1.0, 0.0)
    end = _finish(state, seed=2)
    assert end.outcome is not None and end.outcome.winner == BLACK
    assert end.outcome.code == "les_win_more_stones"


@pytest.mark.parametrize(
    ("black", "white"), [(set(), set()), ({"d5"}, {"j5"})], ids=["no holes", "holes alike"]
)
def test_a_position_that_can_only_end_drawn_is_valued_as_a_draw(
    black: set[str], white: set[str]
) -> None:
    state = _position(black=black, white=white, contested={"g1"})
    assert _values(state) == (0.5, 0.5)
    end = _finish(state, seed=3)
    assert end.outcome is not None and end.outcome.winner is None


def test_a_hole_more_wins_whatever_becomes_of_the_leaders_open_claim() -> None:
    # black owns two holes and an open claim (g6, next to the free point g7); white one hole
    # and no open claim: black's holes can only grow in number
    state = _position(black={"d5", "d6", "j5", "g6"}, white={"b2"}, contested={"g7"})
    assert _values(state) == (1.0, 0.0)
    for seed in range(3):
        end = _finish(state, seed=seed)
        assert end.outcome is not None and end.outcome.winner == BLACK


def _logit(value: float) -> float:
    return math.log(value / (1.0 - value))


def test_with_open_claims_left_the_tie_break_counts_half_a_hole() -> None:
    # one hole each (black's the bigger), and each side an open claim on the free point g7:
    # whoever closes theirs (or breaks the other's) still decides the game
    state = _position(black={"d5", "d6", "g6"}, white={"j5", "g8"}, contested={"g7"})
    black, white = _values(state)
    assert 0.0 < white < 0.5 < black < 1.0
    assert black + white == pytest.approx(1.0)
    old = heuristics.les_evaluator(state, BLACK)
    assert _logit(black) - _logit(old) == pytest.approx(0.5)
    # were white's hole the bigger, the half hole would go the other way
    turned = _position(black={"d5", "g6"}, white={"j5", "j6", "g8"}, contested={"g7"})
    old = heuristics.les_evaluator(turned, BLACK)
    assert _logit(heuristics.les_master_evaluator(turned, BLACK)) - _logit(old) == pytest.approx(
        -0.5
    )


def test_nothing_is_certain_while_isolated_points_are_left() -> None:
    # the settled position of the bigger hole, but with a free rosette around g7: g7 touches
    # no stone, so second stones still go there and new claims can appear
    rosette = {"g7", "g6", "g8", "f6", "f7", "h6", "h7"}
    state = _position(black={"d5", "d6"}, white={"j5"}, contested=rosette)
    assert LesPosition.of(state).isolated_points() == 1
    black, white = _values(state)
    assert 0.0 < black < 1.0 and black + white == pytest.approx(1.0)


def _random_positions(size: int, games: int, seed: int) -> list[LesPosition]:
    rng = random.Random(seed)
    positions = []
    for _ in range(games):
        state = GAME.new(size)
        while state.outcome is None:
            if state.extra.get("phase", "play") == "play":
                positions.append(LesPosition.of(state))
            state = state.play(rng.choice(state.legal_moves()))
    return positions


@pytest.mark.parametrize("size", [5, 7])
def test_every_result_called_settled_comes_true_and_otherwise_it_reads_as_before(
    size: int,
) -> None:
    settled = tie_breaks = 0
    for index, model in enumerate(_random_positions(size, games=12, seed=40 + size)):
        result = heuristics.les_settled(model)
        if result is not None:
            settled += 1
            for seed in range(3):
                end = _finish(model, seed=1000 * index + seed)  # type: ignore[arg-type]  # the model plays like a state
                assert end.outcome is not None
                assert end.outcome.winner == (None if result == 0 else GAME.colors[result - 1])
        for code, colour in enumerate((BLACK, WHITE), start=1):
            value = heuristics.les_master_evaluator(model, colour)
            if result is not None:
                assert value == (0.5 if result == 0 else float(result == code))
                continue
            old = heuristics.les_evaluator(model, colour)
            black, white = model.owned_holes()
            winner = compare_holes(list(black), list(white))[0] if black else 0
            if winner and len(black) == len(white):
                tie_breaks += 1
                half = 0.5 if winner == code else -0.5
                assert _logit(value) - _logit(old) == pytest.approx(half)
            else:
                assert value == pytest.approx(old)
    assert settled > 20 and tie_breaks >= 10  # both kinds of position were met
