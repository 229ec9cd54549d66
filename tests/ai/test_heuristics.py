"""The game-specific heuristics: proper probabilities, zero-sum, and the intended bias."""

from __future__ import annotations

import itertools
import math
import random
from typing import Any

import pytest

from engine import BOARD_GAMES, get_game
from engine.ai import heuristics
from engine.hexgrid import hex_grid
from tests.ai.test_search import random_positions


@pytest.mark.parametrize("game_name", BOARD_GAMES)
def test_evaluations_are_probabilities_that_sum_to_one(game_name: str) -> None:
    first, second = get_game(game_name).colors
    for state in random_positions(game_name, 3 if game_name == "lublache" else 8, seed=21):
        evaluate = heuristics.evaluator_for(state)
        mine, theirs = evaluate(state, first), evaluate(state, second)
        assert 0.0 <= mine <= 1.0
        assert mine + theirs == pytest.approx(1.0)


def test_a_bigger_dalen_army_is_better() -> None:
    game = get_game("dalen")
    ahead = game.position(stones={"a1": "dark", "c3": "dark", "e5": "light"}, to_move="light")
    assert heuristics.evaluator_for(ahead)(ahead, "dark") > 0.5


def test_lefe_orders_captures_first() -> None:
    moves = ["a1", "b2xc3", "d4", "e5xf6"]
    ordered = heuristics.captures_first(None, moves, random.Random(1))
    assert set(ordered[:2]) == {"b2xc3", "e5xf6"} and set(ordered) == set(moves)


def test_unknown_games_get_neutral_knowledge() -> None:
    from tests.ai.toy_game import ThreeInRow

    state = ThreeInRow().new()
    assert heuristics.evaluator_for(state)(state, "red") == 0.5
    assert heuristics.orderer_for(state) is heuristics.shuffled


def test_lefe_mobility_counts_the_placements_the_engine_allows() -> None:
    for state in random_positions("lefe", 8, seed=31):
        mover_cells = {move.split("x")[0] for move in state.legal_moves() if move != "swap"}
        assert heuristics.lefe_mobility(state)[state.to_move] == len(mover_cells)


def test_lefe_prefers_the_position_that_scores_more_points() -> None:
    game = get_game("lefe")
    light = {"k5": "light"}
    # a line of three (2 leaves) and a lone stone (1 leaf): two distinct counts, leafiest
    varied = game.position(
        stones={"a1": "dark", "a2": "dark", "a3": "dark", "f6": "dark", **light}, to_move="light"
    )
    # four lone stones: one distinct count, leafiest only because light runs out first
    uniform = game.position(
        stones={"a1": "dark", "a3": "dark", "a5": "dark", "f6": "dark", **light}, to_move="light"
    )
    assert varied.score == {"dark": 3, "light": 1}
    assert uniform.score == {"dark": 2, "light": 1}
    evaluate = heuristics.evaluator_for(varied)
    assert evaluate(varied, "dark") > evaluate(uniform, "dark") > 0.5
    assert evaluate(varied, "light") < 0.5


def test_lefe_trusts_a_lead_more_the_nearer_the_end() -> None:
    # Along seeded random games: among positions where dark leads by exactly one point,
    # fewer placements left for the more cramped player means a higher value for dark.
    game = get_game("lefe")
    rng = random.Random(8)
    seen: list[tuple[int, float]] = []
    for _ in range(4):
        state = game.new()
        while state.outcome is None:
            score = state.score
            if score["dark"] - score["light"] == 1:
                left = min(heuristics.lefe_mobility(state).values())
                seen.append((left, heuristics.lefe_evaluator(state, "dark")))
            state = state.play(rng.choice(state.legal_moves()))
    seen.sort()
    assert seen[0][0] < seen[-1][0]
    assert seen[0][1] > seen[-1][1] > 0.5
    for (left_a, value_a), (left_b, value_b) in itertools.pairwise(seen):
        assert value_a >= value_b if left_a < left_b else value_a == pytest.approx(value_b)


def test_dalen_counts_the_flip_a_stagnant_tree_threatens() -> None:
    # Along seeded random games, find a position where the side to move has a stagnant
    # tree touching a smaller enemy tree: some placement makes at least that flip, and the
    # evaluator values the position above the bare stone count.
    game = get_game("dalen")
    plain = heuristics.score_evaluator(4.0)
    rng = random.Random(12)
    for _ in range(20):
        state = game.new()
        while state.outcome is None:
            mover = state.to_move
            threatened = heuristics.dalen_threats(state)[mover]
            if threatened > 0 and state.legal_moves() != ["pass"]:
                most_flipped = max(
                    len(state.play(move).last_turn.flipped or ()) for move in state.legal_moves()
                )
                assert most_flipped >= threatened
                assert heuristics.dalen_evaluator(state, mover) > plain(state, mover)
                return
            state = state.play(rng.choice(state.legal_moves()))
    raise AssertionError("no threatened flip met in 20 random games")


def test_les_claims_are_points_touching_one_colour_only() -> None:
    game = get_game("les")
    # far apart: each stone claims its six neighbours, one region each
    apart = game.position(size=5, stones={"e5": "black", "e8": "white"}, to_move="black")
    assert heuristics.les_claims(apart) == ({"black": 1, "white": 1}, {"black": 6, "white": 6})
    # two steps apart: e6 touches both stones, so it is nobody's; the other five stay
    # claimed and still touch each other round their stone
    close = game.position(size=5, stones={"e5": "black", "e7": "white"}, to_move="black")
    assert heuristics.les_claims(close) == ({"black": 1, "white": 1}, {"black": 5, "white": 5})
    # a second black stone far from the first stakes a second region
    two = game.position(
        size=5, stones={"e5": "black", "a1": "black", "e8": "white"}, to_move="black"
    )
    claims, _ = heuristics.les_claims(two)
    assert claims == {"black": 2, "white": 1}


