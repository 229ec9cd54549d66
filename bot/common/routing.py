"""Which feature handles a click: the component router.

Every button and select menu the bot ever sent is one of the two dynamic component classes
(:mod:`bot.common.components`); their callbacks hand the decoded custom id to the client's
``components``, a :class:`ComponentRouter`. It reads the chosen option of a select menu,
and hands the action to the feature that registered the custom id's scope (board matches,
Leiff tables, challenges), inside the one error handler.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable

import discord

from bot.common.custom_ids import PICK, ComponentId
from bot.common.errors import ErrorHandler, UserFacingError
from bot.common.responder import Responder

# (responder, target id, version drawn for, action) -> None
ClickHandler = Callable[[Responder, int, int, str], Awaitable[None]]


class ComponentRouter:
    """Scope of a custom id -> the feature's click handler."""

    def __init__(self, errors: ErrorHandler) -> None:
        self.errors = errors
        self._routes: dict[str, ClickHandler] = {}

    def route(self, scope: str, handler: ClickHandler) -> None:
        self._routes[scope] = handler

    async def on_component(
        self, interaction: discord.Interaction, component: ComponentId, values: tuple[str, ...]
    ) -> None:
        async def run(responder: Responder) -> None:
            action = component.action
            if action.startswith(PICK):
                if not values:
                    raise UserFacingError("bot.error.pick_an_option")
                action = values[0]
            handler = self._routes.get(component.scope)
            if handler is None:
                raise UserFacingError("bot.error.button_unused")
            await handler(responder, component.target, component.version, action)

        await self.errors.run(interaction, run)
