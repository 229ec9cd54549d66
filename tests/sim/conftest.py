"""Fixtures for the simulator's own tests: the simulator, its standard world, the toy bot."""

from __future__ import annotations

import pytest

from discord_sim.fixtures import discord_sim, sim_world  # noqa: F401

from .toy_bot import Recorder


@pytest.fixture
def recorder() -> Recorder:
    return Recorder()
