"""Logs never hold hidden state: a Leiff game played at ``LOG_LEVEL=DEBUG`` through the real
stack (the simulator, discord.py, the service, SQLite) leaves no hand, seed or draw pile in
any log record."""

from __future__ import annotations

import json
import logging
from collections.abc import Iterator

import pytest

from bot.app import configure_logging
from tests.bot.leiff_driver import LeiffTable
from tests.bot.test_leiff import open_table

SEED = 987_654_321_987  # distinctive: a hit in a log line cannot be a coincidence


class Collector(logging.Handler):
    def __init__(self) -> None:
        super().__init__(level=logging.DEBUG)
        self.records: list[logging.LogRecord] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.records.append(record)


@pytest.fixture
def debug_logs() -> Iterator[Collector]:
    """``configure_logging("DEBUG")`` as ``make run`` calls it; every record is kept."""
    names = ["", "discord", "aiosqlite", "asyncpg"]
    saved = {name: logging.getLogger(name).level for name in names}
    collector = Collector()
    root = logging.getLogger()
    root.addHandler(collector)
    configure_logging("DEBUG")
    try:
        yield collector
    finally:
        root.removeHandler(collector)
        for name, level in saved.items():
            logging.getLogger(name).setLevel(level)


def secrets_of(state) -> list[str]:
    """Texts that would give away hidden state if a log line contained them."""
    truth = json.loads(state.to_json())
    found = [str(SEED)]
    draw = truth["draw"]
    for separator in (",", ", "):
        if len(draw) >= 3:
            found.append(separator.join(str(card) for card in draw[-6:]))
        for hand in truth["hands"]:
            if len(hand) >= 2:
                found.append(separator.join(str(card) for card in hand))
    for hand in state.hands:  # the labels, as a list would print them
        if len(hand) >= 2:
            found.append(json.dumps(hand))
            found.append(repr(hand))
    for event in state.events:
        if event["audience"] != "all":
            found.append(event["text"])
    return found


def record_text(record: logging.LogRecord) -> str:
    text = record.getMessage()
    if record.exc_info:
        text += logging.Formatter().formatException(record.exc_info)
    return text


def private_lines(sim) -> list[str]:
    """Lines of the players' private messages (DMs, ephemeral answers) that name a card,
    in whatever language they were written."""
    found = []
    for message in sim.all_messages:
        if message.channel.is_dm or message.visible_to is not None:
            found += [line for line in message.text.split("\n") if "[" in line]
    return found


# A whole game in one channel: its point is the flow, not the limits (see conftest).
@pytest.mark.compressed_rate_limits
async def test_a_leiff_game_at_debug_logs_no_hand_seed_or_draw_pile(
    sim, world, language, make_bot, debug_logs
):
    assert logging.getLogger("bot").getEffectiveLevel() == logging.DEBUG
    handle = await sim.start_bot(lambda: make_bot(seed_source=lambda: SEED))
    players = [world.alice, world.bob, world.carol]
    match_id, _ = await open_table(sim, world, players, language)
    table = LeiffTable(
        sim,
        handle,
        match_id,
        players,
        world.channel,
        channel_language=language,
        languages={user.id: language for user in players},
    )
    await table.audit()
    secrets: set[str] = set()
    for _ in range(12):
        state = await table.state()
        secrets.update(secrets_of(state))
        waiting = state.waiting_for()
        if not waiting["owners"] or state.outcome is not None:
            break
        owner = waiting["owners"][0]
        await table.act(players[owner], state.default_action(owner))
    secrets.update(secrets_of(await table.state()))
    secrets.update(private_lines(sim))
    await handle.stop()

    assert len(debug_logs.records) > 20, "the game logged almost nothing: not at DEBUG?"
    for record in debug_logs.records:
        text = record_text(record)
        leaked = [secret for secret in secrets if secret in text]
        assert not leaked, f"log record of {record.name!r} holds hidden state {leaked}: {text!r}"
