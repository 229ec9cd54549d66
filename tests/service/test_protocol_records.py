"""The service's protocol speaks in the core's own records, never in the storage's rows.

Every type a :class:`GameService` call takes or returns, and every field of those that are
dataclasses or TypedDicts, is the service's (``matchcore.service``), the core's
(``matchcore.records``), the engine's or a built-in: none is defined in
``matchcore.storage``, which maps its rows to the core's records. So the front ends read no
storage record either: only the Discord layer's start opens the database.
"""

from __future__ import annotations

import ast
import dataclasses
import importlib
import typing
from collections.abc import Iterator
from pathlib import Path

from matchcore.records import ActionRecord, DmFailure, MatchResult, MemberPreferences
from matchcore.service.protocol import GameService
from matchcore.storage.records import MatchRecord
from tests.test_import_graph import import_graph

ROOT = Path(__file__).resolve().parent.parent.parent
# the front ends' starts: they open the repository and hand it to the service
OPENS_THE_DATABASE = {"bot.app", "web.local"}
# not yet: the service's commit hook (MatchService.on_commit) hands its listener the match
# as stored, which the web table turns into a MatchInfo itself
COMMIT_LISTENERS = {"web.server"}
# the Discord layer's delivery wing keeps its own records over the storage's calls (its
# repository module, issue 33): it reads the outbox's matches as stored rows
RECORD_STORES = {"bot.delivery.records"}


def _types(hint: object, seen: set[object]) -> Iterator[type]:
    """Every class a type hint names, and those its dataclass or TypedDict fields name."""
    if isinstance(hint, list):  # a Callable's parameters
        for item in hint:
            yield from _types(item, seen)
        return
    if hint in seen:
        return
    seen.add(hint)
    for argument in typing.get_args(hint):
        yield from _types(argument, seen)
    origin = typing.get_origin(hint)
    if origin is not None:
        yield from _types(origin, seen)
        return
    if not isinstance(hint, type):
        return
    yield hint
    if dataclasses.is_dataclass(hint) or typing.is_typeddict(hint):
        for field_hint in typing.get_type_hints(hint).values():
            yield from _types(field_hint, seen)


def protocol_types() -> set[type]:
    seen: set[object] = set()
    found: set[type] = set()
    for name, member in vars(GameService).items():
        if name.startswith("_"):
            continue
        function = member.fget if isinstance(member, property) else member
        if not callable(function):
            continue
        for hint in typing.get_type_hints(function).values():
            found.update(_types(hint, seen))
    return found


def test_the_protocol_names_no_storage_record() -> None:
    types = protocol_types()
    assert {ActionRecord, MemberPreferences} <= types  # the walk reaches them
    # the delivery's bookkeeping (refused DMs among it) left the protocol (issue 33)
    assert DmFailure not in types
    assert MatchResult in types  # through MatchInfo.result
    from_storage = {t for t in types if t.__module__.startswith("matchcore.storage")}
    assert from_storage == set()


def test_a_storage_record_in_the_protocol_would_be_found() -> None:
    assert MatchRecord in set(_types(list[MatchRecord], set()))
    assert MatchRecord.__module__.startswith("matchcore.storage")


def _storage_classes_imported(path: Path) -> set[str]:
    """The classes of ``matchcore.storage`` a module imports by name (a constant, such as
    an outbox audience's name, or a function is no record)."""
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom) and (node.module or "").startswith("matchcore.storage"):
            module = importlib.import_module(node.module or "")
            found |= {a.name for a in node.names if isinstance(getattr(module, a.name), type)}
    return found


def test_the_front_ends_import_no_storage_record() -> None:
    reading = {}
    for package in ("bot", "web"):
        for path in sorted((ROOT / package).rglob("*.py")):
            module = ".".join(path.relative_to(ROOT).with_suffix("").parts)
            if module not in OPENS_THE_DATABASE | COMMIT_LISTENERS | RECORD_STORES:
                reading[module] = _storage_classes_imported(path)
    assert len(reading) > 50  # every module of both front ends was read
    assert {module: names for module, names in reading.items() if names} == {}


def test_the_protocol_module_imports_no_storage_module() -> None:
    graph = import_graph()
    assert "matchcore.service.protocol" in graph
    assert not any(
        name.startswith("matchcore.storage") for name in graph["matchcore.service.protocol"]
    )


def test_a_storage_record_imported_by_a_front_end_would_be_found() -> None:
    assert _storage_classes_imported(ROOT / "web" / "server.py") == {"MatchRecord"}
