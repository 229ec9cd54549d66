"""Puzzles: found after a mistake, exactly one winning move, re-checked from scratch."""

from __future__ import annotations

import functools

from bench.mine_puzzles import RANDOM_BRANCH_BACK, mine, play_game, variation
from engine.ai.puzzles import Puzzle, Reader, answer_is_right, find_puzzle, mine_game, verify
from engine.board import BoardState


@functools.cache
def _lefe_game() -> tuple[BoardState, ...]:
    # random against beginner: a game no retuning of the searching levels moves (game 5,
    # beginner against easy, stopped holding a puzzle when easy's late game changed)
    positions, _ = play_game("lefe", 50, 6)
    return tuple(positions)


@functools.cache
def _mined() -> tuple[Puzzle, ...]:
    return tuple(mine_game(list(_lefe_game()), last_plies=16, source={"players": ["a", "b"]}))


def test_a_mined_puzzle_has_one_winning_move_after_a_mistake() -> None:
    puzzles = _mined()
    assert puzzles
    positions = _lefe_game()
    for puzzle in puzzles:
        assert verify(puzzle).ok
        index = int(puzzle.source["move"]) - 1
        state, before = positions[index], positions[index - 1]
        assert state.stones == dict(puzzle.stones) and state.to_move == puzzle.to_move
        # brute force, not the reader: exactly one move wins within the horizon
        reader = Reader()
        winners = [
            m
            for m in state.legal_moves()
            if reader.wins_within(state.play(m), puzzle.to_move, puzzle.horizon - 1)
        ]
        assert winners == [puzzle.first_move]
        # the opponent's move before it was a mistake: another move kept the win away
        assert any(
            not reader.wins_within(before.play(m), puzzle.to_move, puzzle.horizon)
            for m in before.legal_moves()
        )
        assert puzzle.source["players"] == ["a", "b"]


def test_the_solution_line_is_legal_and_ends_in_the_solvers_win() -> None:
    for puzzle in _mined():
        state = puzzle.position()
        for move in puzzle.solution:
            state = state.play(move)
        assert state.outcome is not None and state.outcome.winner == puzzle.to_move


def test_only_the_solution_is_accepted_as_an_answer() -> None:
    puzzle = _mined()[0]
    assert answer_is_right(puzzle, puzzle.first_move.upper())
    others = [m for m in puzzle.position().legal_moves() if m != puzzle.first_move]
    assert others and not any(answer_is_right(puzzle, m) for m in others)
    assert not answer_is_right(puzzle, "zz99")


def test_a_puzzle_travels_as_json() -> None:
    puzzle = _mined()[0]
    again = Puzzle.from_dict(puzzle.to_dict())
    assert again == puzzle
    assert again.rating == puzzle.rating


def test_a_position_with_no_win_is_no_puzzle() -> None:
    start = _lefe_game()[10]
    assert find_puzzle(start, _lefe_game()[9]) is None


def test_the_random_miner_finds_puzzles_each_verified_where_it_says() -> None:
    # Les on its 9-board, both sides random, lines of up to five plies (bench.mine_puzzles
    # --random --horizon 5): a game number seeds the game and its variations
    record = mine("les", 2005, 9, 20, at_random=True, horizon=5)
    puzzles = [Puzzle.from_dict(data) for data in record["puzzles"]]
    assert len(puzzles) >= 3
    game, _ = play_game("les", 2005, 9, at_random=True)
    for puzzle in puzzles:
        assert verify(puzzle).ok and puzzle.horizon == 5 and puzzle.size == 9
        assert puzzle.source["players"] == ["random", "random"]
        # the position is where the source says: the game (or its variation) replayed
        positions = game
        if "variation" in puzzle.source:
            positions, branch = variation(
                list(game), 2005, puzzle.source["variation"], RANDOM_BRANCH_BACK
            )
            assert branch == puzzle.source["branch"]
        state = positions[int(puzzle.source["move"]) - 1]
        assert state.stones == dict(puzzle.stones) and state.to_move == puzzle.to_move
    # more than one kind: the lines are not all of one length, nor the choices of one width
    assert len({(len(p.solution), p.moves) for p in puzzles}) > 1
