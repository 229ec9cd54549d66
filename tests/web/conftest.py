"""The web table's fixtures: one local server per test worker (started once, shared by the
browser tests of that worker; the browser itself is tests/conftest.py's ``chromium``)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from tests.web.browser import LocalServer, build_bundle


@pytest.fixture(scope="session")
def local_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LocalServer]:
    build_bundle()
    server = LocalServer(tmp_path_factory.mktemp("web") / "local.sqlite3")
    yield server
    server.stop()
