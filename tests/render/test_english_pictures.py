"""English pictures stay pixel for pixel what they were before their words became data."""

from __future__ import annotations

from tests.render.english_pictures import current_fingerprints, pinned_fingerprints


def test_english_pictures_are_unchanged() -> None:
    pinned = pinned_fingerprints()
    current = current_fingerprints()
    assert sorted(current) == sorted(pinned), "the gallery itself changed"
    changed = sorted(name for name in pinned if current[name] != pinned[name])
    assert not changed, f"English pictures changed: {changed}"


def test_the_gallery_covers_every_kind_of_picture() -> None:
    names = set(pinned_fingerprints())
    for game in ("lefe", "dalen", "les", "lublache"):
        assert f"{game}-start" in names and f"{game}-over" in names
    assert any(name.startswith("leiff") and "-table-" in name for name in names)
    assert any(name.startswith("leiff") and "-hand-" in name for name in names)
