"""``/prefs``: a member's own preferences, the same on every server and in DMs.

- ``hints``: on or off (in the words of either language: on/off, an/aus, …): dots on the
  board picture where the member may play, while it is their
  turn. Without a choice they are on for a member's first
  :data:`~matchcore.service.preferences.HINT_GAMES` games of each game. The dots are drawn on
  the channel's board picture of that member's turn: where a stone may go is no secret in
  these games (everyone can work it out from the board), and the board message of their
  turn is the one they look at to choose a move; a private copy would cost a message per
  move, and Discord only lets the bot answer privately when the member acts.
- ``theme``: classic, night or paper (klassisch, Nacht, Papier): the colours of the
  pictures only the member sees (their
  Leiff hand in DMs or privately, tutorial pages, replays, refused moves); pictures in the
  channel keep the server's theme (``/settings theme``), since everybody sees them.

- ``turn_dms``: on or off (off by default): a DM when a daily match waits for the member,
  and a reminder before its deadline (:mod:`bot.delivery.turn_dms`).
- ``vacation``: days away (0 ends it): the member's daily clocks stop meanwhile, for at
  most the days a year each server allows (``/settings``); the boards of the matches
  waiting for them are shown again, saying it.

The switches and the theme are typed and read like the values of ``/settings`` (:mod:`bot.features.settings.
values`): the words of either language whatever the member's own, autocompleted in their
language with the current choice marked. Without options, ``/prefs`` shows what the member
chose and what the defaults are.
"""

from __future__ import annotations

from typing import Any

import discord
from discord import app_commands

from bot.common.components import Choice
from bot.common.context import Context
from bot.common.custom_ids import PREFS
from bot.common.errors import ErrorHandler, UserFacingError
from bot.common.outgoing import Outgoing
from bot.common.responder import Responder
from bot.common.routing import ComponentRouter
from bot.common.translator import command_text
from bot.delivery.delivery import Delivery
from bot.features.settings.suggestions import (
    Suggestion,
    switch_suggestions,
    theme_suggestions,
    within_limits,
)
from bot.features.settings.values import switch_from, theme_from, theme_name
from i18n import N_, language_for, translate
from i18n.typed import write_switch
from matchcore.records import MemberPreferences
from matchcore.service.preferences import HINT_GAMES, UNCHANGED
from matchcore.service.results import Update

# The reset button of /prefs, its confirmation, and "keep my choices".
RESET = "~reset"
RESET_CONFIRMED = "~reset!"
KEEP = "~keep"


