"""The standings picture: decoded and sampled (header, podium, streak and game marks)."""

from __future__ import annotations

import io

from PIL import Image

from render.standings import (
    COLUMN_HEADINGS,
    FLAME,
    HEADER,
    MAX_ROWS,
    PADDING,
    PLAYING,
    PODIUM,
    ROW,
    WIDTH,
    StandingsRow,
    StandingsView,
    render_standings,
)
from render.themes import get_theme


def view(count: int = 5, *, podium: bool = True) -> StandingsView:
    rows = tuple(
        StandingsRow(
            rank=i + 1,
            name=f"Player {i + 1}",
            points=str(10 - i),
            tiebreaks=(str(20 - i), str(30 - i)),
            on_fire=i == 1,
            playing=i == 0,
            out=i == count - 1,
        )
        for i in range(count)
    )
    return StandingsView(
        "Swiss #3 · Lefe", "Round 5 of 5", ("#", "Player", "Points", "BH", "SB"), rows, podium
    )


def decode(data: bytes) -> Image.Image:
    image = Image.open(io.BytesIO(data))
    image.load()
    return image.convert("RGB")


def near(colour: tuple[int, ...], expected: tuple[int, int, int], tolerance: int = 12) -> bool:
    return all(abs(a - b) <= tolerance for a, b in zip(colour, expected, strict=False))


def row_centre(number: int) -> int:
    return HEADER + COLUMN_HEADINGS + number * ROW + ROW // 2


def test_the_final_standings_mark_the_podium_gold_silver_bronze() -> None:
    theme = get_theme("classic")
    image = decode(render_standings(view(), theme))
    assert image.size == (WIDTH, HEADER + COLUMN_HEADINGS + 5 * ROW + 30)
    assert near(image.getpixel((5, 5)), theme.header_background)  # type: ignore[arg-type]
    badge_x = PADDING + 22
    for place in range(3):
        # the disc's rim, beside the rank's digit
        assert near(image.getpixel((badge_x - 12, row_centre(place))), PODIUM[place])  # type: ignore[arg-type]
    assert not near(image.getpixel((badge_x - 12, row_centre(3))), PODIUM[2], 40)  # type: ignore[arg-type]


def test_a_running_event_has_no_podium_and_marks_streaks_and_games_under_way() -> None:
    theme = get_theme("night")
    image = decode(render_standings(view(podium=False), theme))
    badge_x = PADDING + 22
    assert not any(
        near(image.getpixel((badge_x - 12, row_centre(p))), PODIUM[p], 30)
        for p in range(3)  # type: ignore[arg-type]
    )
    name_x = PADDING + 56
    assert near(image.getpixel((name_x + 7, row_centre(0))), PLAYING)  # type: ignore[arg-type]
    flame = [image.getpixel((name_x + 8, row_centre(1) + dy)) for dy in range(-4, 8)]
    assert any(near(p, FLAME, 20) for p in flame)  # type: ignore[arg-type]


def test_long_lists_stop_at_the_row_limit_and_the_picture_is_deterministic() -> None:
    theme = get_theme("paper")
    many = view(MAX_ROWS + 10)
    first, again = render_standings(many, theme), render_standings(many, theme)
    assert first == again
    assert decode(first).height == HEADER + COLUMN_HEADINGS + MAX_ROWS * ROW + 30


def test_german_headings_are_drawn_as_given() -> None:
    german = StandingsView(
        "Arena #4 · Dalen", "noch 12 Minuten", ("#", "Spieler", "Punkte"), view().rows
    )
    english = StandingsView(
        "Arena #4 · Dalen", "12 minutes left", ("#", "Player", "Points"), view().rows
    )
    theme = get_theme("classic")
    assert render_standings(german, theme) != render_standings(english, theme)
