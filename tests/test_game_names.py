"""The bot, the match core, the renderer, the tutorials and the catalogues' code never
decide by a game's name: they read the game's spec.

What a game is lives in its :class:`engine.spec.GameSpec`, registered once; a sixth game
(tests/sixth_game) needs nothing else. This scans the product code of ``bot/``,
``matchcore/``, ``render/``, ``tutorial/`` and ``i18n/`` (but a game's own tutorial
module, which its spec names) for the built-in games' names written as a literal where
they can decide anything: compared (``==``, ``!=``, ``in``), looked up
(``get_spec("leiff")``, ``TABLE["lefe"]``), matched in a ``case``, held in a set, tuple or
list (``frozenset({"lublache"})``: one name is enough), or a key of a dict
(``{"lefe": ...}``, ``dict(lefe=...)``). The registrations in ``engine/`` are the one
place a game's name is written; an engine word spelled like a game (Leiff's action
"leiff") is named by the engine's constant
(``engine.leiff.CALL_LEIFF``).
"""

from __future__ import annotations

import ast
from pathlib import Path

from engine import specs

ROOT = Path(__file__).resolve().parent.parent
SCANNED = ("bot", "matchcore", "render", "tutorial", "i18n")
# where a name is written on purpose, and why (a path from the root: the reason)
CHOSEN = {
    "tutorial/docs.py": "the README's pictures show a Lefe game and a Leiff hand, as it says",
}
NAMES = {"lefe", "dalen", "les", "lublache", "leiff"}
LOOKUPS = {"get_game", "get_spec", "get_board_game", "get_tutorial"}
COLLECTIONS = {ast.Set: "a set", ast.Tuple: "a tuple", ast.List: "a list"}


def _name_of(node: ast.AST | None) -> str | None:
    """The game name a string literal spells, if it spells one."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return node.value if node.value.lower() in NAMES else None
    return None


def uses_of_game_names(source: str) -> list[tuple[int, str]]:
    """(line, what) for every place a game's name is written where it can decide something."""
    found = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Compare):
            for operand in [node.left, *node.comparators]:
                if name := _name_of(operand):
                    found.append((node.lineno, f"compares {name!r}"))
        elif isinstance(node, ast.Set | ast.Tuple | ast.List):
            names = [name for element in node.elts if (name := _name_of(element))]
            if names:
                found.append((node.lineno, f"{COLLECTIONS[type(node)]} holding {names}"))
        elif isinstance(node, ast.Dict):
            keys = [name for key in node.keys if (name := _name_of(key))]
            if keys:
                found.append((node.lineno, f"a dict keyed by {keys}"))
        elif isinstance(node, ast.Subscript):
            if name := _name_of(node.slice):
                found.append((node.lineno, f"looks up {name!r}"))
        elif isinstance(node, ast.Call) and isinstance(node.func, ast.Name | ast.Attribute):
            called = node.func.id if isinstance(node.func, ast.Name) else node.func.attr
            if called in LOOKUPS and node.args and (name := _name_of(node.args[0])):
                found.append((node.lineno, f"looks up {name!r}"))
            if called == "dict":
                keys = [k.arg for k in node.keywords if k.arg and k.arg.lower() in NAMES]
                if keys:
                    found.append((node.lineno, f"a dict keyed by {keys}"))
        elif isinstance(node, ast.match_case):
            found += [(node.pattern.lineno, f"matches {n!r}") for n in _pattern_names(node)]
    return found


def _pattern_names(case: ast.match_case) -> list[str]:
    return [
        node.value.value
        for node in ast.walk(case.pattern)
        if isinstance(node, ast.MatchValue)
        and isinstance(node.value, ast.Constant)
        and str(node.value.value).lower() in NAMES
    ]


def games_own_modules() -> set[Path]:
    """The modules a registered game's spec names as its own (its tutorial's pages)."""
    return {ROOT / f"{spec.tutorial.replace('.', '/')}.py" for spec in specs() if spec.tutorial}


def test_the_bot_the_renderer_and_the_tutorials_never_decide_by_a_game_s_name() -> None:
    scanned = 0
    problems = []
    own = games_own_modules()
    assert len(own) == 5 and all(path.is_file() for path in own)
    for package in SCANNED:
        for path in sorted((ROOT / package).rglob("*.py")):
            if path in own or str(path.relative_to(ROOT)) in CHOSEN:
                continue
            scanned += 1
            for line, what in uses_of_game_names(path.read_text(encoding="utf-8")):
                problems.append(f"{path.relative_to(ROOT)}:{line}: {what}")
    assert scanned > 50
    assert not problems, "\n".join(problems)


def test_the_scan_finds_each_way_of_deciding_by_name() -> None:
    source = """
if game == "lefe": pass
if "Dalen" != title: pass
spec = get_spec("leiff")
match game:
    case "lublache": pass
ENGINE_IN_THREAD = frozenset({"lublache"})
SLOW = ("les",)
if record.game in ["lefe", "dalen"]: pass
COLOURS = {"lefe": 1}
LABELS = dict(leiff="call Leiff")
colour = COLOURS["dalen"]
verbs = ("draw", "take", CALL_LEIFF)  # the engine's constant: not a literal name
name = "lefe"  # a name alone decides nothing (a test fixture, a docstring)
print("lefe and dalen")
"""
    found = sorted(uses_of_game_names(source))
    assert found == sorted(
        [
            (2, "compares 'lefe'"),
            (3, "compares 'Dalen'"),
            (4, "looks up 'leiff'"),
            (6, "matches 'lublache'"),
            (7, "a set holding ['lublache']"),
            (8, "a tuple holding ['les']"),
            (9, "a list holding ['lefe', 'dalen']"),
            (10, "a dict keyed by ['lefe']"),
            (11, "a dict keyed by ['leiff']"),
            (12, "looks up 'dalen'"),
        ]
    )


def test_the_scan_would_have_found_the_service_s_set_of_slow_games() -> None:
    # what matchcore/service/board_matches.py held before the spec said which moves are slow
    source = (
        'ENGINE_IN_THREAD = frozenset({"lublache"})\nif record.game in ENGINE_IN_THREAD: pass\n'
    )
    assert uses_of_game_names(source) == [(1, "a set holding ['lublache']")]
