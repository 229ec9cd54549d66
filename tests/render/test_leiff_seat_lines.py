"""Every line a Leiff table means to show under a seat's name is drawn, whole.

A seat's block says its card count and scores, then what the special cards and the
drinking rules did to it (immune, drinks with someone, enchanted, its drinks). The block
used to have room for three lines and drew only as many as fitted, so a German round end
read "verzaubert · trinkt: 1" where the drinks were "1 Shot, 4 Schlücke", and lines
wrapped in the middle of a part ended in a dangling "·". Over whole random games in
English and German with special cards and drinking rules on: every part of a seat's text
(from the catalogue, worded here) is on its lines in full; :func:`table_bands` draws each of
those lines, inside the seat's block and its text column; no line starts or ends with a
separator.
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from typing import Any

import pytest
from PIL import Image

import render.leiff.seats
from engine.leiff import Leiff, random_action
from engine.leiff.views import LeiffView
from i18n import translate, translate_plural
from render.geometry import scale_of
from render.leiff import SeatBlock, table_bands
from render.text import font, text_width

NAMES = ["Anna", "Bärbel", "Jan", "Lara", "Cem", "Tom"]
GAMES = [  # (seed, players, options besides specials and drinking)
    (1, 2, {}),
    (2, 3, {"water": True}),
    (3, 4, {"teams": True}),
    (4, 5, {}),
    (5, 6, {"teams": True}),
    (6, 4, {}),
    (7, 3, {}),
    (8, 2, {"water": True}),
    (9, 6, {}),
    (10, 5, {"water": True}),
    (11, 4, {"teams": True, "water": True}),
    (12, 3, {}),
]


def _states(seed: int, players: int, options: dict[str, Any]) -> Iterator[Any]:
    """Every state of a seeded random game, from the deal to its end."""
    rng = random.Random(seed)
    state = Leiff().new(
        players=players, seed=seed, options={"specials": True, "drinking": True, **options}
    )
    yield state
    while state.actors():
        seat, action = random_action(state, rng)
        state = state.play(seat, action)
        yield state


def _drinks(entry: dict[str, int], settled: bool, language: str) -> str:
    """A seat's drinks as the table words them, from the catalogue."""
    parts = [
        translate_plural(language, f"picture.leiff.{key}", f"picture.leiff.{key}.plural", count)
        for key, count in (
            ("shots", entry["shots"]),
            ("sips", entry["sips"]),
            ("hands_out", entry["hand_out"]),
        )
        if count
    ]
    if parts:
        return translate(language, "picture.leiff.drinks", drinks=", ".join(parts))
    return translate(
        language, "picture.leiff.drinks_none" if settled else "picture.leiff.drinks_nothing"
    )


def _parts(view: LeiffView, seat: int, language: str) -> list[str]:
    """What a seat's lines must say, each part whole: scores, marks and drinks."""
    totals, scores = view["totals"], view.get("round_scores")
    teams = view.get("teams")
    parts = []
    if teams:
        team = next(number for number, members in enumerate(teams) if seat in members)
        if scores:
            score = f"{sum(scores[member] for member in teams[team]):+d}"
            parts.append(
                translate(
                    language,
                    "picture.leiff.team_scores",
                    number=team + 1,
                    total=totals[seat],
                    score=score,
                )
            )
        else:
            parts.append(
                translate(language, "picture.leiff.team_total", number=team + 1, total=totals[seat])
            )
    else:
        parts.append(
            translate_plural(
                language,
                "picture.leiff.cards",
                "picture.leiff.cards.plural",
                view["hand_sizes"][seat],
            )
        )
        parts.append(translate(language, "picture.leiff.total", total=totals[seat]))
        if scores:
            score = f"{scores[seat]:+d}"
            parts.append(translate(language, "picture.leiff.round_score", score=score))
    if seat in (view.get("immune") or []):
        parts.append(translate(language, "picture.leiff.immune"))
    link = view.get("link")
    if link and link["seat"] == seat:
        parts.append(translate(language, "picture.leiff.drinks_with", name=NAMES[link["to"]]))
    if any(entry["target"] == seat for entry in view.get("enchantments") or []):
        parts.append(translate(language, "picture.leiff.enchanted"))
    settled = bool(view["round_over"] or view.get("outcome"))
    parts.append(_drinks(view["drinks"][seat], settled, language))
    return parts


def _drawn_text(block: SeatBlock, band: Any, width: int, monkeypatch: Any) -> list[tuple]:
    """(x, y, text) of everything the seat's strip writes in its text column."""
    written: list[tuple] = []
    original = render.leiff.seats.draw_text

    column = block.cards[0][0] if block.cards else width

    def recording(draw: Any, xy: tuple[float, float], text: str, *args: Any) -> None:
        if xy[0] < column:
            written.append((xy[0], xy[1], text))
        original(draw, xy, text, *args)

    with monkeypatch.context() as patched:
        patched.setattr(render.leiff.seats, "draw_text", recording)
        band.paint(Image.new("RGB", (width, band.bottom + 1)))
    return written


def _check_game(
    seed: int, players: int, options: dict[str, Any], language: str, monkeypatch: Any
) -> int:
    """Check every table of a game (see the module's docstring); the most lines a seat had."""
    names = NAMES[:players]
    width = 480
    small = font(round(12 * scale_of(width)))
    most_lines = 0
    for number, state in enumerate(_states(seed, players, options)):
        view = state.view(None)
        layout, bands = table_bands(view, names, "classic", width, language)
        seat_bands = [band for band in bands if band.draw is render.leiff.seats.draw_seat]
        assert len(seat_bands) == players
        for seat, (block, band) in enumerate(zip(layout.seats, seat_bands, strict=True)):
            where = (number, seat, block.lines)
            # every part of the seat's text is on its lines in full
            said = " ".join(block.lines)
            for part in _parts(view, seat, language):
                assert part in said, (part, where)
            for line in block.lines:
                assert line and "…" not in line, where
                assert not line.startswith(("·", ",")) and not line.endswith("·"), where
                assert text_width(line, small) <= block.text_width, where
            # and the seat's strip draws every one of them, under the name, in the block
            if number % 5 == 0 or len(block.lines) > 3:
                drawn = _drawn_text(block, band, width, monkeypatch)
                assert [text for _, _, text in drawn] == [block.name, *block.lines], where
                assert [y for _, y, _ in drawn] == list(block.baselines), where
                assert all(block.box[1] < y < block.box[3] - 4 for y in block.baselines), where
                assert (band.top, band.bottom) == (round(block.box[1]), round(block.box[3]))
            most_lines = max(most_lines, len(block.lines))
    return most_lines


@pytest.mark.parametrize("language", ["en", "de"])
@pytest.mark.parametrize(("seed", "players", "options"), GAMES)
def test_every_line_of_a_seat_is_drawn_whole(
    seed: int, players: int, options: dict[str, Any], language: str, monkeypatch: Any
) -> None:
    assert _check_game(seed, players, options, language, monkeypatch) >= 2


def test_a_german_round_end_with_shots_and_sips_grows_the_block(monkeypatch: Any) -> None:
    """The issue's case: at a round end a German seat's drinks ("trinkt: 3 Shots, 2
    Schlücke") come fourth under its scores; the block grows to draw them."""
    assert _check_game(5, 2, {}, "de", monkeypatch) >= 4
