"""Whole games of every board game played by clicks in a real browser against the bot, with
screenshots of each at 360 and 1280 pixels wide."""

from __future__ import annotations

import os
import random
from pathlib import Path

import pytest
from selenium.webdriver.remote.webdriver import WebDriver
from selenium.webdriver.support.ui import Select

from engine import board_game_names, get_board_game
from tests.web.browser import LocalServer, board_state, click_cell, wait_for

# Where the screenshots go: LEAFBOT_SCREENSHOTS, or the test's own folder.
SCREENSHOTS = os.environ.get("LEAFBOT_SCREENSHOTS")
MAX_TURNS = 200


def start_game(driver: WebDriver, address: str, game: str, opponent: str = "bot") -> int:
    driver.get(f"{address}/?lang=en#")
    tile = f'#game-tiles [data-game="{game}"]'
    wait_for(lambda: driver.find_elements("css selector", tile), what="the lobby")
    driver.find_element("css selector", tile).click()
    Select(driver.find_element("id", "size")).select_by_value(str(get_board_game(game).sizes[0]))
    Select(driver.find_element("id", "opponent")).select_by_value(opponent)
    if opponent == "bot":
        Select(driver.find_element("id", "level")).select_by_value("easy")
    driver.find_element("id", "start").click()
    wait_for(lambda: "match=" in driver.current_url, what="the new match")
    match = int(driver.current_url.rsplit("match=", 1)[1])
    # the new match's board: the page keeps the last one drawn (hidden) meanwhile, and a
    # loaded machine let the test read it (its turn, its cells, or its Rematch) as the new
    wait_for(
        lambda: (s := board_state(driver))["match"] == match and s["shown"] and s["version"] >= 0,
        what="the board",
    )
    return match


def play_one(driver: WebDriver, rng: random.Random) -> None:
    """Our turn: a legal cell by a click (then a capture or a second set-up cell if the
    page offers them), or a word move's button when no cell is legal."""
    before = board_state(driver)
    if before["legal"]:
        click_cell(driver, rng.choice(sorted(before["legal"])))
        shown = board_state(driver)
        if shown["version"] == before["version"] and shown["targets"]:
            click_cell(driver, rng.choice(sorted(shown["targets"])))
    else:
        driver.find_element(
            "css selector", f'#choice [data-move="{before["specials"][0]}"]'
        ).click()
    wait_for(lambda: board_state(driver)["version"] > before["version"], what="our move")


def screenshot(driver: WebDriver, folder: Path, name: str) -> None:
    for width in (360, 1280):
        driver.set_window_size(width, 900)
        # the page fits the width: nothing scrolls sideways
        wait_for(
            lambda w=width: (
                driver.execute_script("return document.documentElement.scrollWidth") <= w
            ),
            what=f"the page to fit {width} px",
        )
        height = driver.execute_script("return document.documentElement.scrollHeight")
        driver.set_window_size(width, max(600, int(height) + 140))
        driver.save_screenshot(str(folder / f"{name}-{width}.png"))
    driver.set_window_size(1280, 900)


@pytest.mark.parametrize("game", board_game_names())
def test_a_whole_game_by_clicks_against_the_bot(
    game: str, chromium: WebDriver, local_server: LocalServer, tmp_path: Path
) -> None:
    rng = random.Random(game)
    start_game(chromium, local_server.address, game)
    folder = Path(SCREENSHOTS) if SCREENSHOTS else tmp_path
    folder.mkdir(parents=True, exist_ok=True)
    turns = 0
    for turns in range(MAX_TURNS):
        wait_for(
            lambda: (s := board_state(chromium))["yourTurn"] or s["rematch"],
            timeout=60,
            what="our turn or the end",
        )
        if board_state(chromium)["rematch"]:
            break
        play_one(chromium, rng)
        if turns == 6:
            screenshot(chromium, folder, f"{game}-midgame")
    final = board_state(chromium)
    assert final["rematch"], (
        f"{game} did not end in {MAX_TURNS} turns: the page shows {final} at "
        f"{chromium.current_url}; the server said: {local_server.log.read_text()[-3000:]}"
    )
    assert final["moves"] > 0 and final["status"][:1].isupper()  # a sentence: why it ended
    screenshot(chromium, folder, f"{game}-end")
