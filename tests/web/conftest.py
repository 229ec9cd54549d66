"""The web table's fixtures: one local server and one chromium per test worker (started
once, shared by the browser tests of that worker)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from selenium.webdriver.remote.webdriver import WebDriver

from tests.web.browser import LocalServer, build_bundle, need_browser, start_chromium


@pytest.fixture(scope="session")
def local_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LocalServer]:
    build_bundle()
    server = LocalServer(tmp_path_factory.mktemp("web") / "local.sqlite3")
    yield server
    server.stop()


@pytest.fixture(scope="session")
def chromium() -> Iterator[WebDriver]:
    need_browser()
    build_bundle()
    driver = start_chromium()
    yield driver
    driver.quit()
