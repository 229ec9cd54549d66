"""The optimised Lublache engine against the frozen pre-optimisation one, position by position.

Both engines play the same seeded random games (and positions built with ``position()``);
at every step they must agree on the legal moves (order included), the JSON, the outcome,
the score, the loops, the loops each move would close, and the exact ``IllegalMove``
reason for every cell that may not be played. Any divergence in the speed work shows up
here as a mismatch, with the game, the seed and the ply in the assertion message.
"""

from __future__ import annotations

import json
import random
from collections.abc import Iterator

from hypothesis import given, settings
from hypothesis import strategies as st

from engine import IllegalMove, loops
from engine.board import BoardState
from engine.hexgrid import hex_grid
from engine.lublache import Lublache
from tests.lublache.slow_reference.loops_v1 import LoopFinder as LoopFinderV1
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


# ---- the 9-board, cold: what a restarted bot or a fresh AI worker computes ---------------


class _NineLublache(Lublache):
    sizes = (9,)


class _NineLublacheV1(LublacheV1):
    sizes = (9,)


def _forget_shared_answers() -> None:
    """Drop the answers the live loop finder shares between positions, so that the next
    position is worked out from nothing (as after a restart)."""
    loops._shared_answers.clear()


def _nine_board_positions(seed: int, fractions: tuple[float, ...]) -> list[BoardState]:
    """The positions at the given fractions of one seeded random 9-board game."""
    rng = random.Random(seed)
    state = _NineLublache().new(9)
    states = [state]
    while state.outcome is None:
        state = state.play(rng.choice(state.legal_moves()))
        states.append(state)
    playing = [s for s in states if s.outcome is None]
    return [playing[int(fraction * (len(playing) - 1))] for fraction in fractions]


def test_cold_nine_board_positions_at_half_three_quarters_and_nine_tenths_match() -> None:
    """The positions the speed target is measured on (50, 75 and 90 % of random 9-board
    games), rebuilt from their stones with nothing remembered: the same moves and
    successors as the frozen engine."""
    fast_game, slow_game = _NineLublache(), _NineLublacheV1()
    for seed in range(2):
        for state in _nine_board_positions(9000 + seed, (0.5, 0.75, 0.9)):
            _forget_shared_answers()
            fast = fast_game.position(9, state.stones, state.to_move)
            slow = slow_game.position(9, state.stones, state.to_move)
            where = f"9-board seed {seed}, {len(state.stones)} stones"
            assert_same_position(fast, slow, where)
            for move in slow.legal_moves()[::7]:
                assert fast.play(move).to_json() == slow.play(move).to_json(), (where, move)


def test_loop_around_every_cell_of_crowded_random_boards_matches() -> None:
    """The construction itself, cell by cell, on random occupancies 55-95 % full (large
    enclosed empty areas and tangled walls included), from scratch and after one more
    stone: the same loop, or none, around every cell."""
    rng = random.Random(21)
    for _ in range(12):
        size = rng.choice((7, 9))
        count = len(hex_grid(size).names)
        occupied = bytearray(rng.random() < rng.uniform(0.55, 0.95) for _ in range(count))
        fast, slow = loops.LoopFinder(size, occupied), LoopFinderV1(size, occupied)
        assert [fast.around(c) for c in range(count)] == [slow.around(c) for c in range(count)]
        empty = [c for c in range(count) if not occupied[c]]
        for cell in rng.sample(empty, min(6, len(empty))):
            occupied[cell] = 1
            fast_after = fast.with_stone(cell)
            slow_after = LoopFinderV1(size, occupied)
            occupied[cell] = 0
            assert fast_after.all_loops() == slow_after.all_loops(), (size, cell)
            assert fast_after.loops_through_new_stone() == sorted(
                loop for loop in slow_after.all_loops() if cell in loop
            )


# ---- replays: a stored match read back, its positions played again without move lists ----


def _replayed(positions: Iterator[BoardState]) -> list[object]:
    """What a replay shows of each position (its JSON, outcome and loops), then the
    refusal that stopped it, if one did."""
    shown: list[object] = []
    try:
        for state in positions:
            loops_shown = [view.to_dict() for view in state.loops()]
            shown.append((state.to_json(), state.outcome, loops_shown))
    except IllegalMove as error:
        shown.append(("refused", error.code, dict(error.params)))
    return shown


def _random_record(game: Lublache | LublacheV1, size: int, seed: int) -> str:
    rng = random.Random(seed)
    state = game.new(size)
    while state.outcome is None:
        state = state.play(rng.choice(state.legal_moves()))
    return state.to_json()


