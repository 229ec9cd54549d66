"""A daily match over many simulated days through the real client (issue 35), in English
and in German: turn DMs with the board picture, the time left and a link to the match's
message, grouped when several matches wait, a reminder before the deadline, one per turn
across a restart, none for a member who left them off; a vacation that stops the clock,
which the opponent sees on the board, and that the server caps.

Time is the service's injected clock (``clock.advance``): a simulated day is one call."""

from __future__ import annotations

import io
import re
from collections.abc import Callable
from typing import Any

from PIL import Image

from bot.app import LeafBot
from i18n import translate
from matchcore.service.turn_notices import EVERY_SECONDS, NOTICE_AFTER_SECONDS

DAY = 86400.0


def match_number(message: Any) -> int:
    return int(re.search(r"#(\d+)", message.text).group(1))


async def daily_match(sim: Any, language: str, first: Any, second: Any, game: str) -> int:
    offer = (
        await sim.slash(first, "play", game=game, opponent=second, clock="move:259200")
    ).last_message
    accept = translate(language, "bot.challenge.button.accept")
    return match_number((await sim.click(second, offer, accept)).last_message)


async def tick(handle: Any, clock: Any, seconds: float) -> None:
    """Time passes; the clock ticks (turn DMs are looked for at most every 30 s)."""
    clock.advance(seconds)
    await handle.client.tick_once()


async def test_a_daily_match_over_days_with_turn_dms_a_reminder_and_a_vacation(
    sim: Any,
    world: Any,
    language: str,
    make_bot: Callable[..., LeafBot],
    clock: Any,
) -> None:
    alice, bob, carol = world.alice, world.bob, world.carol
    handle = await sim.start_bot(make_bot)
    await sim.slash(world.admin, "settings", key="challenge_cooldown_seconds", value="0")
    await sim.slash(world.admin, "settings", key="vacation_days", value="5")
    on = translate(language, "typed.on").split("|")[0]
    asked = await sim.slash(alice, "prefs", turn_dms=on)
    assert translate(language, "bot.prefs.turn_dms.on") in asked.text
    # Bob leaves them off (the default): he never gets one

    lefe = await daily_match(sim, language, alice, bob, "lefe")  # Alice to move
    dalen = await daily_match(sim, language, alice, carol, "dalen")  # Alice to move
    before = len(sim.dms(alice))
    await tick(handle, clock, NOTICE_AFTER_SECONDS + EVERY_SECONDS)
    (notice,) = sim.dms(alice)[before:]  # both matches in one DM
    assert notice.text.startswith(translate(language, "bot.turn_dm.several", count=2))
    link = f"https://discord.com/channels/{world.guild.id}/{world.channel.id}/"
    assert notice.text.count(link) == 2
    assert f"#{lefe} " in notice.text and f"#{dalen} " in notice.text
    picture = Image.open(io.BytesIO(notice.attachments[0].data))
    assert picture.format == "PNG" and picture.width >= 300
    await tick(handle, clock, EVERY_SECONDS)
    assert len(sim.dms(alice)) == before + 1  # one per turn

    # Alice moves in both; Bob and Carol (turn DMs off) get none
    await sim.slash(alice, "move", cell="e5", match=lefe)
    await sim.slash(alice, "move", cell="e5", match=dalen)
    await tick(handle, clock, DAY)
    assert sim.dms(bob) == [] and sim.dms(carol) == []
    await sim.slash(bob, "move", cell="c3")  # Alice's turn again in Lefe: a DM
    await tick(handle, clock, NOTICE_AFTER_SECONDS + EVERY_SECONDS)
    (notice,) = sim.dms(alice)[before + 1 :]
    assert notice.text.startswith(
        translate(language, "bot.turn_dm.one", game="Lefe", match=lefe, players="bob")
    )
    assert notice.attachments  # the board as the channel shows it

    # A restart: the notice is not sent again, the reminder comes once when a quarter is left
    handle = await sim.restart_bot(make_bot)
    await tick(handle, clock, EVERY_SECONDS)
    assert len(sim.dms(alice)) == before + 2
    await tick(handle, clock, 0.75 * 3 * DAY)
    reminder = sim.dms(alice)[-1]
    assert len(sim.dms(alice)) == before + 3
    head = translate(language, "bot.turn_dm.one", game="Lefe", match=lefe, players="bob")
    assert reminder.text.startswith(translate(language, "bot.turn_dm.reminder", text=head))
    await tick(handle, clock, EVERY_SECONDS)
    assert len(sim.dms(alice)) == before + 3

    # Vacation: 10 days asked, the server gives 5; Bob sees it on the board
    went = await sim.slash(alice, "prefs", vacation=10)
    assert went.ephemeral
    board = world.channel.messages[-1]
    assert f"#{lefe}" in board.text
    until = clock.now + 5 * DAY
    assert (
        translate(language, "bot.board.away", who="**alice**", time=f"<t:{int(until)}:f>")
        in board.text
    )
    match = await handle.client.service.get_match(lefe)
    left = match.deadline_at - until
    assert 0 < left < 0.25 * 3 * DAY + 1  # what was left when she went
    await tick(handle, clock, 5 * DAY)  # away: nothing runs out, no DM
    assert (await handle.client.service.get_match(lefe)).status == "running"
    assert len(sim.dms(alice)) == before + 3, [m.text for m in sim.dms(alice)[before + 3 :]]
    # back: her clock runs again from where it stopped
    await tick(handle, clock, left + 1)
    finished = await handle.client.service.get_match(lefe)
    assert finished.status == "finished" and finished.result is not None
    assert finished.result["winners"] == [bob.id]
    sim.assert_no_bot_errors()
