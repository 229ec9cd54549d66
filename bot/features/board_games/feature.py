"""The board games feature: challenges, ``/move``, ``/resign`` and the board's buttons.

Every handler reads what the user asked for, makes one service call and hands the update
to delivery. Presentation-only helpers live here too: the autocomplete of ``/move``
(filtering the engine's legal moves by what was typed) and the capture menu (offered when
a typed cell could capture more than one tree).
"""

from __future__ import annotations

import dataclasses
import io
import re
from collections.abc import Awaitable, Callable
from typing import Any

import discord
from discord import app_commands

from bot.common.components import Choice, components
from bot.common.context import Context
from bot.common.custom_ids import (
    ABORT_CONFIRMED,
    ACTIVITY,
    BOARD,
    CHALLENGE,
    PLAY_ON,
    RESIGN_CONFIRMED,
)
from bot.common.errors import ErrorHandler, UserFacingError
from bot.common.names import excerpt
from bot.common.outgoing import Outgoing, full_sentence
from bot.common.responder import Responder
from bot.common.routing import ComponentRouter
from bot.common.themes import member_theme
from bot.common.translator import command_text
from bot.delivery.delivery import CHALLENGE as CHALLENGE_MESSAGES
from bot.delivery.delivery import Delivery
from bot.features.board_games.labels import KEEP
from bot.features.board_games.lookup import AUTOCOMPLETE_LIMIT, MatchLookup, Note
from bot.features.board_games.messages import BoardMessages, ChallengeMessages
from bot.features.game_features import GameFeature, PlayRequest
from engine import get_spec
from engine.board import BoardState
from engine.spec import GameKind
from i18n import N_, language_for, phrase, translate
from matchcore.service import IllegalAction, MatchOver, NotInMatch, StaleVersion
from matchcore.service.results import MatchInfo, Update
from wording.service_words import service_error

BOARD_SERVICE_ACTIONS = (
    "offer_draw",
    "accept_draw",
    "decline_draw",
    "ask_takeback",
    "accept_takeback",
    "decline_takeback",
)
# The board's buttons that end the match for the one who presses them: both ask first.
ENDING_ACTIONS = ("resign", "abort")
# What a typed move can be made of (cells, Lefe captures "e5xg6", Les pairs "e5+b2", words
# such as "pass"); anything else is refused before it reaches the game.
MOVE_TEXT = re.compile(r"[a-z0-9+ ]{1,20}")


