"""A Babel extraction method for the engine's codes (refusals, why a game ended).

The engine never calls a translation function: it raises ``IllegalMove("cell_taken", ...)``
or ends a game with ``Outcome.because(winner, "lefe_win_stuck", ...)`` and keeps the English
of every code in a table (``engine.errors.ENGLISH``, ``engine.reasons.REASONS``). This reads
such a table (as source text, without importing the engine) and yields one message id per
code, ``<prefix><code>``, or a plural pair ``<prefix><code>`` / ``<prefix><code>.plural``
where the English has two forms. ``i18n/babel.cfg`` maps each table's file to it, with the
options ``table`` (the table's name) and ``prefix``.
"""

from __future__ import annotations

import ast
from collections.abc import Collection, Iterator, Mapping
from typing import IO, Any

# the table and prefix when babel.cfg gives none: the engine's refusals
DEFAULT_TABLE = "ENGLISH"
DEFAULT_PREFIX = "illegal."


def engine_table(
    fileobj: IO[bytes],
    keywords: Mapping[str, Any],
    comment_tags: Collection[str],
    options: Mapping[str, Any],
) -> Iterator[tuple[int, str, tuple[str | None, ...], list[str]]]:
    """Babel's extractor interface: (line, function, message id(s), comments) per code."""
    table = options.get("table", DEFAULT_TABLE)
    prefix = options.get("prefix", DEFAULT_PREFIX)
    tree = ast.parse(fileobj.read())
    for node in ast.walk(tree):
        target = node.target if isinstance(node, ast.AnnAssign) else None
        if isinstance(node, ast.Assign) and len(node.targets) == 1:
            target = node.targets[0]
        if not (isinstance(target, ast.Name) and target.id == table):
            continue
        value = node.value  # type: ignore[attr-defined]
        if not isinstance(value, ast.Dict):
            continue
        for key, english in zip(value.keys, value.values, strict=True):
            if key is None:
                continue
            code = ast.literal_eval(key)
            msgid = f"{prefix}{code}"
            # shaped like the calls that will look them up (the language comes first)
            if isinstance(ast.literal_eval(english), tuple):
                yield key.lineno, "translate_plural", (None, msgid, f"{msgid}.plural"), []
            else:
                yield key.lineno, "translate", (None, msgid), []
