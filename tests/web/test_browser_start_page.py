"""The start page and the move list's past positions in chromium, in English and German,
at 360 and 1280 px: the games as tiles with what each is about, the options, your games
with whose turn it is, and a past position said as such; every word from the catalogues,
nothing wider than the screen."""

from __future__ import annotations

import os
import random
from pathlib import Path
from typing import Any

import pytest
from selenium.webdriver.remote.webdriver import WebDriver
from selenium.webdriver.support.ui import Select

from engine import board_game_names
from engine.ai.levels import LEVEL_NAMES
from i18n import translate
from matchcore.strength import measured_strength
from tests.web.browser import LocalServer, board_state, wait_for
from tests.web.test_browser_games import play_one, screenshot

SCREENSHOTS = os.environ.get("LEAFBOT_SCREENSHOTS")
GAMES = (*board_game_names(), "leiff")


def start_page(driver: WebDriver) -> dict[str, Any]:
    data: dict[str, Any] = driver.execute_script(
        """
        const visible = (id) => !document.getElementById(id).closest('[hidden]');
        return {
          intro: visible('intro') ? document.getElementById('intro').textContent : null,
          tiles: [...document.querySelectorAll('#game-tiles .tile')].map(t => [
            t.dataset.game, t.querySelector('strong').textContent,
            t.querySelector('.about').textContent, t.getAttribute('aria-checked')]),
          empty: visible('no-matches') ? document.getElementById('no-matches').textContent : null,
          matches: [...document.querySelectorAll('#matches li')].map(li => [
            li.querySelector('strong').textContent, li.querySelector('.turn').textContent,
            li.classList.contains('your-turn')]),
          sizeLabel: document.getElementById('size-label').textContent,
          fits: document.documentElement.scrollWidth <= window.innerWidth,
        };
        """
    )
    return data


def level_labels(driver: WebDriver) -> list[str]:
    return [option.text for option in Select(driver.find_element("id", "level")).options]


def expected_levels(language: str, game: str) -> list[str]:
    """Each level's word, and " · about N Elo" where data/ai-strength.json measured it."""
    labels = []
    for level in LEVEL_NAMES:
        label = translate(language, f"bot.level.{level}")
        measured = measured_strength(game, level)
        if measured is not None:
            label += " · " + translate(language, "bot.play.level_elo", elo=measured.elo)
        labels.append(label)
    return labels


def open_start_page(driver: WebDriver, address: str, language: str) -> None:
    # a session is signed in with the browser's language: start afresh in this one
    driver.get(f"{address}/")
    wait_for(lambda: driver.find_elements("css selector", "#game-tiles .tile"))
    driver.execute_script("window.sessionStorage.clear();")
    driver.get(f"{address}/?lang={language}#")
    wait_for(lambda: driver.find_elements("css selector", "#game-tiles .tile"), what="the tiles")


@pytest.mark.parametrize("language", ["en", "de"])
def test_the_start_page_and_a_past_position_in_both_languages(
    chromium: WebDriver, tmp_path: Path, language: str
) -> None:
    server = LocalServer(tmp_path / "start.sqlite3")  # its own: no games yet
    try:
        open_start_page(chromium, server.address, language)
        for width in (360, 1280):
            chromium.set_window_size(width, 900)
            page = wait_for(lambda: (lambda p: p if p["empty"] else None)(start_page(chromium)))
            assert page["intro"] == translate(language, "web.intro")
            assert page["empty"] == translate(language, "web.no_matches")
            assert page["matches"] == []
            assert [tile[:3] for tile in page["tiles"]] == [
                [
                    g,
                    translate(language, f"game.{g}.title"),
                    translate(language, f"game.{g}.tagline"),
                ]
                for g in GAMES
            ]
            assert [tile[3] for tile in page["tiles"]] == ["true"] + ["false"] * (len(GAMES) - 1)
            assert page["fits"], f"the start page is wider than {width} px"
        if SCREENSHOTS:
            screenshot(chromium, Path(SCREENSHOTS), f"start-empty-{language}")
        # choosing Leiff makes the size the number of players, and a game at one screen
        # impossible (a hand is one member's)
        chromium.find_element("css selector", '#game-tiles [data-game="leiff"]').click()
        assert start_page(chromium)["sizeLabel"] == translate(language, "web.players")
        hotseat = chromium.find_element("css selector", '#opponent option[value="hotseat"]')
        assert hotseat.get_attribute("disabled")
        # the bot's five levels, each with its measured strength in the game chosen where
        # the ladder has one (the committed data/ai-strength.json measures Lublache's easy)
        for game in ("lublache", "lefe"):
            chromium.find_element("css selector", f'#game-tiles [data-game="{game}"]').click()
            assert level_labels(chromium) == expected_levels(language, game)
        chromium.find_element("css selector", '#game-tiles [data-game="lublache"]').click()
        assert any(" Elo" in label for label in level_labels(chromium))
        Select(chromium.find_element("id", "level")).select_by_value("easy")
        chromium.set_window_size(360, 900)
        assert start_page(chromium)["fits"], "a level's strength widens the page"
        if SCREENSHOTS:
            screenshot(chromium, Path(SCREENSHOTS), f"levels-{language}")
        chromium.set_window_size(1280, 900)
        Select(chromium.find_element("id", "level")).select_by_value("normal")
        # a hot-seat game of Dalen, four moves by clicks (the local player's turn again)
        chromium.find_element("css selector", '#game-tiles [data-game="dalen"]').click()
        Select(chromium.find_element("id", "size")).select_by_index(0)
        Select(chromium.find_element("id", "opponent")).select_by_value("hotseat")
        chromium.find_element("id", "start").click()
        wait_for(lambda: "match=" in chromium.current_url, what="the new match")
        match = int(chromium.current_url.rsplit("match=", 1)[1])
        wait_for(lambda: board_state(chromium)["match"] == match, what="the board")
        rng = random.Random(7)
        for _ in range(4):
            play_one(chromium, rng)
        # the move list steps back: the position is said to be a past one, Now returns. Two
        # taps in one go (before the server's answer to the first): they go back two moves
        live_score = chromium.find_element("id", "score").text
        chromium.execute_script("const b = document.getElementById('back'); b.click(); b.click();")
        viewing = translate(language, "web.viewing", ply=2, count=4)
        wait_for(lambda: chromium.find_element("id", "viewing").text == viewing, what="move 2")
        assert len(board_state(chromium)["stones"]) < 4
        # the score line is that position's (Dalen counts stones: fewer two moves back)
        past_score = chromium.find_element("id", "score").text
        assert past_score and past_score != live_score
        if SCREENSHOTS:
            screenshot(chromium, Path(SCREENSHOTS), f"past-position-{language}")
        chromium.find_element("id", "live").click()
        wait_for(lambda: not chromium.find_element("id", "viewing").is_displayed())
        assert len(board_state(chromium)["stones"]) >= 4
        assert chromium.find_element("id", "score").text == live_score
        # back on the start page: the game, whose turn it is, and no empty note
        chromium.get(f"{server.address}/?lang={language}#")
        page = wait_for(lambda: (lambda p: p if p["matches"] else None)(start_page(chromium)))
        title = f"{translate(language, 'game.dalen.title')} #{match}"
        assert page["matches"] == [[title, translate(language, "web.match.your_turn"), True]]
        assert page["empty"] is None
        for width in (360, 1280):
            chromium.set_window_size(width, 900)
            assert start_page(chromium)["fits"]
        if SCREENSHOTS:
            screenshot(chromium, Path(SCREENSHOTS), f"start-{language}")
    finally:
        chromium.set_window_size(1280, 900)
        server.stop()