def test_les_every_hole_is_counted_among_the_claims() -> None:
    # a hole is bordered by one colour only, so at least its points next to the border
    # are claimed by that colour: claims can never be fewer than the holes owned
    rng = random.Random(44)
    game = get_game("les")
    holes_seen = 0
    for _ in range(6):
        state = game.new(size=5)
        while state.outcome is None:
            claims, _ = heuristics.les_claims(state)
            for colour, holes in state.score.items():
                assert claims[colour] >= holes
                holes_seen += holes
            state = state.play(rng.choice(state.legal_moves()))
    assert holes_seen > 0  # the check met real holes, not only 0 >= 0


def test_les_values_a_claim_before_any_hole_exists() -> None:
    # no holes on either side (the live score is 0-0), but black has staked two regions
    # against white's one: the evaluator leans black, where the bare hole count is blind
    game = get_game("les")
    state = game.position(
        size=5, stones={"e5": "black", "a1": "black", "e8": "white"}, to_move="white"
    )
    assert state.score == {"black": 0, "white": 0}
    assert heuristics.les_evaluator(state, "black") > 0.55


RING_ROUND_G7 = ("g8", "f7", "h7", "f6", "h6", "g6")


def test_lublache_closed_cells_are_the_empty_cells_touching_an_owned_loop() -> None:
    game = get_game("lublache")
    ring = game.position(stones=dict.fromkeys(RING_ROUND_G7, "black"), to_move="black")
    # the centre g7 and the twelve cells round the ring: all closed to black, none to white
    assert heuristics.lublache_closed_cells(ring) == {"black": 13, "white": 0}
    # the engine agrees: none of black's thirteen closed cells is a legal placement
    index, names = ring.grid.index, ring.grid.names
    closed = {names[nb] for cell in RING_ROUND_G7 for nb in ring.grid.neighbours[index(cell)]}
    closed -= set(RING_ROUND_G7)
    assert len(closed) == 13 and not closed & set(ring.legal_moves())
    # a mixed ring is nobody's loop: it closes nothing
    mixed = dict.fromkeys(RING_ROUND_G7, "black") | {"g8": "white"}
    mixed_ring = game.position(stones=mixed, to_move="black")
    assert heuristics.lublache_closed_cells(mixed_ring) == {"black": 0, "white": 0}


def test_lublache_values_the_cells_a_loop_closes() -> None:
    # one loop each, but black's stands alone in the middle and closes 13 cells while
    # white's sits in a corner of the board, where it closes fewer: black is ahead
    game = get_game("lublache")
    stones = dict.fromkeys(RING_ROUND_G7, "black")
    grid = hex_grid(7)
    # the ring round b2, a cell next to the corner a1, lies partly on the board's edge
    white_ring = [grid.names[nb] for nb in grid.neighbours[grid.index("b2")]]
    assert len(white_ring) == 6
    stones |= dict.fromkeys(white_ring, "white")
    state = game.position(stones=stones, to_move="white")
    assert state.score == {"black": 1, "white": 1}
    # white's ring round b2 has only 8 empty cells round it on the board (b2 included)
    assert heuristics.lublache_closed_cells(state) == {"black": 13, "white": 8}
    assert heuristics.lublache_evaluator(state, "black") == pytest.approx(
        1 / (1 + math.exp(-0.08 * (13 - 8)))
    )
    assert heuristics.lublache_evaluator(state, "white") == pytest.approx(
        1 - heuristics.lublache_evaluator(state, "black")
    )


def _exposure_by_the_rules(state: Any) -> dict[str, float]:
    """dalen_pressure's exposure, from the engine's own trees and legal placements."""
    game = get_game("dalen")
    trees = state.trees()
    legal = {
        colour: set(
            game.position(size=state.size, stones=state.stones, to_move=colour).legal_moves()
        )
        for colour in game.colors
    }
    near = {cell: set(state.grid.neighbours[state.grid.index(cell)]) for cell in state.stones}
    names = state.grid.names
    exposure = dict.fromkeys(game.colors, 0.0)
    for colour in game.colors:
        rooms: dict[int, list[int]] = {}
        for victim_index, victim in enumerate(trees):
            if victim.colour == colour:
                continue
            victim_cells = {state.grid.index(cell) for cell in victim.cells}
            for tree in trees:
                touches = any(near[cell] & victim_cells for cell in tree.cells)
                if tree.colour != colour or not touches or len(tree.leaves) < len(victim.leaves):
                    continue
                empty = {names[nb] for cell in tree.cells for nb in near[cell]} - set(state.stones)
                rooms.setdefault(victim_index, []).append(len(empty & legal[colour]))
        for victim_index, room in rooms.items():
            if min(room) > 0:
                exposure[colour] += len(trees[victim_index].cells) / (1 + min(room))
    return exposure


def test_dalen_exposure_is_what_the_rules_say_about_trees_that_may_stop_growing() -> None:
    # along seeded random games: an enemy tree touching one of a colour's growing trees with
    # at least its leaves counts its stones over 1 + the fewest growth cells of such a tree
    game = get_game("dalen")
    rng = random.Random(7)
    exposed = 0
    for _ in range(3):
        state = game.new(5)
        while state.outcome is None:
            threats, exposure = heuristics.dalen_pressure(state)
            assert threats == heuristics.dalen_threats(state)
            assert exposure == pytest.approx(_exposure_by_the_rules(state))
            exposed += sum(1 for value in exposure.values() if value > 0)
            state = state.play(rng.choice(state.legal_moves()))
    assert exposed > 10