class BoardGames(GameFeature):
    """Board matches and challenges: their commands, buttons and messages."""

    def __init__(self, context: Context, delivery: Delivery, errors: ErrorHandler) -> None:
        super().__init__(context, delivery, errors)
        self.lookup = MatchLookup(context)
        # the Review button of a finished board, /move's answer to an open puzzle (the
        # review feature's, set when the client builds its features)
        self.on_review: Callable[[Responder, int], Awaitable[None]] | None = None
        self.on_answer: Callable[[Responder, str], Awaitable[bool]] = _no_answer

    def register(self, router: ComponentRouter) -> None:
        router.route(BOARD, self._board_click)
        router.route(CHALLENGE, self._challenge_click)
        self.delivery.register(GameKind.BOARD.value, BoardMessages(self.context))
        self.delivery.register(CHALLENGE_MESSAGES, ChallengeMessages(self.context))

    # ---- starting a match (from /play) ------------------------------------------------
    async def start(self, request: PlayRequest) -> None:
        """A challenge to the opponent (or to anyone); against the bot, the match at once."""
        opponent = request.opponent
        me = self.context.client.user
        against_me = opponent is not None and me is not None and opponent.id == me.id
        if opponent is not None and opponent.bot and not against_me:
            raise UserFacingError("bot.challenge.error.other_bot")
        if request.level is not None and not against_me:
            raise UserFacingError("bot.challenge.error.level_needs_bot")
        update = await self.service.challenge(
            request.guild_id,
            request.channel_id,
            request.responder.user_id,
            request.game,
            opponent.id if opponent is not None else None,
            size=request.size,
            options=request.options or None,
            level=request.level,
            time_control=request.time_control,
        )
        await self.delivery.publish(update, request.responder)

    # ---- clicks --------------------------------------------------------------------
    async def _challenge_click(
        self, responder: Responder, challenge_id: int, version: int, action: str
    ) -> None:
        if action == ACTIVITY:
            await self._launch_activity(responder)
            return
        calls = {
            "accept": self.service.accept_challenge,
            "decline": self.service.decline_challenge,
            "cancel": self.service.cancel_challenge,
        }
        if action not in calls:
            raise UserFacingError("bot.error.button_unused")
        update = await calls[action](challenge_id, responder.user_id)
        await self.delivery.publish(update, responder)

    async def _board_click(
        self, responder: Responder, match_id: int, version: int, action: str
    ) -> None:
        user_id = responder.user_id
        if action == ACTIVITY:
            await self._launch_activity(responder)
            return
        if action == KEEP:
            await self._board_of_now(match_id, version)
            await responder.private(translate(responder.language, "bot.board.keep_explained"))
            return
        if action in ENDING_ACTIONS:
            await self._board_of_now(match_id, version)
            await self._ask_to_end(responder, match_id)
            return
        if action in (RESIGN_CONFIRMED, ABORT_CONFIRMED):
            await self._end(responder, match_id, version, abort=action == ABORT_CONFIRMED)
            return
        if action == PLAY_ON:
            said = translate(responder.language, "bot.board.end.play_on", match=match_id)
            if not await responder.update_origin(content=said, view=None):
                await responder.private(said)
            return
        if action == "review" and self.on_review is not None:
            await self.on_review(responder, match_id)
            return
        if action == "rematch":
            update = await self.service.rematch(match_id, user_id)
        elif action in BOARD_SERVICE_ACTIONS:
            update = await getattr(self.service, action)(match_id, user_id, version=version)
        else:
            update = await self.service.play(match_id, user_id, action, version=version)
        await self.delivery.publish(update, responder)

    async def _launch_activity(self, responder: Responder) -> None:
        """ "Play on the board": the Activity opens in this channel, where the page offers
        the channel's matches and the player's own (the web table; docs/activity.md)."""
        if not self.context.activity:
            raise UserFacingError("bot.error.button_unused")
        if not await responder.launch_activity():
            await responder.private(translate(responder.language, "bot.activity.not_launched"))

    async def _board_of_now(self, match_id: int, version: int) -> None:
        """A button that acts on the board as it is (the pie rule's Keep, Resign): refused
        on an older board, which keeps its buttons when a newer one is posted, as every
        move is (a finished or unknown match says so)."""
        match = await self.service.get_match(match_id)
        if match.status != "running":
            raise MatchOver()
        if version != match.version:
            raise StaleVersion()

    # ---- /move and /resign -----------------------------------------------------------
    async def move(
        self, interaction: discord.Interaction, text: str, match_id: int | None = None
    ) -> None:
        async def run(responder: Responder) -> None:
            try:
                match, note = await self.lookup.my_board_match(
                    interaction, responder.user_id, match_id, for_a_move=True
                )
            except UserFacingError:
                # no match of theirs to move in: a puzzle the member opened within the hour
                # takes the move as its answer (asked only now, so a move in a match costs
                # no statement more)
                if match_id is None and await self.on_answer(responder, " ".join(text.split())):
                    return
                raise
            move = " ".join(text.split()).lower()
            if not move:
                raise UserFacingError("bot.move.error.empty")
            if not MOVE_TEXT.fullmatch(move):
                # Quote only a short, safe excerpt: the reply must stay readable (and within
                # Discord's limit) whatever was typed.
                raise UserFacingError("bot.move.error.not_a_move", text=excerpt(text))
            try:
                update = await self.service.play(match.id, responder.user_id, move, version=None)
            except IllegalAction as error:
                # A bare Lefe cell that must capture one of several trees: offer the choice.
                language = responder.language
                captures = await self._capture_options(language, match, responder.user_id, move)
                if not captures:
                    reason = service_error(language, error)
                    refusal: Exception = error
                    if reason.startswith(move + " ") and not move[:1].isdigit():
                        # The rules quote what was typed first: keep it as typed, in quotes
                        # (not capitalised like the start of a sentence).
                        quoted = UserFacingError(
                            "bot.move.error.quoted", move=move, rest=reason[len(move) :]
                        )
                        reason, refusal = quoted.words(language), quoted
                    if await self._refuse_with_picture(responder, match, move, reason):
                        return
                    raise refusal from None
                view = components(
                    BOARD,
                    match.id,
                    match.version,
                    captures,
                    select_threshold=1,
                    language=language,
                )
                await responder.private(
                    translate(language, "bot.move.capture_which", move=move), view=view
                )
                return
            await self.delivery.publish(_with_note(update, note), responder)

        await self.errors.run(interaction, run)

    async def resign(self, interaction: discord.Interaction, match_id: int | None = None) -> None:
        """``/resign``: asks first, as the board's button does (the question names the
        match, so a member who plays several here sees which one it is about)."""

        async def run(responder: Responder) -> None:
            match, _ = await self.lookup.my_board_match(
                interaction, responder.user_id, match_id, for_a_move=False
            )
            await self._ask_to_end(responder, match.id)

        await self.errors.run(interaction, run)

    # ---- resigning and aborting: asked first -----------------------------------------
    async def _ask_to_end(self, responder: Responder, match_id: int) -> None:
        """A match of days must not end on one tap: ask privately. A player who has not
        moved yet is asked to abort instead (unrated: nobody wins or loses). The answer's
        buttons carry the match's version now: if the board moves on before the answer,
        Yes is refused and nothing ends on a question asked about another position."""
        match = await self.service.get_match(match_id)
        if match.status != "running":
            raise MatchOver()
        if responder.user_id not in match.human_ids:
            raise NotInMatch()
        abort = await self.service.may_abort(match_id, responder.user_id)
        language = responder.language
        if abort:
            question, yes, confirmed = (
                N_("bot.board.abort.confirm"),
                N_("bot.board.abort.yes"),
                ABORT_CONFIRMED,
            )
        else:
            question, yes, confirmed = (
                N_("bot.board.resign.confirm"),
                N_("bot.board.resign.yes"),
                RESIGN_CONFIRMED,
            )
        asked = Outgoing(
            translate(language, question, match=match_id),
            choices=[
                Choice(confirmed, translate(language, yes), discord.ButtonStyle.danger),
                Choice(PLAY_ON, translate(language, "bot.board.end.no")),
            ],
            scope=BOARD,
            target=match_id,
            version=match.version,
            language=language,
        )
        await responder.private(**asked.send_kwargs())

    async def _end(self, responder: Responder, match_id: int, version: int, *, abort: bool) -> None:
        """Yes: resign (or abort) at the version the question was asked at. The channel's
        new board is the click's own answer (no request beyond the callback); the question
        stays as it was, and a second Yes finds the match over."""
        call = self.service.abort if abort else self.service.resign
        update = await call(match_id, responder.user_id, version=version)
        responder.public_in_callback = True
        await self.delivery.publish(update, responder)

    async def _legal_moves(
        self, match: MatchInfo, user_id: int
    ) -> tuple[BoardState | None, list[str]]:
        """The stored state and its legal moves when it is the user's turn (else none)."""
        if user_id not in match.to_act:
            return None, []
        update = await self.service.current(match.id)
        state = next(
            (p.state for p in update.pictures if p.kind == "board" and p.state is not None), None
        )
        if state is None or state.outcome is not None:
            return state, []
        return state, list(state.legal_moves())

    async def _refuse_with_picture(
        self, responder: Responder, match: MatchInfo, move: str, reason: str
    ) -> bool:
        """Answer a refused move with the rules' reason and a picture of why (the stones
        the refusal is about marked on the board the player sees), when the refusal names
        stones; False when it does not (the sentence is answer enough)."""
        state, _ = await self._legal_moves(match, responder.user_id)
        if state is None or state.outcome is not None:
            return False
        names = await self.context.names.seat_names(match)
        theme = await member_theme(self.service, responder.user_id, match.guild_id)
        picture = await self.context.painter.refusal_png(
            state, move, names, responder.language, theme
        )
        if picture is None:
            return False
        await responder.private(
            full_sentence(reason),
            file=discord.File(io.BytesIO(picture), filename="refused.png"),
        )
        return True

    async def _capture_options(
        self, language: str, match: MatchInfo, user_id: int, move: str
    ) -> list[Choice]:
        """A move written short that the rules complete in more than one way (Lefe: a bare
        cell whose placement must capture one of several trees), as a menu; the spec's
        notation says how moves complete."""
        completion = get_spec(match.game).notation.completion
        if completion is None:
            return []
        _, legal = await self._legal_moves(match, user_id)
        if move in legal:
            return []
        captures = sorted(completion.complete(move, legal))
        if len(captures) < 2:
            return []
        return [
            Choice(
                m,
                _move_label(language, match.game, m),
                discord.ButtonStyle.primary,
                "capture",
                translate(language, "bot.move.capture_menu"),
            )
            for m in captures
        ]

    async def move_autocomplete(
        self, interaction: discord.Interaction, current: str
    ) -> list[app_commands.Choice[str]]:
        """The caller's legal moves in their board match here that start with what they
        typed (the match named by the ``match`` option, else the only one, else the only
        one where it is their turn)."""
        user_id = interaction.user.id
        matches = await self.lookup.board_matches_here(interaction, user_id)
        chosen = getattr(interaction.namespace, "match", None)
        if isinstance(chosen, int) and not isinstance(chosen, bool):
            matches = [m for m in matches if m.id == chosen]
        elif len(matches) > 1:
            matches = [m for m in matches if user_id in m.to_act]
        if len(matches) != 1:
            return []
        match = matches[0]
        _, legal = await self._legal_moves(match, interaction.user.id)
        typed = "".join(current.split()).lower()
        found = sorted((m for m in legal if m.startswith(typed)), key=_move_order)
        language = language_for(interaction.locale)
        return [
            app_commands.Choice(name=_move_label(language, match.game, m), value=m)
            for m in found[:AUTOCOMPLETE_LIMIT]
        ]

    # ---- the slash commands ----------------------------------------------------------
    def commands(self) -> list[app_commands.Command[Any, ..., None]]:
        feature = self

        @app_commands.command(
            name=command_text("command.move.name"),
            description=command_text("command.move.description"),
        )
        @app_commands.rename(
            cell=command_text("command.option.cell"), match=command_text("command.option.match")
        )
        @app_commands.describe(
            cell=command_text("command.move.cell"), match=command_text("command.move.match")
        )
        @app_commands.guild_only()
        async def move_command(
            interaction: discord.Interaction,
            cell: str,
            match: app_commands.Range[int, 1] | None = None,
        ) -> None:
            await feature.move(interaction, cell, match)

        @move_command.autocomplete("cell")
        async def move_autocomplete(
            interaction: discord.Interaction, current: str
        ) -> list[app_commands.Choice[str]]:
            return await feature.move_autocomplete(interaction, current)

        @move_command.autocomplete("match")
        async def move_match_autocomplete(
            interaction: discord.Interaction, current: str
        ) -> list[app_commands.Choice[int]]:
            return await feature.lookup.match_autocomplete(interaction, current)

        @app_commands.command(
            name=command_text("command.resign.name"),
            description=command_text("command.resign.description"),
        )
        @app_commands.rename(match=command_text("command.option.match"))
        @app_commands.describe(match=command_text("command.resign.match"))
        @app_commands.guild_only()
        async def resign_command(
            interaction: discord.Interaction, match: app_commands.Range[int, 1] | None = None
        ) -> None:
            await feature.resign(interaction, match)

        @resign_command.autocomplete("match")
        async def resign_match_autocomplete(
            interaction: discord.Interaction, current: str
        ) -> list[app_commands.Choice[int]]:
            return await feature.lookup.match_autocomplete(interaction, current)

        return [move_command, resign_command]


def _with_note(update: Update, note: Note | None) -> Update:
    """The update with one more line for the channel message (first, after the header)."""
    if note is None:
        return update
    return dataclasses.replace(update, notes=(note, *update.notes))


def _move_order(move: str) -> tuple[str, int, str]:
    column = move[:1]
    digits = "".join(ch for ch in move[1:3] if ch.isdigit())
    return (column, int(digits or 0), move)


def _move_label(language: str, game: str, move: str) -> str:
    """How a move reads in a list: the game's own words for it ("e5, capturing the tree at
    g6", "e5 then b2"), in ``language``."""
    return phrase(language, get_spec(game).describe_move(move))


async def _no_answer(responder: Responder, text: str) -> bool:
    """Without the puzzles feature, /move is always a move in a match."""
    return False
