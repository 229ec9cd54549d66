"""The reminder before a board move's time runs out says the time left as ``/settings``
writes times, in the reader's units: "3 days 11 h" / "3 Tage 11 Std." for a long clock
(it read "83 h 00 min"), "5 h 59 min" under a day, never zero-padded minutes."""

from __future__ import annotations

import re

from i18n import translate
from i18n.typed import write_duration

DAY = 86400


async def reminder_after(sim, world, bot, clock, language: str, waited: float) -> tuple[str, int]:
    """Alice challenges Bob (Dalen), both accept and Alice moves; ``waited`` seconds later
    the clock ticks: the reminder's text and the match."""
    offer = (
        await sim.slash(world.alice, "play", game="dalen", opponent=world.bob, size=5)
    ).last_message
    accept = translate(language, "bot.challenge.button.accept")
    board = (await sim.click(world.bob, offer, accept)).last_message
    match_id = int(re.search(r"#(\d+)", board.text).group(1))
    await sim.slash(world.alice, "move", cell="e5")
    clock.advance(waited)
    assert await bot.client.tick_once() == 1
    return world.channel.messages[-1].text, match_id


def said(language: str, who, seconds: int, match_id: int) -> str:
    time = write_duration(language, seconds)
    return translate(
        language, "service.say.warning_match", who=f"<@{who.id}>", time=time, id=match_id
    )


async def test_a_long_clock_s_reminder_counts_days_and_hours(sim, world, language, bot, clock):
    await sim.slash(world.admin, "settings", key="board_move_seconds", value="14 days")
    # 3 days 11 h 22 min 55 s are left: days and whole hours
    waited = 14 * DAY - (3 * DAY + 11 * 3600 + 22 * 60 + 55)
    text, match_id = await reminder_after(sim, world, bot, clock, language, waited)
    assert said(language, world.bob, 3 * DAY + 11 * 3600, match_id) in text, text
    line = re.sub(r"<@\d+>", "", text.split("\n")[1])  # without the mention's digits
    assert " 00 " not in line and "83" not in line, text
    sim.assert_no_bot_errors()


async def test_a_day_s_reminder_counts_hours_and_minutes(sim, world, language, bot, clock):
    # 5 h 59 min 30 s are left of the default day: hours and whole minutes
    text, match_id = await reminder_after(sim, world, bot, clock, language, DAY - 21570)
    assert said(language, world.bob, 5 * 3600 + 59 * 60, match_id) in text, text
    sim.assert_no_bot_errors()
