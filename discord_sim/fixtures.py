"""pytest fixtures for the simulator; import them into a conftest.py:

    from discord_sim.fixtures import discord_sim, sim_world  # noqa: F401

``discord_sim`` is a started, empty simulator (its bots, server and discord.py patches are
torn down after the test); ``sim_world`` populates it with the standard ``World``.
"""

from __future__ import annotations

from collections.abc import AsyncIterator

import pytest

from .harness import DiscordSimulator, World


@pytest.fixture
async def discord_sim() -> AsyncIterator[DiscordSimulator]:
    async with DiscordSimulator() as simulator:
        yield simulator


@pytest.fixture
def sim_world(discord_sim: DiscordSimulator) -> World:
    return discord_sim.populate()