def test_replays_match_the_frozen_engine_and_the_mould_position_by_position() -> None:
    """history() settles a position only when no move follows it, and plays each move with
    the finder that worked it out: every position is the frozen engine's, and the mould's
    own replay's, with nothing remembered between them."""
    for size, seed in ((5, 1), (6, 2), (7, 3), (7, 4)):
        text = _random_record(SLOW, size, 8000 + seed)
        _forget_shared_answers()
        fast = _replayed(FAST.from_json(text).history())
        _forget_shared_answers()
        mould = _replayed(BoardState.history(FAST.from_json(text)))
        slow = _replayed(SLOW.from_json(text).history())
        assert fast == slow == mould, (size, seed)
        assert fast[-1][1] is not None  # a whole game: the last position is over
    text = _random_record(_NineLublacheV1(), 9, 8009)
    _forget_shared_answers()
    fast = _replayed(_NineLublache().from_json(text).history())
    assert fast == _replayed(_NineLublacheV1().from_json(text).history())


def test_a_replay_of_a_broken_record_stops_where_the_mould_s_does() -> None:
    """A move after the end, or a refused move, in a record: the same positions, then the
    same refusal, as the mould's replay gives."""
    finished = json.loads(_random_record(SLOW, 5, 8100))
    after_the_end = dict(finished, moves=[*finished["moves"], "a1"])
    running = json.loads(_random_record(SLOW, 5, 8101))
    refused = dict(running, moves=[*running["moves"][:6], running["moves"][2]])  # taken cell
    for record in (after_the_end, refused):
        text = json.dumps(record)
        fast = _replayed(FAST.from_json(text).history())
        mould = _replayed(BoardState.history(FAST.from_json(text)))
        assert fast == mould == _replayed(SLOW.from_json(text).history())
        assert fast[-1][0] == "refused"


def test_chains_of_stones_added_and_taken_away_match_the_frozen_finder() -> None:
    """Finders made one from another (a stone added, stones taken away), each carrying the
    trails of the constructions over to the next, against the frozen finder from scratch,
    on crowded boards with nothing remembered between positions."""
    rng = random.Random(77)
    for _ in range(6):
        size = rng.choice((7, 9))
        count = len(hex_grid(size).names)
        occupied = bytearray(rng.random() < rng.uniform(0.45, 0.7) for _ in range(count))
        _forget_shared_answers()
        finder = loops.LoopFinder(size, occupied)
        for _ in range(25):
            empty = [c for c in range(count) if not occupied[c]]
            full = [c for c in range(count) if occupied[c]]
            if rng.random() < 0.75 and empty:
                cell = rng.choice(empty)
                occupied[cell] = 1
                finder = finder.with_stone(cell)
                through = finder.loops_through_new_stone()
                expected = LoopFinderV1(size, occupied).all_loops()
                assert through == sorted(loop for loop in expected if cell in loop)
            else:
                taken = rng.sample(full, min(len(full), rng.randint(1, 3)))
                for cell in taken:
                    occupied[cell] = 0
                finder = finder.without_stones(taken)
            assert finder.all_loops() == LoopFinderV1(size, occupied).all_loops(), size


def test_a_cell_next_to_an_owned_loop_is_told_alike_without_the_whole_set() -> None:
    """A move played without its move list asks whether its one cell touches a loop its
    player owns; every empty cell of crowded positions gets the answer of the whole set
    (the set the move list works out), for both colours."""
    fast_game = _NineLublache()
    refused = 0
    for seed in range(3):
        for state in _nine_board_positions(9100 + seed, (0.6, 0.8, 0.95)):
            for colour in (1, 2):
                lone = fast_game.position(9, state.stones, state.to_move)
                whole = fast_game.position(9, state.stones, state.to_move)
                lone._cache.pop(f"forbidden{colour}", None)
                forbidden = whole._forbidden_for(colour)
                for cell, code in enumerate(lone.cells):
                    if code == 0:
                        assert lone._next_to_owned_loop(cell, colour) == (cell in forbidden)
                refused += len(forbidden)
    assert refused > 0  # cells next to owned loops were among them


@settings(max_examples=10, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), size=st.sampled_from((5, 7, 9)))
def test_random_playout_replays_have_the_frozen_finder_s_loops(seed: int, size: int) -> None:
    """The whole-mask rounds of the construction (issue 31) on the replay's path: a random
    playout read back and replayed by history(), each position's finder made from the one
    before (a stone added, the removed stones taken away), has the frozen finder's loops
    at every position, and the same loop around every cell at some of them."""
    rng = random.Random(seed)
    game = _NineLublache() if size == 9 else FAST
    state = game.new(size)
    while state.outcome is None and len(state.moves) < 120:
        state = state.play(rng.choice(state.legal_moves()))
    _forget_shared_answers()
    for position in game.from_json(state.to_json()).history():
        occupied = bytes(position.cells)
        finder = position._finder()  # type: ignore[attr-defined]
        slow = LoopFinderV1(size, occupied)
        assert finder.all_loops() == slow.all_loops(), (seed, len(position.moves))
        if rng.random() < 0.2:
            cells = range(len(occupied))
            assert [finder.around(c) for c in cells] == [slow.around(c) for c in cells]
