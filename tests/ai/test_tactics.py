"""The tactical guard and the solver: a proven win is played, a forced loss avoided when
avoidable, and the same seed gives the same move at every level."""

from __future__ import annotations

import dataclasses
import functools
import random
from pathlib import Path

import pytest

from bench import ladder
from engine import BOARD_GAMES, get_game
from engine.ai.alphabeta import AlphaBetaSearcher
from engine.ai.levels import LEVEL_NAMES, get_level, level_settings, search_move
from engine.ai.mcts import Searcher, uniform_random_move
from engine.ai.settings import AlphaBetaSettings, SearchSettings
from engine.ai.tactics import guarded_choice, loses_at_once, winning_move
from engine.board import BoardState
from tests.ai.toy_game import ThreeInRow, blue_threatens_three, lines_of, red_wins_in_one

GUARDED = [name for name in LEVEL_NAMES if get_level(name).guarded]


def _refuted(state: BoardState, move: str) -> bool:
    """``move`` hands the opponent a win in one (read by brute force, not by the guard)."""
    mover = state.to_move
    after = state.play(move)
    if after.outcome is not None:
        return after.outcome.winner not in (None, mover)
    return any(
        (reply_state := after.play(reply)).outcome is not None
        and reply_state.outcome.winner not in (None, mover)
        for reply in after.legal_moves()
    )


def _positions_with_a_win_in_one(game_name: str, count: int, seed: int) -> list[BoardState]:
    game = get_game(game_name)
    rng = random.Random(seed)
    found: list[BoardState] = []
    tries = 0
    while len(found) < count and tries < 400:
        tries += 1
        state = game.new(size=min(game.sizes))
        while state.outcome is None:
            if winning_move(state) is not None:
                found.append(state)
                break
            state = state.play(uniform_random_move(state, rng))
    return found


@functools.cache  # shared by two tests: each look at a position reads every reply
def _positions_with_a_refuted_move(game_name: str, count: int, seed: int) -> list[BoardState]:
    """Positions where at least half of the moves lose at once, and some do not."""
    game = get_game(game_name)
    rng = random.Random(seed)
    found: list[BoardState] = []
    tries = 0
    while len(found) < count and tries < 400:
        tries += 1
        state = game.new(size=min(game.sizes))
        while state.outcome is None and len(found) < count:
            moves = state.legal_moves()
            # (every third ply only, and narrow positions: each look reads every reply)
            if state.ply % 3 == 0 and 4 <= len(moves) <= 24 and winning_move(state) is None:
                refuted = [m for m in moves if _refuted(state, m)]
                if 2 * len(refuted) >= len(moves) and len(refuted) < len(moves):
                    found.append(state)
                    break
            state = state.play(rng.choice(moves))
    return found


def test_the_guard_plays_a_win_in_one_whatever_the_ranking() -> None:
    position, winning = red_wins_in_one()
    others = [m for m in position.legal_moves() if m != winning]
    assert guarded_choice(position, others) == winning
    assert winning_move(position) == winning


def test_the_guard_avoids_a_move_the_opponent_answers_with_a_win() -> None:
    position, block = blue_threatens_three()
    ranking = [m for m in position.legal_moves() if m != block] + [block]
    assert all(loses_at_once(position.play(m), "red") for m in ranking[:-1])
    assert not loses_at_once(position.play(block), "red")
    assert guarded_choice(position, ranking) == block


def test_the_guard_keeps_the_rankings_choice_when_every_move_loses() -> None:
    # Blue holds two open lines: whatever red does, blue completes one.
    game = ThreeInRow()
    grid = game.new().grid
    lines = lines_of(game.new())
    for first in lines:
        for second in lines:
            if set(first) & set(second) or grid.centre in first + second:
                continue
            stones = {grid.names[c]: "blue" for c in (first[0], first[1], second[0], second[1])}
            position = game.position(stones=stones, to_move="red")
            if position.outcome is None and winning_move(position) is None:
                ranking = position.legal_moves()
                assert all(_refuted(position, m) for m in ranking)
                assert guarded_choice(position, ranking) == ranking[0]
                return
    pytest.fail("no double threat found on the toy board")


# (Lublache has no win in one: a player who cannot place wins, on their own turn.)
@pytest.mark.parametrize("game_name", ["lefe", "dalen", "les"])
def test_every_guarded_level_plays_a_proven_win(game_name: str) -> None:
    positions = _positions_with_a_win_in_one(game_name, 2, seed=21)
    assert positions, "random games always end with a winning move somewhere"
    for state in positions:
        for level in GUARDED:
            move = search_move(state, level, seed=5, scale=0.02).move
            after = state.play(move)
            assert after.outcome is not None and after.outcome.winner == state.to_move, level


