"""Engine refusals are codes with parameters; str() stays a readable English sentence.

The list of codes is read from the engine itself: its table ``engine.errors.ENGLISH`` and,
independently, every ``IllegalMove(...)`` call in the engine's source.
"""

from __future__ import annotations

import ast
import pickle
import random
from pathlib import Path

import pytest

from engine import BOARD_GAMES, IllegalMove, get_game
from engine.errors import ENGLISH
from engine.leiff import random_action

ENGINE_DIR = Path(__file__).resolve().parents[2] / "engine"


def _illegal_move_calls() -> list[tuple[str, int, ast.Call]]:
    calls = []
    for path in sorted(ENGINE_DIR.rglob("*.py")):
        if path.name == "errors.py" and path.parent == ENGINE_DIR:
            continue  # the class itself (its unpickling helper passes a code through)
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if (
                isinstance(node, ast.Call)
                and isinstance(node.func, ast.Name)
                and node.func.id == "IllegalMove"
            ):
                calls.append((str(path.relative_to(ENGINE_DIR.parent)), node.lineno, node))
    return calls


def raised_codes() -> set[str]:
    """Every code a raise site in the engine names (literal first arguments)."""
    return {
        call.args[0].value
        for _, _, call in _illegal_move_calls()
        if call.args and isinstance(call.args[0], ast.Constant)
    }


def test_every_illegal_move_in_the_engine_names_a_known_code() -> None:
    calls = _illegal_move_calls()
    assert len(calls) > 40
    for where, line, call in calls:
        first = call.args[0] if call.args else None
        if isinstance(first, ast.Attribute) and first.attr == "code":
            continue  # re-raising a cached refusal: IllegalMove(turn.code, **turn.params)
        assert isinstance(first, ast.Constant), f"{where}:{line} builds its code at run time"
        assert first.value in ENGLISH, f"{where}:{line}: unknown code {first.value!r}"


def test_every_code_in_the_table_is_raised_somewhere() -> None:
    assert set(ENGLISH) == raised_codes()


def test_str_is_the_english_sentence_and_the_code_and_params_are_kept() -> None:
    error = IllegalMove("cell_taken", cell="f6")
    assert str(error) == "f6 is taken"
    assert error.code == "cell_taken"
    assert error.params == {"cell": "f6"}
    assert isinstance(error, ValueError)


def test_english_plural_is_chosen_by_count() -> None:
    assert str(IllegalMove("leiff_no_own_slot", slot=5, count=1)) == (
        "your hand has no slot 5 (it has 1 card)"
    )
    assert str(IllegalMove("leiff_no_own_slot", slot=5, count=3)) == (
        "your hand has no slot 5 (it has 3 cards)"
    )


def test_a_list_parameter_reads_a_or_b() -> None:
    error = IllegalMove("lefe_capture_due", cell="c3", choices=("c3xd4", "c3xe5"))
    assert str(error).endswith("play c3xd4 or c3xe5")


def test_an_unknown_code_is_a_programming_error() -> None:
    with pytest.raises(ValueError, match="unknown IllegalMove code"):
        IllegalMove("f6 is taken")


def test_an_illegal_move_survives_pickling() -> None:
    error = IllegalMove("lublache_enemy_loop", cell="h8", colour="white")
    copy = pickle.loads(pickle.dumps(error))
    assert (copy.code, copy.params, str(copy)) == (error.code, error.params, str(error))


def _refusals_in_random_board_games() -> list[IllegalMove]:
    refusals: list[IllegalMove] = []
    for name in BOARD_GAMES:
        game = get_game(name)
        rng = random.Random(name)
        state = game.new(size=game.sizes[0])
        for _ in range(40):
            if state.outcome is not None:
                break
            cells = [*state.grid.names, "zz9", "", "swap", "pass", "e5xg6", "a1+b2"]
            for attempt in rng.sample(cells, 12):
                try:
                    state.play(attempt)
                except IllegalMove as error:
                    refusals.append(error)
            try:
                state.play_as(1 - (state.seat_to_move or 0), state.legal_moves()[0])
            except IllegalMove as error:
                refusals.append(error)
            state = state.play(rng.choice(state.legal_moves()))
    return refusals


def _refusals_in_random_leiff_games() -> list[IllegalMove]:
    refusals: list[IllegalMove] = []
    rng = random.Random("leiff refusals")
    options = {"target": 50, "specials": True, "drinking": True, "water": False, "teams": True}
    state = get_game("leiff").new(players=4, seed=4, options=options)
    tries = ["draw", "take", "swap 9", "match 7", "catch 1.9", "catch 0.1", "penalty 2", "next"]
    tries += ["leiff", "rule", "rule " + "x" * 120, "dance", "peek 1.1", "decline", 5]
    for _ in range(150):
        if not state.actors():
            break
        for seat in range(state.players):
            for action in rng.sample(tries, 4):
                try:
                    state.play(seat, action)  # type: ignore[arg-type]
                except IllegalMove as error:
                    refusals.append(error)
        seat, action = random_action(state, rng)
        state = state.play(seat, action)
    return refusals


def test_refusals_in_play_carry_known_codes_and_plain_parameters() -> None:
    refusals = _refusals_in_random_board_games() + _refusals_in_random_leiff_games()
    codes = {error.code for error in refusals}
    assert len(codes) >= 20  # the sample reaches a good part of the table
    for error in refusals:
        assert error.code in ENGLISH
        assert str(error) and "{" not in str(error).replace("{p", "")
        for value in error.params.values():
            assert isinstance(value, str | int | tuple), (error.code, value)
