"""Les's owned holes on the web table's SVG board, shaded as the pictures shade them: the
cells the engine counts as a colour's holes, tinted in that colour (the first flat, the
second striped), clipped to the plate; checked in chromium at 360 px, on a screenshot
decoded and sampled."""

from __future__ import annotations

import io
import os
import random
from pathlib import Path
from typing import Any

from PIL import Image
from selenium.webdriver.remote.webdriver import WebDriver

from engine import get_board_game
from tests.web.browser import LocalServer, board_state, wait_for
from tests.web.test_browser_games import play_one, screenshot, start_game
from web.geometry import geometry_json

SCREENSHOTS = os.environ.get("LEAFBOT_SCREENSHOTS")


def shown_holes(driver: WebDriver) -> dict[str, str]:
    """cell -> owner colour of every shaded hole cell on the page."""
    found: dict[str, str] = driver.execute_script(
        """
        const cells = {};
        for (const poly of document.querySelectorAll('#board g.hole [data-hole-cell]')) {
          cells[poly.dataset.holeCell] = poly.parentNode.dataset.owner;
        }
        return cells;
        """
    )
    return found


def moves_shown(driver: WebDriver) -> list[str]:
    moves: list[str] = driver.execute_script(
        "return [...document.querySelectorAll('#moves li')].map(li => li.textContent)"
    )
    return moves


def test_les_holes_are_shaded_in_the_owners_colour(
    chromium: WebDriver, local_server: LocalServer, tmp_path: Path
) -> None:
    game = get_board_game("les")
    size = game.sizes[0]
    start_game(chromium, local_server.address, "les", opponent="hotseat")
    rng = random.Random(7)
    owners: set[str] = set()
    for _ in range(120):
        state = board_state(chromium)
        if state["rematch"]:
            break
        play_one(chromium, rng)
        replayed: Any = game.new(size)
        for move in moves_shown(chromium):
            replayed = replayed.play(move)
        expected = {cell: owner for owner, cells in replayed.holes() for cell in cells}
        assert shown_holes(chromium) == expected  # the engine's holes, nothing guessed
        owners = set(expected.values())
        if len(owners) == 2:
            break
    assert owners, "no position with an owned hole came up"
    holes = shown_holes(chromium)
    folder = Path(SCREENSHOTS) if SCREENSHOTS else tmp_path
    folder.mkdir(parents=True, exist_ok=True)
    screenshot(chromium, folder, "les-holes")
    # sample the 360-px picture: a hole's cell is tinted, an empty cell outside holes is not
    chromium.set_window_size(360, 900)
    wait_for(lambda: chromium.execute_script("return document.documentElement.scrollWidth") <= 360)
    picture = Image.open(io.BytesIO(chromium.get_screenshot_as_png())).convert("RGB")
    ratio = chromium.execute_script("return window.devicePixelRatio")
    box = chromium.execute_script(
        "const r = document.getElementById('board').getBoundingClientRect();"
        "return [r.x, r.y, r.width];"
    )
    geo = geometry_json("les", size)
    scale = box[2] / geo["width"]
    colours = geo["colours"]
    background = _rgb(colours["background"])
    stones = board_state(chromium)["stones"]
    centres = {cell["name"]: (cell["x"], cell["y"]) for cell in geo["cells"]}

    def sample(cell: str) -> list[tuple[int, int, int]]:
        """A few pixels beside the point (drawn over the tint), inside the cell's hexagon."""
        x, y = centres[cell]
        found = []
        for dx in (0.35, 0.45, 0.55):
            for dy in (-0.1, 0.0, 0.1):
                px = round((box[0] + (x + geo["radius"] * dx) * scale) * ratio)
                py = round((box[1] + (y + geo["radius"] * dy) * scale) * ratio)
                value = picture.getpixel((px, py))
                assert isinstance(value, tuple)
                found.append((int(value[0]), int(value[1]), int(value[2])))
        return found

    first = next(iter(colours["stones"]))
    for cell, owner in holes.items():
        pixels = sample(cell)
        if owner == first:  # a flat tint towards the first colour's
            tint = _rgb(colours["loop"][0])
            assert all(_distance(p, background) > 20 for p in pixels), (cell, pixels)
            assert all(_distance(p, tint) < _distance(background, tint) for p in pixels)
        else:  # stripes: some pixels tinted towards the second colour's, some plain
            tint = _rgb(colours["loop"][1])
            assert any(_distance(p, tint) < _distance(background, tint) - 20 for p in pixels)
    # outside the plate the board stays plain (the tint is clipped to it), and so does any
    # empty point that is no one's hole
    corner = picture.getpixel((round((box[0] + 4) * ratio), round((box[1] + 4) * ratio)))
    assert isinstance(corner, tuple) and _distance(corner[:3], background) < 12
    for cell in [c for c in centres if c not in holes and c not in stones][:6]:
        assert all(_distance(p, background) < 12 for p in sample(cell)), cell


def _rgb(text: str) -> tuple[int, int, int]:
    return (int(text[1:3], 16), int(text[3:5], 16), int(text[5:7], 16))


def _distance(a: tuple[int, ...], b: tuple[int, ...]) -> float:
    return float(sum((x - y) ** 2 for x, y in zip(a, b, strict=True)) ** 0.5)
