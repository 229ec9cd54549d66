"""What the feature of each kind of game shares (board games, Leiff tables).

A :class:`GameFeature` stands on the shared parts (context, delivery, the one error
handler): it registers its clicks with the component router and its message builders with
delivery, and ``/play`` hands it a :class:`PlayRequest` for a game of its kind (a board
game becomes a challenge, Leiff a lobby). Its own slash commands, if any, come from
:meth:`GameFeature.commands`.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from dataclasses import dataclass
from typing import Any

import discord
from discord import app_commands

from bot.common.context import Context
from bot.common.errors import ErrorHandler
from bot.common.responder import Responder
from bot.common.routing import ComponentRouter
from bot.delivery.delivery import Delivery
from matchcore.service.protocol import GameService


@dataclass(frozen=True)
class PlayRequest:
    """A member's ``/play`` in a server channel, as its options were given."""

    interaction: discord.Interaction
    responder: Responder
    game: str
    opponent: discord.abc.User | None
    size: int | None
    options: dict[str, object]
    level: str | None
    time_control: str | None = None  # a code of matchcore.service.time_controls; None: the server's

    @property
    def guild_id(self) -> int:
        guild_id = self.interaction.guild_id
        assert guild_id is not None, "/play runs in servers only"
        return guild_id

    @property
    def channel_id(self) -> int:
        channel_id = self.interaction.channel_id
        assert channel_id is not None, "a server interaction has a channel"
        return channel_id


class GameFeature(ABC):
    """The Discord layer of one kind of game: its clicks, its messages, how it starts."""

    def __init__(self, context: Context, delivery: Delivery, errors: ErrorHandler) -> None:
        self.context = context
        self.delivery = delivery
        self.errors = errors

    @property
    def service(self) -> GameService:
        return self.context.service

    @abstractmethod
    def register(self, router: ComponentRouter) -> None:
        """Route the feature's custom ids to it and register its message builders."""

    @abstractmethod
    async def start(self, request: PlayRequest) -> None:
        """Start what ``/play`` asked for (the options that mean nothing here are refused)."""

    def commands(self) -> list[app_commands.Command[Any, ..., None]]:
        """The feature's own slash commands (none unless it says so)."""
        return []
