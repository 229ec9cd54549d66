"""Keeping catalogues current: an update adds new ids, drops stale ones, and marks a German
text fuzzy when the English it was translated from changes."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from i18n import tools
from i18n.catalogues import LOCALE_DIR, po_path, template_path


@pytest.fixture
def scratch(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A copy of the catalogues that update() writes to instead of the real ones."""
    copy = tmp_path / "locales"
    shutil.copytree(LOCALE_DIR, copy)

    def scratch_po(language: str) -> Path:
        return copy / po_path(language).relative_to(LOCALE_DIR)

    monkeypatch.setattr(tools, "po_path", scratch_po)
    monkeypatch.setattr(tools, "template_path", lambda: copy / template_path().name)
    return copy


def _german(msgid: str) -> object:
    catalogue = tools.read_catalogue("de")
    return next(m for m in catalogue if m.id == msgid)


def test_an_update_of_current_catalogues_changes_nothing(scratch: Path) -> None:
    before = {path: path.read_bytes() for path in scratch.rglob("*.po*")}
    tools.update()
    assert {path: path.read_bytes() for path in scratch.rglob("*.po*")} == before


def test_catalogues_written_by_another_babel_release_are_left_alone(scratch: Path) -> None:
    """The "Generated-By" line names the Babel that wrote the file: a newer Babel on a
    fresh machine is no change to the catalogues."""
    for path in scratch.rglob("*.po*"):
        text = path.read_bytes()
        assert b'"Generated-By: Babel ' in text
        path.write_bytes(text.replace(b'"Generated-By: Babel ', b'"Generated-By: Babel 0.'))
    before = {path: path.read_bytes() for path in scratch.rglob("*.po*")}
    tools.update()
    assert {path: path.read_bytes() for path in scratch.rglob("*.po*")} == before


def test_a_changed_english_text_marks_the_german_fuzzy(
    scratch: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    assert not _german("illegal.cell_taken").fuzzy
    tables = tools.engine_tables()
    tables["illegal."]["cell_taken"] = "{cell} already holds a stone"
    monkeypatch.setattr(tools, "engine_tables", lambda: tables)
    tools.update()
    message = _german("illegal.cell_taken")
    assert message.fuzzy
    assert message.auto_comments == ["English: {cell} already holds a stone"]
    assert any("illegal.cell_taken is marked fuzzy" in line for line in tools.problems())
