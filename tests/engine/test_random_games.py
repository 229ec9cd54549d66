"""Random-playout property tests for Lefe, Dalen and Les on every allowed board size.

Each example plays one seeded random game through the public surface, from the opening to
the end, and checks along the way that: the listed moves are exactly the ones a slow
reference implementation of the rules finds, and every one of them plays; every other cell
and a handful of junk strings raise IllegalMove without changing anything; each move does
to the board what the reference says; the JSON round-trip is exact; the game ends within a
bounded number of plies with the result the scoring rules give; ``history()`` replays it.

The reference is slow, so it is consulted on a sample of the positions of each game.
"""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine import IllegalMove, get_game
from engine.hexgrid import hex_grid
from tests.engine import reference as ref

CASES = [
    *(("lefe", size, {}) for size in (5, 6, 7)),
    *(("dalen", size, {}) for size in (5, 6, 7, 8, 9)),
    *(("dalen", size, {"variant": True}) for size in (5, 7, 9)),
    *(("les", size, {}) for size in (5, 6, 7, 8, 9)),
]
JUNK = ["", "   ", "zz9", "a0", "a99", "5e", "e5e5", "x", "e5+", "+e5", "e5xx", "swapp", "passs"]
# how many positions of each game go through the slow reference checks
REFERENCE_SAMPLES = 6


def _case_id(case: tuple[str, int, dict]) -> str:
    name, size, options = case
    return f"{name}-{size}" + ("-variant" if options else "")


def _expect_illegal(state, move: str) -> None:
    before = state.to_json()
    with pytest.raises(IllegalMove) as error:
        state.play(move)
    assert str(error.value), "an IllegalMove must tell the player what was wrong"
    assert state.to_json() == before


def _reference_moves(state) -> set[str]:
    """The legal moves of ``state`` according to the slow reference."""
    board, n, colour = ref.board_of(state), state.size, state.mover
    name = state.game.name
    extra_swap = {"swap"} if name != "les" and state.start is None and state.ply == 1 else set()
    if name == "lefe":
        return set(ref.lefe_moves(board, n, colour)) | extra_swap
    if name == "dalen":
        names = hex_grid(n).names
        cells = {names[c] for c in board if ref.dalen_can_place(board, n, c, colour)}
        return (cells or {"pass"}) | extra_swap
    return _reference_les_moves(state)


def _reference_les_moves(state) -> set[str]:
    board, n = ref.board_of(state), state.size
    grid = hex_grid(n)
    names = grid.names
    phase = state.extra.get("phase")
    if phase == "choose":
        return {"black", "white"}
    if phase != "setup":
        return ref.les_moves(board, n, state.mover)

    def two_steps(point: int) -> set[int]:
        ring1 = set(grid.neighbours[point])
        ring2 = {far for near in ring1 for far in grid.neighbours[near]}
        return ring2 - ring1 - {point}

    step = state.extra["step"]
    empty = {p for p, v in board.items() if v == 0}
    if step == 1:
        targets = empty
    elif step == 2:
        black = next(p for p, v in board.items() if v == 1)
        targets = set(grid.neighbours[black]) & empty
    elif step == 3:
        targets = {p for p in empty if two_steps(p) & empty}
    else:
        targets = two_steps(grid.index(state.extra["anchor"])) & empty
    return {names[p] for p in targets}


def _check_move_effect(state, move: str, after) -> None:
    """The board after ``move`` is the board the reference computes."""
    board, n, colour = ref.board_of(state), state.size, state.mover
    name = state.game.name
    if move in ("swap", "pass", "black", "white"):
        assert after.cells == state.cells
        return
    if name == "lefe":
        cell, captured = ref.lefe_moves(board, n, colour)[move]
        expected = dict(board)
        expected[cell] = colour
        for stone in captured:
            expected[stone] = 0
    elif name == "dalen":
        cell = hex_grid(n).index(move)
        expected = ref.dalen_after(board, n, cell, colour, bool(state.options.get("variant")))
    else:
        expected = dict(board)
        for part in move.split("+"):
            expected[hex_grid(n).index(part)] = colour
    assert ref.board_of(after) == expected, f"{move} did not do what the rules say"


