"""A daily Swiss through the simulator: a day a move, played over simulated days in the
event's thread, turn DMs that link the game in that thread, the rounds paired as games end,
and the results rated in the daily pool. Time is the service's injected clock."""

from __future__ import annotations

from typing import Any

import pytest

from i18n import translate
from matchcore.service.turn_notices import EVERY_SECONDS, NOTICE_AFTER_SECONDS
from tests.bot.helpers import pick_move, stored_state
from tests.bot.test_tournaments import create, members

pytestmark = pytest.mark.compressed_rate_limits

DAY = 86400.0


async def test_a_daily_swiss_runs_over_days_with_turn_dms(sim: Any, world: Any, bot: Any) -> None:
    players = members(sim, world, 4)
    users = {p.id: p for p in players}
    alice = world.alice
    asked = await sim.slash(alice, "prefs", turn_dms=translate("en", "typed.on").split("|")[0])
    assert translate("en", "bot.prefs.turn_dms.on") in asked.text
    event = await create(
        sim, world, bot, game="dalen", format="swiss", rounds=2, size=5, clock="move:86400"
    )
    await event.join(players)
    await sim.slash(world.admin, "tournament start", tournament=event.id)
    await event.settle()
    running = await event.running()
    assert len(running) == 2
    for match_id in running.values():
        match = await event.service.get_match(match_id)
        assert match.time_control == "move:86400"
        assert match.thread_id == event.thread.id  # played in the event's thread

    # Alice's game: her opponent moves first if it is theirs, then she is to move
    (alices,) = [
        m
        for m in running.values()
        if alice.id in [s.user_id for s in (await event.service.get_match(m)).seats]
    ]
    match = await event.service.get_match(alices)
    seats = [users[s.user_id] for s in match.seats]
    state = await stored_state(bot, alices)
    if seats[state.seat_to_move] is not alice:
        mover = seats[state.seat_to_move]
        moved = await sim.slash(
            mover, "move", cell=pick_move(state, event.rng), match=alices, channel=event.thread
        )
        assert not moved.ephemeral, moved.text

    # hours pass: a day a move is not a live clock, nobody forfeits; Alice gets one turn DM
    # that links her game's board in the event's thread
    before = len(sim.dms(alice))
    await event.tick(NOTICE_AFTER_SECONDS + EVERY_SECONDS)
    (notice,) = sim.dms(alice)[before:]
    assert f"#{alices} " in notice.text
    assert f"https://discord.com/channels/{world.guild.id}/{event.thread.id}/" in notice.text
    assert notice.attachments
    await event.tick(0.5 * DAY)
    assert set((await event.running()).values()) == set(running.values())
    info = await event.info()
    assert info.status == "running" and info.round == 1
    assert all(r.withdrawn is None for r in info.standings)

    # the games end over the next days; the second round is paired as the first ends
    assert await event.play_out(users) >= 2
    info = await event.info()
    assert info.status == "finished" and info.round == 2
    # rated: the games count in the daily pool, none in the live one
    daily = await event.service.leaderboard(world.guild.id, "dalen", limit=10, pool="daily")
    assert len(daily) == 4
    assert await event.service.leaderboard(world.guild.id, "dalen", pool="live") == []
    sim.assert_no_bot_errors()
