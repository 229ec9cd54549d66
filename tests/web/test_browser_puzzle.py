"""A puzzle at the web table (issue 37), in chromium through ``python -m bot`` without a
token: opened from the start page, answered by clicks on the board, right in English and
wrong in German; each verdict is the engine's own (``answer_is_right``), the solution line
is drawn step by step on the cells the engine's replay of it placed, and the member's
puzzle rating moves as with ``/move`` (up when solved, down when failed, the next puzzle
shows it). Screenshots at 360 and 1280 px."""

from __future__ import annotations

import json
import os
import re
import sqlite3
from pathlib import Path
from typing import Any

from selenium.webdriver.remote.webdriver import WebDriver
from selenium.webdriver.support.ui import Select

from engine import board_game_names
from engine.ai.puzzles import Puzzle, answer_is_right
from i18n import translate
from tests.web.browser import LocalServer, wait_for
from tests.web.test_browser_games import screenshot
from web.puzzle_frame import DAILY_DONE

SCREENSHOTS = os.environ.get("LEAFBOT_SCREENSHOTS")
CELL_MOVE = re.compile(r"[a-z]+\d+([x+][a-z]+\d+)*")


def shown_puzzle(driver: WebDriver) -> dict[str, Any]:
    """What the puzzle page shows: its id, game, stones, legal cells, lines, verdict and
    the solution's drawn steps."""
    result: dict[str, Any] = driver.execute_script(
        """
        const board = document.getElementById('puzzle-board');
        const cells = [...board.querySelectorAll('[data-cell]')];
        const verdict = document.getElementById('puzzle-result');
        return {
          id: Number(board.dataset.puzzle || -1),
          game: board.dataset.game || '',
          toMove: board.dataset.toMove || '',
          answered: board.dataset.answered === 'true',
          stones: Object.fromEntries(cells.filter(c => c.dataset.stone).map(c => [c.dataset.cell, c.dataset.stone])),
          legal: cells.filter(c => c.classList.contains('legal')).map(c => c.dataset.cell),
          targets: cells.filter(c => c.classList.contains('target')).map(c => c.dataset.cell),
          lines: [...document.querySelectorAll('#puzzle-lines p')].map(p => p.textContent),
          verdict: verdict.hidden ? null : verdict.className,
          verdictLines: [...verdict.querySelectorAll('p')].map(p => p.textContent),
          steps: [...board.querySelectorAll('g.step')].map(g => [Number(g.dataset.step), g.dataset.stepCell, g.textContent]),
          answer: [...board.querySelectorAll('[data-answer]')].map(c => c.dataset.answer),
          daily: board.dataset.daily === 'true',
        };
        """
    )
    return result


def the_puzzle(page: dict[str, Any], server: LocalServer) -> Puzzle:
    """The puzzle the page shows, as the server stored it (read from its database file;
    the page itself is never sent the answer); the page shows its very position."""
    with sqlite3.connect(f"file:{server.database}?mode=ro", uri=True) as db:
        (body,) = db.execute("SELECT body FROM puzzles WHERE id = ?", (page["id"],)).fetchone()
    puzzle = Puzzle.from_dict(json.loads(body))
    assert (puzzle.game, puzzle.to_move) == (page["game"], page["toMove"])
    assert dict(puzzle.stones) == page["stones"]
    return puzzle


def click(driver: WebDriver, cell: str) -> None:
    driver.find_element("css selector", f'#puzzle-board [data-cell="{cell}"]').click()


def answer_by_clicks(driver: WebDriver, move: str) -> None:
    """Click the move's cells in order; a move that could go on (a capture) is ended by
    the page's button."""
    for cell in re.split(r"[x+]", move):
        click(driver, cell)
    if (
        not shown_puzzle(driver)["answered"]
        and driver.find_element("id", "puzzle-plain").is_displayed()
    ):
        driver.find_element("id", "puzzle-plain").click()
    wait_for(lambda: shown_puzzle(driver)["verdict"], what="the verdict")


def expected_steps(puzzle: Puzzle) -> list[tuple[int, str]]:
    """Each step of the solution and the cells it places, replayed by the engine."""
    state = puzzle.position()
    steps = []
    for number, move in enumerate(puzzle.solution, 1):
        state = state.play(move)
        steps.extend((number, cell) for cell in state.last_turn.placed)
    return steps