class Preferences:
    """``/prefs [hints] [theme] [turn_dms] [vacation]``."""

    def __init__(self, context: Context, errors: ErrorHandler, delivery: Delivery) -> None:
        self.context = context
        self.errors = errors
        self.delivery = delivery

    async def prefs(
        self,
        interaction: discord.Interaction,
        hints: str | None,
        theme: str | None,
        turn_dms: str | None = None,
        vacation: int | None = None,
    ) -> None:
        """Show the member's preferences, or change those given (as typed)."""

        async def run(responder: Responder) -> None:
            service = self.context.service
            words = responder.language
            if hints is None and theme is None and turn_dms is None:
                chosen = await service.preferences(responder.user_id)
            else:
                hints_called = translate(words, "bot.prefs.hints.name")
                theme_called = translate(words, "bot.prefs.theme.name")
                dms_called = translate(words, "bot.prefs.turn_dms.name")
                chosen = await service.set_preferences(
                    responder.user_id,
                    hints=UNCHANGED if hints is None else switch_from(words, hints_called, hints),
                    theme=UNCHANGED if theme is None else theme_from(words, theme_called, theme),
                    turn_dms=(
                        UNCHANGED if turn_dms is None else switch_from(words, dms_called, turn_dms)
                    ),
                )
            updates: tuple[Update, ...] = ()
            if vacation is not None:
                change = await service.set_vacation(responder.user_id, vacation)
                chosen, updates = change.preferences, change.updates
            await responder.private(**self.shown(words, chosen).send_kwargs())
            # the boards of the matches waiting for them say it (the opponents see it)
            for update in updates:
                await self.delivery.publish_quietly(update)

        await self.errors.run(interaction, run)

    def shown(self, language: str, chosen: MemberPreferences, said: str = "") -> Outgoing:
        """The member's preferences as ``/prefs`` shows them, with a line ``said`` first
        (what was just done) and the button that resets them (asked first)."""
        lines = [said] if said else []
        lines.append(describe(language, chosen.hints, chosen.theme))
        lines.append(
            translate(
                language,
                N_("bot.prefs.turn_dms.on") if chosen.turn_dms else N_("bot.prefs.turn_dms.off"),
            )
        )
        away = chosen.vacation_until
        if away is not None and away > self.context.now():
            lines.append(translate(language, "bot.prefs.vacation.until", time=f"<t:{int(away)}:f>"))
        reset = Choice(RESET, translate(language, "bot.prefs.reset.button"))
        return self._page(language, chosen.user_id, "\n".join(lines), [reset])

    @staticmethod
    def _page(language: str, user_id: int, text: str, choices: list[Choice]) -> Outgoing:
        return Outgoing(text, choices=choices, scope=PREFS, target=user_id, language=language)

    def register(self, router: ComponentRouter) -> None:
        router.route(PREFS, self._click)

    async def _click(self, responder: Responder, user_id: int, _version: int, action: str) -> None:
        """The reset button of a ``/prefs`` answer (only its member sees it): asked, then
        done or not, each time in the same private message."""
        if user_id != responder.user_id or action not in (RESET, RESET_CONFIRMED, KEEP):
            raise UserFacingError("bot.error.button_unused")
        language = responder.language
        service = self.context.service
        said = ""
        if action == RESET:
            page = await self._question(language, await service.preferences(user_id))
        else:
            if action == RESET_CONFIRMED:
                # hints, theme and turn DMs: None is each one's default; a vacation stays
                # (it stops clocks: /prefs vacation:0 ends it, saying so on the boards)
                chosen = await service.set_preferences(
                    user_id, hints=None, theme=None, turn_dms=None
                )
                said = translate(language, "bot.prefs.reset.done")
            else:
                chosen = await service.preferences(user_id)
            page = self.shown(language, chosen, said)
        if not await responder.update_origin(**page.edit_kwargs()):
            await responder.private(**page.send_kwargs())

    async def _question(self, language: str, chosen: MemberPreferences) -> Outgoing:
        lines = [translate(language, "bot.prefs.reset.question")]
        lines.extend(describe(language, None, None).split("\n")[1:])  # the defaults
        lines.append(translate(language, "bot.prefs.turn_dms.off"))
        away = chosen.vacation_until
        if away is not None and away > self.context.now():
            lines.append(translate(language, "bot.prefs.reset.vacation_stays"))
        choices = [
            Choice(
                RESET_CONFIRMED,
                translate(language, "bot.prefs.reset.yes"),
                discord.ButtonStyle.danger,
            ),
            Choice(KEEP, translate(language, "bot.prefs.reset.no")),
        ]
        return self._page(language, chosen.user_id, "\n".join(lines), choices)

    async def suggest(
        self, interaction: discord.Interaction, option: str, typed: str
    ) -> list[app_commands.Choice[str]]:
        """The values of ``hints`` or ``theme`` that fit what was typed, the member's
        current choice marked."""
        language = language_for(interaction.locale)
        chosen = await self.context.service.preferences(interaction.user.id)
        found: list[Suggestion]
        if option == "hints":
            found = switch_suggestions(language, typed)
            current = None if chosen.hints is None else write_switch(language, chosen.hints)
        elif option == "turn_dms":
            found = switch_suggestions(language, typed)
            current = write_switch(language, bool(chosen.turn_dms))
        else:
            found = theme_suggestions(language, typed)
            current = None if chosen.theme is None else theme_name(language, chosen.theme)
        return [
            app_commands.Choice(name=name, value=value)
            for name, value in within_limits(language, found, current)
        ]

    def commands(self) -> list[app_commands.Command[Any, ..., None]]:
        feature = self

        @app_commands.command(
            name=command_text("command.prefs.name"),
            description=command_text("command.prefs.description"),
        )
        @app_commands.rename(
            hints=command_text("command.option.hints"),
            theme=command_text("command.option.theme"),
            turn_dms=command_text("command.option.turn_dms"),
            vacation=command_text("command.option.vacation"),
        )
        @app_commands.describe(
            hints=command_text("command.prefs.hints"),
            theme=command_text("command.prefs.theme"),
            turn_dms=command_text("command.prefs.turn_dms"),
            vacation=command_text("command.prefs.vacation"),
        )
        async def prefs_command(
            interaction: discord.Interaction,
            hints: str | None = None,
            theme: str | None = None,
            turn_dms: str | None = None,
            vacation: app_commands.Range[int, 0, 365] | None = None,
        ) -> None:
            await feature.prefs(interaction, hints, theme, turn_dms, vacation)

        @prefs_command.autocomplete("hints")
        async def prefs_hints_autocomplete(
            interaction: discord.Interaction, current: str
        ) -> list[app_commands.Choice[str]]:
            return await feature.suggest(interaction, "hints", current)

        @prefs_command.autocomplete("turn_dms")
        async def prefs_turn_dms_autocomplete(
            interaction: discord.Interaction, current: str
        ) -> list[app_commands.Choice[str]]:
            return await feature.suggest(interaction, "turn_dms", current)

        @prefs_command.autocomplete("theme")
        async def prefs_theme_autocomplete(
            interaction: discord.Interaction, current: str
        ) -> list[app_commands.Choice[str]]:
            return await feature.suggest(interaction, "theme", current)

        return [prefs_command]


def describe(language: str, hints: bool | None, theme: str | None) -> str:
    """What the member chose, each line with its default, in their language."""
    if hints is None:
        hint_line = translate(language, "bot.prefs.hints.default", games=HINT_GAMES)
    elif hints:
        hint_line = translate(language, "bot.prefs.hints.on")
    else:
        hint_line = translate(language, "bot.prefs.hints.off")
    if theme is None:
        theme_line = translate(language, "bot.prefs.theme.server")
    else:
        theme_line = translate(
            language, "bot.prefs.theme.chosen", theme=theme_name(language, theme)
        )
    return "\n".join((translate(language, "bot.prefs.title"), hint_line, theme_line))
