"""A Babel extraction method for the engine's ``IllegalMove`` codes.

The engine never calls a translation function: it raises ``IllegalMove("cell_taken", ...)``
and keeps the English of every code in one table, ``engine.errors.ENGLISH``. This reads that
table (as source text, without importing the engine) and yields one message id per code,
``illegal.<code>``, a plural pair ``illegal.<code>`` / ``illegal.<code>.plural`` where the
English has two forms. ``i18n/babel.cfg`` maps ``engine/errors.py`` to it.
"""

from __future__ import annotations

import ast
from collections.abc import Collection, Iterator, Mapping
from typing import IO, Any

TABLE_NAME = "ENGLISH"


def engine_errors(
    fileobj: IO[bytes],
    keywords: Mapping[str, Any],
    comment_tags: Collection[str],
    options: Mapping[str, Any],
) -> Iterator[tuple[int, str, tuple[str | None, ...], list[str]]]:
    """Babel's extractor interface: (line, function, message id(s), comments) per code."""
    tree = ast.parse(fileobj.read())
    for node in ast.walk(tree):
        target = node.target if isinstance(node, ast.AnnAssign) else None
        if isinstance(node, ast.Assign) and len(node.targets) == 1:
            target = node.targets[0]
        if not (isinstance(target, ast.Name) and target.id == TABLE_NAME):
            continue
        value = node.value  # type: ignore[attr-defined]
        if not isinstance(value, ast.Dict):
            continue
        for key, english in zip(value.keys, value.values, strict=True):
            if key is None:
                continue
            code = ast.literal_eval(key)
            msgid = f"illegal.{code}"
            # shaped like the calls that will look them up (the language comes first)
            if isinstance(ast.literal_eval(english), tuple):
                yield key.lineno, "translate_plural", (None, msgid, f"{msgid}.plural"), []
            else:
                yield key.lineno, "translate", (None, msgid), []