def _check_all_inputs(state, legal: list[str]) -> None:
    """Every listed move plays; every other cell and junk string raises, changing nothing."""
    game = state.game
    names = state.grid.names
    for move in legal:
        played = state.play(move.upper() if len(move) % 2 else f"  {move} ")
        assert played.moves[-1] == move, "play() must record the canonical form"
    legal_set = set(legal)
    for cell in names:
        if cell not in legal_set:
            _expect_illegal(state, cell)
    for junk in JUNK:
        if junk.strip() not in legal_set:
            _expect_illegal(state, junk)
    if "swap" not in legal_set:
        _expect_illegal(state, "swap")
    if "pass" not in legal_set:
        _expect_illegal(state, "pass")
    if game.name == "lefe":
        for cell in names:
            expected = [m for m in legal if m == cell or m.startswith(f"{cell}x")]
            assert sorted(state.capture_choices(cell)) == sorted(expected)
    if game.name == "les" and state.extra.get("phase") == "play":
        rng = random.Random(state.ply)
        for _ in range(30):
            a, b = rng.choice(names), rng.choice(names)
            if f"{a}+{b}" not in legal_set and f"{b}+{a}" not in legal_set:
                _expect_illegal(state, f"{a}+{b}")


def _check_round_trip(state) -> None:
    text = state.to_json()
    again = state.game.from_json(text)
    assert again.to_json() == text
    assert sorted(again.legal_moves()) == sorted(state.legal_moves())
    assert again.to_move == state.to_move
    assert again.seat_to_move == state.seat_to_move
    assert again.score == state.score


def _check_result(final) -> None:
    """The outcome follows the end rule and the scoring, recomputed by the reference."""
    board, n = ref.board_of(final), final.size
    name = final.game.name
    outcome = final.outcome
    colours = final.game.colors
    if name == "lefe":
        stuck = [c for c in (1, 2) if not any(ref.lefe_can_place(board, n, x, c) for x in board)]
        assert stuck, "Lefe ends only when a player cannot place"
        dark, light = ref.lefe_result(board, n)
        expected = None if dark == light else colours[0] if dark > light else colours[1]
        assert final.score == {colours[0]: dark, colours[1]: light}
    elif name == "dalen":
        counts = [sum(1 for v in board.values() if v == c) for c in (1, 2)]
        if 0 in counts:
            expected = colours[counts.index(0) ^ 1]
        else:
            assert final.moves[-2:] == ("pass", "pass")
            expected = (
                None if counts[0] == counts[1] else colours[0 if counts[0] > counts[1] else 1]
            )
    else:
        previous_mover = 2 if final.last_turn.colour == colours[1] else 1
        stuck = 3 - previous_mover
        assert ref.les_moves(board, n, stuck) == set(), "Les ends when the mover cannot place"
        winner = ref.les_winner(board, n)
        expected = None if winner == 0 else colours[winner - 1]
    assert outcome.winner == expected, outcome.reason
    assert outcome.reason


def play_random_game(name: str, size: int, options: dict, seed: int) -> None:
    game = get_game(name)
    rng = random.Random(seed)
    state = game.new(size, **options)
    cells = hex_grid(size).cell_count
    max_plies = 4 * cells + 10  # captures can empty cells again; this bound is generous
    # positions whose every input is tried and checked against the reference
    sampled = set(rng.sample(range(cells), REFERENCE_SAMPLES)) | {0, 1, 2}
    while state.outcome is None:
        assert state.ply <= max_plies, "the game must end"
        legal = state.legal_moves()
        assert legal, "a running game always has a move"
        assert len(legal) == len(set(legal)), "no duplicate moves"
        assert state.to_move in game.colors and state.seat_to_move in (0, 1)
        check_here = state.ply in sampled
        if check_here:
            assert set(legal) == _reference_moves(state)
            _check_all_inputs(state, legal)
            _check_round_trip(state)
        move = rng.choice(legal)
        after = state.play(move)
        if check_here or name != "les":
            _check_move_effect(state, move, after)
        state = after
    assert state.legal_moves() == [] and state.to_move is None and state.seat_to_move is None
    _expect_illegal(state, state.grid.names[0])
    _check_result(state)
    _check_round_trip(state)
    replayed = list(state.history())
    assert replayed[-1].to_json() == state.to_json()
    assert len(replayed) == len(state.moves) + 1


@pytest.mark.parametrize("case", CASES, ids=_case_id)
@settings(max_examples=5)
@given(seed=st.integers(min_value=0, max_value=2**32 - 1))
def test_random_games_follow_the_rules(case: tuple[str, int, dict], seed: int) -> None:
    name, size, options = case
    play_random_game(name, size, options, seed)
