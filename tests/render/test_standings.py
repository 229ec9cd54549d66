"""The standings picture: decoded and sampled (header, podium, streak and game marks)."""

from __future__ import annotations

import io

from PIL import Image

from i18n import translate, translate_plural
from render.standings import (
    COLUMN_HEADINGS,
    FLAME,
    FOOTER,
    HEADER,
    MAX_ROWS,
    NAME_X,
    PLAYING,
    PODIUM,
    RANK_X,
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
    assert image.size == (WIDTH, HEADER + COLUMN_HEADINGS + 5 * ROW + FOOTER)
    assert near(image.getpixel((5, 5)), theme.header_background)  # type: ignore[arg-type]
    badge_x = RANK_X
    for place in range(3):
        # the disc's rim, beside the rank's digit
        assert near(image.getpixel((badge_x - 12, row_centre(place))), PODIUM[place])  # type: ignore[arg-type]
    assert not near(image.getpixel((badge_x - 12, row_centre(3))), PODIUM[2], 40)  # type: ignore[arg-type]


def test_a_running_event_has_no_podium_and_marks_streaks_and_games_under_way() -> None:
    theme = get_theme("night")
    image = decode(render_standings(view(podium=False), theme))
    badge_x = RANK_X
    assert not any(
        near(image.getpixel((badge_x - 12, row_centre(p))), PODIUM[p], 30)
        for p in range(3)  # type: ignore[arg-type]
    )
    assert near(image.getpixel((NAME_X + 9, row_centre(0))), PLAYING)  # type: ignore[arg-type]
    flame = [image.getpixel((NAME_X + 10, row_centre(1) + dy)) for dy in range(-4, 8)]
    assert any(near(p, FLAME, 20) for p in flame)  # type: ignore[arg-type]


def test_long_lists_stop_at_the_row_limit_and_the_picture_is_deterministic() -> None:
    theme = get_theme("paper")
    many = view(MAX_ROWS + 10)
    first, again = render_standings(many, theme), render_standings(many, theme)
    assert first == again
    assert decode(first).height == HEADER + COLUMN_HEADINGS + MAX_ROWS * ROW + FOOTER


def test_german_headings_are_drawn_as_given() -> None:
    german = StandingsView(
        "Arena #4 · Dalen", "noch 12 Minuten", ("#", "Spieler", "Punkte"), view().rows
    )
    english = StandingsView(
        "Arena #4 · Dalen", "12 minutes left", ("#", "Player", "Points"), view().rows
    )
    theme = get_theme("classic")
    assert render_standings(german, theme) != render_standings(english, theme)


def ink_height(image: Image.Image, top: int, bottom: int, background: tuple[int, ...]) -> int:
    """How many pixel rows between ``top`` and ``bottom`` carry text (anything far from
    the background), from the first to the last."""
    inked = [
        y
        for y in range(top, bottom)
        if any(
            sum(abs(a - b) for a, b in zip(image.getpixel((x, y)), background, strict=False)) > 60  # type: ignore[arg-type]
            for x in range(4, image.width - 4)
        )
    ]
    return inked[-1] - inked[0] + 1 if inked else 0


def worded(language: str, swiss: bool) -> StandingsView:
    keys = [
        "rank",
        "player",
        "points",
        *(("buchholz", "sonneborn_berger") if swiss else ("games",)),
    ]
    subtitle = (
        translate(language, "bot.tournament.round_of", round=3, rounds=5)
        if swiss
        else translate_plural(
            language, "bot.tournament.arena_subtitle", "bot.tournament.arena_subtitle.plural", 16
        )
    )
    return StandingsView(
        "Swiss #3 · Lefe" if swiss else "Arena #4 · Dalen",
        subtitle,
        tuple(translate(language, f"bot.tournament.heading.{key}") for key in keys),
        view(8).rows,
    )


def test_at_360_pixels_wide_the_subtitle_and_the_headings_are_read_at_11_pixels_or_more() -> None:
    """Discord shows the picture about 360 pixels wide on a phone: halved, the smallest
    text (the subtitle, the column headings with the tie-breaks) is still 11 pixels high
    or more, in English and German (it was 8 to 10)."""
    theme = get_theme("classic")
    for language in ("en", "de"):
        for swiss in (True, False):
            image = decode(render_standings(worded(language, swiss), theme))
            small = image.resize((360, image.height // 2), Image.Resampling.LANCZOS)
            subtitle = ink_height(small, 54 // 2, HEADER // 2, theme.header_background)
            headings = ink_height(
                small, HEADER // 2 + 1, (HEADER + COLUMN_HEADINGS) // 2 - 2, theme.background
            )
            assert subtitle >= 11 and headings >= 11, (language, swiss, subtitle, headings)
