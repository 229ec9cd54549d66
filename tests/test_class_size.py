"""No class in the product code grows past about 300 lines of code.

A class that long does several jobs; issue 17 split the match service into composed parts
for that reason, and this keeps every package that way. Lines of code are counted from the
syntax tree: the lines a class spans, less blank lines, comment lines and docstrings (the
explanations a class should have are never a reason to split it).
"""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PACKAGES = ("bot", "engine", "matchcore", "render", "i18n", "tutorial", "wording", "web")
MAX_LINES = 300


def _docstring_lines(tree: ast.AST) -> set[int]:
    lines: set[int] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Module | ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef):
            first = node.body[0] if node.body else None
            if (
                isinstance(first, ast.Expr)
                and isinstance(first.value, ast.Constant)
                and isinstance(first.value.value, str)
            ):
                lines.update(range(first.lineno, (first.end_lineno or first.lineno) + 1))
    return lines


def class_sizes(path: Path) -> list[tuple[str, int]]:
    """(class name, lines of code) of every class in a module, nested ones included."""
    source = path.read_text(encoding="utf-8")
    tree = ast.parse(source)
    docstrings = _docstring_lines(tree)
    text = source.splitlines()
    sizes = []
    for node in ast.walk(tree):
        if isinstance(node, ast.ClassDef):
            span = range(node.lineno, (node.end_lineno or node.lineno) + 1)
            code = [
                n
                for n in span
                if n not in docstrings
                and text[n - 1].strip()
                and not text[n - 1].strip().startswith("#")
            ]
            sizes.append((node.name, len(code)))
    return sizes


def all_class_sizes() -> dict[tuple[str, str], int]:
    found = {}
    for package in PACKAGES:
        for path in sorted((ROOT / package).rglob("*.py")):
            for name, size in class_sizes(path):
                found[(path.relative_to(ROOT).as_posix(), name)] = size
    return found


def test_no_class_is_longer_than_300_lines_of_code() -> None:
    sizes = all_class_sizes()
    assert len(sizes) > 100  # the walk found the product code
    too_long = {key: size for key, size in sizes.items() if size > MAX_LINES}
    assert not too_long, f"classes over {MAX_LINES} lines of code: {too_long}"


def test_the_match_service_parts_are_each_under_the_limit() -> None:
    sizes = all_class_sizes()
    service = {key: size for key, size in sizes.items() if key[0].startswith("matchcore/service/")}
    assert ("matchcore/service/service.py", "MatchService") in service
    assert max(service.values()) <= MAX_LINES


def test_the_count_leaves_out_docstrings_comments_and_blank_lines(tmp_path: Path) -> None:
    module = tmp_path / "example.py"
    module.write_text(
        'class A:\n    """Doc\n    string."""\n\n    # a comment\n    x = 1\n\n    def f(self):\n'
        '        """Doc."""\n        return 2\n',
        encoding="utf-8",
    )
    assert class_sizes(module) == [("A", 4)]  # class A, x = 1, def f, return 2
