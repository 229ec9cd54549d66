"""The bot and the renderer never compare a game's name: they read the game's spec.

What a game is lives in its :class:`engine.spec.GameSpec`, registered once; a sixth game
(tests/sixth_game) needs nothing else. This scans the product code of ``bot/`` and
``render/`` for the built-in games' names used to decide anything: compared (``==``,
``!=``, ``in``), looked up by a literal (``get_spec("leiff")``), matched in a ``case``, or
used as the keys of a per-game table. The registrations in ``engine/`` are the one place a
game's name is written.
"""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SCANNED = ("bot", "render")
NAMES = {"lefe", "dalen", "les", "lublache", "leiff"}
LOOKUPS = {"get_game", "get_spec", "get_board_game", "get_tutorial"}


def _names_in(node: ast.AST) -> list[str]:
    """The game names a literal (or a set, tuple or list of literals) spells."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return [node.value] if node.value.lower() in NAMES else []
    if isinstance(node, ast.Set | ast.Tuple | ast.List):
        return [name for element in node.elts for name in _names_in(element)]
    if isinstance(node, ast.Call) and node.args:  # frozenset({...}), set((...))
        return _names_in(node.args[0])
    return []


def uses_of_game_names(source: str) -> list[tuple[int, str]]:
    """(line, what) for every place a game's name decides something."""
    found = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Compare):
            for operand in [node.left, *node.comparators]:
                found += [(node.lineno, f"compares {name!r}") for name in _names_in(operand)]
        elif isinstance(node, ast.Call) and isinstance(node.func, ast.Name | ast.Attribute):
            called = node.func.id if isinstance(node.func, ast.Name) else node.func.attr
            if called in LOOKUPS and node.args:
                found += [(node.lineno, f"looks up {n!r}") for n in _names_in(node.args[0])]
        elif isinstance(node, ast.match_case):
            found += [(node.pattern.lineno, f"matches {n!r}") for n in _pattern_names(node)]
        elif isinstance(node, ast.Dict):
            keys = [name for key in node.keys if key is not None for name in _names_in(key)]
            if len(keys) >= 2:  # a table keyed by game
                found.append((node.lineno, f"a table keyed by {sorted(keys)}"))
        elif isinstance(node, ast.Assign | ast.AnnAssign):
            value = node.value
            if value is not None and len(_names_in(value)) >= 2:  # a set of games
                found.append((node.lineno, f"a list of games {_names_in(value)}"))
    return found


def _pattern_names(case: ast.match_case) -> list[str]:
    return [
        node.value.value
        for node in ast.walk(case.pattern)
        if isinstance(node, ast.MatchValue)
        and isinstance(node.value, ast.Constant)
        and str(node.value.value).lower() in NAMES
    ]


def test_the_bot_and_the_renderer_never_decide_by_a_game_s_name() -> None:
    scanned = 0
    problems = []
    for package in SCANNED:
        for path in sorted((ROOT / package).rglob("*.py")):
            scanned += 1
            for line, what in uses_of_game_names(path.read_text(encoding="utf-8")):
                problems.append(f"{path.relative_to(ROOT)}:{line}: {what}")
    assert scanned > 50
    assert not problems, "\n".join(problems)


def test_the_scan_finds_each_way_of_deciding_by_name() -> None:
    source = """
if game == "lefe": pass
if record.game in {"lefe", "dalen"}: pass
DRAWABLE = frozenset({"les", "dalen"})
spec = get_spec("leiff")
COLOURS = {"lefe": 1, "dalen": 2}
match game:
    case "lublache": pass
label = {"leiff": "call Leiff"}  # an action of that name, one key: not a table of games
"""
    found = sorted(what for _, what in uses_of_game_names(source))
    assert found == sorted(
        [
            "compares 'lefe'",
            "compares 'lefe'",
            "compares 'dalen'",
            "a list of games ['les', 'dalen']",
            "looks up 'leiff'",
            "a table keyed by ['dalen', 'lefe']",
            "matches 'lublache'",
        ]
    )
