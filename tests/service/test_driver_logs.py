"""Embedding the service at DEBUG logs no hidden card, whoever configured the logging.

``bot.app.configure_logging`` caps the database drivers' loggers, but a script or a second
front end that builds its own :class:`MatchService` never calls it: the drivers' DEBUG lines
(every statement with its parameters: whole Leiff states) were all written (issue 31: 2,554
records naming cards in three games). The repository caps them when it opens its
connection, on SQLite and on PostgreSQL alike.
"""

from __future__ import annotations

import logging
import random
from collections.abc import AsyncIterator, Iterator
from pathlib import Path

import pytest

from bot.common.choices import service_choices
from engine import get_game
from engine.leiff import random_action
from matchcore.service import MatchService
from matchcore.storage import open_repository
from tests.bot.test_logging import SEED, Collector, record_text, secrets_of
from tests.postgres import fresh_database
from tests.service.helpers import ALICE, BOB, CAROL, CHANNEL, GUILD, ManualClock

DRIVERS = ("aiosqlite", "asyncpg", "asyncpg.pool")


@pytest.fixture
def embedder_logs() -> Iterator[Collector]:
    """Logging as a script would set it up: the root at DEBUG, nothing else touched (the
    drivers' loggers at NOTSET, as in a fresh process)."""
    root = logging.getLogger()
    saved = {name: logging.getLogger(name).level for name in ("", *DRIVERS)}
    saved_filters = {name: list(logging.getLogger(name).filters) for name in DRIVERS}
    for name in DRIVERS:
        logging.getLogger(name).setLevel(logging.NOTSET)
        for existing in saved_filters[name]:
            logging.getLogger(name).removeFilter(existing)
    collector = Collector()
    root.addHandler(collector)
    root.setLevel(logging.DEBUG)
    try:
        yield collector
    finally:
        root.removeHandler(collector)
        for name, level in saved.items():
            logging.getLogger(name).setLevel(level)
        for name, filters in saved_filters.items():
            logger = logging.getLogger(name)
            for added in [f for f in logger.filters if f not in filters]:
                logger.removeFilter(added)
            for existing in filters:
                logger.addFilter(existing)


@pytest.fixture(params=("sqlite", "postgresql"))
async def database_url(request: pytest.FixtureRequest, tmp_path: Path) -> AsyncIterator[str]:
    if request.param == "sqlite":
        yield f"sqlite:///{tmp_path / 'embedded.sqlite3'}"
        return
    async with fresh_database() as url:
        yield url


async def test_an_embedded_service_at_debug_logs_no_card(
    database_url: str, embedder_logs: Collector
) -> None:
    repo = await open_repository(database_url)
    try:
        service = MatchService(
            repo, choices=service_choices(), clock=ManualClock(), seed_source=lambda: SEED
        )
        await service.start()
        opened = await service.open_lobby(GUILD, CHANNEL, ALICE)
        for user in (BOB, CAROL):
            await service.join_lobby(opened.match_id, user)
        await service.start_lobby(opened.match_id, ALICE)
        players = (ALICE, BOB, CAROL)
        rng = random.Random(5)
        secrets: set[str] = set()
        for _ in range(40):
            record = await repo.get_match(opened.match_id)
            state = get_game("leiff").from_json(record.state)
            secrets.update(secrets_of(state))
            if state.outcome is not None:
                break
            seat, action = random_action(state, rng)
            await service.play(opened.match_id, players[seat], action)
    finally:
        await repo.close()

    assert logging.getLogger("matchcore.service").isEnabledFor(logging.DEBUG)
    assert len(secrets) > 10
    for record in embedder_logs.records:
        text = record_text(record)
        leaked = [secret for secret in secrets if secret in text]
        assert not leaked, f"log record of {record.name!r} holds hidden state {leaked}: {text!r}"


async def test_the_cap_holds_when_the_driver_logger_is_later_set_to_debug(
    tmp_path: Path, embedder_logs: Collector
) -> None:
    repo = await open_repository(tmp_path / "later.sqlite3")
    try:
        logging.getLogger("aiosqlite").setLevel(logging.DEBUG)  # an embedder's "see it all"
        await repo.set_member_language(ALICE, "de", 1.0)  # runs through aiosqlite's thread
        assert await repo.member_languages([ALICE]) == {ALICE: "de"}
    finally:
        await repo.close()
    driver_lines = [r for r in embedder_logs.records if r.name.startswith("aiosqlite")]
    assert driver_lines == []
