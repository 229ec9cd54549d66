"""Suite-wide test configuration.

Hypothesis runs derandomized on CI (``CI`` set) so a red build is always reproducible;
locally it explores new examples on every run.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from typing import Any

import pytest
from hypothesis import HealthCheck, settings

settings.register_profile(
    "ci",
    deadline=None,
    derandomize=True,
    database=None,
    print_blob=True,
    suppress_health_check=[HealthCheck.too_slow],
)
settings.register_profile(
    "dev",
    deadline=None,
    print_blob=True,
    suppress_health_check=[HealthCheck.too_slow],
)
settings.load_profile("ci" if os.environ.get("CI") else "dev")


@pytest.fixture(scope="session")
def chromium() -> Iterator[Any]:
    """Debian's chromium, headless, once per test worker (the web table's browser tests;
    tests/web/browser.py): started on first use only."""
    from tests.web.browser import build_bundle, need_browser, start_chromium

    need_browser()
    build_bundle()
    driver = start_chromium()
    yield driver
    driver.quit()