def rating_in(lines: list[str]) -> int:
    """The member's rating in the puzzle's last line ('You: rating 1500, ...')."""
    found = re.search(r"(\d+)", lines[-1])
    assert found, lines
    return int(found.group(1))


def open_puzzle(driver: WebDriver, address: str, language: str) -> dict[str, Any]:
    # the shared browser may keep an earlier test's session in another language
    driver.get(f"{address}/")
    wait_for(lambda: driver.find_elements("css selector", "#game-tiles .tile"), what="the lobby")
    driver.execute_script("window.sessionStorage.clear();")
    driver.get(f"{address}/?lang={language}#")
    wait_for(lambda: driver.find_element("id", "puzzle-open").text, what="the start page")
    driver.find_element("id", "puzzle-open").click()
    return wait_for(
        lambda: (page := shown_puzzle(driver))["id"] > 0 and page["legal"] and page,
        what="the puzzle",
    )


def test_a_puzzle_solved_and_one_failed_by_clicks(
    chromium: WebDriver, local_server: LocalServer, tmp_path: Path
) -> None:
    folder = Path(SCREENSHOTS) if SCREENSHOTS else tmp_path
    folder.mkdir(parents=True, exist_ok=True)

    # English: the winning move, clicked
    page = open_puzzle(chromium, local_server.address, "en")
    puzzle = the_puzzle(page, local_server)
    assert page["lines"][0].startswith(f"Puzzle {page['id']} (")
    assert "to move and win" in page["lines"][0]
    before = rating_in(page["lines"])
    # the page offers exactly the engine's starting cells of the legal moves
    legal = puzzle.position().legal_moves()
    assert set(page["legal"]) == {re.split(r"[x+]", m)[0] for m in legal if CELL_MOVE.fullmatch(m)}
    screenshot(chromium, folder, "puzzle-open")
    answer_by_clicks(chromium, puzzle.first_move)
    solved = shown_puzzle(chromium)
    assert solved["verdict"] == "right"
    assert solved["verdictLines"][0] == f"Right! {puzzle.first_move} wins."
    assert solved["verdictLines"][1] == "The solution: " + " ".join(puzzle.solution)
    after = re.search(r"(\d+) → (\d+)\. Streak: (\d+)", solved["verdictLines"][2])
    assert after and int(after.group(1)) == before and int(after.group(2)) > before
    assert int(after.group(3)) >= 1
    # the line drawn: every step's stones at the cells the engine placed them, numbered
    assert [(n, cell) for n, cell, _ in solved["steps"]] == expected_steps(puzzle)
    assert all(text == str(n) for n, _, text in solved["steps"])
    assert solved["answer"] == []
    screenshot(chromium, folder, "puzzle-right")

    # German: a move that does not win, clicked; the next puzzle shows the new rating
    page = open_puzzle(chromium, local_server.address, "de")
    assert page["id"] != solved["id"]
    assert page["lines"][0].startswith(f"Rätsel {page['id']} (")
    rated = rating_in(page["lines"])
    assert rated == int(after.group(2))
    puzzle = the_puzzle(page, local_server)
    state = puzzle.position()
    wrong = next(
        m
        for m in sorted(state.legal_moves())
        if CELL_MOVE.fullmatch(m) and not answer_is_right(puzzle, m) and "x" not in m
    )
    answer_by_clicks(chromium, wrong)
    failed = shown_puzzle(chromium)
    assert failed["verdict"] == "wrong"
    assert failed["verdictLines"][0].startswith(f"Diesmal nicht: {wrong} erzwingt den Sieg nicht.")
    assert puzzle.first_move in failed["verdictLines"][0]
    assert failed["verdictLines"][1] == "Die Lösung: " + " ".join(puzzle.solution)
    lower = re.search(r"(\d+) → (\d+)\. Serie: 0", failed["verdictLines"][2])
    assert lower and int(lower.group(1)) == rated and int(lower.group(2)) < rated
    assert [(n, cell) for n, cell, _ in failed["steps"]] == expected_steps(puzzle)
    assert failed["answer"] == re.split(r"[x+]", wrong)
    screenshot(chromium, folder, "puzzle-wrong")
    # a second click answers nothing: the puzzle is closed
    click(chromium, wrong.split("+")[0])
    assert shown_puzzle(chromium)["verdict"] == "wrong"

    # the next puzzle, by its button, shows the rating after the failure
    chromium.find_element("id", "puzzle-next").click()
    following = wait_for(
        lambda: (
            (p := shown_puzzle(chromium))["id"] not in (page["id"], 0, -1)
            and not p["answered"]
            and p
        ),
        what="the next puzzle",
    )
    assert rating_in(following["lines"]) == int(lower.group(2))


