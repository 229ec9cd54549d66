"""Les master's quiet points: a first placement touching no claimed and no isolated point.

Such a point changes nothing but the count of moves left, of either colour, now or later,
so master reads one of them for all (``LesPosition.quiet_points``, ``one_quiet``,
``LesPairs(one_quiet=True)``, and the exact end reading through ``moves_one_by_one``).
These tests hold that a quiet stone changes no claim, hole or other point, that two quiet
stones leave positions of the same exact value, that the exact reading with one quiet
point for all finds the values of the reading of every move, that the ordering keeps
every other move and one quiet point, the same seed giving the same order, and that
master reads deeper for it in the middle game.
"""

from __future__ import annotations

import dataclasses
import random

import pytest

from engine.ai import endsolver
from engine.ai.alphabeta import AlphaBetaSearcher
from engine.ai.heuristics import LesPairs
from engine.ai.models.les import LesPosition
from engine.board import BoardState
from engine.les import SPEC
from engine.registry import get_board_game

GAME = get_board_game("les")


def _positions(size: int, seeds: range, every: int = 1) -> list[LesPosition]:
    """The positions of the ordinary turns of seeded random games, every ``every`` plies."""
    found = []
    for seed in seeds:
        rng = random.Random(seed)
        state: BoardState = GAME.new(size)
        while state.outcome is None:
            if state.extra.get("phase") == "play" and state.ply % every == 0:
                found.append(LesPosition.of(state))
            state = state.play(rng.choice(state.legal_moves()))
    return found


def _quiet_by_hand(model: LesPosition) -> set[str]:
    """Empty points whose every neighbour is a stone or an empty point touching both
    colours, themselves touching both colours: read from the engine's cells."""
    cells, neighbours, names = model.cells, model.grid.neighbours, model.names()

    def colours(point: int) -> int:
        bits = 0
        for nb in neighbours[point]:
            bits |= cells[nb]
        return bits

    return {
        names[point]
        for point, stone in enumerate(cells)
        if not stone
        and colours(point) == 3
        and all(cells[nb] or colours(nb) == 3 for nb in neighbours[point])
    }


def test_the_quiet_points_are_counted_from_the_cells() -> None:
    for model in _positions(7, range(4), every=3):
        names = model.names()
        assert {names[point] for point in model.quiet_points()} == _quiet_by_hand(model)


def test_a_quiet_stone_changes_no_claim_hole_or_other_point() -> None:
    seen = 0
    for model in _positions(7, range(6), every=2):
        for point in model.quiet_points():
            after = model.play(model.names()[point])
            assert after.holes_and_claims() == model.holes_and_claims()
            assert after.owned_holes() == model.owned_holes()
            # the other points touch the same colours as before (the ones next to it
            # touched both already)
            before_touch, after_touch = model._touch, after._touch
            assert all(
                before_touch[p] == after_touch[p] for p in range(len(before_touch)) if p != point
            )
            seen += 1
    assert seen > 100


# (seed, ply) of random games on the 5-board: ends with no isolated point and two or more
# quiet points, small enough to read exactly with every move (a loss, a draw, wins)
ENDS = [(0, 35), (2, 30), (9, 34), (20, 32), (34, 35), (41, 32), (49, 36), (55, 35)]


def _quiet_ends() -> list[LesPosition]:
    ends = []
    for seed, ply in ENDS:
        rng = random.Random(seed)
        state: BoardState = GAME.new(5)
        while state.ply < ply:
            state = state.play(rng.choice(state.legal_moves()))
        model = LesPosition.of(state)
        assert not model.isolated_points() and len(model.quiet_points()) >= 2
        ends.append(model)
    return ends


def _every_move(model: LesPosition) -> list[str]:
    return model.legal_moves()


def test_two_quiet_stones_leave_positions_of_the_same_exact_value(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # read without the shortcut under test: every move of every position
    monkeypatch.setattr(LesPosition, "moves_one_by_one", _every_move)
    compared = 0
    for model in _quiet_ends():
        names = model.names()
        values = set()
        for point in sorted(model.quiet_points()):
            after = model.play(names[point])
            if after.outcome is not None:
                values.add((after.outcome.winner, None))
                continue
            solved = endsolver.solve(after, max_nodes=100_000, time_limit=float("inf"))
            assert solved is not None
            values.add((after.to_move, max(solved[0].values())))
        assert len(values) == 1
        compared += 1
    assert compared == len(ENDS)


def test_the_exact_reading_with_one_quiet_point_finds_the_same_values(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    ends = _quiet_ends()
    reduced = []
    for model in ends:
        assert len(model.moves_one_by_one()) < len(model.legal_moves())
        solved = endsolver.solve(model, max_nodes=100_000, time_limit=float("inf"))
        assert solved is not None
        reduced.append(solved)
    monkeypatch.setattr(LesPosition, "moves_one_by_one", _every_move)
    for model, (values, read) in zip(ends, reduced, strict=True):
        full = endsolver.solve(model, max_nodes=100_000, time_limit=float("inf"))
        assert full is not None
        assert max(full[0].values()) == max(values.values())
        if max(values.values()) != endsolver.WIN:  # a win stops at the first one found
            assert full[0] == values
        assert read <= full[1]


def test_the_ordering_keeps_every_other_move_and_one_quiet_point() -> None:
    order = LesPairs(firsts=8, seconds=4, one_quiet=True)
    checked = 0
    for model in _positions(9, range(2), every=5):
        legal = model.legal_moves()
        if any("+" in move for move in legal):
            continue
        kept = order(model, legal, random.Random(3))
        quiet = {model.names()[point] for point in model.quiet_points()}
        assert set(kept) <= set(legal) and len(kept) == len(set(kept))
        assert set(legal) - quiet <= set(kept)
        assert len(set(kept) & quiet) == min(1, len(quiet))
        assert kept == order(model, legal, random.Random(3))  # the same seed, the same order
        # without the setting, every move is read
        assert sorted(LesPairs()(model, legal, random.Random(3))) == sorted(legal)
        checked += 1
    assert checked > 20


def test_the_pairs_keep_one_quiet_first_stone() -> None:
    order = LesPairs(firsts=8, seconds=4, one_quiet=True)
    checked = 0
    for model in _positions(9, range(3), every=4):
        legal = model.legal_moves()
        if not any("+" in move for move in legal):
            continue
        names = model.names()
        quiet = {names[point] for point in model.quiet_points()}
        kept = order(model, legal, random.Random(5))
        firsts = {move.partition("+")[0] for move in kept}
        assert len(firsts & quiet) <= 1
        assert set(kept) <= set(legal)
        checked += 1
    assert checked > 5


def test_master_reads_deeper_in_the_middle_game(stopped_clock: None) -> None:
    settings = SPEC.ai.levels["master"].settings
    assert settings is not None and isinstance(settings.orderer, LesPairs)
    assert settings.orderer.one_quiet
    budget = dataclasses.replace(settings, max_nodes=6_000)
    without = dataclasses.replace(budget, orderer=LesPairs(firsts=8, seconds=4))
    deeper = 0
    middle = [m for m in _positions(9, range(1), every=10) if 60 <= m.ply <= 130]
    assert len(middle) >= 6
    for model in middle:
        if model.isolated_points():
            continue
        now = AlphaBetaSearcher(budget).search(model, random.Random(7))
        before = AlphaBetaSearcher(without).search(model, random.Random(7))
        assert now.depth >= before.depth
        deeper += now.depth > before.depth
    assert deeper >= 3
