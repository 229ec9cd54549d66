"""The optimised Lublache engine against the frozen pre-optimisation one, position by position.

Both engines play the same seeded random games (and positions built with ``position()``);
at every step they must agree on the legal moves (order included), the JSON, the outcome,
the score, the loops, the loops each move would close, and the exact ``IllegalMove``
reason for every cell that may not be played. Any divergence in the speed work shows up
here as a mismatch, with the game, the seed and the ply in the assertion message.
"""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from engine import IllegalMove
from engine.board import BoardState
from engine.lublache import Lublache
from tests.lublache.slow_reference.lublache_v1 import LublacheV1


class _AnySizeLublache(Lublache):
    """The live rules on the small boards too (sizes 4 and 6 are off the menu in play)."""

    sizes = (4, 5, 6, 7)


class _AnySizeLublacheV1(LublacheV1):
    sizes = (4, 5, 6, 7)


FAST, SLOW = _AnySizeLublache(), _AnySizeLublacheV1()


REFUSED = "IllegalMove: "


def _outcome_of_play(state: BoardState, move: str) -> str:
    """The successor's JSON, or the player-facing reason the move is refused."""
    try:
        return state.play(move).to_json()
    except IllegalMove as error:
        return f"{REFUSED}{error}"


def assert_same_position(fast: BoardState, slow: BoardState, where: str) -> None:
    """Everything a caller can read from a position is identical in both engines."""
    assert fast.to_json() == slow.to_json(), where
    assert fast.legal_moves() == slow.legal_moves(), where
    assert fast.outcome == slow.outcome, where
    assert fast.to_move == slow.to_move, where
    assert fast.score == slow.score, where
    assert fast.score_text() == slow.score_text(), where
    assert [view.to_dict() for view in fast.loops()] == [view.to_dict() for view in slow.loops()]
    assert [view.controller for view in fast.loops()] == [view.controller for view in slow.loops()]


def assert_same_refusals(fast: BoardState, slow: BoardState, where: str) -> None:
    """Every cell outside the move list is refused with the same reason (occupied cells,
    cells touching one's own loop, rule-4 self-captures), and every listed cell closes
    the same loops."""
    legal = set(slow.legal_moves())
    for name in fast.grid.names:
        if name in legal:
            assert fast.closed_loops(name) == slow.closed_loops(name), (where, name)
            continue
        fast_result = _outcome_of_play(fast, name)
        slow_result = _outcome_of_play(slow, name)
        assert fast_result.startswith(REFUSED), (where, name)
        assert fast_result == slow_result, (where, name)
        assert fast.closed_loops(name) == slow.closed_loops(name) == [], (where, name)


def play_both(size: int, seed: int, check_refusals_every: int = 1) -> int:
    """Play one seeded random game through both engines, comparing as it goes; the ply
    count reached."""
    rng = random.Random(seed)
    fast, slow = FAST.new(size), SLOW.new(size)
    ply = 0
    while True:
        where = f"size {size}, seed {seed}, ply {ply}"
        assert_same_position(fast, slow, where)
        if ply % check_refusals_every == 0:
            assert_same_refusals(fast, slow, where)
        if slow.outcome is not None:
            return ply
        move = rng.choice(slow.legal_moves())
        fast, slow = fast.play(move), slow.play(move)
        ply += 1


def test_random_games_on_small_boards_match_the_frozen_engine() -> None:
    for size in (4, 5, 6):
        for seed in range(4):
            assert play_both(size, 1000 * size + seed) > 0


def test_random_games_on_the_default_board_match_the_frozen_engine() -> None:
    for seed in range(3):
        assert play_both(7, 7000 + seed, check_refusals_every=3) > 0


def test_crowded_random_positions_match_after_every_move() -> None:
    """Random boards 50-85 % full, where flips, removals and rule-4 refusals abound: each
    legal move gives the same successor in both engines."""
    rng = random.Random(42)
    seen: set[str] = set()  # which rule paths the sample went through
    for round_number in range(16):
        size = rng.choice((5, 6, 7))
        names = list(FAST.new(size).grid.names)
        filled = rng.sample(names, int(len(names) * rng.uniform(0.5, 0.85)))
        stones = {name: rng.choice(("black", "white")) for name in filled}
        to_move = rng.choice(("black", "white"))
        fast = FAST.position(size, stones, to_move)
        slow = SLOW.position(size, stones, to_move)
        where = f"crowded round {round_number}"
        assert_same_position(fast, slow, where)
        assert_same_refusals(fast, slow, where)
        seen.update(_refusal_kinds(slow))
        legal = slow.legal_moves()
        for move in rng.sample(legal, min(10, len(legal))):
            fast_after, slow_after = fast.play(move), slow.play(move)
            if slow_after.last_turn.flipped:
                seen.add("flip")
            if slow_after.last_turn.removed:
                seen.add("removal")
            assert fast_after.to_json() == slow_after.to_json(), (where, move)
            assert fast_after.legal_moves() == slow_after.legal_moves(), (where, move)
            assert fast_after.outcome == slow_after.outcome, (where, move)
    assert seen >= {"flip", "removal", "own loop", "rule 4"}, seen


def _refusal_kinds(state: BoardState) -> set[str]:
    kinds = set()
    for name in set(state.grid.names) - set(state.legal_moves()):
        reason = _outcome_of_play(state, name)
        if "touches your own loop" in reason:
            kinds.add("own loop")
        elif "would end on a loop" in reason:
            kinds.add("rule 4")
    return kinds


def test_json_round_trip_positions_match() -> None:
    """A state rebuilt from JSON (no cached analysis) answers like the frozen engine."""
    rng = random.Random(5)
    fast, slow = FAST.new(7), SLOW.new(7)
    for _ in range(40):
        if slow.outcome is not None:
            break
        move = rng.choice(slow.legal_moves())
        fast, slow = fast.play(move), slow.play(move)
    text = fast.to_json()
    assert text == slow.to_json()
    assert_same_position(FAST.from_json(text), SLOW.from_json(text), "from_json")


def test_malformed_moves_are_refused_alike() -> None:
    fast, slow = FAST.new(5).play("e5"), SLOW.new(5).play("e5")
    for move in ("e5", "z9", "", "  ", "swap", "pass"):
        assert _outcome_of_play(fast, move) == _outcome_of_play(slow, move), move


@settings(max_examples=30)
@given(
    size=st.sampled_from((4, 5, 6, 7)),
    choices=st.lists(st.integers(min_value=0, max_value=10_000), min_size=20, max_size=90),
)
def test_hypothesis_move_sequences_match(size: int, choices: list[int]) -> None:
    fast, slow = FAST.new(size), SLOW.new(size)
    for ply, choice in enumerate(choices):
        where = f"size {size}, ply {ply}"
        assert_same_position(fast, slow, where)
        if slow.outcome is not None:
            break
        moves = slow.legal_moves()
        move = moves[choice % len(moves)]
        fast, slow = fast.play(move), slow.play(move)
    assert_same_refusals(fast, slow, "end of sequence")
