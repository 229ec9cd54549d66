"""The rules pages for players and the README's pictures are what the tutorials make now."""

from __future__ import annotations

import dataclasses
from pathlib import Path

import pytest

import tutorial
import tutorial.lefe
from tests.render.helpers import decode
from tutorial import game_pages, tutorial_games, tutorial_pages
from tutorial.boards import BoardExample
from tutorial.docs import PICTURES, README_PICTURES, RULES, expected_files, stale_files, write

ROOT = Path(__file__).resolve().parents[2]


def test_the_docs_are_current() -> None:
    assert stale_files() == [], "run: .venv/bin/python -m tutorial docs"


def test_every_game_has_its_rules_page_with_every_tutorial_page() -> None:
    for game in tutorial_games():
        text = (ROOT / RULES / f"{game}.md").read_text(encoding="utf-8")
        for page in tutorial_pages(game):
            assert f"## {page.number}. {page.title}" in text
            assert page.body in text
            assert f"](pictures/{page.filename})" in text
            assert (ROOT / PICTURES / page.filename).read_bytes() == page.picture()


def test_docs_pictures_stay_small() -> None:
    for path, data in expected_files().items():
        if path.suffix == ".png":
            assert len(data) < 60_000, path
            assert decode(data).width == 480, path


def test_the_readme_shows_its_pictures_and_the_first_commands() -> None:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    for path in expected_files():
        if path.parent == README_PICTURES:
            assert f"]({path.as_posix()})" in readme, path
    for command in ("`/play game:", "`/rules game:", "opponent:@Leafbot`"):
        assert command in readme


@pytest.fixture
def written(tmp_path: Path) -> Path:
    assert write(tmp_path)  # everything is new there
    assert stale_files(tmp_path) == []
    return tmp_path


def test_a_picture_changed_by_hand_is_stale(written: Path) -> None:
    picture = written / PICTURES / "lefe-03-placement.png"
    picture.write_bytes(picture.read_bytes()[:-1])
    (written / PICTURES / "old-page.png").write_bytes(b"")
    assert stale_files(written) == [PICTURES / "lefe-03-placement.png", PICTURES / "old-page.png"]
    write(written)
    assert stale_files(written) == []
    assert not (written / PICTURES / "old-page.png").exists()


def test_a_page_changed_without_regenerating_makes_the_docs_stale(
    written: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A page whose example draws something else (here: a close-up) leaves its picture and
    nothing else out of date."""
    pages = list(game_pages("lefe"))
    example = pages[2].example
    assert isinstance(example, BoardExample)
    pages[2] = dataclasses.replace(pages[2], example=dataclasses.replace(example, focus="c3 c4"))
    monkeypatch.setattr(tutorial.lefe, "PAGES", tuple(pages))
    tutorial._picture.cache_clear()
    try:
        assert stale_files(written) == [PICTURES / "lefe-03-placement.png"]
    finally:
        tutorial._picture.cache_clear()
