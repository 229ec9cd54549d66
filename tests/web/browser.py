"""Driving the web table in a real browser: Debian's chromium, headless, through its
chromedriver (Selenium). Nothing downloads a browser; without chromium the browser tests
skip, unless ``LEAFBOT_REQUIRE_BROWSER`` is set (CI), where they fail."""

from __future__ import annotations

import asyncio
import contextlib
import os
import shutil
import socket
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from selenium import webdriver
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.remote.webdriver import WebDriver
from selenium.webdriver.remote.webelement import WebElement

ROOT = Path(__file__).resolve().parents[2]
CHROMIUM = "/usr/bin/chromium"
CHROMEDRIVER = "/usr/bin/chromedriver"
BUNDLE = ROOT / "web" / "static" / "app.js"


def need_browser() -> None:
    """Skip (or, on CI, fail) when Debian's chromium and chromedriver are missing."""
    if Path(CHROMIUM).exists() and Path(CHROMEDRIVER).exists():
        return
    message = "Debian's chromium and chromium-driver are needed (apt-get install chromium chromium-driver)"
    if os.environ.get("LEAFBOT_REQUIRE_BROWSER"):
        pytest.fail(message)
    pytest.skip(message)


def build_bundle() -> None:
    """The page's bundle, built by ``make web`` when it is missing or older than its
    sources (a test run without ``make test`` before it)."""
    sources = list((ROOT / "web" / "frontend" / "src").glob("*.ts"))
    if BUNDLE.exists() and all(s.stat().st_mtime <= BUNDLE.stat().st_mtime for s in sources):
        return
    subprocess.run(["make", "web"], cwd=ROOT, check=True, stdout=subprocess.DEVNULL)


def start_chromium(width: int = 1280, height: int = 900) -> WebDriver:
    options = webdriver.ChromeOptions()
    options.binary_location = CHROMIUM
    for flag in (
        "--headless=new",
        "--no-sandbox",
        "--disable-gpu",
        "--disable-quic",
        "--no-first-run",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
        "--disable-dev-shm-usage",
        f"--window-size={width},{height}",
        f"--user-data-dir={tempfile.mkdtemp(prefix='leafbot-chromium-')}",
    ):
        options.add_argument(flag)
    driver = webdriver.Chrome(service=Service(CHROMEDRIVER), options=options)
    driver.set_page_load_timeout(30)
    return driver


class LocalServer:
    """``python -m bot`` without a token (what ``make run`` does without Discord): the web
    table alone, on a SQLite file of its own (or the database at ``url``, its log beside
    ``database``) and a free port."""

    def __init__(
        self, database: Path, url: str | None = None, environ: dict[str, str] | None = None
    ) -> None:
        env = {
            **os.environ,
            **(environ or {}),
            "DISCORD_TOKEN": "",
            "DATABASE_URL": url or f"sqlite:///{database}",
            "WEB_HOST": "127.0.0.1",
            "WEB_PORT": "0",
            "AI_WORKERS": "1",
            "LOG_LEVEL": "INFO",
        }
        self.database = database  # the SQLite file (unused when ``url`` names another)
        self.log = database.with_suffix(".log")
        self.process = subprocess.Popen(
            [sys.executable, "-m", "bot"],
            cwd=ROOT,
            env=env,
            stdout=subprocess.PIPE,
            stderr=self.log.open("w"),
            text=True,
        )
        self.address = self.said = ""
        assert self.process.stdout is not None
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            line = self.process.stdout.readline()
            if not line:
                break
            if "http://" in line:
                self.address = line[line.index("http://") :].split()[0]
                self.said = line.strip()  # the line saying where the table is
                break
        if not self.address:
            self.stop()
            raise RuntimeError(f"the local web table did not start: {self.log.read_text()}")

    def stop(self) -> None:
        if self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(20)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()


def wait_for(
    condition: Callable[[], Any],
    timeout: float = 20.0,
    what: str = "the page",
    describe: Callable[[], str] | None = None,
) -> Any:
    """Poll ``condition`` until it returns something true; fail after ``timeout`` s, saying
    what ``describe`` finds then (what the page shows, the server's log)."""
    deadline = time.monotonic() + timeout
    while True:
        value = condition()
        if value:
            return value
        if time.monotonic() > deadline:
            found = f": {describe()}" if describe is not None else ""
            raise AssertionError(f"timed out waiting for {what}{found}")
        time.sleep(0.03)


