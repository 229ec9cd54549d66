"""The clock of a match in chromium, in English and German: the time left in the
catalogues' duration units as the bot writes times ("47 days 23 h", "23 h 59 min"; German
"47 Tage 23 Std."), minutes:seconds only in the last hour. The page's clock is moved by
shifting the browser's own time (``Date.now``), which is all the page counts with."""

from __future__ import annotations

import os
import re
from collections.abc import Callable
from pathlib import Path

import pytest
from selenium.webdriver.remote.webdriver import WebDriver
from selenium.webdriver.support.ui import Select

from i18n import translate, translate_plural
from tests.web.browser import LocalServer, board_state, wait_for
from tests.web.test_browser_games import screenshot
from tests.web.test_browser_start_page import open_start_page

SCREENSHOTS = os.environ.get("LEAFBOT_SCREENSHOTS")
DAY = 86400


def unit(language: str, name: str, count: int) -> str:
    return translate_plural(language, f"duration.{name}", f"duration.{name}.plural", count)


def clock_text(driver: WebDriver) -> str:
    text: str = driver.find_element("css selector", "#players .clock").text
    return text


def clock_after(driver: WebDriver, shift: float, shows: Callable[[str], object]) -> str:
    """The clock's text with the browser's time moved by ``shift`` seconds (from now), once
    it ``shows`` what it should. The clock is redrawn once a second: the first redraw
    after the shift may come before this reads it (a loaded machine) or a while after, so
    this waits for the text expected, not for a change (a tick between the shift and a
    read of the text "before" it left nothing to change: the test timed out)."""
    driver.execute_script(
        """
        if (!window.realNow) window.realNow = Date.now.bind(Date);
        const shift = arguments[0] * 1000;
        Date.now = () => window.realNow() + shift;
        """,
        shift,
    )

    def shown() -> str | None:
        text = clock_text(driver)
        return text if shows(text) else None

    text: str = wait_for(
        shown,
        what="the clock's tick",
        describe=lambda: f"the clock says {clock_text(driver)!r}",
    )
    return text


@pytest.mark.parametrize("language", ["en", "de"])
def test_the_clock_says_days_and_hours_and_counts_seconds_in_the_last_hour(
    chromium: WebDriver, tmp_path: Path, language: str
) -> None:
    server = LocalServer(tmp_path / "clock.sqlite3")
    try:
        open_start_page(chromium, server.address, language)
        chromium.find_element("css selector", '#game-tiles [data-game="dalen"]').click()
        Select(chromium.find_element("id", "opponent")).select_by_value("hotseat")
        chromium.find_element("id", "start").click()
        wait_for(lambda: board_state(chromium)["version"] >= 0, what="the board")
        # a day a move (the server's time per move): the first move's clock
        wait_for(lambda: chromium.find_elements("css selector", "#players .clock"), what="a clock")
        word = translate(language, "web.clock")
        shown = chromium.find_element("css selector", "#players .clock").text
        hours = f"{unit(language, 'hour', 23)} {unit(language, 'minute', 59)}"
        assert shown in (f"{word} {hours}", f"{word} {unit(language, 'day', 1)}"), shown
        # 47 days and a half hour more: days and hours, not 1151:29:59
        days = f"{word} {unit(language, 'day', 47)} {unit(language, 'hour', 23)}"
        clock_after(chromium, -(47 * DAY - 1800), lambda t: t == days)
        folder = Path(SCREENSHOTS) if SCREENSHOTS else tmp_path
        folder.mkdir(parents=True, exist_ok=True)
        screenshot(chromium, folder, f"clock-days-{language}")
        # two hours and a half left: hours and minutes
        hours_left = rf"{re.escape(word)} {re.escape(unit(language, 'hour', 2))} (2[89]|30) \S+"
        minutes = unit(language, "minute", 29).split()[-1]
        clock_after(
            chromium,
            DAY - 2.5 * 3600,
            lambda t: re.fullmatch(hours_left, t) and t.endswith(minutes),
        )
        # the last hour: minutes and seconds, ticking
        clock_after(
            chromium, DAY - 1800, lambda t: re.fullmatch(rf"{re.escape(word)} (29|30):\d\d", t)
        )
        screenshot(chromium, folder, f"clock-last-hour-{language}")
    finally:
        chromium.execute_script("if (window.realNow) Date.now = window.realNow;")
        server.stop()
