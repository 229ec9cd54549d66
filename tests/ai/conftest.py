"""Fixtures shared by the AI tests."""

from __future__ import annotations

from collections.abc import Iterator
from types import SimpleNamespace

import pytest

from engine.ai import alphabeta, endsolver, levels, mcts, tactics

# the modules whose searches read ``time.perf_counter()`` for their time limits
SEARCH_MODULES = (mcts, alphabeta, endsolver, tactics, levels)


@pytest.fixture
def stopped_clock(monkeypatch: pytest.MonkeyPatch) -> None:
    """The searches' clock stands still: only their budgets end them, so two searches
    compared move for move read exactly as far however busy the machine is."""
    still = SimpleNamespace(perf_counter=lambda: 0.0)
    for module in SEARCH_MODULES:
        monkeypatch.setattr(module, "time", still)


@pytest.fixture
def cpu_clock() -> Iterator[None]:
    """The searches count CPU seconds, as in the ladder's lines (restored afterwards)."""
    from bench import ladder

    ladder.use_clock("cpu")
    try:
        yield
    finally:
        ladder.use_clock("wall")
