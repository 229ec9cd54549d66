"""Babel extraction methods for the engine's codes: refusals, reasons, phrases.

The engine never calls a translation function. It raises ``IllegalMove("cell_taken", ...)``
or ends a game with ``Outcome.because(winner, "lefe_win_stuck", ...)`` and keeps the English
of every such code in a table (``engine.errors.ENGLISH``, ``engine.reasons.REASONS``); and it
describes positions and moves with ``Text("les.setup.header", "Set-up: ...")`` messages
(``engine.phrases``). These methods read that source text (without importing the engine):

- :func:`engine_table` yields ``<prefix><code>`` for every code of a table (``i18n/babel.cfg``
  gives the options ``table`` and ``prefix``), a plural pair ``<id>`` / ``<id>.plural``
  where the English has two forms;
- :func:`engine_texts` yields the code of every ``Text(...)`` (a pair when it has a
  ``plural=`` English), and ``colour.<name>`` for every colour a game's spec names. A
  ``Text`` whose code is not written out is a mistake the catalogue tests catch.

:func:`texts_in_source` and :func:`table_in_source` give the English too, for the English
catalogue.
"""

from __future__ import annotations

import ast
from collections.abc import Collection, Iterator, Mapping
from typing import IO, Any

# the table and prefix when babel.cfg gives none: the engine's refusals
DEFAULT_TABLE = "ENGLISH"
DEFAULT_PREFIX = "illegal."


def table_in_source(source: str | bytes, table: str) -> dict[str, str | tuple[str, str]]:
    """The ``{code: English}`` table assigned to the name ``table`` in a module's source."""
    found: dict[str, str | tuple[str, str]] = {}
    for node in ast.walk(ast.parse(source)):
        target: ast.expr | None = None
        if isinstance(node, ast.AnnAssign):
            target = node.target
        elif isinstance(node, ast.Assign) and len(node.targets) == 1:
            target = node.targets[0]
        value = getattr(node, "value", None)
        if isinstance(target, ast.Name) and target.id == table and isinstance(value, ast.Dict):
            for key, english in zip(value.keys, value.values, strict=True):
                if key is not None:
                    found[ast.literal_eval(key)] = ast.literal_eval(english)
    return found


def texts_in_source(source: str | bytes) -> dict[str, str | tuple[str, str]]:
    """``{code: English}`` of every ``Text("code", "English"[, plural="..."])`` written out
    in a module's source (a pair where there is a plural), and ``colour.<name>`` for every
    colour a ``GameSpec(colours=(...))`` names (its English is the name itself)."""
    found: dict[str, str | tuple[str, str]] = {}
    for node in ast.walk(ast.parse(source)):
        if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Name)):
            continue
        if node.func.id == "GameSpec":
            found.update(_colours(node))
            continue
        if node.func.id != "Text" or len(node.args) < 2:
            continue
        try:
            code, english = ast.literal_eval(node.args[0]), ast.literal_eval(node.args[1])
        except ValueError:
            continue  # not written out: the catalogue tests name it
        plural = next((k.value for k in node.keywords if k.arg == "plural"), None)
        if plural is not None:
            found[code] = (english, ast.literal_eval(plural))
        else:
            found[code] = english
    return found


def _colours(spec: ast.Call) -> dict[str, str | tuple[str, str]]:
    """The colours a spec's ``colours=`` keyword names, as messages ``colour.<name>``."""
    found: dict[str, str | tuple[str, str]] = {}
    for keyword in spec.keywords:
        if keyword.arg == "colours" and isinstance(keyword.value, ast.Tuple):
            for element in keyword.value.elts:
                if isinstance(element, ast.Constant) and isinstance(element.value, str):
                    found[f"colour.{element.value}"] = element.value
    return found


def _messages(
    table: dict[str, str | tuple[str, str]], prefix: str
) -> Iterator[tuple[int, str, tuple[str | None, ...], list[str]]]:
    # shaped like the calls that will look them up (the language comes first); no line
    # numbers: the catalogues name only the file
    for code, english in table.items():
        msgid = f"{prefix}{code}"
        if isinstance(english, tuple):
            yield 0, "translate_plural", (None, msgid, f"{msgid}.plural"), []
        else:
            yield 0, "translate", (None, msgid), []


def engine_texts(
    fileobj: IO[bytes],
    keywords: Mapping[str, Any],
    comment_tags: Collection[str],
    options: Mapping[str, Any],
) -> Iterator[tuple[int, str, tuple[str | None, ...], list[str]]]:
    """Babel's extractor interface for the ``Text`` messages of an engine module."""
    yield from _messages(texts_in_source(fileobj.read()), "")


def engine_table(
    fileobj: IO[bytes],
    keywords: Mapping[str, Any],
    comment_tags: Collection[str],
    options: Mapping[str, Any],
) -> Iterator[tuple[int, str, tuple[str | None, ...], list[str]]]:
    """Babel's extractor interface for a table of codes: one message (or pair) per code."""
    table = options.get("table", DEFAULT_TABLE)
    prefix = options.get("prefix", DEFAULT_PREFIX)
    yield from _messages(table_in_source(fileobj.read(), table), prefix)
