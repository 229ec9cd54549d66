"""A season's final standings are posted once in the server's chosen channel when it closes
(``/settings season_channel``), through the simulator, in both languages: the season's name,
each game and pool's best places as ``/leaderboard season:`` shows them, pinging nobody;
never a second time, not at the next tick, not after a restart, not after a process killed
between posting and saying so (the next claim finds the post)."""

from __future__ import annotations

import asyncio
import re
from typing import Any

import discord_sim.server
from bot.common.time_words import pool_words
from bot.features.settings.values import setting_name
from i18n import month_text, translate
from matchcore.service.season_calendar import CLOSE_GRACE_SECONDS
from tests.bot.conftest import Clock
from tests.bot.helpers import pinged
from tests.bot.test_profile import FEBRUARY, beat


async def seasons_posted_in(sim: Any, world: Any, language: str) -> None:
    """The admin turns monthly seasons on and picks the second channel for their posts."""
    kind = translate(language, "bot.season_kind.monthly")
    await sim.slash(world.admin, "settings", key="season", value=kind)
    channel = world.other_channel
    offered = await sim.autocomplete(
        world.admin, "settings", option="value", value=channel.name[:3], key="season_channel"
    )
    assert f"<#{channel.id}>" in {c["value"] for c in offered}
    changed = await sim.slash(
        world.admin, "settings", key="season_channel", value=f"<#{channel.id}>"
    )
    assert changed.ephemeral
    assert f"{setting_name(language, 'season_channel')}: **<#{channel.id}>**" in changed.text


def posts(world: Any) -> list[Any]:
    return [m for m in world.other_channel.public_messages]


async def test_a_closed_season_is_posted_once_in_the_chosen_channel(
    sim: Any, world: Any, language: str, bot: Any, clock: Clock, make_bot: Any
) -> None:
    await seasons_posted_in(sim, world, language)
    await beat(sim, bot, world, clock, language, world.alice)
    await beat(sim, bot, world, clock, language, world.alice)
    await beat(sim, bot, world, clock, language, world.bob)
    clock.now = FEBRUARY + CLOSE_GRACE_SECONDS - 5  # ended, not closed yet: nothing posted
    await bot.client.tick_once()
    assert posts(world) == []
    clock.now = FEBRUARY + CLOSE_GRACE_SECONDS + 1
    await bot.client.tick_once()

    (post,) = posts(world)
    january = month_text(language, 2027, 1)
    lines = post.text.split("\n")
    assert lines[0] == translate(language, "bot.season.post.title", season=january)
    assert lines[1] == f"**Lefe · {pool_words(language, 'daily')}**"
    assert re.findall(r"^\d+\. (\w+):", post.text, flags=re.MULTILINE) == ["alice", "bob"]
    assert lines[-1] == translate(language, "bot.season.post.more")
    assert pinged(post) == set() and not post.attachments
    # the post shows what /leaderboard season: shows
    final = (
        await sim.slash(world.carol, "leaderboard", game="lefe", season="2027-01")
    ).last_message
    assert lines[2] in final.text and lines[3] in final.text

    # never again: not at the next ticks, not after a restart
    await bot.client.tick_once()
    clock.advance(3600)
    handle = await sim.restart_bot(make_bot)
    await handle.client.tick_once()
    assert [m.id for m in posts(world)] == [post.id]
    assert not world.channel.public_messages[-1].text.startswith(lines[0])
    sim.assert_no_bot_errors()


async def test_a_process_killed_after_posting_leaves_no_second_post(
    sim: Any, world: Any, clock: Clock, make_bot: Any, monkeypatch: Any
) -> None:
    lease = Clock()
    handle = await sim.start_bot(lambda: make_bot(lease_clock=lease))
    await seasons_posted_in(sim, world, "en")
    await beat(sim, handle, world, clock, "en", world.alice)
    clock.now = FEBRUARY + CLOSE_GRACE_SECONDS + 1
    # Discord makes the post but answers late: the process dies before it hears of it
    sim.slow_answer(f"POST /channels/{world.other_channel.id}/messages", seconds=30)
    ticking = asyncio.create_task(handle.client.tick_once())
    for _ in range(100):
        if posts(world):
            break
        await asyncio.sleep(0.05)
    assert len(posts(world)) == 1
    await handle.stop()
    ticking.cancel()
    await asyncio.gather(ticking, return_exceptions=True)

    # the lease runs out after Discord forgot the post's nonce (its minutes have passed)
    monkeypatch.setattr(discord_sim.server, "NONCE_SECONDS", 0.0)
    handle = await sim.start_bot(lambda: make_bot(lease_clock=lease))
    await handle.client.tick_once()  # the dead process's claim still holds: nothing
    service = handle.client.service
    assert len(posts(world)) == 1
    lease.advance(service.store.claim_seconds + 1)
    await handle.client.tick_once()  # claimed again: the post is found, not made again
    assert len(posts(world)) == 1
    assert await service.repo.season_posts_due([world.guild.id], lease() + 10**6) == []
