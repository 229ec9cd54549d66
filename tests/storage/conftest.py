"""The contract suite's fixture: the same tests over every back end.

``repo_url`` is a fresh database per test: a new SQLite file, or a new uniquely named
PostgreSQL database (skipped, with a reason, when no server answers locally; failed
instead under ``LEAFBOT_REQUIRE_POSTGRES=1``).
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from matchcore.storage import Repository, open_repository
from tests.postgres import fresh_database

BACKENDS = ("sqlite", "postgresql")


@pytest.fixture(params=BACKENDS)
async def repo_url(request: pytest.FixtureRequest, tmp_path: Path) -> AsyncIterator[str]:
    if request.param == "sqlite":
        yield f"sqlite:///{tmp_path / 'contract.sqlite3'}"
        return
    async with fresh_database() as url:
        yield url


@pytest.fixture
async def repo(repo_url: str) -> AsyncIterator[Repository]:
    repository = await open_repository(repo_url)
    yield repository
    await repository.close()
