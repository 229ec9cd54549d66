"""Throw-away PostgreSQL databases for tests: one uniquely named database per test.

Several people (and CI) run the suite on one machine at once, so nothing shares a fixed
name: each test creates ``leafbot_t_<pid>_<random>`` and drops it afterwards. The server
is the local default (``LEAFBOT_TEST_POSTGRES``, default
``postgresql://postgres@127.0.0.1:5432/postgres``). When it does not answer, PostgreSQL
tests are skipped with a reason, unless ``LEAFBOT_REQUIRE_POSTGRES=1`` (set by ``.ci/run``)
makes them fail instead.
"""

from __future__ import annotations

import os
import secrets
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

import asyncpg
import pytest

ADMIN_URL = os.environ.get("LEAFBOT_TEST_POSTGRES", "postgresql://postgres@127.0.0.1:5432/postgres")
REQUIRED = os.environ.get("LEAFBOT_REQUIRE_POSTGRES", "") not in ("", "0")


def _with_database(url: str, name: str) -> str:
    base, _, _ = url.rpartition("/")
    return f"{base}/{name}"


async def _admin() -> asyncpg.Connection:
    try:
        return await asyncpg.connect(ADMIN_URL, timeout=5)
    except (OSError, asyncpg.PostgresError, TimeoutError) as error:
        message = f"PostgreSQL does not answer at {ADMIN_URL} ({error})"
        if REQUIRED:
            pytest.fail(message + "; LEAFBOT_REQUIRE_POSTGRES is set, so this fails")
        pytest.skip(message + ": PostgreSQL tests skipped")


@asynccontextmanager
async def fresh_database() -> AsyncIterator[str]:
    """The URL of a new empty database, dropped (with its connections) on the way out."""
    name = f"leafbot_t_{os.getpid()}_{secrets.token_hex(6)}"
    admin = await _admin()
    try:
        await admin.execute(f'CREATE DATABASE "{name}"')
    finally:
        await admin.close()
    try:
        yield _with_database(ADMIN_URL, name)
    finally:
        admin = await _admin()
        try:
            await admin.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        finally:
            await admin.close()
