"""Why a game ended is a code with parameters too; ``reason`` stays the English sentence."""

from __future__ import annotations

import ast
import random
from pathlib import Path

import pytest

from engine import BOARD_GAMES, get_game
from engine.board import Outcome
from engine.leiff import random_action
from engine.reasons import REASONS, reason

ENGINE_DIR = Path(__file__).resolve().parents[2] / "engine"


def _engine_sources() -> dict[Path, ast.Module]:
    return {
        path: ast.parse(path.read_text(encoding="utf-8"))
        for path in sorted(ENGINE_DIR.rglob("*.py"))
        if path.name != "reasons.py"
    }


def test_every_game_ends_through_a_code() -> None:
    """No ``Outcome(...)`` is built with a sentence: games call ``Outcome.because``."""
    for path, tree in _engine_sources().items():
        for node in ast.walk(tree):
            if (
                isinstance(node, ast.Call)
                and isinstance(node.func, ast.Name)
                and node.func.id == "Outcome"
            ):
                # only the classes rebuild outcomes from stored data (cls(...) / from_dict)
                pytest.fail(f"{path.relative_to(ENGINE_DIR.parent)}:{node.lineno} builds a reason")


def test_every_reason_code_is_used_by_a_game() -> None:
    named = {
        node.value
        for tree in _engine_sources().values()
        for node in ast.walk(tree)
        if isinstance(node, ast.Constant) and isinstance(node.value, str)
    }
    assert set(REASONS) <= named


def test_reason_is_the_english_sentence_of_the_code() -> None:
    outcome = Outcome.because("dark", "dalen_wiped_out", colour="dark", loser_colour="light")
    assert outcome.reason == "dark wins: light has no stones left"
    assert outcome.code == "dalen_wiped_out"
    assert outcome.to_dict() == {
        "winner": "dark",
        "reason": "dark wins: light has no stones left",
        "code": "dalen_wiped_out",
        "params": {"colour": "dark", "loser_colour": "light"},
    }
    assert Outcome.from_dict(outcome.to_dict()).params == outcome.params
    with pytest.raises(ValueError, match="unknown outcome code"):
        reason("dark wins", {})


def test_an_outcome_stored_before_codes_still_loads() -> None:
    old = Outcome.from_dict({"winner": None, "reason": "draw: both players passed"})
    assert (old.code, old.params, old.reason) == (None, {}, "draw: both players passed")


@pytest.mark.parametrize("name", BOARD_GAMES)
def test_finished_games_carry_their_code_through_serialisation(name: str) -> None:
    game = get_game(name)
    rng = random.Random(f"outcome {name}")
    for _ in range(3):
        state = game.new(size=game.sizes[0])
        while state.outcome is None:
            state = state.play(rng.choice(state.legal_moves()))
        outcome = state.outcome
        assert outcome.code in REASONS
        assert outcome.reason == reason(outcome.code, dict(outcome.params))
        copy = game.from_json(state.to_json()).outcome
        assert (copy.code, dict(copy.params), copy.reason) == (
            outcome.code,
            dict(outcome.params),
            outcome.reason,
        )


def test_a_finished_leiff_game_carries_its_code_into_views() -> None:
    rng = random.Random("leiff outcome")
    options = {"target": 50, "specials": False, "drinking": False, "water": False, "teams": False}
    state = get_game("leiff").new(players=3, seed=9, options=options)
    while state.actors():
        seat, action = random_action(state, rng)
        state = state.play(seat, action)
    outcome = state.view(None)["outcome"]
    assert outcome["code"] == "leiff_target_reached"
    assert outcome["params"]["target"] == 50
    assert outcome["reason"] == reason("leiff_target_reached", outcome["params"])
    restored = get_game("leiff").from_json(state.to_json()).view(None)["outcome"]
    assert restored == outcome
