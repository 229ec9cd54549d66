"""Every picture of the pinned catalogue is pixel for pixel what it was when it was recorded.

The catalogue (:mod:`tests.render.pinned_pictures`) covers every game: board pictures
through openings, captures, flips, loops, swaps, finished games, every theme and the phone
width, and Leiff tables and hands with and without the expansions.
"""

from __future__ import annotations

import PIL
import pytest

from tests.render.pinned_pictures import cases, load_pinned, pixel_hash

PINNED = load_pinned()
PICTURES: dict[str, str] = PINNED["pictures"]
CASES = dict(cases())


def test_the_catalogue_is_the_one_recorded() -> None:
    assert sorted(CASES) == sorted(PICTURES)


def test_the_pictures_were_recorded_with_this_pillow() -> None:
    # antialiasing may differ between Pillow releases: re-record on purpose after an upgrade
    assert PINNED["pillow"] == PIL.__version__


@pytest.mark.parametrize("name", sorted(CASES))
def test_picture_is_unchanged(name: str) -> None:
    assert pixel_hash(CASES[name]()) == PICTURES[name], (
        f"{name} changed; if that is intended, look at it and re-record "
        "(python -m tests.render.pinned_pictures --update)"
    )
