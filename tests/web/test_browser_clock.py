"""The clock of a match in chromium, in English and German (a board's, and a Leiff table's
beside the seat that must act): the time left in the catalogues' duration units as the bot
writes times ("47 days 23 h", "23 h 59 min"; German "47 Tage 23 Std."), minutes:seconds
only in the last hour. The page's clock is moved by
shifting the browser's own time (``Date.now``), which is all the page counts with."""

from __future__ import annotations

import os
import re
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

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
    # One script call: the players' list is redrawn every second, so an element found
    # first and read afterwards may already be gone (StaleElementReferenceException).
    text: str = driver.execute_script(
        "const e = document.querySelector('#players .clock'); return e ? e.innerText : '';"
    )
    return text


def clock_after(
    driver: WebDriver,
    shift: float,
    shows: Callable[[str], object],
    read: Callable[[WebDriver], str | None] = clock_text,
) -> str:
    """The clock's text (as ``read`` finds it: a board's by default) with the browser's time
    moved by ``shift`` seconds (from now), once
    it ``shows`` what it should. The clock is redrawn once a second: the first redraw
    after the shift may come before this reads it (a loaded machine) or a while after, so
    this waits for the text expected, not for a change (a tick between the shift and a
    read of the text "before" it left nothing to change: the test timed out). The shift is
    set again at every look (the same shift: the browser's time still runs): a document
    loaded after the first shift had lost it (once, on a loaded machine, the clock went on counting real time)."""

    def shift_time() -> None:
        driver.execute_script(
            """
            if (!window.realNow) window.realNow = Date.now.bind(Date);
            const shift = arguments[0] * 1000;
            Date.now = () => window.realNow() + shift;
            """,
            shift,
        )

    shift_time()

    def shown() -> str | None:
        # again on every look: a page that loaded anew since (the table opening after its
        # start page, late on a loaded machine) reads the real time until then
        shift_time()
        text = read(driver)
        return text if text is not None and shows(text) else None

    text: str = wait_for(
        shown,
        what="the clock's tick",
        describe=lambda: f"the clock says {read(driver)!r}",
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
        # read in one script call (clock_text): the list is redrawn every second, and an
        # element found and then read was once gone in between (stale, on a loaded machine)
        shown = wait_for(lambda: clock_text(chromium), what="a clock")
        word = translate(language, "web.clock")
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


def leiff_clocks(driver: WebDriver) -> list[dict[str, Any]]:
    """Every clock at a Leiff table, read at once (bots act meanwhile and the seats are
    drawn anew): its text, its deadline, and whether its seat is ours and must act."""
    found: list[dict[str, Any]] = driver.execute_script(
        """
        return [...document.querySelectorAll('#leiff-seats .clock')].map(c => {
          const seat = c.closest('.seat');
          return {text: c.textContent, deadline: Number(c.dataset.deadline),
                  you: seat.classList.contains('you'), toAct: seat.classList.contains('to-act')};
        });
        """
    )
    return found


def leiff_clock(driver: WebDriver) -> str | None:
    """The text of the clock of the seat that must act at a Leiff table, if there is one."""
    clocks = [c for c in leiff_clocks(driver) if c["toAct"]]
    return str(clocks[0]["text"]) if clocks else None


@pytest.mark.parametrize("language", ["en", "de"])
def test_a_leiff_table_shows_the_clock_of_the_seat_that_must_act(
    chromium: WebDriver, tmp_path: Path, language: str
) -> None:
    server = LocalServer(tmp_path / "leiff-clock.sqlite3")
    try:
        open_start_page(chromium, server.address, language)
        chromium.find_element("css selector", '#game-tiles [data-game="leiff"]').click()
        Select(chromium.find_element("id", "size")).select_by_value("3")
        chromium.find_element("id", "start").click()
        # our seat acts first at a new table: its head shows the time left, as on a board
        clocks = wait_for(
            lambda: (c := leiff_clocks(chromium)) and c[0]["text"] and c,
            what="the clock of the seat to act",
        )
        assert len(clocks) == 1 and clocks[0]["you"] and clocks[0]["toAct"], clocks
        deadline = float(clocks[0]["deadline"])
        word = translate(language, "web.clock")
        shown = clocks[0]["text"]
        assert shown.startswith(f"{word} ") and re.search(r"\d", shown), shown
        # moved to two days, five hours and a half before the deadline: days and hours
        days = f"{word} {unit(language, 'day', 2)} {unit(language, 'hour', 5)}"
        shift = deadline - time.time() - (2 * DAY + 5.5 * 3600)
        clock_after(chromium, shift, lambda t: t == days, read=leiff_clock)
        folder = Path(SCREENSHOTS) if SCREENSHOTS else tmp_path
        folder.mkdir(parents=True, exist_ok=True)
        screenshot(chromium, folder, f"leiff-clock-days-{language}")
        # the last hour: minutes and seconds, ticking
        shift = deadline - time.time() - 1800
        last_hour = rf"{re.escape(word)} (29|30):\d\d"
        clock_after(chromium, shift, lambda t: re.fullmatch(last_hour, t), read=leiff_clock)
    finally:
        chromium.execute_script("if (window.realNow) Date.now = window.realNow;")
        server.stop()
