"""The Leiff tables feature: the lobby's and the table's buttons, the hand's controls, the
Klatschtante's rule form, and **Show my hand** for players whose DMs are closed.

A lobby is opened by ``/play game:Leiff`` (:meth:`LeiffTables.start`); every click after
that is one service call whose update goes to delivery.
"""

from __future__ import annotations

from typing import Any

import discord
from discord import app_commands

from bot.common.components import Choice
from bot.common.context import Context
from bot.common.custom_ids import (
    ADD_BOT,
    FORM,
    LEAVE_CONFIRMED,
    LEAVE_TABLE,
    LEIFF,
    PLAY_AGAIN,
    PROMPT,
    REMOVE_BOT,
    SHOW_HAND,
    TRADE_BACK,
    TRADE_FIRST,
    make_id,
)
from bot.common.errors import ErrorHandler, UserFacingError
from bot.common.outgoing import Outgoing
from bot.common.responder import Responder
from bot.common.routing import ComponentRouter
from bot.common.translator import command_text
from bot.delivery.delivery import Delivery
from bot.features.game_features import GameFeature, PlayRequest
from bot.features.leiff_tables.messages import LeiffMessages
from engine import get_spec
from engine.leiff.actions import OUT_OF_TURN_KINDS
from engine.spec import GameKind
from i18n import N_, language_for, translate
from matchcore.service import StaleVersion
from matchcore.service.results import MatchInfo

# Matching, catching and penalties are judged against the pile as it is when they arrive
# (the rules say so), so they carry no version; so does dealing the next round.
OUT_OF_TURN = OUT_OF_TURN_KINDS | {"next"}


class RuleModal(discord.ui.Modal):
    """Free text for the Klatschtante's table rule; submitting plays ``rule TEXT``. Its
    title and label are in the language of the member who opens it.

    Its custom id is one of ours (``lb|f|<match>|<version>|~form:rule``): the client hands
    every submission to the router (:meth:`ComponentRouter.on_form`), so a form opened
    before a restart is played by the next process like any old button. The modal object
    only draws the form."""

    def __init__(self, match_id: int, version: int, suggestion: str, language: str) -> None:
        super().__init__(
            title=translate(language, "bot.leiff.rule_form.title"),
            timeout=600,
            custom_id=make_id(LEIFF, match_id, version, f"{FORM}rule"),
        )
        self.rule: discord.ui.TextInput[RuleModal] = discord.ui.TextInput(
            label=translate(language, "bot.leiff.rule_form.label"), min_length=1, max_length=100
        )
        self.add_item(self.rule)
        self.rule.default = suggestion[:100] or None

    async def on_submit(self, interaction: discord.Interaction) -> None:
        """Nothing here: the router plays it (see the class)."""


