"""Fixtures: a fresh SQLite file per test, a manual clock and a started service."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from matchcore.service import MatchService
from tests.service.helpers import ManualClock, open_service


@pytest.fixture
def clock() -> ManualClock:
    return ManualClock()


@pytest.fixture
def db_path(tmp_path: Path) -> Path:
    return tmp_path / "bot.sqlite3"


@pytest.fixture
async def service(db_path: Path, clock: ManualClock) -> AsyncIterator[MatchService]:
    repo, started = await open_service(db_path, clock)
    yield started
    await repo.close()
