"""Shared helpers for the service tests: a clock the tests move by hand, service builders."""

from __future__ import annotations

import ast
import weakref
from collections.abc import Sequence
from pathlib import Path

from babel.messages.pofile import read_po

from bot.common.choices import service_choices
from i18n.catalogues import po_path
from matchcore.service import MatchService, Update
from matchcore.storage import SqliteRepository, open_repository

SERVICE_PACKAGE = Path(__file__).resolve().parents[2] / "matchcore" / "service"

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


async def run_prune_pass(service: MatchService) -> dict[str, int]:
    """Call ``prune_due`` until this process's pass finishes (it must claim it): what it deleted. A call does
    a share of the pass bounded by wall time (``Retention.call_seconds``): how many calls a
    pass takes depends on the machine's load, never what the pass deletes."""
    for _ in range(1000):
        finished = await service.prune_due()
        if finished is not None:
            return finished
        if service.housekeeping.current is None:
            raise AssertionError("this process did not claim the pass")
    raise AssertionError("the pass never finished")


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


def service_calls(names: set[str]) -> list[tuple[str, int, ast.Call]]:
    """Every call, by its plain name, of one of ``names`` in matchcore/service's modules:
    (file, line, call), read from the source (the code and parameter checks of the service's
    refusals and lines)."""
    found = []
    for path in sorted(SERVICE_PACKAGE.glob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if (
                isinstance(node, ast.Call)
                and isinstance(node.func, ast.Name)
                and node.func.id in names
            ):
                found.append((path.name, node.lineno, node))
    return found


class BotAnswers:
    """The bot's turns the core plays by itself after a commit makes them due (it hands
    them to ``service.turns.listen``), gathered by match for a test to read."""

    def __init__(self, service: MatchService) -> None:
        self.service = service
        self.by_match: dict[int, list[Update]] = {}
        self.causes: list[int | None] = []
        service.turns.listen(self._heard)

    async def _heard(self, match_id: int, updates: Sequence[Update], cause: int | None) -> None:
        self.by_match.setdefault(match_id, []).extend(updates)
        self.causes.append(cause)

    async def take(self, match_id: int) -> list[Update]:
        """Wait until the core has played every bot turn due; what it played in the match."""
        await self.service.turns.idle()
        return self.by_match.pop(match_id, [])


_ANSWERS: weakref.WeakKeyDictionary[MatchService, BotAnswers] = weakref.WeakKeyDictionary()


def gather_bot_answers(service: MatchService) -> BotAnswers:
    """Start gathering the bot's turns of ``service`` (see :func:`bot_replies`)."""
    answers = _ANSWERS.get(service)
    if answers is None:
        answers = _ANSWERS[service] = BotAnswers(service)
    return answers


async def bot_replies(service: MatchService, match_id: int) -> list[Update]:
    """The bot's turns the core played in the match since it was last asked (waiting for
    every turn under way): what a front end is handed, in order."""
    return await gather_bot_answers(service).take(match_id)
