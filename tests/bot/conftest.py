"""Fixtures: a simulator with the standard world, a controllable clock, and bot factories.

Every bot instance is the real ``LeafBot`` on a real SQLite file in ``tmp_path``; a restart
builds a new instance on the same file, as a new process would.
"""

from __future__ import annotations

import itertools
import os
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from bot.app import LeafBot
from bot.settings import Settings
from discord_sim.harness import DiscordSimulator, World
from discord_sim.look import ENV as LOOK_ENV
from discord_sim.look import dump_messages

START_TIME = 1_800_000_000.0


class Clock:
    """The service's clock: tests move time forward explicitly."""

    def __init__(self, start: float = START_TIME) -> None:
        self.now = start

    def __call__(self) -> float:
        return self.now

    def advance(self, seconds: float) -> None:
        self.now += seconds


@pytest.fixture
def clock() -> Clock:
    return Clock()


#: How much faster the rate-limit windows run for a test marked ``compressed_rate_limits``.
COMPRESSED_WINDOWS = 0.05


@pytest.fixture
async def sim(request: pytest.FixtureRequest) -> Any:
    # Discord's real limits by default. A test that plays a whole game in one channel
    # (dozens of moves, each one edit of the channel's last board, 5 edits per 5 s) may
    # compress the windows: it checks the rules' flow, and real seconds would only make it
    # slow; the limits themselves are tested with real windows.
    compressed = request.node.get_closest_marker("compressed_rate_limits") is not None
    async with DiscordSimulator(
        rate_limit_time_scale=COMPRESSED_WINDOWS if compressed else 1.0
    ) as simulator:
        yield simulator
        if os.environ.get(LOOK_ENV):  # python -m discord_sim.look: pages to look at
            dump_messages(
                simulator,
                os.environ[LOOK_ENV],
                request.node.name,
                width=int(os.environ.get("SIM_LOOK_WIDTH", "360")),
                now=START_TIME,  # the service's clock starts there
            )
        late = [i.describe() for i in simulator.interactions if i.late_response]
        assert not late, f"answered after Discord's 3-second limit: {late}"


@pytest.fixture
def world(sim: DiscordSimulator) -> World:
    return sim.populate()


@pytest.fixture(params=["en", "de"])
def language(request: pytest.FixtureRequest, world: World) -> str:
    """A test that asks for ``language`` runs twice: in English, and on a German server
    whose members all use German clients (set before the bot starts)."""
    if request.param == "de":
        world.guild.preferred_locale = "de"
        for user in (world.admin, world.alice, world.bob, world.carol):
            user.locale = "de"
    return str(request.param)


@pytest.fixture
def database(tmp_path: Path) -> Path:
    return tmp_path / "leafbot.sqlite3"


@pytest.fixture
def make_bot(world: World, database: Path, clock: Clock) -> Callable[..., LeafBot]:
    """A factory of bot instances on the same database (a restart calls it again)."""
    seeds = itertools.count(1000)

    def factory(render_workers: int = 0, **service_options: Any) -> LeafBot:
        # pictures in threads: starting worker processes for every test would cost seconds
        settings = Settings(
            token="simulated",
            database_path=database,
            dev_guild_id=world.guild.id,
            render_workers=render_workers,
        )
        options = {"clock": clock, "seed_source": lambda: next(seeds), **service_options}
        return LeafBot(settings, service_options=options, tick_seconds=None)

    return factory


@pytest.fixture
def make_web_bot(world: World, database: Path, clock: Clock) -> Callable[..., LeafBot]:
    """A factory of bots that serve the web table too (on a free port), beside Discord."""

    def factory() -> LeafBot:
        settings = Settings(
            token="simulated",
            database_path=database,
            dev_guild_id=world.guild.id,
            render_workers=0,
            web_port=0,
        )
        return LeafBot(
            settings, service_options={"clock": clock}, tick_seconds=None, serve_web=True
        )

    return factory


@pytest.fixture
async def bot(sim: DiscordSimulator, make_bot: Callable[..., LeafBot]) -> Any:
    handle = await sim.start_bot(make_bot)
    yield handle
