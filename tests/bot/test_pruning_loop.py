"""The running bot prunes on its own: its clock loop calls the service's ``prune_due``
after each tick, with the retention its settings give (issue 31, point 10)."""

from __future__ import annotations

import asyncio
from pathlib import Path

from bot.app import LeafBot
from bot.settings import Settings
from matchcore.storage import MemberPreferences, open_repository
from tests.bot.conftest import START_TIME


async def test_the_clock_loop_prunes_what_its_settings_let_go(sim, world, database: Path, clock):
    repo = await open_repository(database)
    await repo.put_preferences(MemberPreferences(user_id=77, updated_at=START_TIME - 10))
    await repo.put_preferences(MemberPreferences(user_id=78, hints=True, updated_at=0.0))
    await repo.set_member_language(79, "de", START_TIME - 3 * 86_400)  # seen three days ago
    await repo.set_member_language(80, "de", START_TIME - 9 * 86_400)  # nine days ago
    await repo.close()

    def factory() -> LeafBot:
        settings = Settings(
            token="simulated",
            database_path=database,
            dev_guild_id=world.guild.id,
            render_workers=0,
            keep_member_languages_days=5,
        )
        return LeafBot(settings, service_options={"clock": clock}, tick_seconds=0.05)

    handle = await sim.start_bot(factory)
    service = handle.client.service
    # a pass goes table by table and may spread over several ticks: wait for both tables
    for _ in range(200):
        languages = await service.member_languages([79, 80])
        if languages == {79: "de"} and await service.repo.get_preferences(77) is None:
            break
        await asyncio.sleep(0.05)
    assert await service.member_languages([79, 80]) == {79: "de"}
    assert await service.repo.get_preferences(77) is None  # nothing chosen: no row
    assert (await service.repo.get_preferences(78)).hints is True
    await handle.stop()
