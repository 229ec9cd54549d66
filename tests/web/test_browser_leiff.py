"""Leiff in a browser without Discord (``make run`` with no token): a table of three with two
bot seats, played by clicks through a whole round and into the next, at 360 and 1280 px.

The deal is random (the local server's seed): about one deal in a hundred ends the whole
match with its first round (a total reaches the target, often ours, played at random), and
then the table is shown finished instead of a second round."""

from __future__ import annotations

import os
import random
from pathlib import Path
from typing import Any

from selenium.common.exceptions import NoSuchElementException
from selenium.webdriver.remote.webdriver import WebDriver
from selenium.webdriver.support.ui import Select

from tests.web.browser import LocalServer, click_css, wait_for
from tests.web.test_browser_games import screenshot

SCREENSHOTS = os.environ.get("LEAFBOT_SCREENSHOTS")


def shown(driver: WebDriver) -> dict[str, Any]:
    data: dict[str, Any] = driver.execute_script(
        """
        const seats = document.getElementById('leiff-seats');
        return {
          version: Number(seats.dataset.version ?? -1),
          round: document.getElementById('leiff-round').textContent,
          you: [...seats.querySelectorAll('.seat')].findIndex(s => s.classList.contains('you')),
          cards: [...seats.querySelectorAll('.seat')].map(s =>
            [...s.querySelectorAll('.card')].map(c => c.dataset.label ?? null)),
          // our own choices: buttons (the bar's and beside our cards) and menus; matching
          // and catching out of turn are always on offer, so they do not count
          mine: [...document.querySelectorAll('#leiff [data-action]')].map(b => b.dataset.action)
            .concat([...document.querySelectorAll('#leiff select.menu option')].map(o => o.value))
            .filter(a => a && !/^(match|catch|penalty) /.test(a)),
          lines: document.querySelectorAll('#leiff-lines li').length,
          status: document.getElementById('leiff-status').textContent,
          // the Leave button is there while the table is played (not once it is finished)
          running: !document.getElementById('leiff-leave').hidden,
        };
        """
    )
    return data


def our_turn_or_the_end(driver: WebDriver) -> dict[str, Any] | None:
    """The table once it offers us a choice of our own, or once the match is over."""
    state = shown(driver)
    return state if state["mine"] or not state["running"] else None


def toast_lets_clicks_through(driver: WebDriver) -> bool:
    """Whether a click in the middle of the page's note (shown for the check) reaches what
    lies beneath it."""
    through: bool = driver.execute_script(
        """
        const toast = document.getElementById('toast');
        toast.textContent = 'Der Tisch ist weiter.';
        toast.hidden = false;
        const box = toast.getBoundingClientRect();
        const hit = document.elementFromPoint(box.x + box.width / 2, box.y + box.height / 2);
        toast.hidden = true;
        return hit !== null && hit.closest('#toast') === null;
        """
    )
    return through


def choose(driver: WebDriver, action: str) -> None:
    for menu in driver.find_elements("css selector", "#leiff select.menu"):
        if menu.find_elements("css selector", f'option[value="{action}"]'):
            Select(menu).select_by_value(action)
            return
    raise AssertionError(f"no control for {action!r}")


def write_rule(driver: WebDriver, text: str) -> None:
    click_css(driver, '#leiff [data-action^="rule"]')
    field = driver.find_element("id", "rule-text")
    field.clear()
    field.send_keys(text)
    driver.find_element("id", "rule-send").click()


def test_a_leiff_table_with_bot_seats_by_clicks(
    chromium: WebDriver, local_server: LocalServer, tmp_path: Path
) -> None:
    # the shared browser may keep an earlier test's session (in English): start afresh
    # (cleared once the page has signed in, so its sign-in cannot write after the clear)
    chromium.get(f"{local_server.address}/")
    wait_for(lambda: chromium.find_elements("css selector", '#game-tiles [data-game="leiff"]'))
    chromium.execute_script("window.sessionStorage.clear();")
    chromium.get(f"{local_server.address}/?lang=de#")
    wait_for(lambda: chromium.find_elements("css selector", '#game-tiles [data-game="leiff"]'))
    chromium.find_element("css selector", '#game-tiles [data-game="leiff"]').click()
    # German: the size is the number of players
    assert chromium.find_element("id", "size-label").text == "Spieler"
    Select(chromium.find_element("id", "size")).select_by_value("3")
    Select(chromium.find_element("id", "level")).select_by_value("easy")
    chromium.find_element("id", "start").click()
    first = wait_for(lambda: (s := shown(chromium))["version"] >= 0 and s, what="the table")
    assert first["you"] == 0 and len(first["cards"]) == 3
    # the deal: our cards 1 and 2 face up, every card of the bots face down
    assert all(first["cards"][0][:2]) and not any(first["cards"][0][2:])
    assert not any(card for seat in first["cards"][1:] for card in seat)
    assert "Runde 1" in first["round"]
    # a refused click's note (a bot moved first) covers the bottom of the page, the action
    # bar too, for seconds: clicks go through it to the controls beneath (it took the
    # click on "discard" meant for the bar under it)
    assert toast_lets_clicks_through(chromium)
    rng = random.Random(3)
    folder = Path(SCREENSHOTS) if SCREENSHOTS else tmp_path
    folder.mkdir(parents=True, exist_ok=True)
    rounds_seen = {first["round"]}
    for turn in range(80):
        state = wait_for(
            lambda: our_turn_or_the_end(chromium),
            timeout=60,
            what="our turn",
            describe=lambda: (
                f"the page shows {shown(chromium)}; the server said: "
                + local_server.log.read_text()[-3000:]
            ),
        )
        if not state["running"]:
            break  # the first round ended the match: checked below
        # our own choices (the bar); Leiff only once the draw pile is low, to end a round
        options = [a for a in state["mine"] if a != "leiff"] or state["mine"]
        if turn > 12 and "leiff" in state["mine"]:
            options = ["leiff"]
        action = rng.choice(options)
        try:
            if action.startswith("rule"):
                write_rule(chromium, "Prost!")
            elif chromium.find_elements("css selector", f'#leiff [data-action="{action}"]'):
                click_css(chromium, f'#leiff [data-action="{action}"]')
            else:
                choose(chromium, action)
        except (NoSuchElementException, AssertionError):
            continue  # the table moved on meanwhile (a bot's move): look again
        wait_for(lambda v=state["version"]: shown(chromium)["version"] > v, what=action)
        if turn == 4:
            screenshot(chromium, folder, "leiff-local")
        rounds_seen.add(shown(chromium)["round"])
        if len(rounds_seen) > 1:
            break
    final = shown(chromium)
    if final["running"]:
        assert len(rounds_seen) > 1, "the first round did not end"
    else:
        # the first round ended the whole match: the page says who won, and offers nothing
        assert "Runde 1" in final["round"] and final["status"].startswith("Spielende:"), final
        assert not final["mine"]
    assert final["lines"] > 5
    screenshot(chromium, folder, "leiff-local-round-2")
