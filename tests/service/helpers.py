"""Shared helpers for the service tests: a clock the tests move by hand, service builders."""

from __future__ import annotations

from pathlib import Path

from babel.messages.pofile import read_po

from bot.common.choices import service_choices
from i18n.catalogues import po_path
from matchcore.service import MatchService, Update
from matchcore.storage import SqliteRepository, open_repository

GUILD = 1000
CHANNEL = 2000
ALICE, BOB, CAROL, DAVE, ERIN, FRANK = 11, 12, 13, 14, 15, 16
START_TIME = 1_700_000_000.0


class ManualClock:
    """A clock that only moves when a test says so."""

    def __init__(self, now: float = START_TIME) -> None:
        self.now = now

    def __call__(self) -> float:
        return self.now

    def advance(self, seconds: float) -> float:
        self.now += seconds
        return self.now


async def open_service(
    path: Path, clock: ManualClock, seed: int = 7, extra_audiences: tuple[str, ...] = ()
) -> tuple[SqliteRepository, MatchService]:
    repo = await open_repository(path)
    service = MatchService(
        repo,
        choices=service_choices(),
        clock=clock,
        seed_source=lambda: seed,
        extra_audiences=extra_audiences,
    )
    await service.start()
    return repo, service


async def start_board_match(
    service: MatchService,
    game: str = "lefe",
    first: int = ALICE,
    second: int = BOB,
    size: int | None = None,
    **options: object,
) -> Update:
    """A board match between two users, seat 0 = ``first``; returns the match_started update."""
    offer = await service.challenge(
        GUILD, CHANNEL, first, game, second, size=size, options=dict(options) or None
    )
    assert offer.challenge_id is not None
    return await service.accept_challenge(offer.challenge_id, second)


def catalogue_entries(language: str) -> dict[str, tuple[str, ...]]:
    """A language's catalogue as read from its .po file: each id's text (or plural texts)."""
    with po_path(language).open("rb") as handle:
        catalogue = read_po(handle, locale=language)
    entries = {}
    for message in catalogue:
        key = message.id if isinstance(message.id, str) else message.id[0]
        text = message.string
        entries[key] = (text,) if isinstance(text, str) else tuple(text)
    return entries