def board_state(driver: WebDriver) -> dict[str, Any]:
    """What the board shows now: its match, whether it is shown, the version, whose turn,
    the legal and target cells, the stones, the status line."""
    result: dict[str, Any] = driver.execute_script(
        """
        const board = document.getElementById('board');
        const cells = [...board.querySelectorAll('[data-cell]')];
        return {
          // the board stays drawn (hidden) when the page leaves its match: which one it is
          match: Number(board.dataset.match || -1),
          shown: !document.getElementById('table').hidden,
          version: Number(board.dataset.version || -1),
          yourTurn: board.dataset.yourTurn === 'true',
          legal: cells.filter(c => c.classList.contains('legal')).map(c => c.dataset.cell),
          targets: cells.filter(c => c.classList.contains('target')).map(c => c.dataset.cell),
          stones: Object.fromEntries(cells.filter(c => c.dataset.stone).map(c => [c.dataset.cell, c.dataset.stone])),
          status: document.getElementById('status').textContent,
          rematch: !document.getElementById('rematch').hidden,
          specials: [...document.querySelectorAll('#choice [data-move]')].map(b => b.dataset.move),
          moves: document.querySelectorAll('#moves li').length,
        };
        """
    )
    return result


def click_cell(driver: WebDriver, cell: str) -> None:
    """A real click at the cell's centre, as a finger or a mouse would. The board (the
    ``svg``, which is never redrawn) is the anchor: the cells under the pointer are redrawn
    when it enters the board (the legal cells are shown on hover)."""
    board: WebElement = driver.find_element("id", "board")
    dx, dy = driver.execute_script(
        """
        const board = document.getElementById('board').getBoundingClientRect();
        const cell = document.querySelector(`#board [data-cell="${arguments[0]}"] .hit`)
            .getBoundingClientRect();
        return [cell.x + cell.width / 2 - (board.x + board.width / 2),
                cell.y + cell.height / 2 - (board.y + board.height / 2)];
        """,
        cell,
    )
    webdriver.ActionChains(driver).move_to_element_with_offset(
        board, round(dx), round(dy)
    ).click().perform()


def chromium_available() -> bool:
    return shutil.which("chromium") is not None


class Proxy:
    """A TCP proxy between the browser and the server that the test can cut: every open
    connection drops at once, and new ones are refused until :meth:`resume` (a network that
    goes away and comes back)."""

    def __init__(self, target_port: int) -> None:
        self.target_port = target_port
        self.listener = socket.create_server(("127.0.0.1", 0))
        self.port = self.listener.getsockname()[1]
        self.refusing = False
        self.open: list[socket.socket] = []
        self.lock = threading.Lock()
        threading.Thread(target=self._accept, daemon=True).start()

    def _accept(self) -> None:
        while True:
            try:
                incoming, _ = self.listener.accept()
            except OSError:
                return
            if self.refusing:
                incoming.close()
                continue
            outgoing = socket.create_connection(("127.0.0.1", self.target_port))
            with self.lock:
                self.open += [incoming, outgoing]
            for a, b in ((incoming, outgoing), (outgoing, incoming)):
                threading.Thread(target=self._pump, args=(a, b), daemon=True).start()

    def _pump(self, source: socket.socket, sink: socket.socket) -> None:
        try:
            while data := source.recv(65536):
                sink.sendall(data)
        except OSError:
            pass
        for end in (source, sink):
            with contextlib.suppress(OSError):
                end.shutdown(socket.SHUT_RDWR)

    def cut(self) -> None:
        self.refusing = True
        with self.lock:
            for connection in self.open:
                with contextlib.suppress(OSError):
                    connection.shutdown(socket.SHUT_RDWR)
                connection.close()
            self.open.clear()

    def resume(self) -> None:
        self.refusing = False

    def close(self) -> None:
        self.cut()
        self.listener.close()


def click_css(driver: WebDriver, css: str, timeout: float = 20.0) -> None:
    """Click the element ``css`` finds, again if the page redrew it meanwhile (a live table
    redraws its controls with every frame: another player's move may land mid-click)."""
    from selenium.common.exceptions import StaleElementReferenceException

    deadline = time.monotonic() + timeout
    while True:
        try:
            driver.find_element("css selector", css).click()
            return
        except StaleElementReferenceException:
            if time.monotonic() > deadline:
                raise
            time.sleep(0.03)


async def until(condition: Callable[[], Any], what: str, timeout: float = 30.0) -> Any:
    """Poll a blocking ``condition`` (a browser) off the event loop a bot runs on."""
    deadline = asyncio.get_running_loop().time() + timeout
    while True:
        value = await asyncio.to_thread(condition)
        if value:
            return value
        if asyncio.get_running_loop().time() > deadline:
            raise AssertionError(f"timed out waiting for {what}")
        await asyncio.sleep(0.05)