def test_the_game_of_a_puzzle_is_chosen_and_the_puzzle_of_the_day_opened(
    chromium: WebDriver, tmp_path: Path
) -> None:
    """The puzzle page's game menu (any board game, or one) and the start page's puzzle of
    the day, in English then German: the day's puzzle is answered once, the second look at
    it says so in the member's language."""
    folder = Path(SCREENSHOTS) if SCREENSHOTS else tmp_path
    folder.mkdir(parents=True, exist_ok=True)
    server = LocalServer(tmp_path / "daily.sqlite3")  # its own: nobody answered today's yet
    try:
        page = open_puzzle(chromium, server.address, "en")
        menu = Select(chromium.find_element("id", "puzzle-game"))
        names = [(o.get_attribute("value"), o.text) for o in menu.options]
        assert names == [("", "Any game")] + [
            (game, translate("en", f"game.{game}.title")) for game in board_game_names()
        ]
        for game in ("les", "dalen"):
            menu.select_by_value(game)
            page = wait_for(
                lambda g=game: (p := shown_puzzle(chromium))["game"] == g and p["legal"] and p,
                what=f"a puzzle of {game}",
            )
            assert chromium.current_url.endswith(f"#puzzle={game}")
            the_puzzle(page, server)
            chromium.find_element("id", "puzzle-next").click()
            following = wait_for(
                lambda shown=page["id"]: (
                    (p := shown_puzzle(chromium))["id"] != shown and p["legal"] and p
                ),
                what="the next puzzle of the game",
            )
            assert following["game"] == game
        screenshot(chromium, folder, "puzzle-game-en")

        # the puzzle of the day, from the start page
        chromium.find_element("id", "puzzle-done").click()
        wait_for(lambda: chromium.find_element("id", "puzzle-daily").is_displayed())
        assert chromium.find_element("id", "puzzle-daily").text == "Today's puzzle"
        chromium.find_element("id", "puzzle-daily").click()
        daily = wait_for(
            lambda: (p := shown_puzzle(chromium))["daily"] and p["legal"] and p,
            what="the puzzle of the day",
        )
        puzzle = the_puzzle(daily, server)
        game = translate("en", f"game.{puzzle.game}.title")
        assert daily["lines"][0] == translate(
            "en", "bot.puzzle.daily", game=game, colour=puzzle.to_move
        )
        assert not chromium.find_element("id", "puzzle-game-row").is_displayed()
        screenshot(chromium, folder, "puzzle-daily-en")
        answer_by_clicks(chromium, puzzle.first_move)
        assert shown_puzzle(chromium)["verdict"] == "right"

        # German: the same member (the local player) has answered today's already
        chromium.execute_script("window.sessionStorage.clear();")
        chromium.get(f"{server.address}/?lang=de#")
        wait_for(lambda: chromium.find_element("id", "puzzle-daily").text == "Rätsel des Tages")
        chromium.find_element("id", "puzzle-daily").click()
        toast = wait_for(
            lambda: (box := chromium.find_element("id", "toast")).is_displayed() and box.text,
            what="the toast",
        )
        assert toast == translate("de", DAILY_DONE)
        # no puzzle to show: back on the start page, the refusal said
        wait_for(lambda: chromium.find_element("id", "lobby").is_displayed(), what="the start")
        screenshot(chromium, folder, "puzzle-daily-done-de")
        # the game menu in German; a chosen game's puzzle
        chromium.get(f"{server.address}/?lang=de#puzzle=lefe")
        page = wait_for(
            lambda: (p := shown_puzzle(chromium))["game"] == "lefe" and p["legal"] and p,
            what="a puzzle of Lefe",
        )
        menu = Select(chromium.find_element("id", "puzzle-game"))
        assert menu.first_selected_option.text == translate("de", "game.lefe.title")
        assert menu.options[0].text == "Jedes Spiel"
        screenshot(chromium, folder, "puzzle-game-de")
    finally:
        server.stop()
