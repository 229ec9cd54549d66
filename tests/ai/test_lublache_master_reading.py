"""Lublache master's alpha-beta, bound by positions, reads as it did before a speed-up.

A change made only to read faster (the model, the loop finders, the searcher) must
leave what master reads unchanged: at a fixed budget, with the clock out of reach, the
same move, value, positions read, depth and ranking on recorded positions. The figures
below were read on the code of 9d0fcac (before issue 36's ninth round); a change that
means to play differently updates them and says why. With lazy legality (master's
setting since that round) the search tries other moves first, so it reads other
positions, but it finds the same moves and values wherever it completes a depth.
"""

from __future__ import annotations

import pytest

from bench.lublache_master_speed import run

# ply of bench.bench_lublache_model's recorded game -> move, value, positions, depth, the
# first five of the ranking (4,000 positions, master's 4 plies over 12 root moves)
RECORDED = {
    20: ("g5", 0.5, 4001, 3, ["g5", "d2", "f9", "j8", "h7"]),
    40: ("b4", 0.5, 4001, 3, ["b4", "l7", "k3", "c3", "c2"]),
    60: ("a2", 0.036263716, 4001, 3, ["a2", "l5", "a6", "h11", "c1"]),
    80: ("j10", 1.6e-08, 2892, 4, ["j10", "b5", "b7", "j9", "c9"]),
}


# with lazy legality, where the positions read differ (the rest as above)
LAZY_POSITIONS = {80: 2950}


@pytest.mark.parametrize("lazy", [False, True])
@pytest.mark.parametrize("ply", sorted(RECORDED))
def test_master_reads_the_recorded_positions_as_before(ply: int, lazy: bool) -> None:
    (row,) = run([ply], max_nodes=4_000, lazy=lazy)
    move, value, positions, depth, first = RECORDED[ply]
    if lazy:
        positions = LAZY_POSITIONS.get(ply, positions)
    assert row["move"] == move
    assert row["value"] == pytest.approx(value, abs=1e-9)
    assert row["positions"] == positions
    assert row["depth"] == depth
    assert row["ranking"][:5] == first  # type: ignore[index]