class LeiffTables(GameFeature):
    """Leiff lobbies and tables: their buttons, forms, messages and ``/leave``."""

    def __init__(self, context: Context, delivery: Delivery, errors: ErrorHandler) -> None:
        super().__init__(context, delivery, errors)
        self.messages = LeiffMessages(context, delivery.records)

    def register(self, router: ComponentRouter) -> None:
        router.route(LEIFF, self._click)
        self.delivery.register(GameKind.CARDS.value, self.messages)

    def commands(self) -> list[app_commands.Command[Any, ..., None]]:
        """``/leave``: what the hand's **Leave the table** button does (and the lobby's
        **Leave**), typed in the table's channel. A table is opened with ``/play`` and
        played with buttons."""
        feature = self

        @app_commands.command(
            name=command_text("command.leave.name"),
            description=command_text("command.leave.description"),
        )
        @app_commands.rename(table=command_text("command.option.table"))
        @app_commands.describe(table=command_text("command.leave.table"))
        @app_commands.guild_only()
        async def leave_command(
            interaction: discord.Interaction, table: app_commands.Range[int, 1] | None = None
        ) -> None:
            async def run(responder: Responder) -> None:
                await feature.leave_by_command(interaction, responder, table)

            await feature.errors.run(interaction, run)

        @leave_command.autocomplete("table")
        async def leave_table_autocomplete(
            interaction: discord.Interaction, current: str
        ) -> list[app_commands.Choice[int]]:
            language = language_for(interaction.locale)
            typed = "".join(str(current).split()).lstrip("#")
            tables = await feature._my_tables_here(interaction)
            return [
                app_commands.Choice(name=feature._table_label(language, t)[:100], value=t.id)
                for t in tables
                if not typed or typed in str(t.id)
            ][:25]

        return [leave_command]

    # ---- /leave ----------------------------------------------------------------------
    async def _my_tables_here(self, interaction: discord.Interaction) -> list[MatchInfo]:
        """The caller's Leiff tables and lobbies in this channel that they have not left."""
        if interaction.guild_id is None:
            return []
        user_id = interaction.user.id
        return [
            match
            for match in await self.service.user_matches(user_id, interaction.guild_id)
            if get_spec(match.game).kind is GameKind.CARDS
            and interaction.channel_id in (match.thread_id, match.channel_id)
            and any(s.user_id == user_id and not s.removed for s in match.seats)
        ]

    @staticmethod
    def _table_label(language: str, match: MatchInfo) -> str:
        if match.status == "lobby":
            key = N_("bot.leiff.leave.lobby_label")
        else:
            key = N_("bot.leiff.leave.label")
        return translate(language, key, table=match.id)

    async def leave_by_command(
        self, interaction: discord.Interaction, responder: Responder, table: int | None
    ) -> None:
        """``/leave [table]``: a running table asks first, as its button does (the answer
        carries the same **Yes, leave the table**); a lobby is left at once, as with its
        **Leave** button. Without ``table``, the caller's only table here; with several, it
        names them and leaves none: leaving never guesses."""
        mine = await self._my_tables_here(interaction)
        if table is not None:
            chosen = next((m for m in mine if m.id == table), None)
            if chosen is None:
                raise UserFacingError("bot.leiff.leave.not_yours", table=table)
        elif not mine:
            raise UserFacingError("bot.leiff.leave.none_here")
        elif len(mine) > 1:
            labels = [self._table_label(responder.language, m) for m in mine]
            raise UserFacingError("bot.leiff.leave.which", tables=labels)
        else:
            chosen = mine[0]
        if chosen.status == "lobby":
            update = await self.service.leave_lobby(chosen.id, responder.user_id, version=None)
            await responder.private(
                translate(responder.language, "bot.leiff.leave.lobby_done", table=chosen.id)
            )
            await self.delivery.publish(update)
            return
        await self._ask_to_leave(responder, chosen.id)

    # ---- opening a table (from /play) --------------------------------------------------
    async def start(self, request: PlayRequest) -> None:
        """A lobby anyone may join; bots are seated from the lobby, not by options."""
        if request.level is not None:
            raise UserFacingError("bot.leiff.error.no_level")
        if request.opponent is not None:
            raise UserFacingError("bot.leiff.error.no_opponent")
        if request.size is not None:
            raise UserFacingError("bot.leiff.error.no_size")
        update = await self.service.open_lobby(
            request.guild_id,
            request.channel_id,
            request.responder.user_id,
            options=request.options or None,
            time_control=request.time_control,
        )
        await self.delivery.publish(update, request.responder)

    # ---- clicks --------------------------------------------------------------------
    async def _click(self, responder: Responder, match_id: int, version: int, action: str) -> None:
        user_id = responder.user_id
        if action == SHOW_HAND:
            await self._show_hand(responder, match_id)
            return
        if action.startswith(PROMPT):
            await self._open_rule_modal(responder, match_id, version)
            return
        if action.startswith(FORM):
            await self._submit_rule(responder, match_id, version, action[len(FORM) :])
            return
        if action.startswith(TRADE_FIRST) or action == TRADE_BACK:
            await self._trade_pick(responder, match_id, action)
            return
        if action == LEAVE_TABLE:
            await self._ask_to_leave(responder, match_id)
            return
        if action == LEAVE_CONFIRMED:
            await self._leave(responder, match_id)
            return
        if action == PLAY_AGAIN:
            await self._play_again(responder, match_id)
            return
        if action == "join":
            update = await self.service.join_lobby(match_id, user_id, version=None)
        elif action == "leave":
            update = await self.service.leave_lobby(match_id, user_id, version=None)
        elif action == "start":
            update = await self.service.start_lobby(match_id, user_id, version=None)
        elif action == ADD_BOT:
            update = await self.service.add_bot_seat(match_id, user_id, version=None)
        elif action == REMOVE_BOT:
            update = await self.service.remove_bot_seat(match_id, user_id, version=None)
        else:
            out_of_turn = action.split(" ", 1)[0] in OUT_OF_TURN
            try:
                update = await self.service.leiff_action(
                    match_id, user_id, action, version=None if out_of_turn else version
                )
            except StaleVersion:
                if responder.origin_is_private:  # bring the outdated hand message up to date
                    await self._refresh_hand(responder, match_id)
                raise
        await self.delivery.publish(update, responder)

    async def _play_again(self, responder: Responder, match_id: int) -> None:
        """**Play again** on a finished table: the lobby that plays it again is opened (or
        joined) and posted in the channel as a message of its own; the finished table's
        message keeps its button for the other players, and the clicker hears privately
        where they sit."""
        update = await self.service.play_again(match_id, responder.user_id)
        table = update.match.id if update.match is not None else match_id
        key = (
            N_("bot.leiff.again.opened")
            if update.kind == "lobby_again"
            else N_("bot.leiff.again.joined")
        )
        await responder.private(translate(responder.language, key, table=table))
        await self.delivery.publish(update)

    async def _ask_to_leave(self, responder: Responder, match_id: int) -> None:
        """Leaving a running table is for good: ask first, privately."""
        language = responder.language
        confirm = Outgoing(
            translate(language, "bot.leiff.leave.confirm", table=match_id),
            choices=[
                Choice(
                    LEAVE_CONFIRMED,
                    translate(language, "bot.leiff.leave.yes"),
                    discord.ButtonStyle.danger,
                )
            ],
            scope=LEIFF,
            target=match_id,
            language=language,
        )
        await responder.private(**confirm.send_kwargs())

    async def _leave(self, responder: Responder, match_id: int) -> None:
        """The player confirmed: a bot plays their hand from now on (at two players the
        other wins). The confirmation becomes the answer; the table message and the
        player's DM (its controls gone) are updated as after any step."""
        update = await self.service.resign(match_id, responder.user_id)
        done = translate(responder.language, "bot.leiff.leave.done", table=match_id)
        if not await responder.update_origin(content=done, view=None):
            await responder.private(done)
        await self.delivery.publish(update)

    async def _hand_outgoing(
        self, match_id: int, user_id: int, language: str, trade_from: str | None = None
    ) -> tuple[Any, Outgoing]:
        update = await self.service.current(match_id, for_user=user_id)
        match = update.match
        if match is None or get_spec(match.game).kind is not GameKind.CARDS:
            raise UserFacingError("bot.leiff.error.not_a_table")
        if user_id not in match.user_ids:
            raise UserFacingError("bot.leiff.error.not_at_table")
        if match.status == "lobby":
            raise UserFacingError("bot.leiff.error.not_started")
        names = await self.context.names.seat_names(match)
        return match, await self.messages.hand_message(
            update, user_id, names, language, trade_from=trade_from
        )

    async def _show_hand(self, responder: Responder, match_id: int) -> None:
        match, outgoing = await self._hand_outgoing(match_id, responder.user_id, responder.language)
        # A player whose DMs refused us may have opened them since: try once more, and if
        # the hand gets through, it lives in their DMs again from now on.
        refused = await self.delivery.dms.refusal(responder.user_id) is not None
        if refused and await self.delivery.try_dm(
            match, responder.user_id, outgoing, refused_before=True
        ):
            await responder.private(translate(responder.language, "bot.leiff.dms_open_again"))
            return
        await responder.private(**outgoing.send_kwargs())

    async def _trade_pick(self, responder: Responder, match_id: int, action: str) -> None:
        """A 9 at a big table: the first card of the swap was picked (the hand message now
        offers the swaps of that card), or the player goes back to the whole hand. Nothing
        is played yet; the swap itself is an ordinary action, checked as any other."""
        first = action[len(TRADE_FIRST) :] if action.startswith(TRADE_FIRST) else None
        _, outgoing = await self._hand_outgoing(
            match_id, responder.user_id, responder.language, trade_from=first
        )
        if not await responder.update_origin(**outgoing.edit_kwargs()):
            await responder.private(**outgoing.send_kwargs())

    async def _refresh_hand(self, responder: Responder, match_id: int) -> None:
        """A stale click in a hand message: bring that message up to date."""
        try:
            _, outgoing = await self._hand_outgoing(match_id, responder.user_id, responder.language)
        except Exception:
            return
        await responder.update_origin(**outgoing.edit_kwargs())

    async def _open_rule_modal(self, responder: Responder, match_id: int, version: int) -> None:
        update = await self.service.current(match_id)
        actions = next((b.actions for b in update.buttons if b.for_user == responder.user_id), ())
        suggestion = next((a[len("rule ") :] for a in actions if a.startswith("rule ")), None)
        if suggestion is None:
            raise UserFacingError("bot.leiff.error.no_rule_now")
        await responder.modal(RuleModal(match_id, version, suggestion, responder.language))

    async def _submit_rule(
        self, responder: Responder, match_id: int, version: int, submitted: str
    ) -> None:
        """The rule form was sent (by this process or one before a restart): ``rule TEXT``."""
        kind, _, text = submitted.partition(" ")
        text = " ".join(text.split())
        if kind != "rule":
            raise UserFacingError("bot.error.button_unused")
        if not text:
            raise UserFacingError("bot.leiff.rule_form.empty")
        update = await self.service.leiff_action(
            match_id, responder.user_id, f"rule {text}", version=version
        )
        await self.delivery.publish(update, responder)
