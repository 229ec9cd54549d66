"""The parts of the bot every feature and every shared helper works with.

One :class:`Context` per client: the Discord client itself, the match service (set once the
client's ``setup_hook`` has opened the database, or handed in by a test), the painter that
draws pictures off the event loop, the book of display names and who reads which language.
Features receive it when the client builds them; nothing reaches for the client's
attributes by name.
"""

from __future__ import annotations

import discord

from bot.common.languages import Languages
from bot.common.names import NameBook
from bot.common.pictures import Painter
from matchcore.service.protocol import GameService


class Context:
    """The client, its service, its painter, its names and its languages."""

    def __init__(
        self, client: discord.Client, painter: Painter, service: GameService | None = None
    ) -> None:
        self.client = client
        self.painter = painter
        self.names = NameBook(client)
        self.languages = Languages(client, self)
        self._service = service
        # Whether the Activity is configured (DISCORD_CLIENT_ID and DISCORD_CLIENT_SECRET):
        # boards then carry a "Play on the board" button that launches it.
        self.activity = False

    @property
    def service(self) -> GameService:
        if self._service is None:
            raise RuntimeError("the match service starts in the client's setup_hook")
        return self._service

    @service.setter
    def service(self, service: GameService) -> None:
        self._service = service

    @property
    def has_service(self) -> bool:
        return self._service is not None

    def now(self) -> float:
        """The service's clock (tests move it)."""
        return float(self.service.clock())
