"""A local Discord for end-to-end tests: the real discord.py client connects to it over loopback.

A development package beside the product, used by the tests and the end-to-end benchmarks
(``bench/``) alike; the wheel does not carry it and no product module imports it. Start with ``DiscordSimulator`` (an async context manager) or the ``discord_sim`` /
``sim_world`` fixtures from ``discord_sim.fixtures``; see docs/discord-simulator.md.
"""

from .harness import BotFactory, BotHandle, DiscordSimulator, NoBotConnected, World
from .interactions import (
    CommandInputError,
    InteractionNotAllowed,
    InteractionTimeout,
    SimInteraction,
    SimModal,
)
from .models import (
    SimAttachment,
    SimButton,
    SimChannel,
    SimGuild,
    SimMember,
    SimMessage,
    SimRole,
    SimSelect,
    SimSelectOption,
    SimUser,
)
from .ratelimits import RouteFault
from .state import RequestRecord

__all__ = [
    "BotFactory",
    "BotHandle",
    "CommandInputError",
    "DiscordSimulator",
    "InteractionNotAllowed",
    "InteractionTimeout",
    "NoBotConnected",
    "RequestRecord",
    "RouteFault",
    "SimAttachment",
    "SimButton",
    "SimChannel",
    "SimGuild",
    "SimInteraction",
    "SimMember",
    "SimMessage",
    "SimModal",
    "SimRole",
    "SimSelect",
    "SimSelectOption",
    "SimUser",
    "World",
]
