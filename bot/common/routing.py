"""Which feature handles a click: the component router.

Every button and select menu the bot ever sent is one of the two dynamic component classes
(:mod:`bot.common.components`); their callbacks hand the decoded custom id to the client's
``components``, a :class:`ComponentRouter`. It reads the chosen option of a select menu,
and hands the action to the feature that registered the custom id's scope (board matches,
Leiff tables, challenges), inside the one error handler.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Mapping
from typing import Any

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

    async def on_form(self, interaction: discord.Interaction, form: ComponentId, text: str) -> None:
        """A submitted modal whose custom id is one of ours: its action followed by the
        text typed into it goes to the scope's handler, like a click. Every submission
        comes this way, also of a form opened by a process before a restart (discord.py
        knows only the modals its own process opened)."""

        async def run(responder: Responder) -> None:
            handler = self._routes.get(form.scope)
            if handler is None:
                raise UserFacingError("bot.error.button_unused")
            await handler(responder, form.target, form.version, f"{form.action} {text}")

        await self.errors.run(interaction, run)


def form_text(data: Mapping[str, Any]) -> str:
    """The text typed into a submitted modal's (first) field. Fields come in action rows,
    or in labels (Discord's newer layout)."""
    for row in data.get("components") or []:
        for field in row.get("components") or [row.get("component") or {}]:
            if "value" in field:
                return str(field.get("value") or "")
    return ""
