"""Random Lublache games: properties every position must have, whatever the moves."""

from __future__ import annotations

import itertools
import random

from hypothesis import given, settings
from hypothesis import strategies as st

from engine import IllegalMove, get_game
from engine.lublache import LublacheState


def play_random_game(size: int, seed: int) -> list[LublacheState]:
    """Every state of one random game, swap included when it comes up."""
    rng = random.Random(seed)
    state = get_game("lublache").new(size)
    states = [state]
    cap = 4 * state.grid.cell_count  # far beyond any game seen; a loop would trip it
    while state.outcome is None and len(states) <= cap:
        state = state.play(rng.choice(state.legal_moves()))
        states.append(state)
    return states


def check_turn_record(before: LublacheState, after: LublacheState) -> None:
    """The last-turn record agrees with the two boards."""
    turn = after.last_turn
    if turn.move == "swap":
        assert after.stones == before.stones
        return
    (placed,) = turn.placed
    mover = before.to_move
    assert turn.move == placed and turn.colour == mover
    assert before.stone_at(placed) is None and after.stone_at(placed) == mover
    for cell in turn.flipped:
        # a stone flipped in one closed loop may then be removed beside another
        assert before.stone_at(cell) not in (None, mover)
        assert after.stone_at(cell) == mover or cell in turn.removed
    for cell in turn.removed:
        assert after.stone_at(cell) is None
    assert len(after.stones) == len(before.stones) + 1 - len(turn.removed)
    every_stone = before.stones.keys() | after.stones.keys()
    changed = {c for c in every_stone if before.stones.get(c) != after.stones.get(c)}
    assert changed == {placed, *turn.flipped, *turn.removed}
    for loop in turn.loops:
        assert placed in loop


def check_moves_exactly(state: LublacheState, rng: random.Random, plays: int = 12) -> None:
    """Listed moves play (a sample of them: each successor works out its own moves);
    every other cell raises IllegalMove and changes nothing."""
    legal = state.legal_moves()
    assert len(legal) == len(set(legal))
    before = state.to_json()
    for move in rng.sample(legal, min(plays, len(legal))):
        after = state.play(move)
        assert after is not state and after.ply == state.ply + 1
    for name in state.grid.names:
        if name not in legal:
            try:
                state.play(name)
            except IllegalMove as error:
                assert str(error)
            else:
                raise AssertionError(f"{name} is not listed but plays")
    assert state.to_json() == before


def check_same_as_built_position(state: LublacheState) -> None:
    """The same stones given to position() have the same moves, loops and outcome."""
    # a finished game's player to move is its winner (the one left without a placement)
    to_move = state.to_move if state.outcome is None else state.outcome.winner
    built = get_game("lublache").position(state.size, state.stones, to_move)
    if state.outcome is None:
        assert sorted(built.legal_moves()) == sorted(m for m in state.legal_moves() if m != "swap")
    assert built.loops() == state.loops()
    assert built.score == state.score
    assert built.outcome == state.outcome


def check_game(states: list[LublacheState], rng: random.Random) -> None:
    final = states[-1]
    assert final.outcome is not None, "the game did not end"
    assert final.outcome.winner in ("black", "white")
    assert final.to_move is None and final.legal_moves() == []
    # the winner is the player who was to move and had no legal placement
    assert final.outcome.winner == final.game.colour_name(
        3 - final.game.colour_code(final.last_turn.colour)
    )

    for before, after in itertools.pairwise(states):
        check_turn_record(before, after)
        # the game goes on exactly while the player to move has a legal placement
        assert [m for m in before.legal_moves() if m != "swap"]
    for state in states:
        text = state.to_json()
        assert state.game.from_json(text).to_json() == text

    for state in rng.sample(states[:-1], min(3, len(states) - 1)):
        check_moves_exactly(state, rng)
    for state in rng.sample(states, min(6, len(states))):
        check_same_as_built_position(state)

    replayed = list(final.history())
    assert [s.to_json() for s in replayed] == [s.to_json() for s in states]


@settings(max_examples=25)
@given(seed=st.integers(0, 2**32 - 1))
def test_random_games_on_the_small_board(seed: int) -> None:
    check_game(play_random_game(5, seed), random.Random(seed))


@settings(max_examples=5)
@given(seed=st.integers(0, 2**32 - 1))
def test_random_games_on_the_default_board(seed: int) -> None:
    check_game(play_random_game(7, seed), random.Random(seed))


@settings(max_examples=15)
@given(seed=st.integers(0, 2**32 - 1), plies=st.integers(1, 60))
def test_position_reached_in_play_matches_the_same_stones_from_position(
    seed: int, plies: int
) -> None:
    states = play_random_game(7, seed) if plies > 40 else play_random_game(5, seed)
    state = states[min(plies, len(states) - 1)]
    check_same_as_built_position(state)
    rebuilt = state.game.from_json(state.to_json())
    assert rebuilt.legal_moves() == state.legal_moves()
    assert rebuilt.loops() == state.loops()
