"""Leiff tables and hands drawn strip by strip are the RGB pictures' files.

:func:`render.table_png` and :func:`render.hand_png` keep each strip of a picture (header,
piles, a seat's block, the legend…) as palette indices and draw only the strips an earlier
picture did not have. They must give, byte for byte, ``png_bytes`` of
:func:`render_table` / :func:`render_hand`: on consecutive actions of random games (where
most strips come from earlier pictures), at every kind of width, in every theme and both
languages, with specials, drinking rules and teams. And the premise the strips rest on is
checked directly: a strip drawn alone paints nothing outside its rows.
"""

from __future__ import annotations

import random
from typing import Any

import pytest
from PIL import Image, ImageChops

from engine.leiff import Leiff, random_action
from render import hand_png, list_themes, png_bytes, render_hand, render_table, table_png
from render.bands import Band, bands_png
from render.leiff import hand_bands, leiff_palette, table_bands
from render.themes import get_theme

NAMES = ["Anna Lindqvist", "Борис 🐉", "", "a name far too long to fit on any phone", "Eve", "F"]


def _game(seed: int, players: int, options: dict[str, Any], actions: int) -> list[Any]:
    """The states of a seeded random game, from its start, at most ``actions`` long."""
    rng = random.Random(seed)
    state = Leiff().new(players=players, seed=seed, options=options)
    states = [state]
    while state.actors() and len(states) <= actions:
        seat, action = random_action(state, rng)
        state = state.play(seat, action)
        states.append(state)
    return states


GAMES = [
    (1, 6, {"specials": True, "drinking": True}),
    (2, 3, {"specials": True}),
    (3, 4, {"teams": True, "specials": True, "drinking": True}),
    (4, 2, {}),
    (5, 5, {"specials": True, "drinking": True, "water": True}),
]


@pytest.mark.parametrize(("seed", "players", "options"), GAMES)
def test_tables_and_hands_over_a_game_are_the_rgb_pictures_files(
    seed: int, players: int, options: dict[str, Any]
) -> None:
    names = NAMES[:players]
    compared = 0
    for width in (480, 360):
        for number, state in enumerate(_game(seed, players, options, actions=120)):
            table = state.view(None)
            expected = png_bytes(render_table(table, names=names, width=width))
            assert table_png(table, names=names, width=width) == expected, (width, number)
            seat = number % players
            hand = state.view(seat)
            expected = png_bytes(render_hand(hand, seat, names=names, width=width))
            assert hand_png(hand, seat, names=names, width=width) == expected, (width, number)
            compared += 1
    assert compared > 40


@pytest.mark.parametrize("theme", list_themes())
@pytest.mark.parametrize("language", ["en", "de"])
@pytest.mark.parametrize("width", [240, 517, 1600])
def test_every_theme_language_and_width(theme: str, language: str, width: int) -> None:
    states = _game(7, 4, {"specials": True, "drinking": True}, actions=60)[::6]
    for number, state in enumerate(states):
        kwargs: dict[str, Any] = {"names": NAMES[:4], "theme": theme, "width": width}
        table = state.view(None)
        expected = png_bytes(render_table(table, language=language, **kwargs))
        assert table_png(table, language=language, **kwargs) == expected, number
        hand = state.view(1)
        expected = png_bytes(render_hand(hand, 1, language=language, **kwargs))
        assert hand_png(hand, 1, language=language, **kwargs) == expected, number


def _painted_outside(band: Band, size: tuple[int, int], paper: tuple[int, int, int]) -> bool:
    """Whether ``band``, drawn alone on a blank picture, paints any row not its own."""
    blank = Image.new("RGB", size, paper)
    drawn = blank.copy()
    band.paint(drawn)
    changed = ImageChops.difference(blank, drawn).getbbox()
    if changed is None:
        return False
    _, top, _, bottom = changed
    return top < band.top or bottom > band.bottom


@pytest.mark.parametrize("width", [240, 360, 480, 1600])
def test_no_strip_paints_outside_its_rows(width: int) -> None:
    checked = 0
    every = 9 if width <= 480 else 30  # (a picture 1600 pixels wide is slow to compare)
    for seed, players, options in GAMES:
        for state in _game(seed, players, options, actions=90)[::every]:
            layout, bands = table_bands(state.view(None), NAMES, "classic", width, "en")
            paper = get_theme("classic").card("table")
            for band in bands:
                assert not _painted_outside(band, (width, layout.height), paper), band.draw
            for seat in range(players):
                hand_layout, hand = hand_bands(state.view(seat), seat, NAMES, "night", width, "de")
                paper = get_theme("night").card("table")
                for band in hand:
                    assert not _painted_outside(band, (width, hand_layout.height), paper), band.draw
            checked += 1
    assert checked > 40 if width <= 480 else checked > 10


def test_strips_that_do_not_cover_the_picture_are_refused() -> None:
    state = _game(1, 3, {}, actions=5)[-1]
    layout, bands = table_bands(state.view(None), NAMES, "classic", 480, "en")
    paper = get_theme("classic").card("table")
    palette = leiff_palette("classic", 480)
    with pytest.raises(ValueError, match="rows"):
        bands_png((480, layout.height + 1), paper, palette, bands, 3)
    with pytest.raises(ValueError, match="starts at row"):
        bands_png((480, layout.height), paper, palette, bands[1:], 3)


def test_the_strips_kept_stay_within_their_bytes(monkeypatch: pytest.MonkeyPatch) -> None:
    from render import bands

    monkeypatch.setattr(bands, "KEPT_BYTES", 200_000)  # a few strips at 480 px
    names = NAMES[:6]
    for state in _game(1, 6, {"specials": True}, actions=30)[::3]:
        table = state.view(None)
        expected = png_bytes(render_table(table, names=names))
        assert table_png(table, names=names) == expected
        assert bands._kept_bytes <= 200_000
        assert bands._kept_bytes == sum(
            tile.width * tile.height + len(piece.data) for tile, piece in bands._kept.values()
        )


def test_an_empty_strip_is_passed_over() -> None:
    state = _game(2, 3, {}, actions=4)[-1]
    layout, bands = table_bands(state.view(None), NAMES, "classic", 480, "en")
    paper = get_theme("classic").card("table")
    palette = leiff_palette("classic", 480)
    empty = Band(bands[1].top, bands[1].top, bands[1].draw, bands[1].args)
    with_empty = [bands[0], empty, *bands[1:]]
    size = (480, layout.height)
    assert bands_png(size, paper, palette, with_empty, 3) == bands_png(
        size, paper, palette, bands, 3
    )
