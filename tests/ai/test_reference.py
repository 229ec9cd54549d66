"""The ladder's reference player stays today's hard: frozen code, frozen answers."""

from __future__ import annotations

import ast
import random
from pathlib import Path

import pytest

from bench.reference import FROZEN_HARD, reference_games, reference_search, reference_settings
from engine import BOARD_GAMES, get_board_game

REFERENCE_DIR = Path(__file__).resolve().parents[2] / "bench" / "reference"

# The moves hard played in these positions at commit 15655db, when the reference was
# frozen (engine.ai.levels.search_move(state, "hard", seed=plies, scale=0.05) gave exactly
# these then). The reference must keep playing them whatever becomes of engine/ai/.
FROZEN_MOVES = {
    ("lefe", 0): "c2",
    ("lefe", 9): "f2xe1",
    ("lefe", 24): "d5xc7",
    ("dalen", 0): "c2",
    ("dalen", 9): "f3",
    ("dalen", 24): "a3",
    ("les", 0): "c2",
    ("les", 9): "b3+d8",
    ("les", 24): "e8",
    ("lublache", 0): "c2",
    ("lublache", 9): "f5",
    ("lublache", 24): "d4",
}


def test_the_reference_reads_nothing_of_the_levels_it_measures() -> None:
    # improving engine/ai/ (searches, evaluators, a spec's ai tuning) must not move it
    for path in REFERENCE_DIR.glob("*.py"):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if isinstance(node, ast.ImportFrom):
                assert node.module is not None
                assert not node.module.startswith("engine.ai"), (path.name, node.module)
            if isinstance(node, ast.Attribute):
                assert node.attr != "ai", f"{path.name} reads a spec's ai field"
            if isinstance(node, ast.Import):
                assert not any(alias.name.startswith("engine.ai") for alias in node.names)


def test_every_board_game_has_a_reference() -> None:
    assert set(reference_games()) == set(BOARD_GAMES)


@pytest.mark.parametrize(("game", "plies"), sorted(FROZEN_MOVES))
def test_the_reference_plays_the_moves_hard_played_when_it_was_frozen(
    game: str, plies: int
) -> None:
    rng = random.Random(f"reference {game}")
    state = get_board_game(game).new(5)
    for _ in range(plies):
        state = state.play(rng.choice(state.legal_moves()))
    # a generous clock: the budget ends the search, so the answer is exact under load
    result = reference_search(state, seed=plies, scale=0.05, time_limit=60)
    assert result.move == FROZEN_MOVES[(game, plies)]


def test_the_reference_keeps_hards_budgets_and_ceiling() -> None:
    lefe = reference_settings("lefe", moves=40)
    assert (lefe.time_limit, getattr(lefe, "max_depth", None)) == (4.5, 3)
    assert getattr(reference_settings("lefe", moves=16), "max_depth", None) == 10
    assert getattr(reference_settings("dalen"), "max_iterations", None) == 1000
    scaled = reference_settings("les", scale=0.1)
    assert getattr(scaled, "max_nodes", None) == 500 and scaled.time_limit == pytest.approx(0.45)
    assert FROZEN_HARD["lublache"].settings.draw_value == 0.4
    with pytest.raises(ValueError):
        reference_settings("les", scale=0)