@pytest.mark.parametrize("game_name", ["dalen", "lublache", "lefe"])
def test_the_guard_avoids_a_loss_in_one_in_real_games(game_name: str) -> None:
    positions = _positions_with_a_refuted_move(game_name, 2, seed=33)
    assert len(positions) == 2, f"too few {game_name} positions with refuted moves"
    for state in positions:
        moves = state.legal_moves()
        worst_first = sorted(moves, key=lambda m: not _refuted(state, m))
        assert _refuted(state, worst_first[0])
        assert not _refuted(state, guarded_choice(state, worst_first))


@pytest.mark.parametrize("game_name", ["dalen", "lublache", "lefe"])
def test_every_guarded_level_avoids_a_loss_in_one_when_it_can(game_name: str) -> None:
    positions = _positions_with_a_refuted_move(game_name, 2, seed=33)
    # Nearly no search (scale 0.02: one iteration): where half the moves lose, the
    # unguarded lowest level walks into a loss somewhere; the guarded levels never do.
    blunders = [
        state
        for state in positions
        for seed in range(4)
        if _refuted(state, search_move(state, "beginner", seed=seed, scale=0.02).move)
    ]
    assert blunders, "the unguarded level should blunder in one of these positions"
    # The guard has its own clock (at least a quarter of a second on top of the level's):
    # on the processor's clock, so that a loaded machine cannot cut the guard's look
    # short (Dalen's hard walked into a loss in one at load 4 of the test suite's own
    # workers, wall clock, and never does on a quiet one)
    try:
        ladder.use_clock("cpu")
        for state in positions:
            for level in GUARDED:
                for seed in range(2):
                    move = search_move(state, level, seed=seed, scale=0.02).move
                    assert not _refuted(state, move), (level, move)
    finally:
        ladder.use_clock("wall")


@pytest.mark.parametrize("level", LEVEL_NAMES)
def test_the_same_seed_gives_the_same_move_at_every_level(level: str) -> None:
    for game_name in BOARD_GAMES:
        state = get_game(game_name).new(size=min(get_game(game_name).sizes))
        rng = random.Random(3)
        for _ in range(12):
            state = state.play(uniform_random_move(state, rng))
        # a generous clock, so that the budget ends both searches alike; the processor's
        # clock, so that a loaded machine (the search's share of a core) cannot end one
        # sooner than the other (master's Dalen took 3.4-4.7 s of wall time at load 24)
        try:
            ladder.use_clock("cpu")
            first = search_move(state, level, seed=77, scale=0.1, time_limit=5.0)
            second = search_move(state, level, seed=77, scale=0.1, time_limit=5.0)
        finally:
            ladder.use_clock("wall")
        assert first.move == second.move, (game_name, level)


def test_the_monte_carlo_solver_avoids_a_forced_loss() -> None:
    # Red to move must block: every other move loses to blue's reply, which the solver proves.
    position, block = blue_threatens_three()
    settings = SearchSettings(max_iterations=3000, time_limit=60.0, scan_depth=2)
    result = Searcher(settings).search(position, random.Random(2))
    assert result.move == block
    assert result.ranking[0] == block


def test_the_monte_carlo_solver_stops_once_the_root_is_proven() -> None:
    position, winning = red_wins_in_one()
    blocker_first = SearchSettings(max_iterations=5000, time_limit=60.0, scan_depth=0)
    result = Searcher(blocker_first).search(position, random.Random(1))
    assert result.move == winning
    assert result.iterations < 5000 and result.value == 1.0


def test_alphabeta_with_transpositions_finds_the_same_win_and_block() -> None:
    position, winning = red_wins_in_one()
    settings = AlphaBetaSettings(max_depth=4, max_nodes=50_000, time_limit=60.0)
    assert AlphaBetaSearcher(settings).search(position, random.Random(0)).move == winning
    threatened, block = blue_threatens_three()
    for table in (True, False):
        searcher = AlphaBetaSearcher(
            AlphaBetaSettings(max_depth=4, max_nodes=50_000, time_limit=60.0, transpositions=table)
        )
        result = searcher.search(threatened, random.Random(0))
        assert result.move == block and result.ranking[0] == block


def test_a_lost_dalen_end_is_played_by_the_averaging_search() -> None:
    # Ply 116 of the ladder's Dalen game 6 (normal against random, 2026-11-29): dark leads
    # 101-15 with 11 placements left, and every move loses against best play (light's
    # stagnant tree turns dark's one big tree). The end reading proves that; the move then
    # comes from normal's Monte Carlo search, which weighs how often a reply punishes it.
    state = get_game("dalen").from_json(
        (Path(__file__).parent / "data" / "dalen-lost-end.json").read_text(encoding="utf-8")
    )
    narrow = level_settings("normal", game="dalen", moves=len(state.legal_moves()))
    assert isinstance(narrow, AlphaBetaSettings)
    proof = AlphaBetaSearcher(dataclasses.replace(narrow, time_limit=60.0)).search(
        state, random.Random(1)
    )
    assert proof.value == 0.0  # proven lost
    result = search_move(state, "normal", seed=1, time_limit=5.0)
    assert result.visits and result.depth == 0  # a Monte Carlo answer
    assert result.move in state.legal_moves()
